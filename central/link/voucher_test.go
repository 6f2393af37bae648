package link_test

import (
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
)

func voucherState(t *testing.T, e *testenv.Env, number string) string {
	t.Helper()
	var s string
	if err := e.Server.DB().QueryRow(`SELECT state FROM vouchers WHERE number=?`, number).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// credited gives a client meters that say the cabinet took bills of
// that much: the central credit mirror then lets it issue vouchers.
func credited(bills engine.Money) func(*link.Config) {
	return func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return link.CreditMeters{BillsIn: bills, Credit: bills}, nil }
	}
}

func TestVoucherLifecycle(t *testing.T) {
	e := testenv.Start(t, func(cfg *server.Config) { cfg.VoucherValidity = 24 * time.Hour })
	a, b := e.Client("cab-1", credited(1_000_000)), e.Client("cab-2", nil)

	v, err := a.IssueVoucher(ctx(t), 1250, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Number) != 18 || !server.ValidNumber(v.Number) {
		t.Fatalf("validation number %q", v.Number)
	}
	again, err := a.IssueVoucher(ctx(t), 1250, 1)
	if err != nil || again.Number != v.Number {
		t.Fatalf("issue again: %v %v", again, err)
	}
	if _, err := a.IssueVoucher(ctx(t), 999, 1); link.Refusal(err) != refusal.VoucherConflict {
		t.Fatalf("same sequence, other amount: %v", err)
	}
	if e.Count("vouchers", "") != 1 {
		t.Fatal("a refused issue stored a voucher")
	}

	// Redeemed at another cabinet: a hold, an amount check, then redeemed once.
	h, err := b.RedeemVoucher(ctx(t), v.Number)
	if err != nil || h.Amount != 1250 {
		t.Fatalf("redeem: %+v %v", h, err)
	}
	if _, err := a.RedeemVoucher(ctx(t), v.Number); link.Refusal(err) != refusal.VoucherHeld {
		t.Fatalf("redeem while held elsewhere: %v", err)
	}
	if err := b.ConfirmRedeem(ctx(t), v.Number, h.Hold, 1200); link.Refusal(err) != refusal.VoucherAmount {
		t.Fatalf("confirm with another amount: %v", err)
	}
	if voucherState(t, e, v.Number) != "held" {
		t.Fatal("an amount mismatch changed the voucher")
	}
	if err := b.ConfirmRedeem(ctx(t), v.Number, h.Hold, 1250); err != nil {
		t.Fatal(err)
	}
	if err := b.ConfirmRedeem(ctx(t), v.Number, h.Hold, 1250); err != nil {
		t.Fatalf("confirm repeated: %v", err)
	}
	if _, err := a.RedeemVoucher(ctx(t), v.Number); link.Refusal(err) != refusal.VoucherRedeemed {
		t.Fatalf("redeem a redeemed voucher: %v", err)
	}

	// Cancel puts a voucher back.
	w, _ := a.IssueVoucher(ctx(t), 500, 2)
	h2, err := b.RedeemVoucher(ctx(t), w.Number)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CancelRedeem(ctx(t), w.Number, h2.Hold); err != nil {
		t.Fatal(err)
	}
	if voucherState(t, e, w.Number) != "issued" {
		t.Fatal("cancel did not release the hold")
	}

	// Unknown, malformed, expired.
	if _, err := a.RedeemVoucher(ctx(t), "000000000000000000"); link.Refusal(err) != refusal.VoucherUnknown {
		t.Fatalf("unknown voucher: %v", err)
	}
	if _, err := a.RedeemVoucher(ctx(t), "12345"); link.Refusal(err) != refusal.VoucherInvalid {
		t.Fatalf("malformed number: %v", err)
	}
	e.Clock.Advance(25 * time.Hour)
	if _, err := b.RedeemVoucher(ctx(t), w.Number); link.Refusal(err) != refusal.VoucherExpired {
		t.Fatalf("expired voucher: %v", err)
	}
	if voucherState(t, e, w.Number) != "issued" {
		t.Fatal("an expired redeem changed the voucher")
	}
}

// Two cabinets on two connections race to redeem the same vouchers: each
// voucher is redeemed exactly once.
func TestVoucherRaceRedeemedOnce(t *testing.T) {
	e := testenv.Start(t, nil)
	issuer := e.Client("cab-0", credited(1_000_000))
	racers := []*link.Client{e.Client("cab-1", nil), e.Client("cab-2", nil), e.Client("cab-3", nil)}
	const n = 40
	numbers := make([]string, n)
	for i := range numbers {
		v, err := issuer.IssueVoucher(ctx(t), 100+int64ToMoney(i), uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		numbers[i] = v.Number
	}
	wins := make([]int, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, num := range numbers {
				h, err := c.RedeemVoucher(ctx(t), num)
				if err != nil {
					r := link.Refusal(err)
					if r != refusal.VoucherHeld && r != refusal.VoucherRedeemed {
						t.Errorf("redeem: %v", err)
					}
					continue
				}
				if err := c.ConfirmRedeem(ctx(t), num, h.Hold, h.Amount); err != nil {
					t.Errorf("confirm a hold we got: %v", err)
					continue
				}
				mu.Lock()
				wins[i]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for i, w := range wins {
		if w != 1 {
			t.Errorf("voucher %d redeemed %d times", i, w)
		}
	}
	if got := e.Count("vouchers", "state='redeemed'"); got != n {
		t.Fatalf("%d vouchers redeemed, want %d", got, n)
	}
}

func int64ToMoney(i int) engine.Money { return engine.Money(i) }

// A hold that ran out (the cabinet vanished mid-redeem) lets another cabinet
// redeem; the first cabinet's late confirm is refused, so the voucher pays once.
func TestVoucherHoldExpiry(t *testing.T) {
	e := testenv.Start(t, func(cfg *server.Config) { cfg.HoldTimeout = time.Minute })
	a, b := e.Client("cab-1", credited(1_000_000)), e.Client("cab-2", nil)
	v, err := a.IssueVoucher(ctx(t), 700, 1)
	if err != nil {
		t.Fatal(err)
	}
	ha, err := a.RedeemVoucher(ctx(t), v.Number)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := a.RedeemVoucher(ctx(t), v.Number); err != nil || again.Hold != ha.Hold {
		t.Fatalf("the same cabinet asking again should get its hold back: %v", err)
	}
	e.Clock.Advance(2 * time.Minute)
	hb, err := b.RedeemVoucher(ctx(t), v.Number)
	if err != nil {
		t.Fatalf("redeem after the hold ran out: %v", err)
	}
	if err := a.ConfirmRedeem(ctx(t), v.Number, ha.Hold, 700); link.Refusal(err) != refusal.VoucherHold {
		t.Fatalf("late confirm on a lost hold: %v", err)
	}
	if err := b.ConfirmRedeem(ctx(t), v.Number, hb.Hold, 700); err != nil {
		t.Fatal(err)
	}
	if e.Count("vouchers", "state='redeemed'") != 1 {
		t.Fatal("voucher not redeemed once")
	}
}

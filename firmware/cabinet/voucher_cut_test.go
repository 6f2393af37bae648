package cabinet

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// cutAfterIssue is the central system with the power going at the worst
// instant of a cash-out: the voucher is issued and committed there, and
// its answer never reaches the cabinet (issued is closed, then the call
// waits for the cut).
type cutAfterIssue struct {
	Central
	once   sync.Once
	issued chan struct{}
}

func (c *cutAfterIssue) IssueVoucher(ctx context.Context, amount engine.Money, seq uint64) (*link.Voucher, error) {
	if _, err := c.Central.IssueVoucher(ctx, amount, seq); err != nil {
		return nil, err
	}
	c.once.Do(func() { close(c.issued) })
	<-ctx.Done()
	return nil, ctx.Err()
}

// cutAfterVoucherIssued cashes 100.00 out and cuts the power once the
// central system has issued the voucher, before its answer reaches the
// cabinet. The rig is stopped; start it again.
func cutAfterVoucherIssued(t *testing.T) *rig {
	t.Helper()
	cut := &cutAfterIssue{issued: make(chan struct{})}
	r := newRig(t, "demo", func(c *Config) { cut.Central = c.Central; c.Central = cut })
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.idle()
	r.insertNote(10000, 2)
	r.press(view.Collect)
	select {
	case <-cut.issued:
	case <-poll.After(10 * time.Second):
		t.Fatal("no voucher issued")
	}
	r.powerCut()
	return r
}

// voucherSettled waits until no cash-out is in progress and the cabinet
// is idle.
func (r *rig) voucherSettled(what string) *view.Snapshot {
	r.t.Helper()
	return r.until(what, 10*time.Millisecond, func(s *view.Snapshot) bool {
		busy := true
		r.cab.Do(func() { busy = r.cab.cashOut.voucher != nil })
		return !busy && s.Mode == view.ModeIdle
	})
}

// centralMatchesLedger: every voucher the central system holds issued for
// the cabinet is one the ledger debited (printed) or still holds pending,
// for the same amount, and the central system's credit mirror is the
// ledger's credit.
func centralMatchesLedger(t *testing.T, r *rig) {
	t.Helper()
	ctx := context.Background()
	issued, err := reports.Vouchers(ctx, r.central.Server.DB(), "", "issued", 100)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]int64{}
	for _, d := range r.led.DocsOut() {
		if d.Kind == ledger.DocVoucher && d.Result == ledger.DocPrinted {
			known[d.Number] = d.Amount
		}
	}
	for _, d := range r.led.PendingDocs() {
		if d.Kind == ledger.DocVoucher && d.Number != "" {
			known[d.Number] = d.Amount
		}
	}
	var outstanding int64
	for _, v := range issued {
		if v.Cabinet != "cab-1" {
			continue
		}
		outstanding += v.Amount
		if amt, ok := known[v.Number]; !ok || amt != v.Amount {
			t.Errorf("voucher %s of %d issued at the central system is on no ticket of the cabinet's ledger (ledger vouchers %v)", ledger.Mask(v.Number), v.Amount, known)
		}
	}
	var onPaper int64
	for _, a := range known {
		onPaper += a
	}
	if outstanding != onPaper {
		t.Errorf("central system's outstanding vouchers %d, the ledger's %d", outstanding, onPaper)
	}
	mirror, ok, err := r.central.Server.Mirror().Credit(ctx, "cab-1")
	if err != nil || !ok {
		t.Fatalf("mirror: %d %v %v", mirror, ok, err)
	}
	if got := r.credit(); mirror != int64(got) {
		t.Errorf("central credit mirror %d, ledger credit %d", mirror, got)
	}
}

// A power cut after the central system issued a voucher and before the
// ledger knew its number: after the restart the cash-out is finished with
// that same voucher (asked again under the same sequence, printed once,
// debited once), and a further cash-out, after a note changed the credit,
// is a voucher of its own. The central system never holds a voucher no
// ticket carries, and its credit mirror stays the ledger's credit.
func TestVoucherIssuedBeforeACutIsTheOneCashedOut(t *testing.T) {
	r := cutAfterVoucherIssued(t)

	r.start("demo")
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.voucherSettled("the cash-out resumed or abandoned")
	// A further cash-out, the voucher taken and the credit changed by a
	// note first.
	r.prn.TakeTicket()
	r.insertNote(2000, 2)
	r.press(view.Collect)
	r.cab.Do(func() {}) // the press is handled
	r.voucherSettled("the second cash-out")

	centralMatchesLedger(t, r)
	if c := r.credit(); c != 0 {
		t.Errorf("credit %d left on the cabinet after two cash-outs", c)
	}
	if got := r.meter(ledger.TicketsOutValue); got != 12000 {
		t.Errorf("tickets out %d, want 12000 (100.00 then 20.00)", got)
	}
	var amounts []int64
	for _, d := range r.prn.Printed {
		v, ok := d.(document.Voucher)
		if !ok {
			continue
		}
		if v.Duplicate {
			t.Errorf("voucher %s printed as a duplicate: it was never printed before", ledger.Mask(v.Validation))
		}
		amounts = append(amounts, v.Amount)
	}
	if len(amounts) != 2 || amounts[0] != 10000 || amounts[1] != 2000 {
		t.Errorf("printed vouchers of %v since the restart, want 10000 then 2000", amounts)
	}
}

// unreachable is a central system that answers no voucher request while
// down is set, as an unreachable one does after the link's retries.
type unreachable struct {
	Central
	down  atomic.Bool
	asked atomic.Int32
}

func (u *unreachable) IssueVoucher(ctx context.Context, amount engine.Money, seq uint64) (*link.Voucher, error) {
	u.asked.Add(1)
	if u.down.Load() {
		return nil, &link.UnavailableError{Attempts: 5, Err: errors.New("connection refused")}
	}
	return u.Central.IssueVoucher(ctx, amount, seq)
}

// restartUnreachable starts the cut cabinet again with its link down and
// the central system answering no voucher request, the printer online,
// and waits for the out-of-service screen.
func restartUnreachable(r *rig) *unreachable {
	r.t.Helper()
	u := &unreachable{}
	u.down.Store(true)
	r.start("demo", func(c *Config) { u.Central = c.Central; c.Central = u; c.LinkUp = false })
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.until("out of service", 10*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeOutOfService })
	return u
}

// The same cut, with the central system unreachable at the restart: the
// cash-out stays pending (out of service while the link is down, play and
// money in locked), is asked again when the link comes back and while no
// answer comes, and ends with the one voucher the central system issued.
func TestVoucherRequestedBeforeACutWaitsForAnUnreachableCentral(t *testing.T) {
	r := cutAfterVoucherIssued(t)
	u := restartUnreachable(r)
	pending := func() bool {
		var p bool
		r.cab.Do(func() { p = r.cab.cashOut.voucher != nil && r.cab.cashOut.voucher.phase == voucherAsking })
		return p
	}
	r.press(view.Start)
	r.cab.Do(func() {})
	if !pending() || r.credit() != 10000 || len(r.prn.Printed) != 0 || u.asked.Load() != 0 {
		t.Fatalf("link down: pending %v credit %d printed %d asked %d, want the request pending, asked of nobody", pending(), r.credit(), len(r.prn.Printed), u.asked.Load())
	}
	var round bool
	r.cab.Do(func() { round = r.cab.play.round != nil })
	if round {
		t.Fatal("a round started while the cash-out is pending")
	}

	r.cab.Post(LinkState{Up: true})
	r.until("asked at link-up", 10*time.Millisecond, func(*view.Snapshot) bool { return u.asked.Load() >= 1 })
	r.until("asked again", 500*time.Millisecond, func(*view.Snapshot) bool { return u.asked.Load() >= 2 })
	if s := r.cab.View(); !pending() || s.Mode != view.ModeCashout || r.credit() != 10000 || len(r.prn.Printed) != 0 {
		t.Fatalf("no answer: pending %v mode %s credit %d printed %d", pending(), s.Mode, r.credit(), len(r.prn.Printed))
	}
	u.down.Store(false)
	r.until("the cash-out finished", 500*time.Millisecond, func(s *view.Snapshot) bool { return !pending() && s.Mode == view.ModeIdle })
	r.voucherSettled("idle")
	centralMatchesLedger(t, r)
	if r.credit() != 0 || len(r.prn.Printed) != 1 {
		t.Fatalf("credit %d, %d printed, want the voucher printed once", r.credit(), len(r.prn.Printed))
	}
	if v, ok := r.prn.Printed[0].(document.Voucher); !ok || v.Amount != 10000 || v.Duplicate {
		t.Fatalf("printed %+v", r.prn.Printed[0])
	}
}

// A Hello while the voucher requested before the cut is not answered again
// sends no meters: the central system issued it, the ledger has no number
// of it, so the credit cannot be compared (a false MIRROR_DIFFERS in the
// crash harness, "Hello: cabinet credit 8160, central mirror 0"). Once the
// cash-out is finished the next Hello compares, and agrees.
func TestHelloWithAVoucherRequestedDoesNotCompare(t *testing.T) {
	r := cutAfterVoucherIssued(t)
	u := &unreachable{}
	u.down.Store(true)
	r.start("demo", func(c *Config) { u.Central = c.Central; c.Central = u })
	helloDoesNotDiffer(t, r, "with a voucher requested")
	u.down.Store(false)
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.until("the cash-out finished", 500*time.Millisecond, func(s *view.Snapshot) bool { return r.credit() == 0 && s.Mode == view.ModeIdle })
	if info, err := r.central.Client.Hello(t.Context()); err != nil || info.MirrorDiffers || info.MirrorCredit != 0 {
		t.Fatalf("Hello after the cash-out: %+v %v", info, err)
	}
}

// refusingVouchers is a central system that refuses every voucher.
type refusingVouchers struct{ Central }

func (refusingVouchers) IssueVoucher(context.Context, engine.Money, uint64) (*link.Voucher, error) {
	return nil, &link.RefusedError{Reason: string(refusal.VoucherAboveCredit), Message: "VOUCHER_ABOVE_CREDIT: test"}
}

// A refused request ends the cash-out at once: the central system issued
// nothing, so nothing stays pending, nothing is debited, play goes on, and
// the ledger says why (voucher_refused).
func TestRefusedVoucherRequestEndsTheCashOut(t *testing.T) {
	r := newRig(t, "demo", func(c *Config) { c.Central = refusingVouchers{c.Central} })
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.idle()
	r.insertNote(10000, 2)
	r.press(view.Collect)
	r.cab.Do(func() {})
	s := r.voucherSettled("the refused cash-out")
	if s.Message != view.MsgCashoutUnavailable || r.credit() != 10000 || len(r.led.PendingDocs()) != 0 || len(r.prn.Printed) != 0 {
		t.Fatalf("message %q credit %d pending %+v printed %d", s.Message, r.credit(), r.led.PendingDocs(), len(r.prn.Printed))
	}
	found := false
	for _, e := range r.led.Events(20) {
		found = found || e.Kind == "voucher_refused"
	}
	if !found {
		t.Fatal("no voucher_refused event")
	}
	r.press(view.Start)
	r.until("a round after the refusal", time.Millisecond, func(*view.Snapshot) bool { return r.credit() < 10000 })
}

// The attendant's way out of a voucher the central system never answered
// while it stays unreachable: the key shows the page (the amount, what
// happens to a number issued unseen), Start turns the request into a
// cancelled-credit handpay lockup and goes on as the key on it (the
// receipt, then paid: credit 0, counted as a cancelled-credit handpay).
// When the link is back, the Hello reports the request unprinted: the
// central system voids the voucher it had issued, holds no voucher that
// no ticket carries, and its mirror is the ledger's credit again.
func TestUnansweredVoucherPaidByHand(t *testing.T) {
	r := cutAfterVoucherIssued(t)
	restartUnreachable(r)
	r.press(view.Start) // no page yet: nothing happens
	r.cab.Post(Key{Name: "attendant", On: true})
	s := r.until("the attendant's page", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Menu != nil && s.Menu.Title == menuVoucherUnanswered
	})
	if s.Lockup != nil || r.credit() != 10000 || len(r.led.PendingDocs()) != 1 || s.Menu.Hint != hintVoucherUnanswered {
		t.Fatalf("the page changed something: lockup %+v credit %d pending %+v hint %q", s.Lockup, r.credit(), r.led.PendingDocs(), s.Menu.Hint)
	}
	// The link back meanwhile: the voucher is asked again, the page goes.
	r.cab.Post(LinkState{Up: true})
	r.until("the page gone with the link back", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu == nil })
	r.cab.Post(LinkState{Up: false})
	r.cab.Post(Key{Name: "attendant", On: false})
	r.cab.Post(Key{Name: "attendant", On: true})
	r.until("the page again", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Menu != nil && s.Menu.Title == menuVoucherUnanswered
	})
	r.press(view.Start)
	r.until("paid by hand", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil && r.credit() == 0 })
	r.cab.Post(Key{Name: "attendant", On: false})
	r.until("out of service, the cash-out done", time.Millisecond, func(s *view.Snapshot) bool {
		busy := true
		r.cab.Do(func() { busy = r.cab.cashOut.voucher != nil })
		return !busy && s.Menu == nil && s.Mode == view.ModeOutOfService
	})
	if got := r.meter(ledger.HandpayCancelledCredit); got != 10000 || r.meter(ledger.TicketsOutCount) != 0 {
		t.Fatalf("cancelled-credit handpay meter %d, tickets out %d", got, r.meter(ledger.TicketsOutCount))
	}
	receipts := 0
	for _, d := range r.printed() {
		if _, ok := d.(document.Voucher); ok {
			t.Fatalf("a voucher printed: %+v", d)
		}
		receipts++
	}
	if receipts != 1 {
		t.Fatalf("%d papers printed, want the handpay receipt", receipts)
	}
	var converted bool
	for _, e := range r.led.Events(20) {
		converted = converted || e.Kind == "voucher_to_handpay" && e.Amount == 10000
	}
	if !converted {
		t.Fatal("no voucher_to_handpay event")
	}
	if info, err := r.central.Client.Hello(t.Context()); err != nil || info.MirrorDiffers {
		t.Fatalf("Hello after the handpay: %+v %v", info, err)
	}
	centralMatchesLedger(t, r)
	voided, err := reports.Vouchers(t.Context(), r.central.Server.DB(), "", "void", 10)
	if err != nil || len(voided) != 1 || voided[0].Amount != 10000 {
		t.Fatalf("voided at the central system %+v %v, want the voucher of 100.00", voided, err)
	}
}

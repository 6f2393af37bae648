package link_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// The attacks of a client holding a copy of one cabinet's certificate and
// key, over real gRPC and TLS: each is refused, raised as an alarm (log
// line with the cabinet id, counted, stored) and changes nothing.

// logBuf collects the server's log lines.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startLogged is testenv.Start with the server's log kept.
func startLogged(t *testing.T, mod func(*server.Config)) (*testenv.Env, *logBuf) {
	lb := &logBuf{}
	e := testenv.Start(t, func(cfg *server.Config) {
		cfg.Log = slog.New(slog.NewTextHandler(lb, nil))
		if mod != nil {
			mod(cfg)
		}
	})
	return e, lb
}

// wantAlarm checks that cab raised n alarms of reason, each logged with
// the cabinet id and stored.
func wantAlarm(t *testing.T, e *testenv.Env, lb *logBuf, cab string, reason refusal.Reason, n int64) {
	t.Helper()
	if got := e.Server.Alarms().Count(cab)[string(reason)]; got != n {
		t.Fatalf("%s alarms of %s: %d, want %d (all: %v)", reason, cab, got, n, e.Server.Alarms().Count(cab))
	}
	line := "central alarm\" cabinet=" + cab + " reason=" + string(reason)
	if k := strings.Count(lb.String(), line); int64(k) != n {
		t.Fatalf("%d log lines %q, want %d:\n%s", k, line, n, lb.String())
	}
	if k := e.Count("alarms", "cabinet=? AND reason=?", cab, reason); int64(k) != n {
		t.Fatalf("%d stored alarms %s, want %d", k, reason, n)
	}
}

func refusedAs(t *testing.T, err error, reason refusal.Reason) {
	t.Helper()
	if link.Refusal(err) != reason {
		t.Fatalf("want %s, got %v", reason, err)
	}
}

// snapshot is what an attack must not change.
type snapshot struct {
	rounds, committed, risk, vouchers int
	stakes, wins                      int64
}

func snap(t *testing.T, e *testenv.Env, cab string) snapshot {
	t.Helper()
	s := snapshot{rounds: e.Count("rounds", "cabinet=?", cab), committed: e.Count("rounds", "cabinet=? AND committed_at IS NOT NULL", cab),
		risk: e.Count("risk_steps", "cabinet=?", cab), vouchers: e.Count("vouchers", "")}
	e.Server.DB().QueryRow(`SELECT stakes, wins FROM credit WHERE cabinet=?`, cab).Scan(&s.stakes, &s.wins)
	return s
}

func TestCopiedKeyCannotDrawAnotherRound(t *testing.T) {
	e, lb := startLogged(t, nil)
	cabinet := e.Client("cab-1", nil)
	thief := e.Client("cab-1", nil) // the same certificate and key, copied
	model := testenv.TheGame.ModelID()
	first, err := cabinet.RequestOutcome(ctx(t), 1, testenv.GameID, model, 10)
	if err != nil {
		t.Fatal(err)
	}
	before := snap(t, e, "cab-1")
	if before.stakes != 10 {
		t.Fatalf("stake booked at the draw: %d, want 10", before.stakes)
	}

	// While round 1 is open: no other round, not ahead, not at another stake.
	var drawn *link.RoundDrawnError
	_, err = thief.RequestOutcome(ctx(t), 2, testenv.GameID, model, 10)
	refusedAs(t, err, refusal.RoundOpen)
	if !errors.As(err, &drawn) || drawn.Open == nil || drawn.Open.Round != 1 || drawn.Committed {
		t.Fatalf("the refusal does not name the open round: %v", err)
	}
	_, err = thief.RequestOutcome(ctx(t), 1<<40, testenv.GameID, model, 10)
	refusedAs(t, err, refusal.RoundOpen)
	_, err = thief.RequestOutcome(ctx(t), 1, testenv.GameID, model, 50)
	refusedAs(t, err, refusal.RoundConflict)
	// Asking again for the open round returns it, as it is.
	if again, err := thief.RequestOutcome(ctx(t), 1, testenv.GameID, model, 10); err != nil || !bytes.Equal(again.Body, first.Body) {
		t.Fatalf("the open round asked again: %v", err)
	}
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("refused draws changed the store: %+v -> %+v", before, after)
	}
	wantAlarm(t, e, lb, "cab-1", refusal.RoundOpen, 2)
	wantAlarm(t, e, lb, "cab-1", refusal.RoundConflict, 1)

	// Settled, round 1 is followed only by a number above it, and not far.
	if err := cabinet.CommitOutcome(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	before = snap(t, e, "cab-1")
	_, err = thief.RequestOutcome(ctx(t), 1+server.MaxRoundGap+1, testenv.GameID, model, 10)
	refusedAs(t, err, refusal.RoundSequence)
	_, err = thief.RequestOutcome(ctx(t), 1<<62, testenv.GameID, model, 10)
	refusedAs(t, err, refusal.RoundSequence)
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("refused draws changed the store: %+v -> %+v", before, after)
	}
	wantAlarm(t, e, lb, "cab-1", refusal.RoundSequence, 2)

	// A refusal that draws nothing leaves its number unused (the cabinet
	// refunds it); the next number is drawn, the unused one never after.
	_, err = cabinet.RequestOutcome(ctx(t), 2, testenv.GameID, model, 7)
	refusedAs(t, err, refusal.BadStake)
	if _, err := cabinet.RequestOutcome(ctx(t), 3, testenv.GameID, model, 10); err != nil {
		t.Fatal(err)
	}
	if err := cabinet.CommitOutcome(ctx(t), 3); err != nil {
		t.Fatal(err)
	}
	_, err = thief.RequestOutcome(ctx(t), 2, testenv.GameID, model, 10)
	refusedAs(t, err, refusal.RoundSequence)
	if !errors.As(err, &drawn) || drawn.Open == nil || drawn.Open.Round != 3 || !drawn.Committed {
		t.Fatalf("the refusal does not name the latest round: %v", err)
	}

	// The thief draws the cabinet's next round first: the cabinet asking
	// for it at another stake is refused, told which round is drawn, and
	// nothing is drawn twice.
	stolen, err := thief.RequestOutcome(ctx(t), 4, testenv.GameID, model, 5)
	if err != nil {
		t.Fatal(err)
	}
	before = snap(t, e, "cab-1")
	_, err = cabinet.RequestOutcome(ctx(t), 4, testenv.GameID, model, 10)
	refusedAs(t, err, refusal.RoundConflict)
	if !errors.As(err, &drawn) || drawn.Open == nil || !bytes.Equal(drawn.Open.Body, stolen.Body) || drawn.Committed {
		t.Fatalf("the cabinet is not shown the round drawn for it: %v", err)
	}
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("refused draw changed the store: %+v -> %+v", before, after)
	}
	wantAlarm(t, e, lb, "cab-1", refusal.RoundConflict, 2)
	if e.Count("rounds", "cabinet='cab-1'") != 3 {
		t.Fatal("rounds stored")
	}
}

// Risk cards: one step at a time, in order, only on the open round's win.
func TestRiskOnlyForTheOpenRound(t *testing.T) {
	e, lb := startLogged(t, nil)
	c := e.Client("cab-1", nil)
	model := testenv.TheGame.ModelID()
	var win *link.Outcome
	for n := uint64(1); n < 200 && win == nil; n++ {
		o, err := c.RequestOutcome(ctx(t), n, testenv.GameID, model, 10)
		if err != nil {
			t.Fatal(err)
		}
		if o.Result.Total > 0 {
			win = o
			break
		}
		if err := c.CommitOutcome(ctx(t), n); err != nil {
			t.Fatal(err)
		}
	}
	if win == nil {
		t.Fatal("no win")
	}
	card, err := c.RequestRiskStep(ctx(t), win.Round, 1, engine.Red)
	if err != nil {
		t.Fatal(err)
	}
	s := snap(t, e, "cab-1")
	if want := int64(win.Result.Total) + int64(card.Step.After-card.Step.Before); s.wins != want {
		t.Fatalf("mirror wins %d, want %d", s.wins, want)
	}
	// Settled: no more cards for it, even the next step.
	if err := c.CommitOutcome(ctx(t), win.Round); err != nil {
		t.Fatal(err)
	}
	before := snap(t, e, "cab-1")
	_, err = c.RequestRiskStep(ctx(t), win.Round, 2, engine.Red)
	refusedAs(t, err, refusal.RiskNotOpen)
	// The card already drawn is still answered as it was.
	if again, err := c.RequestRiskStep(ctx(t), win.Round, 1, engine.Red); err != nil || !bytes.Equal(again.Body, card.Body) {
		t.Fatalf("a drawn card asked again: %v", err)
	}
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("a card refused on a settled round, or one asked again, changed the store: %+v -> %+v", before, after)
	}
	// A later round's win gives no card to an earlier one.
	if _, err := c.RequestOutcome(ctx(t), win.Round+1, testenv.GameID, model, 10); err != nil {
		t.Fatal(err)
	}
	before = snap(t, e, "cab-1")
	_, err = c.RequestRiskStep(ctx(t), win.Round, 2, engine.Red)
	refusedAs(t, err, refusal.RiskNotOpen)
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("refused cards changed the store: %+v -> %+v", before, after)
	}
	wantAlarm(t, e, lb, "cab-1", refusal.RiskNotOpen, 2)
}

// Disabled: no new round, no new Risk card, no voucher issued or redeemed;
// the open round may finish.
func TestDisabledCabinetOnlyFinishesItsOpenRound(t *testing.T) {
	e, lb := startLogged(t, nil)
	c := e.Client("cab-1", credited(100_000))
	other := e.Client("cab-2", credited(100_000))
	model := testenv.TheGame.ModelID()
	v, err := other.IssueVoucher(ctx(t), 500, 1)
	if err != nil {
		t.Fatal(err)
	}
	var win *link.Outcome
	for n := uint64(1); n < 200 && win == nil; n++ {
		o, err := c.RequestOutcome(ctx(t), n, testenv.GameID, model, 10)
		if err != nil {
			t.Fatal(err)
		}
		if o.Result.Total > 0 {
			win = o
			break
		}
		if err := c.CommitOutcome(ctx(t), n); err != nil {
			t.Fatal(err)
		}
	}
	if win == nil {
		t.Fatal("no win")
	}
	if err := e.Server.Cabinets().Disable(ctx(t), "cab-1", "audit"); err != nil {
		t.Fatal(err)
	}
	before := snap(t, e, "cab-1")
	_, err = c.RequestRiskStep(ctx(t), win.Round, 1, engine.Red)
	refusedAs(t, err, refusal.DisabledRisk)
	_, err = c.IssueVoucher(ctx(t), 100, 1)
	refusedAs(t, err, refusal.DisabledVoucher)
	_, err = c.RedeemVoucher(ctx(t), v.Number)
	refusedAs(t, err, refusal.DisabledVoucher)
	// The open round is still answered and settles.
	if again, err := c.RequestOutcome(ctx(t), win.Round, testenv.GameID, model, 10); err != nil || !bytes.Equal(again.Body, win.Body) {
		t.Fatalf("the open round while disabled: %v", err)
	}
	if err := c.CommitOutcome(ctx(t), win.Round); err != nil {
		t.Fatal(err)
	}
	_, err = c.RequestOutcome(ctx(t), win.Round+1, testenv.GameID, model, 10)
	refusedAs(t, err, refusal.CabinetDisabled)
	after := snap(t, e, "cab-1")
	before.committed++ // the open round finished
	if after != before || voucherState(t, e, v.Number) != "issued" {
		t.Fatalf("a disabled cabinet changed the store: %+v -> %+v", before, after)
	}
	wantAlarm(t, e, lb, "cab-1", refusal.DisabledRisk, 1)
	wantAlarm(t, e, lb, "cab-1", refusal.DisabledVoucher, 2)
}

// A voucher is never above the central mirror of the cabinet's credit.
func TestVoucherAboveMirroredCreditRefused(t *testing.T) {
	e, lb := startLogged(t, nil)
	var meters link.CreditMeters
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return meters, nil }
	})
	thief := e.Client("cab-1", nil) // a copy of the key reports nothing
	model := testenv.TheGame.ModelID()
	meters = link.CreditMeters{BillsIn: 1000, Credit: 1000}
	o, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, model, 10)
	if err != nil {
		t.Fatal(err)
	}
	meters.WinsToCredit = o.Result.Total
	if err := c.CommitOutcome(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	credit := 1000 - 10 + o.Result.Total
	if _, ok, _ := e.Server.Mirror().Credit(ctx(t), "cab-1"); ok {
		t.Fatal("a mirror without any meters reported")
	}
	before := snap(t, e, "cab-1")
	_, err = thief.IssueVoucher(ctx(t), 100_000_000_000, 1)
	refusedAs(t, err, refusal.CreditUnknown)
	_, err = c.IssueVoucher(ctx(t), credit+1, 1)
	refusedAs(t, err, refusal.VoucherAboveCredit)
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("refused vouchers changed the store: %+v -> %+v", before, after)
	}
	if _, ok, _ := e.Server.Mirror().Credit(ctx(t), "cab-1"); ok {
		t.Fatal("a refused voucher kept its meters")
	}
	wantAlarm(t, e, lb, "cab-1", refusal.CreditUnknown, 1)
	wantAlarm(t, e, lb, "cab-1", refusal.VoucherAboveCredit, 1)

	v, err := c.IssueVoucher(ctx(t), credit, 2)
	if err != nil {
		t.Fatal(err)
	}
	if mc, ok, _ := e.Server.Mirror().Credit(ctx(t), "cab-1"); mc != 0 || !ok {
		t.Fatalf("mirror %d after a voucher of all the credit", mc)
	}
	before = snap(t, e, "cab-1")
	_, err = c.IssueVoucher(ctx(t), 1, 3)
	refusedAs(t, err, refusal.VoucherAboveCredit)
	// Meters that go down are refused too: a copy claiming fewer wins
	// credited (or more notes then fewer) changes nothing.
	low := meters
	low.BillsIn = 0
	lowC := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return low, nil }
	})
	_, err = lowC.IssueVoucher(ctx(t), 1, 3)
	refusedAs(t, err, refusal.MetersDecreased)
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("refused vouchers changed the store: %+v -> %+v", before, after)
	}
	wantAlarm(t, e, lb, "cab-1", refusal.VoucherAboveCredit, 2)
	wantAlarm(t, e, lb, "cab-1", refusal.MetersDecreased, 1)
	// Redeemed elsewhere, the ticket's money is that cabinet's.
	other := e.Client("cab-2", credited(0))
	h, err := other.RedeemVoucher(ctx(t), v.Number)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.ConfirmRedeem(ctx(t), v.Number, h.Hold, credit); err != nil {
		t.Fatal(err)
	}
	if mc, _, _ := e.Server.Mirror().Credit(ctx(t), "cab-2"); mc != int64(credit) {
		t.Fatalf("cab-2's mirror %d after redeeming %d", mc, credit)
	}
	if _, err := other.IssueVoucher(ctx(t), credit, 1); err != nil {
		t.Fatal(err)
	}
}

// Hello reconciles the cabinet's meters with the mirror: a difference is
// an alarm at the central system and reported to the cabinet.
func TestHelloReconcilesTheMirror(t *testing.T) {
	e, lb := startLogged(t, nil)
	meters := link.CreditMeters{BillsIn: 500, Credit: 500}
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return meters, nil }
	})
	info, err := c.Hello(ctx(t))
	if err != nil || info.MirrorDiffers || info.MirrorCredit != 500 {
		t.Fatalf("hello: %+v %v", info, err)
	}
	meters.Credit = 800 // 300 the central system never heard of
	info, err = c.Hello(ctx(t))
	if err != nil || !info.MirrorDiffers || info.MirrorCredit != 500 {
		t.Fatalf("hello: %+v %v", info, err)
	}
	wantAlarm(t, e, lb, "cab-1", server.ReasonMirrorDiffers, 1)
}

// A ticket the cabinet credited but has not confirmed yet (a power cut
// between the two) is not in the mirror: a Hello meanwhile sends no meters
// and raises no MIRROR_DIFFERS; once confirmed the next Hello compares and
// agrees.
func TestHelloWithATicketToConfirmDoesNotCompare(t *testing.T) {
	e, lb := startLogged(t, nil)
	meters := link.CreditMeters{BillsIn: 1000, Credit: 1000}
	issuer := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return meters, nil }
	})
	v, err := issuer.IssueVoucher(ctx(t), 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	inMeters := link.CreditMeters{BillsIn: 0, Credit: 1000, TicketsToConfirm: 1000}
	c := e.Client("cab-2", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return inMeters, nil }
	})
	h, err := c.RedeemVoucher(ctx(t), v.Number)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Hello(ctx(t))
	if err != nil || info.MirrorDiffers {
		t.Fatalf("Hello with the ticket credited, unconfirmed: %+v %v", info, err)
	}
	wantAlarm(t, e, lb, "cab-2", server.ReasonMirrorDiffers, 0)
	if err := c.ConfirmRedeem(ctx(t), v.Number, h.Hold, 1000); err != nil {
		t.Fatal(err)
	}
	inMeters.TicketsToConfirm = 0
	if info, err := c.Hello(ctx(t)); err != nil || info.MirrorDiffers || info.MirrorCredit != 1000 {
		t.Fatalf("Hello after the confirm: %+v %v", info, err)
	}
}

// A voucher the cabinet reports as never printed is voided (its amount
// back in the mirror) and refused if it is ever presented; one reported
// unprinted after it was redeemed stays redeemed and is an alarm.
func TestUnprintedVoucherVoided(t *testing.T) {
	e, lb := startLogged(t, nil)
	meters := link.CreditMeters{BillsIn: 1000, Credit: 1000}
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return meters, nil }
	})
	other := e.Client("cab-2", credited(0))
	v, err := c.IssueVoucher(ctx(t), 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.IssueVoucher(ctx(t), 1000, 2)
	refusedAs(t, err, refusal.VoucherAboveCredit)
	meters.Unprinted = []uint64{1} // the printer jammed before the number reached paper
	v2, err := c.IssueVoucher(ctx(t), 1000, 2)
	if err != nil {
		t.Fatal(err)
	}
	if voucherState(t, e, v.Number) != "void" {
		t.Fatal("the unprinted voucher is not void")
	}
	_, err = other.RedeemVoucher(ctx(t), v.Number)
	refusedAs(t, err, refusal.VoucherVoid)
	wantAlarm(t, e, lb, "cab-2", refusal.VoucherVoid, 1)
	// Redeemed, then claimed unprinted: nothing changes but an alarm.
	h, err := other.RedeemVoucher(ctx(t), v2.Number)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.ConfirmRedeem(ctx(t), v2.Number, h.Hold, 1000); err != nil {
		t.Fatal(err)
	}
	meters.Unprinted = []uint64{1, 2}
	_, err = c.IssueVoucher(ctx(t), 1, 3)
	refusedAs(t, err, refusal.VoucherAboveCredit)
	if voucherState(t, e, v2.Number) != "redeemed" {
		t.Fatal("a redeemed voucher was voided")
	}
	wantAlarm(t, e, lb, "cab-1", server.ReasonUnprintedSuspect, 1)
	// Past the void window an unprinted voucher stays issued.
	meters.Unprinted = nil
	v3, err := other.IssueVoucher(ctx(t), 1000, 2)
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(server.UnprintedVoidWindow + 1)
	if _, err := e.Client("cab-2", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return link.CreditMeters{Unprinted: []uint64{2}}, nil }
	}).IssueVoucher(ctx(t), 1, 3); link.Refusal(err) != refusal.VoucherAboveCredit || voucherState(t, e, v3.Number) != "issued" {
		t.Fatalf("a voucher voided after the window: %v %s", err, voucherState(t, e, v3.Number))
	}
}

// Issuing a cabinet a new certificate revokes the old one: a copy of the
// old certificate and key is refused at the handshake, a connection made
// with it before is refused on its next call, and a revoked cabinet has
// no certificate at all.
func TestRevokedCertificateRefused(t *testing.T) {
	e, lb := startLogged(t, nil)
	old := e.Client("cab-1", nil)
	if _, err := old.Hello(ctx(t)); err != nil {
		t.Fatal(err)
	}
	cert, key := pki.CabinetPaths(e.PKI, "cab-1")
	copyDir := t.TempDir()
	for _, f := range []string{cert, key} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(copyDir, filepath.Base(f)), b, 0o600)
	}
	if _, _, err := mint.IssueCabinet(e.PKI, "cab-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	// The connection made with the old certificate: refused on its next call.
	_, err := old.Hello(ctx(t))
	refusedAs(t, err, refusal.Revoked)
	// A new connection with the copy: refused at the handshake.
	refusedBefore, _ := e.Server.Links().HandshakeRefusals()
	tc, err := pki.ClientTLS(filepath.Join(copyDir, "cab-1.pem"), filepath.Join(copyDir, "cab-1.key"), filepath.Join(e.PKI, pki.CACert), "localhost")
	if err != nil {
		t.Fatal(err)
	}
	copied := e.Client("cab-1", func(cfg *link.Config) { cfg.TLS, cfg.Retries = tc, 1 })
	_, err = copied.Hello(ctx(t))
	var ue *link.UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("the old certificate: %v", err)
	}
	n, last := e.Server.Links().HandshakeRefusals()
	var re *pki.RevokedError
	if n <= refusedBefore || !errors.As(last, &re) || re.Cabinet != "cab-1" {
		t.Fatalf("handshake refusals %d (was %d), last %v", n, refusedBefore, last)
	}
	if !strings.Contains(lb.String(), "TLS handshake refused") || !strings.Contains(lb.String(), `cabinet \"cab-1\" is not its registered certificate`) {
		t.Fatalf("not logged:\n%s", lb.String())
	}
	// The new certificate works; revoked, nothing of cab-1 does.
	if _, err := e.Client("cab-1", nil).Hello(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if err := pki.Revoke(e.PKI, "cab-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Client("cab-1", func(cfg *link.Config) { cfg.Retries = 1 }).Hello(ctx(t)); !errors.As(err, &ue) {
		t.Fatalf("a revoked cabinet: %v", err)
	}
	if e.Count("rounds", "") != 0 || e.Count("vouchers", "") != 0 {
		t.Fatal("the store changed")
	}
}

// The store fails closed, loudly: its database or WAL deleted while
// serving, the server stops answering (a round asked again is not
// answered from a store that is gone, nor drawn anew) and logs why; at
// the next start a missing or another store is refused.
func TestStoreDeletedFailsClosed(t *testing.T) {
	for _, victim := range []string{"", "-wal"} {
		t.Run("central.db"+victim, func(t *testing.T) {
			e, lb := startLogged(t, nil)
			c := e.Client("cab-1", func(cfg *link.Config) { cfg.Retries = 1 })
			model := testenv.TheGame.ModelID()
			first, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, model, 10)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(e.DB + victim); err != nil {
				t.Fatal(err)
			}
			var ue *link.UnavailableError
			for _, n := range []uint64{1, 2} {
				if o, err := c.RequestOutcome(ctx(t), n, testenv.GameID, model, 10); !errors.As(err, &ue) || !strings.Contains(err.Error(), string(refusal.StoreFailed)) {
					t.Fatalf("round %d answered from a deleted store: %v %v", n, o, err)
				}
			}
			if _, err := c.Hello(ctx(t)); !errors.As(err, &ue) {
				t.Fatalf("hello from a deleted store: %v", err)
			}
			if !strings.Contains(lb.String(), "central store failed") || !strings.Contains(lb.String(), "central.db"+victim) {
				t.Fatalf("not logged:\n%s", lb.String())
			}
			if err := e.Server.Check(ctx(t)); err == nil {
				t.Fatal("the health check passes on a deleted store")
			}
			if victim == "" {
				rescued, _ := filepath.Glob(e.DB + ".rescued-*")
				if len(rescued) != 1 || !strings.Contains(lb.String(), "copied to "+rescued[0]) {
					t.Fatalf("the deleted store was not rescued: %v", rescued)
				}
			} else if !strings.Contains(lb.String(), "checkpointed into") {
				t.Fatalf("the WAL's rounds were not checkpointed:\n%s", lb.String())
			}
			e.Server.Close()
			// Started again on what is left: never a new store that would
			// draw round 1 again with other bytes.
			s, err := server.New(e.Cfg)
			if victim == "" {
				if !errors.Is(err, server.ErrStoreMissing) {
					t.Fatalf("started on a deleted store: %v", err)
				}
				if _, err := os.Stat(e.DB); err == nil {
					t.Fatal("the refused start made a new empty store at the path")
				}
				return
			}
			// The WAL's rounds were saved in the database file: round 1
			// comes back as it was.
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var body []byte
			if err := s.DB().QueryRow(`SELECT body FROM rounds WHERE cabinet='cab-1' AND round=1`).Scan(&body); err != nil || !bytes.Equal(body, first.Body) {
				t.Fatalf("round 1 after the WAL was deleted: %v", err)
			}
		})
	}
}

// A ticket credited at the cabinet reaches the mirror with its
// ConfirmRedeem, sent after the credit: a voucher that only this ticket
// covers waits for it (UNAVAILABLE, retried), is issued once it came, and
// is never issued on the hold alone.
func TestVoucherWaitsForTicketConfirmation(t *testing.T) {
	e, lb := startLogged(t, nil)
	issuer := e.Client("cab-1", credited(500))
	v, err := issuer.IssueVoucher(ctx(t), 500, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := e.Client("cab-2", func(cfg *link.Config) {
		credited(0)(cfg)
		cfg.Retries, cfg.Backoff, cfg.MaxBackoff = 3, 100*time.Millisecond, 100*time.Millisecond
	})
	h, err := c.RedeemVoucher(ctx(t), v.Number)
	if err != nil {
		t.Fatal(err)
	}
	var ue *link.UnavailableError
	if _, err := c.IssueVoucher(ctx(t), 500, 1); !errors.As(err, &ue) || !strings.Contains(err.Error(), string(refusal.ConfirmPending)) {
		t.Fatalf("a voucher on a hold alone: %v", err)
	}
	if e.Count("vouchers", "cabinet='cab-2'") != 0 {
		t.Fatal("a voucher was issued on a hold")
	}
	// The confirmation is sent once the voucher asked below has been
	// refused once (CONFIRM_PENDING, a failed attempt the client retries):
	// it lands while the client retries, whatever the machine's speed.
	failed := c.Stats().Failures
	confirmed := make(chan error, 1)
	go func() {
		for deadline := time.Now().Add(poll.Scaled(10 * time.Second)); c.Stats().Failures == failed && time.Now().Before(deadline); {
			time.Sleep(poll.Every)
		}
		confirmed <- c.ConfirmRedeem(ctx(t), v.Number, h.Hold, 500)
	}()
	if _, err := c.IssueVoucher(ctx(t), 500, 1); err != nil {
		t.Fatalf("after the confirmation: %v", err)
	}
	if err := <-confirmed; err != nil {
		t.Fatalf("the confirmation: %v", err)
	}
	if n := e.Server.Alarms().Count("cab-2")[string(refusal.VoucherAboveCredit)]; n != 0 || strings.Contains(lb.String(), "reason=CONFIRM_PENDING") {
		t.Fatal("a pending confirmation raised an alarm")
	}
}

// Bounded work: an event batch or a message too large is refused whole
// (nothing stored) and logged with the cabinet id; a third Subscribe of
// one cabinet ends its oldest; connections beyond the limit wait.
func TestBoundedWork(t *testing.T) {
	e, lb := startLogged(t, func(cfg *server.Config) { cfg.MaxConnections = 2 })
	c := e.Client("cab-1", func(cfg *link.Config) { cfg.Retries = 1 })
	many := make([]link.Event, server.MaxEventsPerBatch+1)
	for i := range many {
		many[i] = link.Event{Seq: int64(i + 1), Kind: "k"}
	}
	err := c.ReportEvents(ctx(t), 1, many)
	refusedAs(t, err, refusal.BadRequest)
	if !strings.Contains(lb.String(), "report refused\" cabinet=cab-1") || e.Count("events", "") != 0 || e.Count("messages", "") != 0 {
		t.Fatalf("a too large batch: stored or not logged:\n%s", lb.String())
	}
	big := []link.Event{{Seq: 1, Kind: "k", Text: strings.Repeat("x", server.MaxMessageBytes)}}
	if err := c.ReportEvents(ctx(t), 2, big); err == nil || e.Count("events", "") != 0 {
		t.Fatalf("a message above %d bytes: %v", server.MaxMessageBytes, err)
	}
	if err := c.ReportEvents(ctx(t), 3, many[:server.MaxEventsPerBatch]); err != nil {
		t.Fatal(err)
	}
	// Connections: the limit is 2 (c holds one); a third waits until one closes.
	d := e.Client("cab-2", nil)
	if _, err := d.Hello(ctx(t)); err != nil {
		t.Fatal(err)
	}
	third := e.Client("cab-3", func(cfg *link.Config) { cfg.Retries, cfg.CallTimeout = 1, 300*time.Millisecond })
	if _, err := third.Hello(ctx(t)); err == nil {
		t.Fatal("a third connection was served beyond the limit")
	}
	if !strings.Contains(lb.String(), "connection limit reached") {
		t.Fatalf("the limit is not logged:\n%s", lb.String())
	}
	third.Close()
	d.Close()
	third2 := e.Client("cab-3", nil)
	if _, err := third2.Hello(ctx(t)); err != nil {
		t.Fatalf("after a connection closed: %v", err)
	}
}

// A cabinet has at most server.MaxSubscribers streams: a third ends the oldest.
func TestSubscribeStreamsPerCabinetBounded(t *testing.T) {
	e, lb := startLogged(t, nil)
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := 0; i < server.MaxSubscribers+1; i++ {
		c := e.Client("cab-1", nil)
		go c.Run(runCtx)
		waitNotice(t, c, func(n link.Notice) bool { return n.Command != nil })
	}
	poll.Until(t, 5*time.Second, "a stream ended", func() bool {
		return strings.Contains(lb.String(), "subscription ended: too many streams for the cabinet\" cabinet=cab-1")
	}, func() string { return "the log:\n" + lb.String() })
}

// A confirmation after the voucher expired, on a hold that lapsed, is
// refused: the voucher is not redeemed and no ticket money is booked.
func TestConfirmAfterExpiryOnLapsedHold(t *testing.T) {
	e := testenv.Start(t, func(cfg *server.Config) { cfg.VoucherValidity, cfg.HoldTimeout = time.Minute, 2*time.Minute })
	a, b := e.Client("cab-1", credited(1000)), e.Client("cab-2", credited(0))
	v, err := a.IssueVoucher(ctx(t), 700, 1)
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(59 * time.Second)
	h, err := b.RedeemVoucher(ctx(t), v.Number)
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2*time.Minute + time.Second)
	err = b.ConfirmRedeem(ctx(t), v.Number, h.Hold, 700)
	refusedAs(t, err, refusal.VoucherExpired)
	if voucherState(t, e, v.Number) == "redeemed" {
		t.Fatal("redeemed after expiry on a lapsed hold")
	}
	if mc, _, _ := e.Server.Mirror().Credit(ctx(t), "cab-2"); mc != 0 {
		t.Fatalf("ticket money booked: %d", mc)
	}
}

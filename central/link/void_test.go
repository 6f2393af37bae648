package link_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
)

// A drawn round the cabinet refuses stays open, its stake booked, with an
// alarm (the cabinet's outcome_refused event); only the operator's void
// settles it: the stake back in the mirror, an audit row with who and
// why, and the round answered ROUND_VOID at any stake, never its bytes.
func TestRefusedRoundWaitsForTheVoid(t *testing.T) {
	e, lb := startLogged(t, nil)
	meters := link.CreditMeters{BillsIn: 500, Credit: 500}
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return meters, nil }
	})
	if _, err := c.Hello(ctx(t)); err != nil {
		t.Fatal(err)
	}
	model := testenv.TheGame.ModelID()
	if _, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, model, 10); err != nil {
		t.Fatal(err)
	}
	if err := c.ReportEvents(ctx(t), 1, []link.Event{{Seq: 1, At: e.Clock.Now(), Kind: server.EventOutcomeRefused, Text: "round 1: signature", Amount: 10}}); err != nil {
		t.Fatal(err)
	}
	wantAlarm(t, e, lb, "cab-1", server.ReasonOutcomeRefused, 1)
	// Held open: no next round, no refund anywhere.
	_, err := c.RequestOutcome(ctx(t), 2, testenv.GameID, model, 10)
	refusedAs(t, err, refusal.RoundOpen)
	mirror := func() int64 {
		m, _, err := e.Server.Mirror().Credit(ctx(t), "cab-1")
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := mirror(); m != 490 {
		t.Fatalf("mirror %d with round 1's stake booked, want 490", m)
	}

	before := snap(t, e, "cab-1")
	for _, bad := range []struct {
		cab     string
		n       uint64
		by, why string
		want    error
	}{{"cab-l", 1, "op", "typo", server.ErrNoRound}, {"cab-1", 7, "op", "no such round", server.ErrNoRound},
		{"cab-1", 1, "", "who?", server.ErrActionArgs}, {"cab-1", 1, "op", "", server.ErrActionArgs}} {
		if _, err := e.Server.Rounds().Void(ctx(t), bad.cab, bad.n, bad.by, bad.why); !errors.Is(err, bad.want) {
			t.Fatalf("void %s %d %q %q: %v, want %v", bad.cab, bad.n, bad.by, bad.why, err, bad.want)
		}
	}
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("a refused void changed the store: %+v -> %+v", before, after)
	}
	v, err := e.Server.Rounds().Void(ctx(t), "cab-1", 1, "op (uid 0)", "signature did not verify")
	if err != nil || v.Stake != 10 || v.Before != 490 || v.After != 500 {
		t.Fatalf("void: %+v %v", v, err)
	}
	if m := mirror(); m != 500 {
		t.Fatalf("mirror %d after the void, want 500", m)
	}
	if k := e.Count("alarms", "cabinet='cab-1' AND reason=? AND text LIKE '%op (uid 0)%signature did not verify%'", server.ReasonRoundVoided); k != 1 {
		t.Fatalf("%d audit rows of the void", k)
	}
	if !strings.Contains(lb.String(), "reason="+server.ReasonRoundVoided) {
		t.Fatalf("the void is not logged:\n%s", lb.String())
	}
	// Asked again, at its stake or another: ROUND_VOID, a refusal the
	// cabinet refunds on (not "a round of yours is drawn").
	for _, stake := range []int64{10, 50} {
		_, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, model, engine.Money(stake))
		refusedAs(t, err, refusal.RoundVoid)
		if errors.As(err, new(*link.RoundDrawnError)) {
			t.Fatalf("ROUND_VOID taken for a drawn round: %v", err)
		}
	}
	if _, err := e.Server.Rounds().Void(ctx(t), "cab-1", 1, "op", "again"); !errors.Is(err, server.ErrRoundSettled) {
		t.Fatalf("a second void: %v", err)
	}
	// The next round is drawn; once settled it cannot be voided.
	if _, err := c.RequestOutcome(ctx(t), 2, testenv.GameID, model, 10); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitOutcome(ctx(t), 2); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Rounds().Void(ctx(t), "cab-1", 2, "op", "paid round"); !errors.Is(err, server.ErrRoundSettled) {
		t.Fatalf("void of a settled round: %v", err)
	}
}

// After a RAM clear the cabinet's meters start from zero: the report is
// refused (METERS_DECREASED) and the mirror differs, until the operator
// reconciles it to what the cabinet reported at Hello, or sets it; both
// are audit rows with before and after, refused while a round is open or
// after the cabinet played since its Hello.
func TestMirrorReconcileAfterRAMClear(t *testing.T) {
	e, lb := startLogged(t, nil)
	meters := link.CreditMeters{BillsIn: 500, Credit: 500}
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return meters, nil }
	})
	if info, err := c.Hello(ctx(t)); err != nil || info.MirrorDiffers {
		t.Fatalf("hello: %+v %v", info, err)
	}
	meters = link.CreditMeters{Base: 200, Credit: 200} // RAM clear, the technician set 200
	if info, err := c.Hello(ctx(t)); err != nil || !info.MirrorDiffers || info.MirrorCredit != 500 {
		t.Fatalf("hello after the RAM clear: %+v %v", info, err)
	}
	wantAlarm(t, e, lb, "cab-1", refusal.MetersDecreased, 1)
	if _, err := e.Server.Mirror().Reconcile(ctx(t), "cab-l", "op", "typo"); !errors.Is(err, server.ErrNoReport) {
		t.Fatalf("reconcile of a mistyped id: %v", err)
	}
	mc, err := e.Server.Mirror().Reconcile(ctx(t), "cab-1", "op", "RAM clear ticket 17")
	if err != nil || mc.Before != 500 || mc.After != 200 {
		t.Fatalf("reconcile: %+v %v", mc, err)
	}
	if k := e.Count("alarms", "cabinet='cab-1' AND reason=? AND text LIKE '%reconciled by op: RAM clear ticket 17; credit 500 -> 200%'", server.ReasonMirrorAdjusted); k != 1 {
		t.Fatalf("%d audit rows of the reconciliation", k)
	}
	// The meters count up from the new baseline: accepted, no difference.
	meters = link.CreditMeters{Base: 200, BillsIn: 100, Credit: 300}
	if info, err := c.Hello(ctx(t)); err != nil || info.MirrorDiffers || info.MirrorCredit != 300 {
		t.Fatalf("hello after the reconciliation: %+v %v", info, err)
	}
	wantAlarm(t, e, lb, "cab-1", refusal.MetersDecreased, 1)
	if mc, err := e.Server.Mirror().Set(ctx(t), "cab-1", 250, "op", "counted the cash box"); err != nil || mc.Before != 300 || mc.After != 250 {
		t.Fatalf("set: %+v %v", mc, err)
	}
	// Busy: a round open (the cabinet said Hello with it open), or a round
	// drawn since the Hello.
	e.Clock.Advance(1)
	model := testenv.TheGame.ModelID()
	if _, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, model, 10); err != nil {
		t.Fatal(err)
	}
	meters.Credit = 290
	if _, err := c.Hello(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Mirror().Set(ctx(t), "cab-1", 250, "op", "x"); !errors.Is(err, server.ErrMirrorBusy) {
		t.Fatalf("set with a round open: %v", err)
	}
	if err := c.CommitOutcome(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(1)
	if _, err := c.RequestOutcome(ctx(t), 2, testenv.GameID, model, 10); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitOutcome(ctx(t), 2); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Mirror().Reconcile(ctx(t), "cab-1", "op", "x"); !errors.Is(err, server.ErrMirrorBusy) {
		t.Fatalf("reconcile after a round since the Hello: %v", err)
	}
}

// A round whose win the cabinet gambled was accepted by it: it is played
// to its end, never voided. And one event batch raises at most a few
// OUTCOME_REFUSED alarms, however many events it carries.
func TestVoidRefusedAfterRiskAndAlarmsBounded(t *testing.T) {
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
		t.Fatal("no win in 200 rounds")
	}
	if _, err := c.RequestRiskStep(ctx(t), win.Round, 1, engine.Red); err != nil {
		t.Fatal(err)
	}
	before := snap(t, e, "cab-1")
	if _, err := e.Server.Rounds().Void(ctx(t), "cab-1", win.Round, "op", "after Risk"); !errors.Is(err, server.ErrNotVoidable) {
		t.Fatalf("void of a round with a Risk card: %v", err)
	}
	if after := snap(t, e, "cab-1"); after != before {
		t.Fatalf("a refused void changed the store: %+v -> %+v", before, after)
	}
	evs := make([]link.Event, 50)
	for i := range evs {
		evs[i] = link.Event{Seq: int64(i + 1), At: e.Clock.Now(), Kind: server.EventOutcomeRefused, Text: "flood"}
	}
	if err := c.ReportEvents(ctx(t), 1, evs); err != nil {
		t.Fatal(err)
	}
	wantAlarm(t, e, lb, "cab-1", server.ReasonOutcomeRefused, 4)
}

package cabinet

import (
	"context"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// voidingCentral answers ROUND_VOID for the rounds a test voided, as the
// central system does after `polaris-central admin void` (for a Central
// whose rounds the embedded server never drew: the scripted one).
type voidingCentral struct {
	Central
	mu     sync.Mutex
	voided map[uint64]bool
	asked  int // requests for a voided round
}

func (v *voidingCentral) void(n uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.voided == nil {
		v.voided = map[uint64]bool{}
	}
	v.voided[n] = true
}

func (v *voidingCentral) RequestOutcome(ctx context.Context, n uint64, g engine.GameID, m string, s engine.Money) (*link.Outcome, error) {
	v.mu.Lock()
	if v.voided[n] {
		v.asked++
		v.mu.Unlock()
		return nil, &link.RefusedError{Code: codes.FailedPrecondition, Reason: link.ReasonRoundVoid, Message: "voided by the test"}
	}
	v.mu.Unlock()
	return v.Central.RequestOutcome(ctx, n, g, m, s)
}

// heldRound is the ledger's open round, which must be a wager still open
// (drawn at the central system, refused by the cabinet, not refunded).
func (r *rig) heldRound(when string) ledger.Round {
	r.t.Helper()
	rd, ok := r.led.OpenRound()
	if !ok || rd.Status != ledger.RoundWagered {
		r.t.Fatalf("%s: the wager is not held open: %+v %v", when, rd, ok)
	}
	return rd
}

// waitRefunded moves the clock in steps of a second (the held round is
// asked for again every HeldRoundPoll) until the ledger has no open round.
func (r *rig) waitRefunded(what string) {
	r.t.Helper()
	r.until(what, time.Second, func(*view.Snapshot) bool { _, open := r.led.OpenRound(); return !open })
}

// voidOnServer voids round n of cab-1 at the embedded central system as
// the operator's admin command does.
func (r *rig) voidOnServer(n uint64, why string) {
	r.t.Helper()
	if _, err := r.central.Server.Rounds().Void(context.Background(), "cab-1", n, "test operator", why); err != nil {
		r.t.Fatal(err)
	}
}

// refundedOnce checks that the held round's stake came back exactly once.
func (r *rig) refundedOnce(when string, credit engine.Money, refunded int64, stake engine.Money, seq uint64) {
	r.t.Helper()
	if r.credit() != credit || r.meter(ledger.WagersRefunded) != refunded+int64(stake) {
		r.t.Fatalf("%s: credit %d (want %d), refunds %d (want %d)", when, r.credit(), credit, r.meter(ledger.WagersRefunded), refunded+int64(stake))
	}
	// The event is journaled just after the refund, in its own
	// transaction: wait for it, then count.
	poll.Until(r.t, 5*time.Second, when+": the round_voided event", func() bool { return len(r.eventsOf(seq, "round_voided")) > 0 })
	if n := len(r.eventsOf(seq, "round_voided")); n != 1 {
		r.t.Fatalf("%s: %d round_voided events", when, n)
	}
	if _, open := r.led.OpenRound(); open {
		r.t.Fatalf("%s: a round is still open", when)
	}
}

// The void of a held round reaches a cabinet that is off: started again it
// asks for the round, is answered ROUND_VOID and refunds it once; a second
// power cut right after changes nothing.
func TestVoidWhileOffRefundsOnce(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(1000, 2)
	r.stop()
	real := r.central.Client
	tamper := func(c *Config) {
		c.Central = tamperingCentral{Central: real, tamper: func(o *link.Outcome) { o.Result.Total += 100 }}
	}
	r.start("demo", tamper)
	r.idle()
	seq := r.lastEventSeq()
	r.press(view.Start)
	s := r.until("tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	rd := r.heldRound("at the tilt")
	stake := engine.Money(rd.Stake)
	if s.Credit != 1000-stake || r.meter(ledger.WagersRefunded) != 0 {
		t.Fatalf("credit %d, refunds %d after a refused outcome", s.Credit, r.meter(ledger.WagersRefunded))
	}
	r.powerCut()
	r.voidOnServer(rd.Number, "outcome did not mirror")
	r.start("demo", tamper)
	r.waitRefunded("refunded after the power-up")
	r.refundedOnce("after the power-up", 1000, 0, stake, seq)
	r.powerCut()
	r.start("demo", tamper)
	r.until("tilt still shown", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	r.refundedOnce("after a second power cut", 1000, 0, stake, seq)
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.idle()
}

// revokingCentral refuses every outcome request at admission while on, as
// the central system does for a revoked certificate, after letting the
// first attempt through: the round is drawn, its reply lost.
type revokingCentral struct {
	Central
	mu  sync.Mutex
	on  bool
	hit int
}

func (v *revokingCentral) set(on bool) { v.mu.Lock(); v.on = on; v.mu.Unlock() }

func (v *revokingCentral) RequestOutcome(ctx context.Context, n uint64, g engine.GameID, m string, s engine.Money) (*link.Outcome, error) {
	v.mu.Lock()
	on := v.on
	v.hit++
	v.mu.Unlock()
	if on {
		if _, err := v.Central.RequestOutcome(ctx, n, g, m, s); err != nil {
			return nil, err
		}
		return nil, &link.RefusedError{Code: codes.Unauthenticated, Reason: "CERTIFICATE_REVOKED", Message: "revoked by the test"}
	}
	return v.Central.RequestOutcome(ctx, n, g, m, s)
}

// A refusal that does not prove the round undrawn (here: drawn, then the
// certificate refused) is never refunded: the cabinet tilts and holds the
// wager; once the central system answers again the drawn round is played
// to its end.
func TestAdmissionRefusalHoldsTheWager(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(1000, 2)
	r.stop()
	rc := &revokingCentral{on: true}
	r.start("demo", func(c *Config) { rc.Central = c.Central; c.Central = rc })
	r.idle()
	seq := r.lastEventSeq()
	r.press(view.Start)
	s := r.until("tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	rd := r.heldRound("at the refusal")
	if s.Credit != 1000-engine.Money(rd.Stake) || r.meter(ledger.WagersRefunded) != 0 || len(r.eventsOf(seq, "round_refusal_held")) != 1 {
		t.Fatalf("credit %d, refunds %d, events %+v", s.Credit, r.meter(ledger.WagersRefunded), r.eventsSince(seq))
	}
	rc.set(false)
	r.until("the drawn round played", time.Second, func(*view.Snapshot) bool { _, open := r.led.OpenRound(); return !open })
	if got, ok := r.led.Round(rd.Number); !ok || got.Status != ledger.RoundSettled || r.meter(ledger.WagersRefunded) != 0 {
		t.Fatalf("round %d: %+v, refunds %d", rd.Number, got, r.meter(ledger.WagersRefunded))
	}
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.idle()
}

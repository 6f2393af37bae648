package cabinet

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// tamperingCentral changes what the central system said, as a man in the
// middle past the signature check (or a bug) would.
type tamperingCentral struct {
	Central
	tamper func(o *link.Outcome)
}

func (t tamperingCentral) RequestOutcome(ctx context.Context, n uint64, g engine.GameID, m string, s engine.Money) (*link.Outcome, error) {
	o, err := t.Central.RequestOutcome(ctx, n, g, m, s)
	if err == nil {
		t.tamper(o)
	}
	return o, err
}

// silentCentral never answers an outcome request.
type silentCentral struct{ Central }

func (silentCentral) RequestOutcome(ctx context.Context, _ uint64, _ engine.GameID, _ string, _ engine.Money) (*link.Outcome, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// An outcome the engine cannot reproduce is never paid, and its stake,
// booked at the central system as it was drawn, is not refunded by the
// cabinet: it tilts and holds the wager until the central operator voids
// the round; then the stake comes back exactly once, also across a power
// cut, and the technician clears the tilt (house rule 3).
func TestOutcomeMismatchTiltsAndPaysNothing(t *testing.T) {
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
	if s.Credit != 1000-stake || r.meter(ledger.CoinOut) != 0 || r.meter(ledger.WagersRefunded) != 0 {
		t.Fatalf("credit %d, wins %d, refunds %d after a refused outcome", s.Credit, r.meter(ledger.CoinOut), r.meter(ledger.WagersRefunded))
	}
	if s.Tilts[0][:16] != "outcome mismatch" || len(r.eventsOf(seq, "outcome_refused")) != 1 {
		t.Fatalf("tilt %q, events %+v", s.Tilts[0], r.eventsSince(seq))
	}
	// Asked again (the poll, a power cut): the same refused bytes, still
	// held, logged once per power-up.
	r.clock.Advance(2 * HeldRoundPoll)
	r.powerCut()
	r.start("demo", tamper)
	r.until("tilt again", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Mode == view.ModeTilt && len(r.eventsOf(seq, "outcome_refused")) == 2
	})
	r.heldRound("after a power cut")
	// The technician's key does not release the wager: the round is asked
	// again and tilts again.
	r.cab.Post(Key{Name: deck.Technician, On: true})
	r.cab.Post(Key{Name: deck.Technician, On: false})
	var cleared *view.Snapshot
	r.cab.Do(func() { r.cab.publish(); cleared = r.cab.View() })
	if cleared.Mode == view.ModeTilt {
		t.Fatalf("the technician's key left the tilt: %q", cleared.Tilts)
	}
	r.until("tilt after the key", time.Second, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	if r.credit() != 1000-stake || r.meter(ledger.WagersRefunded) != 0 {
		t.Fatalf("refunded without a void: credit %d", r.credit())
	}
	if n := len(r.eventsOf(seq, "outcome_refused")); n != 2 {
		t.Fatalf("%d outcome_refused events: the same refused round is logged once per power-up", n)
	}
	r.voidOnServer(rd.Number, "outcome did not mirror")
	r.waitRefunded("refunded after the void")
	r.refundedOnce("after the void", 1000, 0, stake, seq)
	r.powerCut()
	r.start("demo")
	r.refundedOnce("after a power cut", 1000, 0, stake, seq)
	r.cab.Post(Key{Name: deck.Technician, On: true})
	r.cab.Post(Key{Name: deck.Technician, On: false})
	r.idle()
}

// Opening a door during the presentation stops play at the end of the
// current step and disables inputs (check 16); closing it resumes the same
// round, which settles once (check 17).
func TestDoorOpenDuringPresentation(t *testing.T) {
	r := newRig(t, "demo", withTiming(DefaultTiming))
	r.idle()
	r.insertNote(10000, 2)
	r.press(view.Start)
	r.until("presenting", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModePresenting })
	r.cab.Post(Door{Name: deck.Main, Open: true})
	s := r.until("door open", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeDoorOpen })
	n := s.Round.Number
	r.clock.Advance(time.Hour)
	r.ticked() // the presentation's hour gone, seen by the loop
	r.press(view.Start)
	s = r.until("still open", time.Millisecond, func(s *view.Snapshot) bool { return true })
	if s.Mode != view.ModeDoorOpen || r.meter(ledger.DoorOpens) != 1 {
		t.Fatalf("mode %s, door opens %d", s.Mode, r.meter(ledger.DoorOpens))
	}
	if steps := len(s.Round.Steps); steps == 1 && r.meter(ledger.GamesPlayed) != 1 {
		t.Fatal("a one-step round ends with its step")
	} else if steps > 1 && r.meter(ledger.GamesPlayed) != 0 {
		t.Fatal("a multi-step round settled with the door open")
	}
	r.cab.Post(Door{Name: deck.Main, Open: false})
	collect := collectOnce(r) // one Collect a Risk offer: a second would cash out
	s = r.until("resumed and settled", 100*time.Millisecond, func(s *view.Snapshot) bool {
		collect(s)
		return s.Mode == view.ModeIdle
	})
	if s.Round.Number != n || r.meter(ledger.GamesPlayed) != 1 {
		t.Fatalf("round %d (was %d), games %d", s.Round.Number, n, r.meter(ledger.GamesPlayed))
	}
}

// A power cut at any point of a round: after the restart the same round
// comes back with the same outcome, is presented again and settled once.
func TestPowerCutMidRoundRecovers(t *testing.T) {
	for _, cut := range []string{"waiting", "presenting"} {
		t.Run(cut, func(t *testing.T) {
			r := newRig(t, "demo", withTiming(DefaultTiming))
			r.idle()
			r.insertNote(10000, 2)
			if cut == "waiting" {
				// The reply never comes: the wager is journaled, no outcome yet.
				r.stop()
				real := r.central.Client
				r.start("demo", withTiming(DefaultTiming), func(c *Config) { c.Central = silentCentral{real} })
				r.idle()
			}
			r.press(view.Start)
			want := view.ModePresenting
			if cut == "waiting" {
				want = view.ModeWagering
			}
			r.until(cut, time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == want })
			open, ok := r.led.OpenRound()
			if !ok {
				t.Fatal("no open round")
			}
			r.powerCut()
			r.start("demo", withTiming(DefaultTiming))
			collect := collectOnce(r) // one Collect a Risk offer: a second would cash out
			s := r.until("settled after restart", 100*time.Millisecond, func(s *view.Snapshot) bool {
				collect(s)
				return s.Mode == view.ModeIdle && s.Round != nil
			})
			got, _ := r.led.Round(open.Number)
			if got.Status != ledger.RoundSettled || r.meter(ledger.GamesPlayed) != 1 || s.Round.Number != open.Number {
				t.Fatalf("round %d status %s, games %d", open.Number, got.Status, r.meter(ledger.GamesPlayed))
			}
			if (cut == "waiting") != (open.Outcome == nil) {
				t.Fatalf("cut while %s, but the journal holds outcome=%v", cut, open.Outcome != nil)
			}
			if open.Outcome != nil && string(open.Outcome) != string(got.Outcome) {
				t.Fatal("a different outcome after the restart")
			}
			if want := 10000 - got.Stake + got.Win; int64(r.credit()) != want {
				t.Fatalf("credit %d, want %d", r.credit(), want)
			}
		})
	}
}

// With the central link down no game starts; a round whose wager was sent
// completes once the link is back (standards: loss of the central link).
func TestLinkDownStopsPlay(t *testing.T) {
	r := newRig(t, "cz")
	r.idle()
	r.insertNote(500, 0)
	r.cab.Post(LinkState{Up: false})
	r.until("out of service", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeOutOfService })
	r.press(view.Start)
	var round bool
	r.cab.Do(func() { round = r.cab.play.round != nil }) // the press is decided on the loop
	if round || r.meter(ledger.CoinIn) != 0 {
		t.Fatal("a game started with the link down")
	}
	r.cab.Post(LinkState{Up: true})
	s := r.idle()
	if s.Mode != view.ModeIdle {
		t.Fatal(s.Mode)
	}
}

// corrupt flips bytes in the middle of a ledger copy's database.
func corrupt(t *testing.T, dir string) {
	t.Helper()
	p := filepath.Join(dir, "ledger.db")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(b) / 3; i < len(b)/3+64 && i < len(b); i++ {
		b[i] ^= 0xA5
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(p + "-wal")
}

// Check 4: with both ledger copies corrupt the cabinet stops in RAM error —
// no play, no money — across power cycles, until the technician's logged
// RAM clear.
func TestRAMErrorUntilTechnicianClears(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(1000, 2)
	r.powerCut()
	corrupt(t, filepath.Join(r.dir, "a"))
	corrupt(t, filepath.Join(r.dir, "b"))
	for boot := 0; boot < 2; boot++ {
		r.start("demo")
		r.until("RAM error", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeRAMError })
		r.press(view.Start)
		r.press(view.Collect)
		// Both presses decided on the loop; the acceptor's command is
		// the cabinet's last one (sent off the loop, followed by the
		// device).
		var accOn bool
		r.cab.Do(func() { accOn = r.cab.moneyIn.acceptorOn })
		if s := r.state(); s.Mode != view.ModeRAMError || accOn {
			t.Fatalf("boot %d: mode %s, acceptor enabled %v", boot, s.Mode, accOn)
		}
		poll.Until(t, 15*time.Second, "acceptor inhibited in RAM error", func() bool { return !r.acc.isEnabled() })
		if boot == 0 {
			r.powerCut()
		}
	}
	r.press(view.Start) // without the technician key: nothing
	if r.state().Mode != view.ModeRAMError {
		t.Fatal("left RAM error without the technician")
	}
	r.cab.Post(Key{Name: deck.Technician, On: true})
	r.until("RAM clear page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil })
	r.press(view.Start)
	r.cab.Post(Key{Name: deck.Technician, On: false})
	s := r.idle()
	if s.Credit != 0 || r.meter(ledger.RAMClears) < 1 {
		t.Fatalf("after the RAM clear: credit %d, RAM clears %d", s.Credit, r.meter(ledger.RAMClears))
	}
}

// Checks 2 and 3: a copy corrupted while the cabinet runs is caught by the
// check before the next game, rebuilt from the other, and play goes on with
// the same credit.
func TestCopyCorruptedBeforeAGameIsRepaired(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(1000, 2)
	corrupt(t, filepath.Join(r.dir, "b"))
	s := r.playOne()
	if s.RiskOffer {
		r.press(view.Collect)
		s = r.idle()
	}
	if got, want := r.credit(), 1000-s.Bet+s.Round.Total; got != want {
		t.Fatalf("credit %d, want %d", got, want)
	}
	rebuilt := false
	for _, e := range r.led.Events(50) {
		rebuilt = rebuilt || e.Kind == ledger.EventCopyRebuilt
	}
	if !rebuilt {
		t.Fatal("no copy_rebuilt event: the corruption went unnoticed")
	}
}

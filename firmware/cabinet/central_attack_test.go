package cabinet

import (
	"context"
	"crypto/ed25519"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// waitCommitted waits until the central system has round n of cab-1 settled.
func (r *rig) waitCommitted(n uint64) {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var k int
		r.central.Server.DB().QueryRow(`SELECT count(*) FROM rounds WHERE cabinet='cab-1' AND round=? AND committed_at IS NOT NULL`, int64(n)).Scan(&k)
		if k == 1 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.t.Fatalf("round %d never committed", n)
}

// A copy of the cabinet's key draws the cabinet's next round at another
// stake; the cabinet then plays at its own stake. The central system
// refuses it (the round is drawn), the cabinet never refunds the stake and
// pays nothing: it tilts for a technician, also after a power cut.
func TestCopiedKeyDrawsNextRoundCabinetTilts(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(1000, 2)
	s := r.settleRound(r.playOne())
	r.waitCommitted(s.Round.Number)

	thief, err := r.central.Dial("cab-1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer thief.Close()
	g, err := engine.Lookup(s.Game)
	if err != nil {
		t.Fatal(err)
	}
	other := g.Stakes()[0]
	if other == s.Bet {
		other = g.Stakes()[1]
	}
	next := r.led.NextRound()
	if _, err := thief.RequestOutcome(context.Background(), next, g.ID(), g.ModelID(), other); err != nil {
		t.Fatal(err)
	}

	credit, coinOut, refunded := r.credit(), r.meter(ledger.CoinOut), r.meter(ledger.WagersRefunded)
	seq := r.lastEventSeq()
	r.press(view.Start)
	s = r.until("tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	if len(s.Tilts) != 1 || !strings.HasPrefix(s.Tilts[0], "central round differs") {
		t.Fatalf("tilts %q", s.Tilts)
	}
	check := func(when string) {
		t.Helper()
		if r.credit() != credit-s.Bet || r.meter(ledger.CoinOut) != coinOut || r.meter(ledger.WagersRefunded) != refunded {
			t.Fatalf("%s: paid or refunded: credit %d -> %d, wins %d -> %d, refunds %d -> %d", when, credit, r.credit(),
				coinOut, r.meter(ledger.CoinOut), refunded, r.meter(ledger.WagersRefunded))
		}
		if rd, ok := r.led.OpenRound(); !ok || rd.Number != next || rd.Status != ledger.RoundWagered {
			t.Fatalf("%s: the wager is not left open: %+v %v", when, rd, ok)
		}
	}
	check("at the tilt")
	if len(r.eventsOf(seq, "round_drawn_elsewhere")) != 1 || len(r.eventsOf(seq, "tilt")) != 1 {
		t.Fatalf("not logged: %+v", r.eventsSince(seq))
	}
	if a := r.central.Server.Alarms("cab-1"); a[server.ReasonRoundConflict] != 1 {
		t.Fatalf("central alarms %v", a)
	}
	r.powerCut()
	r.start("demo")
	s = r.until("tilt again", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	check("after a power cut")
	// The technician clears the tilt; the round is still the central
	// system's to resolve: asked again, it tilts again, never refunded.
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.cab.Do(func() { r.cab.linkState(false); r.cab.linkState(true) })
	r.until("tilt after the link came back", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	check("asked again")
}

// An outcome the pinned central key did not sign is a mirror mismatch:
// tilt, event, nothing paid (the stake goes back as for any outcome
// refused before it was presented). Over the real link: the cabinet's
// client pins another key than the server signs with.
func TestBadSignatureTilts(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(1000, 2)
	r.stop()
	pub, _, _ := ed25519.GenerateKey(nil)
	forged, err := r.central.Dial("cab-1", pub)
	if err != nil {
		t.Fatal(err)
	}
	defer forged.Close()
	r.start("demo", func(c *Config) { c.Central = forged })
	r.idle()
	credit, coinOut := r.credit(), r.meter(ledger.CoinOut)
	seq := r.lastEventSeq()
	r.press(view.Start)
	s := r.until("tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	if len(s.Tilts) != 1 || !strings.HasPrefix(s.Tilts[0], "outcome mismatch") || !strings.Contains(s.Tilts[0], "signature") {
		t.Fatalf("tilts %q", s.Tilts)
	}
	if r.credit() != credit || r.meter(ledger.CoinOut) != coinOut {
		t.Fatalf("paid: credit %d -> %d", credit, r.credit())
	}
	if _, open := r.led.OpenRound(); open {
		t.Fatal("the round stayed open")
	}
	if len(r.eventsOf(seq, "tilt")) != 1 {
		t.Fatalf("not logged: %+v", r.eventsSince(seq))
	}
}

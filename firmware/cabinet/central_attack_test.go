package cabinet

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// waitCommitted waits until the central system has round n of cab-1 settled.
func (r *rig) waitCommitted(n uint64) {
	r.t.Helper()
	poll.Until(r.t, 10*time.Second, fmt.Sprintf("round %d committed at the central system", n), func() bool {
		var k int
		r.central.Server.DB().QueryRow(`SELECT count(*) FROM rounds WHERE cabinet='cab-1' AND round=? AND committed_at IS NOT NULL`, int64(n)).Scan(&k)
		return k == 1
	})
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
	if a := r.central.Server.Alarms().Count("cab-1"); a[string(refusal.RoundConflict)] != 1 {
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
	r.cab.Post(LinkState{Up: false})
	r.cab.Post(LinkState{Up: true})
	r.until("tilt after the link came back", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	check("asked again")
	// The operator voids the round the copy drew: the cabinet, asking for
	// its round again, is answered ROUND_VOID and refunds its stake once.
	r.voidOnServer(next, "drawn by a copied key")
	r.waitRefunded("refunded after the void")
	r.refundedOnce("after the void", credit, refunded, s.Bet, seq)
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.idle()
}

// An outcome the pinned central key did not sign is a mirror mismatch:
// tilt, event, nothing paid and nothing refunded (the stake was booked at
// the central system as the round was drawn): the wager is held until the
// operator voids the round, which reaches the running cabinet on its next
// ask and refunds the stake once. Over the real link: the cabinet's
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
	rd := r.heldRound("at the tilt")
	stake := engine.Money(rd.Stake)
	if r.credit() != credit-stake || r.meter(ledger.CoinOut) != coinOut || r.meter(ledger.WagersRefunded) != 0 {
		t.Fatalf("paid or refunded: credit %d -> %d", credit, r.credit())
	}
	if len(r.eventsOf(seq, "tilt")) != 1 || len(r.eventsOf(seq, "outcome_refused")) != 1 {
		t.Fatalf("not logged: %+v", r.eventsSince(seq))
	}
	// The central system still holds the round open, its stake booked.
	mirror, _, err := r.central.Server.Mirror().Credit(context.Background(), "cab-1")
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := reports.DrawnRounds(context.Background(), r.central.Server.DB(), "cab-1")
	if err != nil || len(rounds) == 0 || rounds[len(rounds)-1].Round != rd.Number || rounds[len(rounds)-1].Committed {
		t.Fatalf("central rounds %+v %v", rounds, err)
	}
	r.voidOnServer(rd.Number, "signature did not verify")
	if after, _, _ := r.central.Server.Mirror().Credit(context.Background(), "cab-1"); after != mirror+int64(stake) {
		t.Fatalf("central mirror %d -> %d after the void of a stake of %d", mirror, after, stake)
	}
	if _, err := r.central.Server.Rounds().Void(context.Background(), "cab-1", rd.Number, "test operator", "again"); !errors.Is(err, server.ErrRoundSettled) {
		t.Fatalf("a second void: %v", err)
	}
	r.waitRefunded("refunded after the void")
	r.refundedOnce("after the void", credit, 0, stake, seq)
	if s := r.cab.View(); s.Mode != view.ModeTilt {
		t.Fatalf("the tilt went without the technician: %s", s.Mode)
	}
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.idle()
	r.refundedOnce("after the technician", credit, 0, stake, seq)
}

package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/firmware/view"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// TestIdleCabinetPublishesNothing: an idle cabinet's loop ticks on (real
// ticks of 1 ms, the clock moved past three heartbeats) and publishes no
// snapshot; a button that changes what the screen shows publishes one,
// with the next sequence number, and wakes a consumer waiting on Changed.
func TestIdleCabinetPublishesNothing(t *testing.T) {
	r := newRig(t, "cz")
	r.insertNote(500, 0)
	r.idle()
	before := r.cab.View()
	changed := r.cab.Changed()
	for range 40 {
		r.clock.Advance(5 * time.Second) // past three heartbeats (beatEvery): ledger writes, same screen
		r.ticked()                       // the loop ticks on the clock moved (as its own 1 ms ticks do meanwhile)
	}
	if s := r.cab.View(); s != before || s.Seq != before.Seq {
		t.Fatalf("idle cabinet published: seq %d -> %d", before.Seq, s.Seq)
	}
	select {
	case <-changed:
		t.Fatal("Changed fired with nothing changed")
	default:
	}
	r.press(view.BetPlus)
	select {
	case <-changed:
	case <-poll.After(10 * time.Second):
		t.Fatal("Changed did not fire after Bet+")
	}
	s := r.cab.View()
	if s.Seq != before.Seq+1 || s.Bet == before.Bet {
		t.Fatalf("after Bet+: seq %d (was %d), bet %d (was %d)", s.Seq, before.Seq, s.Bet, before.Bet)
	}
}

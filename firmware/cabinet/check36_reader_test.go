package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/cardreader/cardemu"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// TestCheck36CabinetReaderLost: in cz the card reader lost (pcscd stopped
// while the reels spin) lets the round in play complete, paid and counted
// for the player; then the session ends, and no new game and no money in
// is taken while the reader is gone, the reason on screen
// (blocked_card_reader) without Start being pressed, the tower light
// calling the attendant. With pcscd back the cabinet asks for the card
// again, and the card logs in and plays.
func TestCheck36CabinetReaderLost(t *testing.T) {
	r := newCardRigWith(t, cardRigConfig{market: "cz", reader: true, noWin: true}, withTiming(DefaultTiming))
	acct, round := r.spinning("Martin Král")
	r.pcsc.Stop()
	r.untilReal("reader lost seen", func(*view.Snapshot) bool {
		var lost bool
		r.cab.Do(func() { lost = r.cab.player.readerLost })
		return lost
	})
	if s := r.cab.View(); s.Mode != view.ModePresenting || s.Player == nil {
		t.Fatalf("the reader lost stopped the round or ended the session early: mode %s player %v", s.Mode, s.Player)
	}
	r.until("round completed", 50*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle && s.Player == nil })
	if r.gamesPlayed() != 1 || r.credit() != 95 {
		t.Fatalf("games %d credit %d, want 1 and 95", r.gamesPlayed(), r.credit())
	}
	if who, err := r.reg.RoundPlayer(r.ctx(), "cab-1", round); err != nil || who == nil || who.ID != acct {
		t.Fatalf("round %d counted for %v (%v), want %s", round, who, err, acct)
	}
	poll.Until(t, 10*time.Second, "session ended at the central system", func() bool { return r.session(acct) == nil }, nil)
	s := r.untilReal("the reason on screen", func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"card_reader" })
	if s.Mode != view.ModeIdle || len(s.Tilts) != 0 || s.Tower != "call" {
		t.Fatalf("reader lost: mode %s tilts %v tower %q (want the attendant called)", s.Mode, s.Tilts, s.Tower)
	}
	r.cab.Do(func() {
		if why := r.cab.blocked(); why != "card_reader" || r.cab.canAccept() {
			t.Errorf("reader lost: blocked %q, money taken %v", why, r.cab.canAccept())
		}
	})
	r.noGame("card_reader")
	if r.meter(ledger.CoinIn) != 5 {
		t.Fatalf("coin in %d", r.meter(ledger.CoinIn))
	}

	if err := r.pcsc.Restart(); err != nil {
		t.Fatal(err)
	}
	r.untilReal("reader back", func(s *view.Snapshot) bool {
		var why string
		r.cab.Do(func() { why = r.cab.blocked() })
		return why == "no_card" && s.Message != view.MsgBlocked+"card_reader"
	})
	r.slot.Remove() // its connection went with the old pcscd
	r.insert(cardemu.PlayerCard(cardMaster, cardA))
	r.loggedIn()
	r.taken()
}

package cabinet

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/drivers/acceptor"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// menuTitles pages through the open menu and lists its pages' titles.
func (r *rig) menuTitles() []string {
	r.t.Helper()
	var titles []string
	for _, p := range r.menuPagesSeen() {
		titles = append(titles, p.Title)
	}
	return titles
}

// enterTestMode turns the technician key, pages to the test page and
// presses Start.
func (r *rig) enterTestMode() {
	r.t.Helper()
	r.cab.Post(Key{Name: deck.Technician, On: true})
	if !slices.Contains(r.menuTitles(), menuTest) {
		r.t.Fatal("check 28: no test mode page in the technician's menu")
	}
	for s := r.cab.View(); s.Menu.Title != menuTest; s = r.cab.View() {
		page := s.Menu.Page
		r.press(view.BetMinus)
		r.until("previous page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Page < page })
	}
	r.press(view.Start)
	r.until("test mode", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == menuTestMode })
}

// Check 28, test mode. Only the technician's menu leads to it (no button
// sequence of the player's, not the attendant's menu); it is labelled; the
// button and lamp test, the acceptor test (a note and a ticket read and
// returned) and the printer test (a ticket marked TEST - NOT VALID) change
// no meter and no credit; turning the key back restores the exact prior
// state, checked by the hash of the critical state before and after, and
// the cabinet plays on. A power cut in test mode (check 5) comes back to
// that state too.
func TestCheck28TestMode(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(10000, 2)
	r.settleRound(r.playOne())
	r.press(view.BetPlus)
	r.idle()

	// The player: every button, no menu.
	for _, b := range view.Buttons {
		if b == view.Start || b == view.Auto || b == view.Collect {
			continue // they play or cash out
		}
		r.press(b)
	}
	if s := r.idle(); s.Menu != nil {
		t.Fatalf("check 28: a player's button opened %q", s.Menu.Title)
	}
	// The attendant's menu has no test mode.
	r.cab.Post(Key{Name: deck.Attendant, On: true})
	if slices.Contains(r.menuTitles(), menuTest) {
		t.Fatal("check 28: test mode reachable from the attendant's menu")
	}
	r.cab.Post(Key{Name: deck.Attendant, On: false})
	before := r.idle()

	digest := r.led.StateDigest(testVolatile)
	meters, _ := r.led.Meters(ledger.ScopeCabinet)
	credit := r.credit()
	seq := r.lastEventSeq()
	r.enterTestMode()

	// Buttons and lamps: every lamp lit, the pressed one blinking.
	r.press(view.Start)
	s := r.until("start tested", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Lamps[view.Start] == view.LampBlink && strings.Contains(lines("en", r.cab.cfg.Market, s.Menu)[0], "Last: START")
	})
	if s.Lamps[view.BetPlus] != view.LampOn || s.Round != nil && s.Round.Number != before.Round.Number {
		t.Fatalf("check 28: the button test lamps %v, round %+v", s.Lamps, s.Round)
	}
	// The acceptor: enabled, a note and a ticket read and returned.
	r.until("acceptor on for its test", time.Millisecond, func(*view.Snapshot) bool { return r.acc.isEnabled() })
	for _, d := range []acceptor.Document{
		{Kind: acceptor.Note, Code: 0x63, Denom: acceptor.Denomination{Base: 20}},
		{Kind: acceptor.Ticket, Ticket: "123456789012345678"},
	} {
		r.acc.mu.Lock()
		r.acc.doc = d
		n := len(r.acc.commands)
		r.acc.mu.Unlock()
		r.cab.Post(AcceptorEvent{acceptor.Escrow{Doc: d}})
		r.until("returned", time.Millisecond, func(*view.Snapshot) bool {
			r.acc.mu.Lock()
			defer r.acc.mu.Unlock()
			return slices.Contains(r.acc.commands[n:], "return")
		})
		want := "€20.00"
		if d.Kind == acceptor.Ticket {
			want = ledger.Mask(d.Ticket)
		}
		r.until("read shown", time.Millisecond, func(s *view.Snapshot) bool {
			return strings.Contains(strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n"), want)
		})
		r.acc.mu.Lock()
		stacked := slices.Contains(r.acc.commands[n:], "stack")
		r.acc.mu.Unlock()
		if stacked || len(r.led.PendingDocs()) != 0 {
			t.Fatalf("check 28: the acceptor test stacked or journaled %v", d)
		}
	}
	// The printer: a test ticket, never a voucher.
	r.press(view.Collect)
	r.until("test ticket", time.Millisecond, func(*view.Snapshot) bool { return len(r.prn.Printed) == 1 })
	if v, ok := r.prn.Printed[0].(document.Voucher); !ok || v.Type != document.TestTicket || v.Validation != document.TestValidation {
		t.Fatalf("check 28: printed %+v", r.prn.Printed[0])
	}
	r.takeTicket()
	// The technician opens and closes the main door meanwhile: counted,
	// and not a change test mode made.
	r.cab.Post(Door{Name: deck.Main, Open: true})
	r.cab.Post(Door{Name: deck.Main, Open: false})
	r.until("door counted", time.Millisecond, func(*view.Snapshot) bool { return r.meter(ledger.DoorOpens) == meters[ledger.DoorOpens]+1 })
	meters[ledger.DoorOpens]++
	if got, _ := r.led.Meters(ledger.ScopeCabinet); !maps.Equal(got, meters) || r.credit() != credit {
		t.Fatalf("check 28: in test mode meters %v credit %d, were %v %d", got, r.credit(), meters, credit)
	}

	// Leaving: the exact prior state, by its hash; logged; play goes on.
	r.cab.Post(Key{Name: deck.Technician, On: false})
	after := r.idle()
	if got := r.led.StateDigest(testVolatile); got != digest {
		t.Fatal("check 28: the critical state's hash changed over test mode")
	}
	if after.Credit != before.Credit || after.Bet != before.Bet || after.Game != before.Game {
		t.Fatalf("check 28: after test mode credit %d bet %d game %s, before %d %d %s",
			after.Credit, after.Bet, after.Game, before.Credit, before.Bet, before.Game)
	}
	logged := r.eventsOf(seq, "test_mode")
	if len(logged) != 2 || !strings.Contains(logged[1].Text, "unchanged") {
		t.Fatalf("check 28: test mode logged as %+v", logged)
	}
	r.settleRound(r.playOne())

	// Check 5, a power cut in test mode: back to where test mode began,
	// with one more power-up and nothing else.
	r.idle()
	m0, _ := r.led.Meters(ledger.ScopeCabinet)
	c0 := r.credit()
	r.enterTestMode()
	r.press(view.Start)
	r.powerCut()
	r.start("demo")
	r.cab.Post(Key{Name: deck.Technician, On: false}) // the key, read at power-up, is off
	r.idle()
	m1, _ := r.led.Meters(ledger.ScopeCabinet)
	m0[ledger.PowerUps]++
	if !maps.Equal(m0, m1) || r.credit() != c0 {
		t.Fatalf("check 5 in test mode: meters %v credit %d, want %v %d", m1, r.credit(), m0, c0)
	}
}

// The hash check can fail: a critical change made while in test mode
// (here straight into the ledger, as a bug would) is found at exit, logged
// and tilts until a technician has looked.
func TestTestModeFindsAChangedState(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.enterTestMode()
	if err := r.led.SetConfig("limits/ticket_out", "1", "a bug"); err != nil {
		t.Fatal(err)
	}
	r.cab.Post(Key{Name: deck.Technician, On: false})
	s := r.until("tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	if len(s.Tilts) != 1 || !strings.Contains(s.Tilts[0], "test mode") {
		t.Fatalf("tilts %v", s.Tilts)
	}
}

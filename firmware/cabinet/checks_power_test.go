package cabinet

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"
	"github.com/polaris-vlt/polaris/deck"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

func withSoftwareID(id string) rigOption { return func(c *Config) { c.Software.ID = id } }

// events of kind since seq.
func (r *rig) eventsOf(seq uint64, kind string) []ledger.Event {
	var out []ledger.Event
	for _, e := range r.eventsSince(seq) {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Check 9, program-change detection: the first start records the
// software's identity without a lockup; a start with another identity
// locks the cabinet up (play and money refused), logs the old and the new
// identity, and stays locked through a power cycle and the attendant key;
// only the technician key and Start accept it, logged; a start with the
// accepted identity plays at once.
func TestCheck9SoftwareChangeLocksUntilTechnicianReset(t *testing.T) {
	r := newRig(t, "demo", withSoftwareID("build-A"))
	r.idle()
	if es := r.eventsOf(0, "software_installed"); len(es) != 1 || es[0].Text != "build-A" {
		t.Fatalf("check 9: first start logged %+v, want one software_installed build-A", es)
	}
	r.insertNote(2000, 2)
	r.settleRound(r.playOne())

	seq := r.lastEventSeq()
	r.powerCut()
	r.start("demo", withSoftwareID("build-B"))
	locked := func(what string) {
		t.Helper()
		s := r.until(what, time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
		if len(s.Tilts) != 1 || !strings.Contains(s.Tilts[0], "software changed — technician reset required") {
			t.Fatalf("check 9 %s: tilts %q", what, s.Tilts)
		}
		games, credit := r.meter(ledger.GamesPlayed), r.credit()
		r.press(view.Start)
		r.press(view.Collect)
		r.cab.Do(func() {})
		if r.meter(ledger.GamesPlayed) != games || r.credit() != credit || r.acc.isEnabled() {
			t.Fatalf("check 9 %s: played, paid out or took money while locked", what)
		}
	}
	locked("locked after the change")
	es := r.eventsOf(seq, "software_changed")
	if len(es) != 1 || es[0].Text != "old build-A new build-B" {
		t.Fatalf("check 9: change logged as %+v", es)
	}

	// A power cycle and the attendant key do not end it.
	seq = r.lastEventSeq()
	r.powerCut()
	r.start("demo", withSoftwareID("build-B"))
	locked("locked after a power cycle")
	r.cab.Post(Key{Name: deck.Attendant, On: true})
	r.cab.Post(Key{Name: deck.Attendant, On: false})
	locked("locked after the attendant key")
	if n := len(r.eventsOf(seq, "software_changed")); n != 0 {
		t.Fatalf("check 9: the same change logged again (%d)", n)
	}
	// The technician key alone does not end it either.
	r.cab.Post(Key{Name: deck.Technician, On: true})
	r.until("confirmation page", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Menu != nil && s.Menu.Title == "menu.software_changed"
	})
	r.cab.Post(Key{Name: deck.Technician, On: false})
	locked("locked after the technician key without Start")

	// Technician key + Start.
	r.cab.Post(Key{Name: deck.Technician, On: true})
	r.until("confirmation page", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Menu != nil && s.Menu.Title == "menu.software_changed"
	})
	r.press(view.Start)
	r.until("audit page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == "menu.audit" })
	r.cab.Post(Key{Name: deck.Technician, On: false})
	r.idle()
	if es := r.eventsOf(seq, "software_accepted"); len(es) != 1 || es[0].Text != "old build-A new build-B" || es[0].Source != "technician" {
		t.Fatalf("check 9: reset logged as %+v", es)
	}
	r.settleRound(r.playOne())

	seq = r.lastEventSeq()
	r.powerCut()
	r.start("demo", withSoftwareID("build-B"))
	r.idle()
	if n := len(r.eventsOf(seq, "software_changed")) + len(r.eventsOf(seq, "tilt")); n != 0 {
		t.Fatalf("check 9: the accepted software locked up again")
	}
	r.settleRound(r.playOne())
}

// Check 18, doors opened while unpowered. Power is cut with every door
// closed and comes back an hour later with the logic door open: its first
// input is logged as opened while unpowered, with the power-off window
// (the last sign of life before the cut, the time of power-up), and
// reaches the central system with the events. A cash box open at the cut
// that reports nothing after power-up was closed while unpowered, logged
// the same way; a board latch's record is logged too. A door in the same
// state as at the cut logs nothing.
func TestCheck18DoorOpenedWhileUnpowered(t *testing.T) {
	dir := t.TempDir()
	// The ledger stamps events with the wall clock: the cabinet's clock
	// starts there so the window's two ends are comparable.
	r := &rig{t: t, dir: dir, clock: clocktest.New(time.Now().UTC()), eventsOut: true}
	gate := &gatedOutbox{}
	var err error
	r.central, err = embedded.Start(context.Background(), embedded.Options{DataDir: dir, Cabinet: "cab-1", Games: engine.Games(), Outbox: gate, NoJackpot: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.central.Close() })
	r.start("demo")
	t.Cleanup(func() { gate.set(nil, false) })
	gate.set(r.led, true)
	r.idle()
	r.cab.Post(Door{Name: deck.Logic, Open: true})
	r.cab.Post(Door{Name: deck.Logic, Open: false})
	r.idle()

	cut := time.Now().UTC()
	gate.set(nil, false)
	r.powerCut()
	r.clock.Advance(time.Hour)
	on := r.clock.Now()
	seq := r.lastEventSeq()
	r.start("demo")
	gate.set(r.led, true)
	r.cab.Post(Door{Name: deck.Main, Open: false}) // as at the cut: nothing to log
	r.cab.Post(Door{Name: deck.Logic, Open: true})
	r.until("door open", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeDoorOpen })
	es := r.eventsOf(seq, "door_opened_unpowered")
	if len(es) != 1 || es[0].Source != "logic" {
		t.Fatalf("check 18: logged %+v, want the logic door opened while unpowered", r.eventsSince(seq))
	}
	var window struct {
		Door     string    `json:"door"`
		LastBeat time.Time `json:"last_beat"`
		PowerUp  time.Time `json:"power_up"`
	}
	if err := json.Unmarshal(es[0].Data, &window); err != nil {
		t.Fatal(err)
	}
	if !window.PowerUp.Equal(on) || window.LastBeat.After(cut) || window.LastBeat.Before(cut.Add(-10*time.Second)) {
		t.Fatalf("check 18: window %v – %v, want the last beat before the cut at %v and power-up at %v", window.LastBeat, window.PowerUp, cut, on)
	}
	if !strings.Contains(es[0].Text, on.UTC().Format(time.RFC3339)) || !strings.Contains(es[0].Text, window.LastBeat.UTC().Format(time.RFC3339)) {
		t.Fatalf("check 18: event text %q does not name the window", es[0].Text)
	}
	if n := len(r.eventsOf(seq, "door_closed_unpowered")); n != 0 {
		t.Fatalf("check 18: the main door, closed at the cut and now, logged %d events", n)
	}
	r.cab.Post(Door{Name: deck.Logic, Open: false})
	r.idle()
	r.until("reported to the central system", 10*time.Millisecond, func(*view.Snapshot) bool {
		for _, e := range centralEvents(t, r) {
			if e.kind == "door_opened_unpowered" && e.seq == int64(es[0].Seq) {
				return true
			}
		}
		return false
	})

	// The cash box open at the cut, closed by power-up; a board latch.
	r.cab.Post(Door{Name: deck.Cashbox, Open: true})
	r.until("door open", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeDoorOpen })
	gate.set(nil, false)
	r.powerCut()
	r.clock.Advance(10 * time.Minute)
	seq = r.lastEventSeq()
	r.start("demo")
	gate.set(r.led, true)
	r.cab.Post(DoorWhileOff{Name: deck.Main, Open: true})
	r.idle()
	r.until("the cash box accounted for", 100*time.Millisecond, func(*view.Snapshot) bool {
		return len(r.eventsOf(seq, "door_closed_unpowered")) == 1
	})
	if es := r.eventsOf(seq, "door_closed_unpowered"); es[0].Source != "cashbox" || !strings.Contains(es[0].Text, "while unpowered between") {
		t.Fatalf("check 18: %+v", es[0])
	}
	if es := r.eventsOf(seq, "door_opened_unpowered"); len(es) != 1 || es[0].Source != "main" || !strings.Contains(es[0].Text, "board latch") {
		t.Fatalf("check 18: the board latch's record logged as %+v", es)
	}
}

// The "disabled by central" state is its own mode: the display words it
// apart from the link being down; with the link down as well, the link
// loss shows.
func TestDisabledByCentralIsNotLinkDown(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.cab.Post(CentralCommand{Command: "disable", Reason: "hall closed"})
	r.until("disabled", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeDisabled })
	r.blockedFor("disabled by the central system")
	r.cab.Post(LinkState{Up: false})
	r.until("link down", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeOutOfService })
	r.cab.Post(LinkState{Up: true})
	r.until("disabled again", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeDisabled })
	r.cab.Post(CentralCommand{Command: "enable"})
	r.idle()
}

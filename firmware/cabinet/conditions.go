package cabinet

import (
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// condState is what may stop play; the priority table (priority.go) is
// the one reader that decides what it blocks.
type condState struct {
	doors    map[string]bool
	tilts    map[string]tilt
	lockups  []ledger.Doc // handpays waiting for the attendant
	keys     map[string]bool
	linkUp   bool
	disabled string // reason the central system disabled the cabinet
	ramError bool
	started  bool // power-up recovery is done
	// powerUpOwed: a ledger copy fault refused this power-up's record; it
	// is written when the technician's repair succeeds.
	powerUpOwed bool

	off      *offState // the last power-down, as power-up found it (check 18)
	lastBeat time.Time // last heartbeat written to the ledger
}

type tilt struct {
	reason string
	source string
	// manual tilts end only with the technician key; others when their
	// condition clears.
	manual bool
}

// disable: the central system disabled the cabinet, for why; "" enables it.
func (s *condState) disable(why string) { s.disabled = why }

func newCondState(linkUp bool) condState {
	return condState{doors: map[string]bool{}, tilts: map[string]tilt{}, keys: map[string]bool{}, linkUp: linkUp}
}

// start: power-up recovery is done.
func (s *condState) start() { s.started = true }

// owePowerUp: the power-up's record was refused (owed) or is written.
func (s *condState) owePowerUp(owed bool) { s.powerUpOwed = owed }

// setTilt sets the tilt under key; false: it is set already, for that reason.
func (s *condState) setTilt(key string, t tilt) bool {
	if old, ok := s.tilts[key]; ok && old.reason == t.reason {
		return false
	}
	s.tilts[key] = t
	return true
}

// clearTilt ends the tilt under key and says which it was, if any.
func (s *condState) clearTilt(key string) (tilt, bool) {
	t, ok := s.tilts[key]
	delete(s.tilts, key)
	return t, ok
}

// clearManualTilts is the technician's key: it ends every tilt that
// waits for a technician except those under keep, and returns them.
func (s *condState) clearManualTilts(keep string) map[string]tilt {
	cleared := map[string]tilt{}
	for k, t := range s.tilts {
		if t.manual && k != keep {
			delete(s.tilts, k)
			cleared[k] = t
		}
	}
	return cleared
}

// ramFailed: no good ledger copy (check 4).
func (s *condState) ramFailed() { s.ramError = true }

// ramCleared is the technician's RAM clear: no error, tilt or lockup is left.
func (s *condState) ramCleared() {
	s.ramError = false
	s.tilts = map[string]tilt{}
	s.lockups = nil
}

// setKey turns key name on or off.
func (s *condState) setKey(name string, on bool) { s.keys[name] = on }

// setDoor: door name opened or closed; false: it already was.
func (s *condState) setDoor(name string, open bool) bool {
	if s.doors[name] == open {
		return false
	}
	s.doors[name] = open
	return true
}

func (s *condState) doorOpen() bool {
	for _, o := range s.doors {
		if o {
			return true
		}
	}
	return false
}

// setLink: the link went up or down; false: it already was.
func (s *condState) setLink(up bool) bool {
	if s.linkUp == up {
		return false
	}
	s.linkUp = up
	return true
}

// setLockups are the handpays waiting for the attendant, from the ledger's
// pending documents.
func (s *condState) setLockups(pending []ledger.Doc) {
	s.lockups = s.lockups[:0]
	for _, d := range pending {
		switch d.Kind {
		case ledger.DocHandpayWin, ledger.DocHandpayJackpot, ledger.DocHandpayCancel:
			s.lockups = append(s.lockups, d)
		}
	}
}

// transferOffered: the market lets the attendant put the first lockup, a
// large-win handpay, on the credit meter (check 26).
func (s *condState) transferOffered(toCredit bool) bool {
	return toCredit && len(s.lockups) > 0 && s.lockups[0].Kind == ledger.DocHandpayWin
}

// tower is the tower light's state, the one place it is decided (the app
// lights the tiers, app.setTower; test mode tests them, testlights.go):
// an open door; "call" where an attendant must come (a handpay or jackpot
// lockup, noReader: a lost card reader where the market plays only with a
// card, play stops until it is back); a tilt or a RAM error.
func (s *condState) tower(noReader bool) string {
	switch {
	case s.doorOpen():
		return "door"
	case len(s.lockups) > 0:
		return "call"
	case len(s.tilts) > 0 || s.ramError:
		return "tilt"
	case noReader:
		return "call"
	}
	return "off"
}

// poweredUp keeps what power-up found of the last power-down: a door open
// at the cut stays open (play and money stay off) until it reports
// itself, or doorGrace passes without a word.
func (s *condState) poweredUp(o *offState) {
	for name, open := range o.doors {
		if open {
			s.doors[name] = true
		}
	}
	s.off = o
}

// beatDue: the heartbeat is to be written at now (beatEvery after the
// last, or the clock went back); it is taken as written.
func (s *condState) beatDue(now time.Time) bool {
	if s.lastBeat.IsZero() || now.Sub(s.lastBeat) >= beatEvery || now.Before(s.lastBeat) {
		s.lastBeat = now
		return true
	}
	return false
}

// DefaultStorageLow: below this much free space a ledger write could fail
// mid-game; the cabinet stops taking money and games first.
const DefaultStorageLow = 64 << 20

// storageHealth tilts while the ledger's storage is low or unreadable
// (check 27, "low NV-storage health") and clears when it is not.
func (c *Cabinet) storageHealth(e StorageHealth) {
	switch {
	case e.Err != nil:
		c.setTilt("storage", "storage: cannot read free space: "+e.Err.Error(), false)
	case e.Free < c.cfg.StorageLow:
		c.setTilt("storage", fmt.Sprintf("storage low: %d MiB free, below %d MiB", e.Free>>20, c.cfg.StorageLow>>20), false)
	default:
		c.clearTilt("storage")
	}
}

// door: opening stops play at the end of the current step and disables
// money in and out (check 16); closing resumes the saved state (check 17).
func (c *Cabinet) door(name string, open bool) {
	if kind, what := c.cond.off.firstDoorInput(name, open); kind != "" {
		c.logDoorWhileOff(name, kind, what)
	}
	if !c.cond.setDoor(name, open) {
		return
	}
	var err error
	if open {
		err = c.led.DoorOpened(name)
		c.play.stopAuto("door: " + name)
	} else {
		err = c.led.DoorClosed(name)
		c.say(view.MsgDoorClosed, 0)
	}
	if err != nil {
		c.ledgerFailed("the door event", err)
	}
	if !c.cond.doorOpen() {
		c.verify("door closed")
		if r := c.play.round; r != nil {
			c.play.unpause(r, c.now(), c.cfg.Timing)
		}
	}
}

func (c *Cabinet) linkState(up bool) {
	if !c.cond.setLink(up) {
		return
	}
	if up {
		c.logEvent("link", "central", "up", 0)
		if r := c.play.round; r != nil && r.phase == phaseWaitOutcome && !r.ask.inFlight {
			c.askOutcome(r)
		}
		if co := c.cashOut.voucher; co != nil && co.phase == voucherAsking && !co.asking {
			c.loop.async(co.askVoucher(c.cfg.Central))
		}
		if c.player.askLogoutAgain() {
			c.loop.async(c.player.askLogout())
		}
		if c.menus.menu != nil && c.menus.menu.Title == menuVoucherUnanswered {
			c.menus.close() // the voucher is asked again: nothing to pay by hand
		}
	} else {
		c.logEvent("link", "central", "down", 0)
		c.play.stopAuto("link down")
	}
}

func (c *Cabinet) centralCommand(e CentralCommand) {
	switch e.Command {
	case "disable":
		why := e.Reason
		if why == "" {
			why = "disabled by the central system"
		}
		c.cond.disable(why)
		c.play.stopAuto("disabled")
	case "enable":
		c.cond.disable("")
	}
	c.logEvent("central_command", "central", e.Command+" "+e.Reason, 0)
}

package cabinet

import (
	"fmt"
)

// tiltSoftwareChanged is the lockup of a program change (check 9): it
// survives power cuts like every technician tilt and ends only with the
// technician key and Start.
const tiltSoftwareChanged = "software_changed"

// softwareIDKey keeps, in the ledger's software state, the identity of the
// software the technician last accepted.
const softwareIDKey = "software_id"

// checkSoftware runs at power-up: the first start records the running
// software; a different one later locks the cabinet up until a technician
// accepts it, logged with the old and the new identity.
func (c *Cabinet) checkSoftware() {
	id := c.cfg.Software.ID
	if id == "" {
		return
	}
	old, ok := load(c, stateSoftwareID)
	switch {
	case !ok:
		if !save(c, stateSoftwareID, id, moneyWrite) {
			return
		}
		c.logEvent("software_installed", "cabinet", id, 0)
	case old == id:
		// Back to the accepted software (a rollback before any reset).
		c.clearTilt(tiltSoftwareChanged)
	default:
		reason := fmt.Sprintf("software changed — technician reset required (%s → %s)", short(old), short(id))
		if t, ok := c.cond.tilts[tiltSoftwareChanged]; ok && t.reason == reason {
			return // logged at an earlier start
		}
		c.logEvent("software_changed", "cabinet", fmt.Sprintf("old %s new %s", old, id), 0)
		c.setTilt(tiltSoftwareChanged, reason, true)
	}
}

// acceptSoftware is the technician's reset after a program change: the
// running software becomes the accepted one.
func (c *Cabinet) acceptSoftware() {
	old, _ := load(c, stateSoftwareID)
	if !save(c, stateSoftwareID, c.cfg.Software.ID, moneyWrite) {
		return
	}
	c.logEvent("software_accepted", "technician", fmt.Sprintf("old %s new %s", old, c.cfg.Software.ID), 0)
	t := c.cond.tilts[tiltSoftwareChanged]
	delete(c.cond.tilts, tiltSoftwareChanged)
	c.saveTilts()
	c.logEvent("tilt_cleared", "technician", t.reason, 0)
	c.menus.menuPage, c.menus.recallStep = 0, 0
	c.loadRecall()
	c.showMenu()
}

func short(id string) string {
	if len(id) > 16 {
		return id[:16]
	}
	return id
}

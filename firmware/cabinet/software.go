package cabinet

import (
	"fmt"
)

// tiltSoftwareChanged is the lockup of a program change (check 9): it
// survives power cuts like every technician tilt and ends only with the
// technician key and Start.
const tiltSoftwareChanged = "software_changed"

// checkSoftware runs at power-up: the first start records the running
// software; a different one later locks the cabinet up until a technician
// accepts it, logged with the old and the new identity.
func (c *Cabinet) checkSoftware() {
	id := c.cfg.Software.ID
	if id == "" {
		return
	}
	old := c.led.Resume().SoftwareID
	switch {
	case old == "":
		// the first start: recorded with its event "software_installed"
		c.refused("the software identity", c.led.AcceptSoftware(id, "cabinet"), moneyWrite)
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
	// logged "software_accepted" with the old and the new identity
	if c.refused("the software identity", c.led.AcceptSoftware(c.cfg.Software.ID, "technician"), moneyWrite) {
		return
	}
	t, _ := c.cond.clearTilt(tiltSoftwareChanged)
	c.refused("the tilt cleared "+tiltSoftwareChanged, c.led.ClearTilt(tiltSoftwareChanged, "technician", t.reason), recordWrite)
	c.openMenu()
}

func short(id string) string {
	if len(id) > 16 {
		return id[:16]
	}
	return id
}

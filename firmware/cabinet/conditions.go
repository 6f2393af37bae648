package cabinet

import (
	"fmt"

	"github.com/polaris-vlt/polaris/firmware/view"
)

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
	c.firstDoorInput(name, open)
	if c.cond.doors[name] == open {
		return
	}
	c.cond.doors[name] = open
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
	if !c.doorOpen() {
		c.verify("door closed")
		if r := c.play.round; r != nil {
			c.play.unpause(r, c.now(), c.cfg.Timing)
		}
	}
}

func (c *Cabinet) linkState(up bool) {
	if c.cond.linkUp == up {
		return
	}
	c.cond.linkUp = up
	if up {
		c.logEvent("link", "central", "up", 0)
		if r := c.play.round; r != nil && r.phase == phaseWaitOutcome && !r.ask.inFlight {
			c.askOutcome(r)
		}
		if co := c.cashOut.voucher; co != nil && co.phase == voucherAsking && !co.asking {
			c.askVoucher(co)
		}
		if c.player.leaving != "" && !c.player.leaveCall {
			c.askLogout()
		}
		if c.menus.menu != nil && c.menus.menu.Title == menuVoucherUnanswered {
			c.menus.menu = nil // the voucher is asked again: nothing to pay by hand
		}
	} else {
		c.logEvent("link", "central", "down", 0)
		c.play.stopAuto("link down")
	}
}

func (c *Cabinet) centralCommand(e CentralCommand) {
	switch e.Command {
	case "disable":
		c.cond.disabled = e.Reason
		if c.cond.disabled == "" {
			c.cond.disabled = "disabled by the central system"
		}
		c.play.stopAuto("disabled")
	case "enable":
		c.cond.disabled = ""
	}
	c.logEvent("central_command", "central", e.Command+" "+e.Reason, 0)
}

package cabinet

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// Doors opened while unpowered (check 18). The ledger keeps, in its
// resume state, the doors open (DoorOpened, DoorClosed) and a heartbeat
// time (Heartbeat); at
// power-up the first input of each door is compared with its state at
// power-off, and a change is logged (and so reported to the central
// system with the events) with the power-off window: from the last beat
// before the cut to this power-up.

const (
	// beatEvery bounds how early the power-off window may start.
	beatEvery = time.Minute
	// doorGrace is how long after power-up a door open at power-off may
	// report itself; a door that reports nothing by then is closed.
	doorGrace = 3 * time.Second
)

// offState is what power-up found of the last power-down.
type offState struct {
	doors    map[string]bool // door states at power-off
	lastBeat time.Time       // last sign of life before the cut
	on       time.Time       // this power-up
	seen     map[string]bool // doors that have reported since power-up
	done     bool            // every door is accounted for
}

// readOffState runs at power-up (now), before the ledger logs the power-up.
func readOffState(led *ledger.Ledger, now time.Time) *offState {
	rs := led.Resume()
	o := &offState{doors: rs.Doors, seen: map[string]bool{}, on: now, lastBeat: rs.Beat}
	// The last event logged is a sign of life too (a door, a key, a tilt).
	if es := led.Events(1); len(es) > 0 && es[0].Wall.After(o.lastBeat) {
		o.lastBeat = es[0].Wall
	}
	return o
}

func (o *offState) window() string {
	from := "unknown"
	if !o.lastBeat.IsZero() {
		from = o.lastBeat.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("while unpowered between %s and %s", from, o.on.UTC().Format(time.RFC3339))
}

// firstDoorInput compares a door's first input since power-up with its
// state at power-off.
// It returns the event to log and what happened, or "" if nothing did.
func (o *offState) firstDoorInput(name string, open bool) (kind, what string) {
	if o == nil || o.done || o.seen[name] {
		return "", ""
	}
	o.seen[name] = true
	switch was := o.doors[name]; {
	case open && !was:
		return "door_opened_unpowered", "opened"
	case !open && was:
		return "door_closed_unpowered", "closed"
	}
	return "", ""
}

// DoorWhileOff is a door switch change a board's battery-backed latch
// recorded while the cabinet was off (where the board has one).
type DoorWhileOff struct {
	Name string
	Open bool
}

func (DoorWhileOff) event() {}

// logged is the event the latch's change is logged as, and what happened.
func (e DoorWhileOff) logged() (kind, what string) {
	if e.Open {
		return "door_opened_unpowered", "opened (board latch)"
	}
	return "door_closed_unpowered", "closed (board latch)"
}

func (c *Cabinet) logDoorWhileOff(name, kind, what string) {
	o := c.cond.off
	data, _ := json.Marshal(map[string]any{"door": name, "last_beat": o.lastBeat, "power_up": o.on})
	text := fmt.Sprintf("%s door %s %s", name, what, o.window())
	c.cfg.Hooks.Logf("cabinet: %s", text)
	c.refused("the event "+kind, c.led.LogEvent(kind, name, text, 0, data), recordWrite)
}

// tickPowerOff closes the power-up check once the doors had time to
// report, and keeps the heartbeat.
func (c *Cabinet) tickPowerOff(now time.Time) {
	if o := c.cond.off; o != nil && !o.done && !now.Before(o.on.Add(doorGrace)) {
		o.done = true
		for name, was := range o.doors {
			if was && !o.seen[name] {
				c.logDoorWhileOff(name, "door_closed_unpowered", "closed")
				c.door(name, false)
			}
		}
	}
	if c.cond.ramError || c.holds(condSoftware) {
		return
	}
	if c.cond.beatDue(now) {
		c.refused("the heartbeat", c.led.Heartbeat(c.wall()), recordWrite)
	}
}

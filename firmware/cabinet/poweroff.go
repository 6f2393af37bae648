package cabinet

import (
	"encoding/json"
	"fmt"
	"time"
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

// readOffState runs at power-up, before the ledger logs the power-up.
func (c *Cabinet) readOffState() {
	rs := c.led.Resume()
	o := &offState{doors: rs.Doors, seen: map[string]bool{}, on: c.now(), lastBeat: rs.Beat}
	// The last event logged is a sign of life too (a door, a key, a tilt).
	if es := c.led.Events(1); len(es) > 0 && es[0].Wall.After(o.lastBeat) {
		o.lastBeat = es[0].Wall
	}
	c.cond.poweredUp(o)
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
func (c *Cabinet) firstDoorInput(name string, open bool) {
	o := c.cond.off
	if o == nil || o.done || o.seen[name] {
		return
	}
	o.seen[name] = true
	switch was := o.doors[name]; {
	case open && !was:
		c.logDoorWhileOff(name, "door_opened_unpowered", "opened")
	case !open && was:
		c.logDoorWhileOff(name, "door_closed_unpowered", "closed")
	}
}

// DoorWhileOff is a door switch change a board's battery-backed latch
// recorded while the cabinet was off (where the board has one).
type DoorWhileOff struct {
	Name string
	Open bool
}

func (DoorWhileOff) event() {}

func (c *Cabinet) doorWhileOff(e DoorWhileOff) {
	if c.cond.off == nil {
		return
	}
	what, kind := "closed", "door_closed_unpowered"
	if e.Open {
		what, kind = "opened", "door_opened_unpowered"
	}
	c.logDoorWhileOff(string(e.Name), kind, what+" (board latch)")
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

package cabinet

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// EventTimeChange is the ledger event of a step of the cabinet's clock.
const EventTimeChange = "time_change"

// TimeChanged says the cabinet's clock (a clock.Disciplined following the
// central system's, check 38) has just stepped. The cabinet only logs it:
// the step itself is the clock's, taken by whoever measured the central
// time (firmware/app, at every Hello and TIME command). Events keep their
// order across a step by their sequence number and by the time since the
// power-up, both of which never go back; only the wall time moves.
type TimeChanged struct{ Step clock.Step }

func (TimeChanged) event() {}

// timeChange is the event's data: the times before and after the step.
type timeChange struct {
	Old time.Time `json:"old"`
	New time.Time `json:"new"`
}

// logTimeStep logs a step of the clock by who made it: the central system
// or the technician (configpage.go).
func (c *Cabinet) logTimeStep(who string, s clock.Step) {
	data, _ := json.Marshal(timeChange{Old: s.Old.UTC(), New: s.New.UTC()})
	what := "clock set to the central time"
	if who != "central" {
		what = "clock set by the " + who
	}
	text := fmt.Sprintf("%s: %s -> %s (%+.3fs)", what,
		s.Old.UTC().Format(time.RFC3339Nano), s.New.UTC().Format(time.RFC3339Nano), s.By().Seconds())
	c.cfg.Hooks.Logf("cabinet: %s", text)
	if err := c.led.LogEvent(EventTimeChange, who, text, 0, data); err != nil && errors.Is(err, ledger.ErrRAMError) {
		c.cond.ramFailed()
	}
}

package cabinet

import (
	"context"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// Test mode's output tests (check 28's device tests), stepped with the
// Info button: each colour of the tower light in turn, lit steady through
// the board's outputs (the snapshot's Tower "test:<colour>", which the app
// writes to the tier), then one test pulse on each hard meter, then off.
//
// A test pulse moves the electromechanical meter by one and nothing else:
// no electronic meter changes in test mode (standards.md §1.11) and the
// units the meter owes for money are unchanged (gpio.Controller.TestPulse
// does not record it). The meter then reads one more than the money it
// counts; every test pulse is logged ("meter_test"), so the audit
// reconciles the two.

// TestOutputs are the board's outputs test mode drives directly. The app's
// GPIO is one; nil (no board): the tower test still steps the snapshot's
// tower through the usual colours, and there is no meter to pulse.
type TestOutputs interface {
	TowerColours() []string // wired tiers, top down
	Meters() []string       // wired hard meters
	TestPulse(meter string) error
}

// defaultTower are the tiers tested without a board.
var defaultTower = []string{"red", "yellow", "white", "amber", "green", "blue"}

// testOutputsState is where the output tests are.
type testOutputsState struct {
	step   int    // 0: nothing; 1..len(colours): that tier lit; len+1: meters pulsed
	pulsed string // "" before a meter test, "…" during it, "-" when it had no meter; else the last test's results below
	pulses []meterPulse
}

// meterPulse is one hard meter's answer to the meter test: err "" pulsed.
type meterPulse struct{ meter, err string }

// hardMeters are the hard meters the catalogues name (gpio's); another
// is shown by its board name.
var hardMeters = map[string]bool{"in": true, "out": true, "drop": true, "jackpot": true, "games": true}

// SetTestOutputs gives test mode the board's outputs; call before Run.
func (c *Cabinet) SetTestOutputs(o TestOutputs) { c.tech.outputs = o }

// towerColours are the tower's tiers test mode lights in turn.
func (t *techState) towerColours() []string {
	if o := t.outputs; o != nil {
		return o.TowerColours()
	}
	return defaultTower
}

// testOutputsPress steps the output tests.
func (c *Cabinet) testOutputsPress() {
	cols := c.tech.towerColours()
	switch s := c.test.stepOutputs(len(cols)); {
	case s >= 1 && s <= len(cols):
		c.logEvent("test_mode", "technician", "tower light test: "+cols[s-1], 0)
	case s == len(cols)+1:
		c.pulseTest()
	}
}

// pulseTest gives each wired hard meter one test pulse, off the loop (the
// GPIO bank may be slow), and logs each.
func (c *Cabinet) pulseTest() {
	o := c.tech.outputs
	if o == nil {
		c.test.pulsing(false)
		return
	}
	c.test.pulsing(true)
	c.loop.async(func(context.Context) Event {
		var pulses []meterPulse
		for _, m := range o.Meters() {
			p := meterPulse{meter: m}
			if err := o.TestPulse(m); err != nil {
				p.err = err.Error()
			}
			pulses = append(pulses, p)
		}
		return techReply{apply: func(c *Cabinet) {
			for _, p := range pulses {
				if p.err == "" {
					c.logEvent("meter_test", "technician", "test pulse on hard meter "+p.meter+" (not counted as money)", 0)
				} else {
					c.logEvent("meter_test", "technician", "test pulse refused: "+p.meter+": "+p.err, 0)
				}
			}
			if c.test == nil {
				return
			}
			c.test.pulsed(pulses)
			c.showTest()
		}}
	})
}

// stepOutputs steps the output tests over the tower's n tiers, then the
// meters, then off; it returns the step now.
func (t *testState) stepOutputs(n int) int {
	t.outputs.step = (t.outputs.step + 1) % (n + 2)
	return t.outputs.step
}

// pulsing: the meter test began; false: there is no meter to pulse.
func (t *testState) pulsing(meters bool) {
	t.outputs.pulsed = "-"
	if meters {
		t.outputs.pulsed = "…"
	}
}

// pulsed are the meters' answers to the meter test.
func (t *testState) pulsed(pulses []meterPulse) {
	t.outputs.pulsed, t.outputs.pulses = "", pulses
	if len(pulses) == 0 {
		t.outputs.pulsed = "-"
	}
}

// tower is the snapshot's Tower in test mode (cols: the tiers), "" when
// no tier is tested.
func (t *testState) tower(cols []string) string {
	if s := t.outputs.step; s >= 1 && s <= len(cols) {
		return "test:" + cols[s-1]
	}
	return ""
}

// outputLines are the test page's lines of the output tests.
func (t *testState) outputLines(cols []string) []view.MenuLine {
	tower := view.Text("-")
	if s := t.outputs.step; s >= 1 && s <= len(cols) {
		tower = view.Key("colour." + cols[s-1])
	}
	pulsed := view.Text("-")
	if t.outputs.pulsed != "" {
		pulsed = view.Text(t.outputs.pulsed)
	} else if len(t.outputs.pulses) > 0 {
		pulsed = view.Text("")
	}
	ls := []view.MenuLine{view.Line("menu.test_mode.tower", tower), view.Line("menu.test_mode.meters", pulsed)}
	// One line a meter, by its translated name: the board's ids (in, out,
	// drop) are not words a technician on a Czech screen reads.
	for _, p := range t.outputs.pulses {
		name := view.Text(p.meter)
		if hardMeters[p.meter] {
			name = view.Key("hardmeter." + p.meter)
		}
		if p.err == "" {
			ls = append(ls, view.Line("menu.test_mode.meter_pulsed", name))
		} else {
			ls = append(ls, view.Line("menu.test_mode.meter_refused", name, view.Text(p.err)))
		}
	}
	return ls
}

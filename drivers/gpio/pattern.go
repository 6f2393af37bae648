package gpio

import (
	"fmt"
	"time"
)

// Step is one phase of a Pattern.
type Step struct {
	On  bool
	For time.Duration
}

// Pattern is a repeating sequence of on/off steps for a lamp. Patterns run in
// phase with the Controller's epoch, so every lamp blinking the same pattern
// blinks together. A pattern without steps is steady off.
type Pattern struct {
	Name  string
	Steps []Step
}

// Standard patterns.
var (
	Off       = Pattern{Name: "off"}
	On        = Pattern{Name: "on", Steps: []Step{{true, time.Second}}}
	BlinkSlow = Blink("blink-slow", 500*time.Millisecond, 500*time.Millisecond)
	BlinkFast = Blink("blink-fast", 125*time.Millisecond, 125*time.Millisecond)
	// DoubleFlash is two short flashes then a pause: a service call on a candle.
	DoubleFlash = Pattern{Name: "double-flash", Steps: []Step{
		{true, 100 * time.Millisecond}, {false, 100 * time.Millisecond},
		{true, 100 * time.Millisecond}, {false, 700 * time.Millisecond},
	}}
)

// Blink is on for on, off for off, repeated.
func Blink(name string, on, off time.Duration) Pattern {
	return Pattern{Name: name, Steps: []Step{{true, on}, {false, off}}}
}

// Validate refuses patterns whose steps are not all positive.
func (p Pattern) Validate() error {
	for i, s := range p.Steps {
		if s.For <= 0 {
			return fmt.Errorf("gpio: pattern %q step %d has duration %v", p.Name, i, s.For)
		}
	}
	return nil
}

func (p Pattern) period() time.Duration {
	var t time.Duration
	for _, s := range p.Steps {
		t += s.For
	}
	return t
}

// At returns the lamp level at elapsed time since the epoch and the time
// until the level may next change (0 for a steady pattern).
func (p Pattern) At(elapsed time.Duration) (on bool, next time.Duration) {
	if len(p.Steps) == 0 {
		return false, 0
	}
	steady := true
	for _, s := range p.Steps[1:] {
		if s.On != p.Steps[0].On {
			steady = false
		}
	}
	if steady {
		return p.Steps[0].On, 0
	}
	if elapsed < 0 {
		elapsed = 0
	}
	pos := elapsed % p.period()
	for _, s := range p.Steps {
		if pos < s.For {
			return s.On, s.For - pos
		}
		pos -= s.For
	}
	return p.Steps[0].On, p.Steps[0].For // unreachable: pos < period
}

package gpio

import (
	"fmt"
	"time"
)

// Event is what the Controller reports: InputChanged, MeterPulsed,
// MeterFailed or BankFailed.
type Event interface {
	When() time.Time
	String() string
}

// InputChanged is a debounced change of an input. Active means pressed for a
// button, turned for a key, open for a door. At is when the new level was
// first seen without a bounce after it; the event is delivered one debounce
// window later.
type InputChanged struct {
	Input  Input
	Active bool
	At     time.Time
}

func (e InputChanged) When() time.Time { return e.At }

func (e InputChanged) String() string {
	var verb string
	switch e.Input.Kind() {
	case KindButton:
		verb = map[bool]string{true: "pressed", false: "released"}[e.Active]
	case KindKey:
		verb = map[bool]string{true: "turned on", false: "turned off"}[e.Active]
	default:
		verb = map[bool]string{true: "opened", false: "closed"}[e.Active]
	}
	return fmt.Sprintf("%s %s at %s", e.Input, verb, e.At.Format("15:04:05.000"))
}

// MeterPulsed reports one unit pulsed and recorded in the MeterStore, or
// with Test a test pulse (TestPulse), not recorded.
type MeterPulsed struct {
	Meter     Meter
	Remaining int64 // units still owed
	Test      bool
	At        time.Time
}

func (e MeterPulsed) When() time.Time { return e.At }

func (e MeterPulsed) String() string {
	if e.Test {
		return fmt.Sprintf("meter %s test pulse, %d owed", e.Meter, e.Remaining)
	}
	return fmt.Sprintf("meter %s pulsed, %d owed", e.Meter, e.Remaining)
}

// MeterFailed reports that a meter stopped pulsing: its sense line did not
// confirm a pulse, or the store failed. The owed units stay owed; Kick
// retries.
type MeterFailed struct {
	Meter  Meter
	Reason string
	At     time.Time
}

func (e MeterFailed) When() time.Time { return e.At }

func (e MeterFailed) String() string {
	return fmt.Sprintf("meter %s failed: %s", e.Meter, e.Reason)
}

// BankFailed reports that reading or writing a bank failed. Run stops after
// it; the firmware should tilt.
type BankFailed struct {
	Err error
	At  time.Time
}

func (e BankFailed) When() time.Time { return e.At }
func (e BankFailed) String() string  { return "gpio bank failed: " + e.Err.Error() }

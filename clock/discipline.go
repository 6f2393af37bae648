package clock

import (
	"sync"
	"time"
)

// DefaultTolerance is how far the cabinet's time may be from the central
// system's before it is stepped (check 38). After a measurement the error
// is at most the tolerance plus half the round trip of the measurement.
const DefaultTolerance = time.Second

// Disciplined is the cabinet's time following a reference (the central
// system's): the local clock plus an offset. The offset changes only in a
// step, when a measurement finds the error above the tolerance; within it
// the time runs on the local clock undisturbed, so stamps never jitter.
// Durations (After, and Raw for elapsed time) come from the local clock,
// which a step does not move. Safe for concurrent use.
type Disciplined struct {
	raw Clock
	tol time.Duration

	mu     sync.Mutex
	offset time.Duration
}

// Step is a change of the disciplined time: its reading just before and
// just after.
type Step struct{ Old, New time.Time }

// By is how far the time moved (negative: back).
func (s Step) By() time.Duration { return s.New.Sub(s.Old) }

// NewDisciplined follows a reference on top of raw; tolerance <= 0 means
// DefaultTolerance.
func NewDisciplined(raw Clock, tolerance time.Duration) *Disciplined {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	return &Disciplined{raw: raw, tol: tolerance}
}

// Now is the local time plus the offset.
func (d *Disciplined) Now() time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.raw.Now().Add(d.offset)
}

// After waits on the local clock: a step neither shortens nor lengthens it.
func (d *Disciplined) After(dur time.Duration) <-chan time.Time { return d.raw.After(dur) }

// Raw is the local clock beneath.
func (d *Disciplined) Raw() Clock { return d.raw }

// Tolerance is the error a measurement may find without a step.
func (d *Disciplined) Tolerance() time.Duration { return d.tol }

// Offset is the reference's time minus the local clock's, as last stepped.
func (d *Disciplined) Offset() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.offset
}

// Follow takes a measurement: offset is the reference's time minus the
// local (Raw) clock's (what central/link's HelloInfo.Offset is on a link
// reading the local clock). An error above the tolerance steps the time to
// the reference and returns the step, for the caller to log; otherwise
// nothing changes.
func (d *Disciplined) Follow(offset time.Duration) (Step, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e := offset - d.offset; e >= -d.tol && e <= d.tol {
		return Step{}, false
	}
	now := d.raw.Now()
	s := Step{Old: now.Add(d.offset), New: now.Add(offset)}
	d.offset = offset
	return s, true
}

// Raw returns the clock beneath c when c is disciplined, else c: elapsed
// time measured on it never goes back with a step.
func Raw(c Clock) Clock {
	if d, ok := c.(interface{ Raw() Clock }); ok {
		return d.Raw()
	}
	return c
}

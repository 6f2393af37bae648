package ledger

import (
	"sync"
	"time"
)

// Clock gives wall time and a monotonic reading. Mono is measured from the
// clock's own start (one power-up); the event log records both with the
// power-up count, so ordering across restarts is by sequence number.
type Clock interface {
	Wall() time.Time
	Mono() time.Duration
}

// SystemClock is the real clock.
type SystemClock struct{ start time.Time }

// NewSystemClock starts a monotonic epoch now.
func NewSystemClock() *SystemClock { return &SystemClock{start: time.Now()} }

// Wall returns UTC wall time.
func (c *SystemClock) Wall() time.Time { return time.Now().UTC() }

// Mono returns the time since the clock was made, from the monotonic clock.
func (c *SystemClock) Mono() time.Duration { return time.Since(c.start) }

// FakeClock is a settable clock for tests.
type FakeClock struct {
	mu   sync.Mutex
	wall time.Time
	mono time.Duration
}

// NewFakeClock starts at wall.
func NewFakeClock(wall time.Time) *FakeClock { return &FakeClock{wall: wall.UTC()} }

// Advance moves both readings forward.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.wall = c.wall.Add(d)
	c.mono += d
	c.mu.Unlock()
}

// Wall returns the fake wall time.
func (c *FakeClock) Wall() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.wall }

// Mono returns the fake monotonic reading.
func (c *FakeClock) Mono() time.Duration { c.mu.Lock(); defer c.mu.Unlock(); return c.mono }

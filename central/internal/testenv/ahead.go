package testenv

import "time"

// Ahead is a cabinet's clock (link.Config.Clock) d ahead of c: its stamps
// move with the server's test clock, its waits are real.
func (c *Clock) Ahead(d time.Duration) AheadClock { return AheadClock{c, d} }

// AheadClock is Clock.Ahead's clock.
type AheadClock struct {
	c *Clock
	d time.Duration
}

func (a AheadClock) Now() time.Time                         { return a.c.Now().Add(a.d) }
func (a AheadClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

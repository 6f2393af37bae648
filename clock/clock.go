// Package clock is the time every room of the cabinet is given instead of
// reading it: Clock, the system's (System) and the tests' (clocktest, beside
// it), which moves only when told, so a test runs a day of play in seconds; and
// Disciplined, the cabinet's time following the central system's within a
// tolerance, stepping (for the caller to log) above it (check 38). It is a
// leaf: the standard library only.
package clock

import "time"

// Clock tells the time and waits on it. Logic never calls time.Now or
// time.After directly.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// System is the real clock.
type System struct{}

func (System) Now() time.Time                         { return time.Now() }
func (System) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Package healthtest drives a health.Monitor on a manual clock, with a
// Feeder on the fake Notifier, so a test can prove that stalling one real
// loop (a device driver's, the cabinet's) stops the watchdog pings and that
// they resume when it recovers. Time in the monitor moves only when the rig
// says so; the loops themselves run on real time, and the rig waits for
// each registered heart to beat after every step, so a loaded machine makes
// the test slower, not flaky.
package healthtest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/firmware/health"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Patience bounds each real-time wait for a beat or a stall; it only costs
// time when the test fails.
const Patience = 10 * time.Second

// Rig is a Monitor on a manual clock, fed to a Recorder through a Feeder.
type Rig struct {
	T        testing.TB
	Monitor  *health.Monitor
	Recorder *health.Recorder
	Feeder   *health.Feeder

	mu  sync.Mutex
	now time.Time
}

// New returns a rig whose clock starts at a fixed instant.
func New(t testing.TB) *Rig {
	r := &Rig{T: t, Recorder: &health.Recorder{}, now: time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)}
	r.Monitor = health.New(r.Now)
	r.Feeder = &health.Feeder{Monitor: r.Monitor, Notifier: r.Recorder, Logf: t.Logf}
	return r
}

// Now is the monitor's clock.
func (r *Rig) Now() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now
}

// Advance moves the monitor's clock on by d.
func (r *Rig) Advance(d time.Duration) {
	r.mu.Lock()
	r.now = r.now.Add(d)
	r.mu.Unlock()
}

// Pings is how many times the watchdog was fed.
func (r *Rig) Pings() int { return r.Recorder.Count(health.StateWatchdog) }

func (r *Rig) status() map[string]health.Component {
	m := map[string]health.Component{}
	for _, c := range r.Monitor.Status() {
		m[c.Name] = c
	}
	return m
}

// step moves the monitor's clock by half the shortest window, then waits
// until every registered heart except skip has beaten at the new time.
func (r *Rig) step(skip string) {
	r.T.Helper()
	st := r.status()
	if len(st) == 0 {
		r.T.Fatal("healthtest: nothing registered")
	}
	half := time.Duration(1<<63 - 1)
	for _, c := range st {
		half = min(half, c.Window/2)
	}
	r.Advance(half)
	before := r.status() // a beat counted after this snapshot carries the new time
	deadline := time.Now().Add(poll.Scaled(Patience))
	for {
		var missing []string
		for name, c := range r.status() {
			if name != skip && c.Beats <= before[name].Beats {
				missing = append(missing, name)
			}
		}
		if missing == nil {
			return
		}
		if time.Now().After(deadline) {
			r.T.Fatalf("healthtest: no beat from %v within %v", missing, poll.Scaled(Patience))
		}
		time.Sleep(time.Millisecond)
	}
}

// Healthy steps the clock n times, each time after every loop beat again,
// and requires a watchdog ping on each tick.
func (r *Rig) Healthy(n int) {
	r.T.Helper()
	for i := 0; i < n; i++ {
		r.step("")
		before := r.Pings()
		if err := r.Feeder.Tick(); err != nil {
			r.T.Fatalf("healthtest: healthy tick %d: %v", i, err)
		}
		if r.Pings() != before+1 {
			r.T.Fatalf("healthtest: healthy tick %d did not feed the watchdog", i)
		}
	}
}

// Stall is one loop to wedge.
type Stall struct {
	Name string // its heart
	// Quiet is real time in which the live loop surely beats (many of its
	// cycles): the rig checks that it does before the stall, and that it
	// does not while wedged.
	Quiet   time.Duration
	Hold    func()      // wedges the loop (holds its Read, say)
	Wedged  func() bool // reports that the loop is blocked
	Release func()      // frees it
}

// Stall proves the watchdog depends on the loop behind s.Name: while the
// loop is wedged its heart must not beat; once its window has passed the
// Feeder must stop feeding and name it, and only it; after release the
// loop must beat again and feeding resume.
func (r *Rig) Stall(s Stall) {
	r.T.Helper()
	c, ok := r.status()[s.Name]
	if !ok {
		r.T.Fatalf("healthtest: %q is not registered (have %v)", s.Name, r.Monitor.Status())
	}
	r.Healthy(2)
	// The live loop beats within Quiet: asked until it has, not once after
	// Quiet (a loaded machine may run the loop late within it).
	n := r.status()[s.Name].Beats
	for deadline := time.Now().Add(s.Quiet); r.status()[s.Name].Beats == n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			r.T.Fatalf("healthtest: the live %s loop did not beat within %v: Quiet proves nothing", s.Name, s.Quiet)
		}
	}
	s.Hold()
	released := false
	defer func() {
		if !released {
			s.Release() // a failed test must not leave the loop wedged for cleanup
		}
	}()
	deadline := time.Now().Add(poll.Scaled(Patience))
	for !s.Wedged() {
		if time.Now().After(deadline) {
			r.T.Fatalf("healthtest: the %s loop did not block within %v", s.Name, poll.Scaled(Patience))
		}
		time.Sleep(time.Millisecond)
	}
	beats := r.status()[s.Name].Beats
	start := r.Now()
	stalledTicks := 0
	for r.Now().Sub(start) <= c.Window+c.Window/2 {
		r.step(s.Name)
		// sleep-ok: the loop is blocked (Wedged said so); Quiet is the window in which a beat that got past the wedge would show, and nothing marks its absence
		time.Sleep(s.Quiet) // a beat now would carry the new time
		if got := r.status()[s.Name].Beats; got != beats {
			r.T.Fatalf("healthtest: %s beat %d times while its loop was wedged", s.Name, got-beats)
		}
		before := r.Pings()
		err := r.Feeder.Tick()
		if r.Now().Sub(start) <= c.Window {
			continue // its last beat may still be within the window
		}
		var se *health.StaleError
		if !errors.As(err, &se) || len(se.Stale) != 1 || se.Stale[0].Name != s.Name {
			r.T.Fatalf("healthtest: %s wedged for %v (window %v): Tick = %v, want only %s stale",
				s.Name, r.Now().Sub(start), c.Window, err, s.Name)
		}
		if r.Pings() != before {
			r.T.Fatalf("healthtest: the watchdog was fed while %s was wedged", s.Name)
		}
		stalledTicks++
	}
	if stalledTicks == 0 {
		r.T.Fatal("healthtest: no tick past the window")
	}
	s.Release()
	released = true
	r.Healthy(2)
}

// String describes the monitor for failure messages.
func (r *Rig) String() string { return fmt.Sprint(r.Monitor.Status()) }

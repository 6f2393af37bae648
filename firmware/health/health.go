package health

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Monitor holds the last beat of every registered component.
type Monitor struct {
	now   func() time.Time
	mu    sync.Mutex
	comps map[string]*Heart
}

// Heart is one component's handle; Beat is cheap and safe from any goroutine.
type Heart struct {
	m      *Monitor
	name   string
	window time.Duration
	last   time.Time // registration time until the first beat: a grace of one window
	beats  uint64
}

// New returns a Monitor reading time from now (injected: tests drive it).
func New(now func() time.Time) *Monitor {
	return &Monitor{now: now, comps: map[string]*Heart{}}
}

// Register adds a component that must beat at least once per window. A name
// registered twice is a programming error and panics, so two loops cannot
// silently share one heart.
func (m *Monitor) Register(name string, window time.Duration) *Heart {
	if window <= 0 {
		panic("health: window must be positive for " + name)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.comps[name]; dup {
		panic("health: component registered twice: " + name)
	}
	h := &Heart{m: m, name: name, window: window, last: m.now()}
	m.comps[name] = h
	return h
}

// Unregister removes a component that stopped on purpose (a device taken out
// of service by the operator); a loop that merely died must not call it.
func (m *Monitor) Unregister(h *Heart) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.comps[h.name] == h {
		delete(m.comps, h.name)
	}
}

// Name is the component's name.
func (h *Heart) Name() string { return h.name }

// Beat records that the component is alive now.
func (h *Heart) Beat() {
	h.m.mu.Lock()
	h.last = h.m.now()
	h.beats++
	h.m.mu.Unlock()
}

// Component is one registered heart as Status reports it.
type Component struct {
	Name   string
	Window time.Duration
	Last   time.Time // last beat (registration time until the first)
	Beats  uint64
}

// Status lists every registered component, sorted by name: for
// diagnostics, and for tests that wait for a loop's next beat.
func (m *Monitor) Status() []Component {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Component, 0, len(m.comps))
	for _, h := range m.comps {
		out = append(out, Component{Name: h.name, Window: h.window, Last: h.last, Beats: h.beats})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Stale is one component that missed its window.
type Stale struct {
	Name   string
	Silent time.Duration // since the last beat (or registration)
	Window time.Duration
}

// StaleError lists every component that missed its window, sorted by name.
type StaleError struct{ Stale []Stale }

func (e *StaleError) Error() string {
	parts := make([]string, len(e.Stale))
	for i, s := range e.Stale {
		parts[i] = fmt.Sprintf("%s silent %v (window %v)", s.Name, s.Silent, s.Window)
	}
	return "health: " + strings.Join(parts, ", ")
}

// ErrNothingRegistered: a monitor with no components proves nothing, so it
// is not healthy (it would otherwise feed the watchdog for an empty process).
var ErrNothingRegistered = fmt.Errorf("health: no component registered")

// Check returns nil when every component beat within its window, otherwise
// a *StaleError naming each silent one.
func (m *Monitor) Check() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.comps) == 0 {
		return ErrNothingRegistered
	}
	now := m.now()
	var st []Stale
	for _, h := range m.comps {
		if d := now.Sub(h.last); d > h.window {
			st = append(st, Stale{Name: h.name, Silent: d, Window: h.window})
		}
	}
	if st == nil {
		return nil
	}
	sort.Slice(st, func(i, j int) bool { return st[i].Name < st[j].Name })
	return &StaleError{Stale: st}
}

// Feeder pings the watchdog while the Monitor is healthy.
type Feeder struct {
	Monitor  *Monitor
	Notifier Notifier
	// Logf reports the transitions healthy→stalled→healthy (once each, not
	// every tick); nil discards.
	Logf func(format string, args ...any)

	stalled bool
}

// Tick checks once and pings if healthy; it returns the health error (nil
// when it pinged).
func (f *Feeder) Tick() error {
	err := f.Monitor.Check()
	if err != nil {
		if !f.stalled && f.Logf != nil {
			f.Logf("watchdog: not fed: %v", err)
		}
		f.stalled = true
		return err
	}
	if f.stalled && f.Logf != nil {
		f.Logf("watchdog: every component alive again, feeding")
	}
	f.stalled = false
	if _, nerr := f.Notifier.Notify(StateWatchdog); nerr != nil {
		return fmt.Errorf("health: notify: %w", nerr)
	}
	return nil
}

// Run calls Tick on every value from tick until ctx ends. Production passes
// time.NewTicker(WatchdogInterval()/2).C; tests pass their own channel.
func (f *Feeder) Run(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			f.Tick()
		}
	}
}

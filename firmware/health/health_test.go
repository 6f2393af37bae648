package health

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newWorld() (*clock, *Monitor, map[string]*Heart) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	m := New(c.now)
	hs := map[string]*Heart{
		"cabinet":  m.Register("cabinet", 2*time.Second),
		"render":   m.Register("render", 2*time.Second),
		"gpio":     m.Register("gpio", 2*time.Second),
		"acceptor": m.Register("acceptor", 5*time.Second),
		"printer":  m.Register("printer", 5*time.Second),
	}
	return c, m, hs
}

// The must-show: the watchdog stops being fed when the cabinet loop
// stalls, while every other loop keeps beating; and resumes when it recovers.
func TestWatchdogStopsWhenCabinetLoopStalls(t *testing.T) {
	c, m, hs := newWorld()
	rec := &Recorder{}
	var logs []string
	f := &Feeder{Monitor: m, Notifier: rec, Logf: func(f string, a ...any) { logs = append(logs, f) }}

	step := func(beat ...string) error {
		c.add(500 * time.Millisecond)
		for _, n := range beat {
			hs[n].Beat()
		}
		return f.Tick()
	}
	all := []string{"cabinet", "render", "gpio", "acceptor", "printer"}
	for i := 0; i < 10; i++ {
		if err := step(all...); err != nil {
			t.Fatalf("healthy tick %d: %v", i, err)
		}
	}
	if n := rec.Count(StateWatchdog); n != 10 {
		t.Fatalf("pings while healthy = %d, want 10", n)
	}
	// The cabinet loop stalls; the others go on.
	others := all[1:]
	var err error
	for i := 0; i < 4; i++ { // 2 s: still within the window
		if err = step(others...); err != nil {
			t.Fatalf("within window, tick %d: %v", i, err)
		}
	}
	for i := 0; i < 20; i++ {
		err = step(others...)
		var se *StaleError
		if !errors.As(err, &se) || len(se.Stale) != 1 || se.Stale[0].Name != "cabinet" {
			t.Fatalf("stalled tick %d: err = %v, want cabinet stale", i, err)
		}
	}
	if n := rec.Count(StateWatchdog); n != 14 {
		t.Fatalf("pings after the stall = %d, want 14 (none after the window)", n)
	}
	if !strings.Contains(err.Error(), "cabinet silent") {
		t.Fatalf("message %q does not name the cabinet loop", err)
	}
	// It recovers: pings resume.
	if err := step(all...); err != nil {
		t.Fatalf("after recovery: %v", err)
	}
	if n := rec.Count(StateWatchdog); n != 15 {
		t.Fatalf("pings after recovery = %d, want 15", n)
	}
	if len(logs) != 2 {
		t.Fatalf("logs = %q, want one stall and one recovery line", logs)
	}
}

func TestNeverBeatingComponentIsStaleAfterItsWindow(t *testing.T) {
	c, m, hs := newWorld()
	c.add(1 * time.Second)
	for _, h := range hs {
		h.Beat()
	}
	m.Register("late-device", time.Second) // registered, never beats
	if err := m.Check(); err != nil {
		t.Fatalf("grace of one window: %v", err)
	}
	c.add(1500 * time.Millisecond)
	var se *StaleError
	if err := m.Check(); !errors.As(err, &se) || se.Stale[0].Name != "late-device" {
		t.Fatalf("err = %v, want late-device stale", err)
	}
}

func TestEmptyMonitorIsNotHealthy(t *testing.T) {
	m := New(time.Now)
	rec := &Recorder{}
	f := &Feeder{Monitor: m, Notifier: rec}
	if err := f.Tick(); !errors.Is(err, ErrNothingRegistered) {
		t.Fatalf("err = %v", err)
	}
	if len(rec.States()) != 0 {
		t.Fatal("fed the watchdog with nothing registered")
	}
}

func TestUnregister(t *testing.T) {
	c, m, hs := newWorld()
	c.add(3 * time.Second)
	for n, h := range hs {
		if n != "printer" {
			h.Beat()
		}
	}
	c.add(3 * time.Second)
	for n, h := range hs {
		if n != "printer" {
			h.Beat()
		}
	}
	if m.Check() == nil {
		t.Fatal("printer silent 6 s should be stale")
	}
	m.Unregister(hs["printer"])
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	m := New(time.Now)
	m.Register("x", time.Second)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	m.Register("x", time.Second)
}

// Through a real notify socket: the Systemd notifier's datagrams arrive while
// healthy, and none while the cabinet loop is stalled.
func TestSystemdSocketFedOnlyWhileHealthy(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", "4000000")
	if d := WatchdogInterval(); d != 4*time.Second {
		t.Fatalf("WatchdogInterval = %v", d)
	}

	c, m, hs := newWorld()
	f := &Feeder{Monitor: m, Notifier: Systemd{}}
	tick := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { f.Run(ctx, tick); close(done) }()

	// read waits within for a notification.
	read := func(within time.Duration) string {
		conn.SetReadDeadline(time.Now().Add(within))
		b := make([]byte, 64)
		n, err := conn.Read(b)
		if err != nil {
			return ""
		}
		return string(b[:n])
	}
	beatAll := func() {
		for _, h := range hs {
			h.Beat()
		}
	}
	c.add(time.Second)
	beatAll()
	tick <- time.Time{}
	if got := read(poll.Scaled(5 * time.Second)); got != "WATCHDOG=1" {
		t.Fatalf("healthy: got %q", got)
	}
	c.add(3 * time.Second) // the cabinet loop misses its 2 s window
	for n, h := range hs {
		if n != "cabinet" {
			h.Beat()
		}
	}
	tick <- time.Time{}
	// A second tick is taken only once the first one's Tick has returned:
	// a notification it sent is in the socket by then, so a short read
	// finds it.
	tick <- time.Time{}
	if got := read(10 * time.Millisecond); got != "" {
		t.Fatalf("stalled: got %q, want nothing", got)
	}
	cancel()
	<-done
}

func TestRunSystemd(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	t.Setenv("WATCHDOG_USEC", "")
	if RunSystemd(context.Background(), New(time.Now), nil) {
		t.Fatal("started without a watchdog")
	}

	sock := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", "20000") // pings every 10 ms
	m := New(time.Now)
	h := m.Register("cabinet", time.Hour)
	h.Beat()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if !RunSystemd(ctx, m, nil) {
		t.Fatal("not started with WATCHDOG_USEC set")
	}
	conn.SetReadDeadline(time.Now().Add(poll.Scaled(5 * time.Second)))
	b := make([]byte, 64)
	n, err := conn.Read(b)
	if err != nil || string(b[:n]) != "WATCHDOG=1" {
		t.Fatalf("got %q, %v", b[:n], err)
	}
}

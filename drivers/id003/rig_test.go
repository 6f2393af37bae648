package id003_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/ptypair"
	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// escrowTimeout is the emulated acceptor's escrow time-out in tests.
const escrowTimeout = 1500 * time.Millisecond

// Test timings: the polls faster than the real defaults; the time-outs,
// deadlines for what a working acceptor does, generous and stretched by the
// tests' factor (a loaded 2-core machine held a reply past 200 ms × 3).
func testConfig(path string) id003.Config {
	c := id003.DefaultConfig(path)
	c.PollInterval = 10 * time.Millisecond
	c.BusyPollInterval = 5 * time.Millisecond
	c.ResponseTimeout = poll.Scaled(500 * time.Millisecond)
	c.StartupTimeout = poll.Scaled(time.Second)
	c.Retries = 2
	c.CommLostAfter = poll.Scaled(3 * time.Second)
	c.ResetTimeout = poll.Scaled(5 * time.Second)
	c.HoldInterval = 100 * time.Millisecond
	c.ReopenInterval = 50 * time.Millisecond
	return c
}

func testEmuConfig() emulator.Config {
	return emulator.Config{
		InitTime: 50 * time.Millisecond, AcceptTime: 50 * time.Millisecond, StackTime: 80 * time.Millisecond,
		ReturnTime: 300 * time.Millisecond, RejectTime: 300 * time.Millisecond,
		EscrowTimeout: escrowTimeout, UnpolledTimeout: poll.Scaled(5 * time.Second), // a host stall, not a test of it
	}
}

// wait bounds how long a test waits for something that should happen; it
// only costs time when the test fails, so it is generous for loaded machines.
const wait = 10 * time.Second

// rig is a driver and an emulated acceptor on the two ends of a
// pseudo-terminal, the driver going through go.bug.st/serial.
type rig struct {
	t      *testing.T
	pair   *ptypair.Pair
	emu    *emulator.Acceptor
	drv    *id003.Driver
	cfg    id003.Config
	ctx    context.Context
	stop   func() // stops the driver
	mu     sync.Mutex
	log    []id003.Event
	cursor int
	modes  []serialport.Mode
	// written counts the bytes every driver life of the rig wrote to the
	// line, to be matched with what the acceptor has consumed.
	written atomic.Int64
}

// countingPort counts the bytes the driver writes.
type countingPort struct {
	serialport.Port
	n *atomic.Int64
}

func (p countingPort) Write(b []byte) (int, error) {
	n, err := p.Port.Write(b)
	p.n.Add(int64(n))
	return n, err
}

// drained waits until the acceptor has read and answered every byte the
// driver wrote so far (a stopped driver's last ACK included).
func (r *rig) drained() {
	r.t.Helper()
	w := r.written.Load()
	poll.Until(r.t, wait, "the acceptor to consume what the driver wrote", func() bool { return r.emu.Consumed() >= w },
		func() string { return fmt.Sprintf("written %d, consumed %d", w, r.emu.Consumed()) })
}

type option func(*id003.Config, *emulator.Config)

func newRig(t *testing.T, opts ...option) *rig {
	t.Helper()
	pair, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, pair: pair, cfg: testConfig(pair.HostPath)}
	ecfg := testEmuConfig()
	for _, o := range opts {
		o(&r.cfg, &ecfg)
	}
	r.emu = emulator.New(pair.Device, ecfg)
	ctx, cancel := context.WithCancel(context.Background())
	r.ctx = ctx
	emuDone := make(chan struct{})
	go func() { r.emu.Run(ctx); close(emuDone) }()
	r.startDriver()
	t.Cleanup(func() {
		r.stop()
		cancel()
		pair.Close()
		<-emuDone
		if t.Failed() {
			t.Logf("events:\n%s", r.dump())
		}
	})
	return r
}

func (r *rig) startDriver() {
	cfg := r.cfg
	open := cfg.Open // an option's wrapper (a serialport.Gate), else the real port
	if open == nil {
		open = serialport.Open
	}
	cfg.Open = func(path string, m serialport.Mode) (serialport.Port, error) {
		r.mu.Lock()
		r.modes = append(r.modes, m)
		r.mu.Unlock()
		p, err := open(path, m)
		if err != nil {
			return nil, err
		}
		return countingPort{p, &r.written}, nil
	}
	r.drv = id003.New(cfg)
	ctx, cancel := context.WithCancel(r.ctx)
	done := make(chan error, 1)
	go func() { done <- r.drv.Run(ctx) }()
	evDone := make(chan struct{})
	drv := r.drv
	go func() {
		defer close(evDone)
		for {
			select {
			case e := <-drv.Events():
				r.mu.Lock()
				r.log = append(r.log, e)
				r.mu.Unlock()
			case <-ctx.Done():
				return
			}
		}
	}()
	r.stop = func() {
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				r.t.Errorf("Run returned %v, want context.Canceled", err)
			}
		case <-poll.After(wait):
			r.t.Error("Run did not return after cancel")
		}
		<-evDone
	}
}

func (r *rig) dump() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for i, e := range r.log {
		fmt.Fprintf(&b, "  %3d %v\n", i, e)
	}
	return b.String()
}

// events returns everything reported so far.
func (r *rig) events() []id003.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]id003.Event(nil), r.log...)
}

// await waits for the next event (after the cursor) of type T and moves
// the cursor past it.
func await[T id003.Event](r *rig, within time.Duration) T {
	r.t.Helper()
	deadline := time.Now().Add(poll.Scaled(within))
	for {
		r.mu.Lock()
		for i := r.cursor; i < len(r.log); i++ {
			if e, ok := r.log[i].(T); ok {
				r.cursor = i + 1
				r.mu.Unlock()
				return e
			}
		}
		r.mu.Unlock()
		if time.Now().After(deadline) {
			var zero T
			r.t.Fatalf("no %T within %v; events:\n%s", zero, within, r.dump())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// count counts events of type T reported so far.
func count[T id003.Event](r *rig) int {
	n := 0
	for _, e := range r.events() {
		if _, ok := e.(T); ok {
			n++
		}
	}
	return n
}

// since returns the events after the cursor.
func (r *rig) since() []id003.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]id003.Event(nil), r.log[r.cursor:]...)
}

// waitEmu waits for the emulator to show status code c.
func (r *rig) waitEmu(c byte, within time.Duration) {
	r.t.Helper()
	poll.Until(r.t, within, fmt.Sprintf("emulator status %02X", c), func() bool { return r.emu.Status() == c },
		func() string { return fmt.Sprintf("status %02X; events:\n%s", r.emu.Status(), r.dump()) })
}

func (r *rig) ready() {
	r.t.Helper()
	await[id003.Ready](r, wait)
	await[id003.Enabled](r, wait)
	r.waitEmu(0x11, wait)
}

func (r *rig) do(f func(context.Context) error) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(wait))
	defer cancel()
	if err := f(ctx); err != nil {
		r.t.Fatalf("command: %v", err)
	}
}

// settle waits until the acceptor is idle again and the driver has seen it
// idle. The driver reports a document's states as edges, so a second
// rejection that follows the first without an idle poll between them is
// the same REJECTING to it (on a real acceptor a person cannot insert the
// next note within one poll). Two polls answered after the acceptor is seen
// idle: the first was answered IDLING, and the driver sends the second only
// after it has read the first's answer.
func (r *rig) settle() {
	r.t.Helper()
	r.waitEmu(0x11, wait)
	n := r.polls()
	poll.Until(r.t, wait, "two polls answered after the acceptor went idle", func() bool { return r.polls() >= n+2 })
}

// polls counts the status requests the acceptor has answered.
func (r *rig) polls() int { return bytes.Count(r.emu.Received(), []byte{0x11}) }

func (r *rig) insertNote(code byte) {
	r.t.Helper()
	if err := r.emu.InsertNote(code); err != nil {
		r.t.Fatalf("insert note %02X: %v (acceptor status %02X)", code, err, r.emu.Status())
	}
}

func (r *rig) insertTicket(digits string) {
	r.t.Helper()
	if err := r.emu.InsertTicket(digits); err != nil {
		r.t.Fatalf("insert ticket: %v (acceptor status %02X)", err, r.emu.Status())
	}
}

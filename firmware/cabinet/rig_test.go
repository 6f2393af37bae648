package cabinet

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/clock/clocktest"

	"github.com/polaris-vlt/polaris/internal/poll"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer/printertest"
	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/outbox"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// fakeAcceptor records commands and, on Stack, behaves as the ID-003 driver
// does at VEND VALID: the BeforeAck hook, then the Stacked event.
type fakeAcceptor struct {
	mu       sync.Mutex
	cab      *Cabinet
	doc      id003.Document
	commands []string
	enabled  bool
	// stall: Stack is taken and nothing follows, as when the power goes
	// while the note moves to the stacker.
	stall bool
}

func (a *fakeAcceptor) log(s string) { a.mu.Lock(); a.commands = append(a.commands, s); a.mu.Unlock() }
func (a *fakeAcceptor) Enable(context.Context, id003.Accept) error {
	a.mu.Lock()
	a.enabled = true
	a.mu.Unlock()
	a.log("enable")
	return nil
}
func (a *fakeAcceptor) Disable(context.Context) error {
	a.mu.Lock()
	a.enabled = false
	a.mu.Unlock()
	a.log("disable")
	return nil
}
func (a *fakeAcceptor) Hold(context.Context) error { a.log("hold"); return nil }
func (a *fakeAcceptor) Return(context.Context) error {
	// Posted before it is logged: a test that sees the command logged knows
	// the Returned event is in the loop's queue (rig.returnedAfter).
	a.cab.Post(AcceptorEvent{id003.Returned{Doc: a.doc, ByHost: true}})
	a.log("return")
	return nil
}
func (a *fakeAcceptor) Stack(context.Context) error {
	a.log("stack")
	a.mu.Lock()
	stall := a.stall
	a.mu.Unlock()
	if stall {
		return nil
	}
	s := id003.Stacked{Doc: a.doc}
	if err := a.cab.BeforeAck(s); err != nil {
		return err
	}
	a.cab.Post(AcceptorEvent{s})
	return nil
}
func (a *fakeAcceptor) isEnabled() bool { a.mu.Lock(); defer a.mu.Unlock(); return a.enabled }

// count is how many times the cabinet has given the command cmd.
func (a *fakeAcceptor) count(cmd string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, c := range a.commands {
		if c == cmd {
			n++
		}
	}
	return n
}

type rig struct {
	t        testing.TB
	cab      *Cabinet
	led      *ledger.Ledger
	central  *embedded.Central
	clock    *clocktest.Clock
	acc      *fakeAcceptor
	prn      *printertest.Printer
	dir      string
	jackpots server.Jackpots
	outbox   *gatedOutbox // the ledger of the latest start, for the central link
	cancel   context.CancelFunc
	done     chan struct{}
	// eventsOut opens the ledger with outbox.EventMessage, as firmware/app does.
	eventsOut bool
	// ledgerClock stamps the ledger (nil: the system clock).
	ledgerClock clock.Clock
}

type rigOption func(*Config)

func withTiming(t Timing) rigOption { return func(c *Config) { c.Timing = t } }

func newRig(t *testing.T, marketID string, opts ...rigOption) *rig {
	return newRigWith(t, marketID, nil, opts...)
}

// newRigWith starts the embedded central system with a progressive
// jackpot engine (nil: none).
func newRigWith(t testing.TB, marketID string, jackpots server.Jackpots, opts ...rigOption) *rig {
	t.Helper()
	dir := t.TempDir()
	r := &rig{t: t, dir: dir, clock: clocktest.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)), jackpots: jackpots}
	r.start(marketID, opts...)
	return r
}

// start (re)builds the cabinet on the rig's ledger directories, as a power-up does.
func (r *rig) start(marketID string, opts ...rigOption) {
	t := r.t
	lo := ledger.Options{DirA: filepath.Join(r.dir, "a"), DirB: filepath.Join(r.dir, "b"), Clock: r.ledgerClock}
	if r.eventsOut {
		lo.EventMessage = outbox.EventMessage
	}
	led, err := ledger.Open(lo)
	if err != nil {
		led, err = ledger.Create(lo, "test")
	}
	if err != nil {
		t.Fatal(err)
	}
	r.led = led
	if r.outbox == nil {
		r.outbox = &gatedOutbox{}
	}
	r.outbox.set(led, true) // the link client follows the ledger across restarts
	if r.central == nil {
		r.central, err = embedded.Start(context.Background(), embedded.Options{DataDir: r.dir, Cabinet: "cab-1", Games: engine.Games(), Outbox: r.outbox, Jackpots: r.jackpots, NoJackpot: r.jackpots == nil})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.central.Close() })
	}
	prof, err := market.Builtin(marketID)
	if err != nil {
		t.Fatal(err)
	}
	r.prn = printertest.New(r.clock.Now)
	r.acc = &fakeAcceptor{}
	cfg := Config{ID: "cab-1", Site: Site{Name: "Test Hall", ID: "T-1"}, Market: prof, Ledger: led, Central: r.central.Client,
		Acceptor: r.acc, Printer: r.prn, Clock: r.clock, CallTimeout: 5 * time.Second, LinkUp: true,
		SigningKey: r.central.Server.PublicKey(), Hooks: Hooks{Logf: t.Logf}}
	for _, o := range opts {
		o(&cfg)
	}
	if sc, ok := cfg.Central.(*scriptedCentral); ok {
		sc.srv = r.central.Server
	}
	cab, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.cab = cab
	r.acc.cab = cab
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.done = make(chan struct{})
	go func() {
		defer close(r.done)
		cab.Run(ctx, time.Millisecond)
	}()
	go func() {
		for {
			select {
			case e := <-r.prn.Events():
				cab.Post(PrinterEvent{e})
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(r.stop)
}

func (r *rig) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	<-r.done
	r.cancel = nil
	r.led.Close()
}

// powerCut stops the cabinet between two events, as a power cut would.
func (r *rig) powerCut() {
	r.cab.Post(PowerOff{})
	<-r.done
	r.cancel()
	r.cancel = nil
	r.led.Close()
}

func (r *rig) press(b view.Button) { r.cab.Post(Press{Button: b}) }

// handled returns once the loop has handled every event posted before it
// (the loop takes its events in order): the positive proof that a press,
// a key or a device event the test posted has been decided on.
func (r *rig) handled() { r.cab.Sync() }

// returnedAfter waits until the acceptor has been told to return a
// document more than before times (before: acc.count("return") taken
// before the document was inserted), and the loop has handled the
// Returned event that follows: the document's decision was made and it
// was not stacked.
func (r *rig) returnedAfter(what string, before int) {
	r.t.Helper()
	poll.Until(r.t, 15*time.Second, what+": the acceptor told to return it", func() bool { return r.acc.count("return") > before })
	r.handled()
}

// until waits for the cabinet to reach a state; the fake clock moves in
// steps of tick meanwhile.
func (r *rig) until(what string, tick time.Duration, ok func(*view.Snapshot) bool) *view.Snapshot {
	r.t.Helper()
	var s *view.Snapshot
	poll.Until(r.t, 15*time.Second, what, func() bool {
		r.cab.Do(func() { r.cab.publish(); s = r.cab.View() })
		if ok(s) {
			return true
		}
		r.clock.Advance(tick)
		return false
	}, func() string {
		s := r.cab.View()
		return fmt.Sprintf("mode %s credit %d win %d tilts %v msg %q", s.Mode, s.Credit, s.Win, s.Tilts, s.Message)
	})
	return s
}

// state is the snapshot of the loop's state now (not the last one
// published), after every event posted before it.
func (r *rig) state() (s *view.Snapshot) {
	r.cab.Do(func() { r.cab.publish(); s = r.cab.View() })
	return s
}

// ticked returns once the loop has run a tick after every event posted
// before it: what the fake clock's time makes due (a timer, Auto's next
// game, a self-test) has begun on the loop by then.
func (r *rig) ticked() {
	r.cab.Post(Tick{})
	r.handled()
}

func (r *rig) idle() *view.Snapshot {
	r.t.Helper()
	return r.until("idle", 50*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
}

// insertNote puts a note of value (minor units) through escrow and stacking.
func (r *rig) insertNote(value engine.Money, minorUnits int) {
	r.t.Helper()
	before := r.credit()
	base, exp := int64(value), byte(0)
	for i := 0; i < minorUnits; i++ {
		base /= 10
	}
	for base >= 100 && base%10 == 0 {
		base /= 10
		exp++
	}
	r.acc.doc = id003.Document{Kind: id003.DocNote, Code: 0x61, Denom: id003.Denomination{Code: 0x61, Base: byte(base), Exponent: exp}}
	r.cab.Post(AcceptorEvent{id003.Escrow{Doc: r.acc.doc}})
	r.until("note credited", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == before+value })
}

func (r *rig) credit() engine.Money {
	c, _ := r.led.Credit()
	return engine.Money(c)
}

func (r *rig) meter(m ledger.Meter) int64 {
	ms, _ := r.led.Meters(ledger.ScopeCabinet)
	return ms[m]
}

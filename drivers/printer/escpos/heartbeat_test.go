package escpos_test

import (
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/escpos"
	"github.com/polaris-vlt/polaris/drivers/printer/escposemu"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/firmware/health/healthtest"
)

// The status loop feeds the watchdog only while its reads return: a Read
// held on the real pseudo-terminal (a wedged USB-serial driver) stops the
// pings once the window passes, and they resume when it returns. A silent
// printer is a device fault, not a hung loop: the loop keeps beating and
// CommLost tells the cabinet. A long print beats too (the job loop reads
// every ReadTick), so a slow cutter is not taken for a hang.
func TestWatchdogFollowsTheStatusLoop(t *testing.T) {
	hr := healthtest.New(t)
	heart := hr.Monitor.Register("printer", 2*time.Second)
	var gate serialport.Gate
	r := newRig(t, func(c *escpos.Config) {
		c.Open = gate.Opener(nil)
		c.Heartbeat = heart.Beat
	}, escposemu.Options{CutTime: 1500 * time.Millisecond})
	ev := collect(r.drv.Events())
	hr.Stall(healthtest.Stall{Name: "printer", Quiet: 300 * time.Millisecond,
		Hold: gate.Hold, Wedged: func() bool { return gate.Waiting() > 0 }, Release: gate.Release})

	ev.skip()
	if _, err := r.drv.Print(voucher("001234567890123456")); err != nil {
		t.Fatal(err)
	}
	ev.await(t, "PrintStarted", is[printer.PrintStarted])
	before := beats(hr)
	time.Sleep(300 * time.Millisecond)
	if beats(hr) == before {
		t.Fatal("no beat while the job printed")
	}
	if ev.has(is[printer.PrintComplete]) {
		t.Fatal("the job ended before the check: it proves nothing")
	}
	ev.await(t, "PrintComplete", is[printer.PrintComplete])

	ev.skip()
	r.emu.SetSilent(true)
	hr.Healthy(3)
	ev.await(t, "CommLost", is[printer.CommLost])
	r.emu.SetSilent(false)
	ev.await(t, "Online", is[printer.Online])
	hr.Healthy(2)
}

func beats(hr *healthtest.Rig) uint64 { return hr.Monitor.Status()[0].Beats }

// events drains a driver's channel (a full channel would block its loop)
// and keeps what came.
type events struct {
	mu     sync.Mutex
	got    []printer.Event
	cursor int
}

func collect(ch <-chan printer.Event) *events {
	e := &events{}
	go func() {
		for x := range ch {
			e.mu.Lock()
			e.got = append(e.got, x)
			e.mu.Unlock()
		}
	}()
	return e
}

// skip moves past everything received so far.
func (e *events) skip() {
	e.mu.Lock()
	e.cursor = len(e.got)
	e.mu.Unlock()
}

// has reports whether an event after the cursor matches.
func (e *events) has(match func(printer.Event) bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, x := range e.got[e.cursor:] {
		if match(x) {
			return true
		}
	}
	return false
}

// await waits for the next event that matches and moves past it.
func (e *events) await(t *testing.T, what string, match func(printer.Event) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		e.mu.Lock()
		for i := e.cursor; i < len(e.got); i++ {
			if match(e.got[i]) {
				e.cursor = i + 1
				e.mu.Unlock()
				return
			}
		}
		e.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t.Fatalf("no %s; saw %s", what, names(e.got))
}

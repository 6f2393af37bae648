package tcl_test

import (
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/tcl"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/firmware/health/healthtest"
)

// The status loop feeds the watchdog only while its reads return: a Read
// held on the real pseudo-terminal (a wedged USB-serial driver) stops the
// pings once the window passes, and they resume when it returns. A silent
// printer is a device fault, not a hung loop: read time-outs keep the loop
// beating and CommLost tells the cabinet.
func TestWatchdogFollowsTheStatusLoop(t *testing.T) {
	hr := healthtest.New(t)
	heart := hr.Monitor.Register("printer", 2*time.Second)
	var gate serialport.Gate
	r := newRig(t, tclemu.Options{}, func(c *tcl.Config) {
		c.Open = gate.Opener(nil)
		c.Heartbeat = heart.Beat
	})
	ev := collect(r.drv.Events())
	hr.Stall(healthtest.Stall{Name: "printer", Quiet: 300 * time.Millisecond,
		Hold: gate.Hold, Wedged: func() bool { return gate.Waiting() > 0 }, Release: gate.Release})

	ev.skip()
	r.emu.SetSilent(true)
	hr.Healthy(3)
	ev.await(t, "CommLost", is[printer.CommLost])
	r.emu.SetSilent(false)
	ev.await(t, "Online", is[printer.Online])
	hr.Healthy(2)
}

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

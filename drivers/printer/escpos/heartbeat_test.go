package escpos_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/escpos"
	"github.com/polaris-vlt/polaris/drivers/printer/escposemu"
	"github.com/polaris-vlt/polaris/drivers/printer/internal/eventlog"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/firmware/health/healthtest"
	"github.com/polaris-vlt/polaris/internal/poll"
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
	ev := eventlog.Collect(r.drv.Events())
	hr.Stall(healthtest.Stall{Name: "printer", Quiet: 300 * time.Millisecond,
		Hold: gate.Hold, Wedged: func() bool { return gate.Waiting() > 0 }, Release: gate.Release})

	ev.Skip()
	if _, err := r.drv.Print(voucher("001234567890123456")); err != nil {
		t.Fatal(err)
	}
	ev.Await(t, "PrintStarted", eventlog.Is[printer.PrintStarted])
	before := beats(hr)
	poll.Until(t, time.Second, "a beat while the job prints", func() bool { return beats(hr) > before })
	if ev.Has(eventlog.Is[printer.PrintComplete]) {
		t.Fatal("the job ended before the check: it proves nothing")
	}
	ev.Await(t, "PrintComplete", eventlog.Is[printer.PrintComplete])

	ev.Skip()
	r.emu.SetSilent(true)
	hr.Healthy(3)
	ev.Await(t, "CommLost", eventlog.Is[printer.CommLost])
	r.emu.SetSilent(false)
	ev.Await(t, "Online", eventlog.Is[printer.Online])
	hr.Healthy(2)
}

func beats(hr *healthtest.Rig) uint64 { return hr.Monitor.Status()[0].Beats }

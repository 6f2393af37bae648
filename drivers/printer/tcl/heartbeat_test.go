package tcl_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/internal/eventlog"
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
	ev := eventlog.Collect(r.drv.Events())
	hr.Stall(healthtest.Stall{Name: "printer", Quiet: 300 * time.Millisecond,
		Hold: gate.Hold, Wedged: func() bool { return gate.Waiting() > 0 }, Release: gate.Release})

	if ev.Has(eventlog.Is[printer.CommLost]) {
		// On a loaded machine the hold outlasted the comm-lost time: the
		// silence below must start from a printer back online.
		ev.Await(t, "CommLost of the hold", eventlog.Is[printer.CommLost])
		ev.Await(t, "Online after the hold", eventlog.Is[printer.Online])
	}
	ev.Skip()
	r.emu.SetSilent(true)
	hr.Healthy(3)
	ev.Await(t, "CommLost", eventlog.Is[printer.CommLost])
	r.emu.SetSilent(false)
	ev.Await(t, "Online", eventlog.Is[printer.Online])
	hr.Healthy(2)
}

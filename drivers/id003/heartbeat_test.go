package id003_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/firmware/health/healthtest"
)

// The poll loop feeds the watchdog only while it completes exchanges: a
// Read that hangs on the real pseudo-terminal (the gate holds it, as a
// wedged USB-serial driver would) stops the pings once the window passes,
// and they resume when the Read returns. A silent acceptor is a device
// fault, not a hung loop: its time-outs are handled, the loop keeps
// beating, and CommLost tells the cabinet instead.
func TestWatchdogFollowsThePollLoop(t *testing.T) {
	hr := healthtest.New(t)
	heart := hr.Monitor.Register("acceptor", 2*time.Second)
	var gate serialport.Gate
	r := newRig(t, func(c *id003.Config, _ *emulator.Config) {
		c.Open = gate.Opener(nil)
		c.Heartbeat = heart.Beat
	})
	r.ready()
	hr.Stall(healthtest.Stall{Name: "acceptor", Quiet: 300 * time.Millisecond,
		Hold: gate.Hold, Wedged: func() bool { return gate.Waiting() > 0 }, Release: gate.Release})

	r.emu.Silence(true)
	hr.Healthy(4)
	await[id003.CommLost](r, wait)
	r.emu.Silence(false)
	await[id003.CommRestored](r, wait)
	hr.Healthy(2)
}

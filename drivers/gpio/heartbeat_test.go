package gpio_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/gpiotest"
	"github.com/polaris-vlt/polaris/firmware/health"
	"github.com/polaris-vlt/polaris/firmware/health/healthtest"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Run feeds the watchdog only while its steps complete: an input Read that
// hangs (the fake bank holds it, as a wedged bus would) stops the pings
// once the window passes, and they resume when it returns. A bank that
// fails ends Run, and its heart stays silent: the watchdog restarts the
// cabinet rather than run on without doors and keys.
func TestWatchdogFollowsTheGPIOLoop(t *testing.T) {
	hr := healthtest.New(t)
	heart := hr.Monitor.Register("gpio", 2*time.Second)
	cfg := defaultConfig()
	cfg.Store = gpiotest.NewMeterStore()
	cfg.Heartbeat = heart.Beat
	b, err := gpiotest.New(nil, cfg.InputLines(), cfg.OutputLines())
	if err != nil {
		t.Fatal(err)
	}
	c, err := gpio.New(cfg, b.Inputs(), b.Outputs())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	t.Cleanup(func() {
		b.HoldReads(false)
		cancel()
		<-done
		c.Close()
	})
	hr.Stall(healthtest.Stall{Name: "gpio", Quiet: 300 * time.Millisecond,
		Hold: func() { b.HoldReads(true) }, Wedged: func() bool { return b.ReadsHeld() > 0 },
		Release: func() { b.HoldReads(false) }})

	broken := errors.New("gpiochip gone")
	b.FailReads(broken)
	select {
	case err := <-done:
		if !errors.Is(err, broken) {
			t.Fatalf("Run = %v, want the bank's error", err)
		}
		done <- err // for the cleanup
	case <-poll.After(healthtest.Patience):
		t.Fatal("Run did not end on a failed bank")
	}
	hr.Advance(3 * time.Second)
	var se *health.StaleError
	if err := hr.Feeder.Tick(); !errors.As(err, &se) || se.Stale[0].Name != "gpio" {
		t.Fatalf("Tick after the GPIO loop died = %v, want gpio stale", err)
	}
}

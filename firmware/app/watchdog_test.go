package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer/tcl"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/health"
	"github.com/polaris-vlt/polaris/firmware/health/healthtest"
	"github.com/polaris-vlt/polaris/firmware/view"
)

func names(m *health.Monitor) string {
	var s []string
	for _, c := range m.Status() {
		s = append(s, fmt.Sprintf("%s/%v", c.Name, c.Window))
	}
	return fmt.Sprint(s)
}

// The devkit cabinet registers a heart for the cabinet loop and for each
// device loop of its board, and the watchdog is fed only while all of them
// beat: wedging the acceptor's or the printer's serial Read (on the real
// pseudo-terminals to their emulators) or the GPIO bank's Read stops the
// pings after that loop's window, naming it, and they resume once it is
// freed. Close unregisters every heart, so a restart registers them again.
func TestWatchdogFollowsEveryDeviceLoop(t *testing.T) {
	hr := healthtest.New(t)
	var acc, prn serialport.Gate
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := start(ctx, app.Options{DataDir: t.TempDir(), Market: "demo", Logf: t.Logf, Health: hr.Monitor,
		AcceptorConfig: func(c *id003.Config) {
			c.PollInterval = 30 * time.Millisecond
			c.Open = acc.Opener(c.Open)
		},
		BoardOptions: func(o *board.Options) {
			o.TCLConfig = func(c *tcl.Config) { c.Open = prn.Opener(c.Open) }
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	want := fmt.Sprint([]string{"acceptor/" + app.AcceptorWindow.String(), "cabinet/" + app.CabinetWindow.String(),
		"gpio/" + app.GPIOWindow.String(), "printer/" + app.PrinterWindow.String()})
	if got := names(hr.Monitor); got != want {
		t.Fatalf("hearts %s, want %s", got, want)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, a.App, "idle", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })

	const quiet = 300 * time.Millisecond
	hr.Stall(healthtest.Stall{Name: "acceptor", Quiet: quiet,
		Hold: acc.Hold, Wedged: func() bool { return acc.Waiting() > 0 }, Release: acc.Release})
	hr.Stall(healthtest.Stall{Name: "printer", Quiet: quiet,
		Hold: prn.Hold, Wedged: func() bool { return prn.Waiting() > 0 }, Release: prn.Release})
	fake := a.kit.Devices().GPIO
	hr.Stall(healthtest.Stall{Name: "gpio", Quiet: quiet,
		Hold: func() { fake.HoldReads(true) }, Wedged: func() bool { return fake.ReadsHeld() > 0 },
		Release: func() { fake.HoldReads(false) }})

	a.Cabinet.Post(cabinet.PowerOff{})
	<-done
	a.Close()
	if n := len(hr.Monitor.Status()); n != 0 {
		t.Fatalf("after Close: hearts %s", names(hr.Monitor))
	}
}

// With software verification failed no device is opened: only the cabinet
// loop is watched (it shows the reason), so the watchdog does not wait for
// devices that will never run.
func TestSoftwareErrorWatchesOnlyTheCabinet(t *testing.T) {
	hr := healthtest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := start(ctx, app.Options{DataDir: t.TempDir(), Market: "demo", SoftwareError: "tampered", Health: hr.Monitor})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got := names(hr.Monitor); got != fmt.Sprint([]string{"cabinet/" + app.CabinetWindow.String()}) {
		t.Fatalf("hearts %s", got)
	}
	go a.Run(ctx)
	hr.Healthy(2)
}

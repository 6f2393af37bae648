package gpio_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/gpiotest"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// A failing input bank is reported once as BankFailed, and the controller
// refuses to go on (fail closed) instead of reporting stale levels.
func TestBankFailureIsReportedAndSticky(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	r.board.FailReads(errors.New("EIO"))
	r.clk.Advance(ms(1))
	if _, err := r.c.Step(); err == nil || !strings.Contains(err.Error(), "EIO") {
		t.Fatalf("Step with a dead bank: %v", err)
	}
	r.board.FailReads(nil)
	if _, err := r.c.Step(); err == nil {
		t.Fatal("Step went on after a bank failure")
	}
	var n int
	for _, e := range r.events {
		if _, ok := e.(gpio.BankFailed); ok {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d BankFailed events", n)
	}
}

func TestNewRefusesBadWiring(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*gpio.Config)
		want   string
	}{
		{"input line missing from bank", func(c *gpio.Config) { c.Inputs[0].Line = "NOPE" }, `"NOPE" is not in the input bank`},
		{"input twice", func(c *gpio.Config) { c.Inputs[1].Input = gpio.BtnStart }, "start wired twice"},
		{"two inputs one line", func(c *gpio.Config) { c.Inputs[1].Line = c.Inputs[0].Line }, "used by start and auto"},
		{"lamp and tier share a line", func(c *gpio.Config) { c.Tower[0].Line = "LAMP_START" }, "used by lamp start and tower red"},
		{"meters without store", func(c *gpio.Config) { c.Store = nil }, "without a MeterStore"},
		{"negative pulse", func(c *gpio.Config) { c.MeterPulse = -time.Millisecond }, "negative duration"},
		{"negative debounce", func(c *gpio.Config) { c.Inputs[3].Debounce = -time.Millisecond }, "stop: negative debounce"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			good := defaultConfig()
			b, err := gpiotest.New(nil, good.InputLines(), good.OutputLines())
			if err != nil {
				t.Fatal(err)
			}
			cfg := defaultConfig()
			cfg.Store = gpiotest.NewMeterStore()
			tc.mutate(&cfg)
			_, err = gpio.New(cfg, b.Inputs(), b.Outputs())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			if b.Writes() != 0 {
				t.Fatal("outputs written by a refused config")
			}
		})
	}
}

// Run on the real clock: an edge wakes it, the press arrives about one
// window later, and cancelling the context stops it promptly.
func TestRunDeliversAndStops(t *testing.T) {
	cfg := defaultConfig()
	b, err := gpiotest.New(nil, cfg.InputLines(), cfg.OutputLines())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range gpio.Inputs() {
		if in.Kind() == gpio.KindDoor {
			b.Set(inputLine[in], false)
		}
	}
	events := make(chan gpio.Event, 16)
	cfg.Store = gpiotest.NewMeterStore()
	cfg.Sink = func(e gpio.Event) { events <- e }
	c, err := gpio.New(cfg, b.Inputs(), b.Outputs())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	b.Set("BTN_BET_MINUS", false)
	select {
	case e := <-events:
		ic, ok := e.(gpio.InputChanged)
		if !ok || ic.Input != gpio.BtnBetMinus || !ic.Active {
			t.Fatalf("got %v", e)
		}
	case <-poll.After(5 * time.Second):
		t.Fatal("no event from Run")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-poll.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
}

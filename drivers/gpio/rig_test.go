package gpio_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/gpiotest"
)

var t0 = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

var inputLine = map[gpio.Input]string{
	gpio.BtnStart: "BTN_START", gpio.BtnAuto: "BTN_AUTO", gpio.BtnRisk: "BTN_RISK",
	gpio.BtnStop: "BTN_STOP", gpio.BtnBetPlus: "BTN_BET_PLUS", gpio.BtnBetMinus: "BTN_BET_MINUS",
	gpio.BtnCollect: "BTN_COLLECT", gpio.KeyAttendant: "KEY_ATTENDANT", gpio.KeyTechnician: "KEY_TECH",
	gpio.DoorMain: "DOOR_MAIN", gpio.DoorLogic: "DOOR_LOGIC", gpio.DoorCashbox: "DOOR_CASHBOX",
	gpio.DoorAcceptor: "DOOR_ACCEPTOR",
}

// rig is a cabinet on a fake clock: buttons and keys are active low with
// pull-ups, doors read high when open (switch to ground opens), lamps are
// active high, the shared meter sense is active low and follows the coils.
type rig struct {
	t      *testing.T
	clk    *clocktest.Clock
	board  *gpiotest.Board
	store  *gpiotest.MeterStore
	c      *gpio.Controller
	events []gpio.Event
	cfg    gpio.Config
}

func defaultConfig() gpio.Config {
	cfg := gpio.Config{Lamps: map[gpio.Input]gpio.OutputWiring{}}
	for _, in := range gpio.Inputs() {
		cfg.Inputs = append(cfg.Inputs, gpio.InputWiring{Input: in, Line: inputLine[in], Pull: gpio.PullUp,
			ActiveLow: in.Kind() != gpio.KindDoor})
	}
	for _, b := range gpio.Buttons() {
		cfg.Lamps[b] = gpio.OutputWiring{Line: "LAMP_" + inputLine[b][4:]}
	}
	cfg.Tower = []gpio.TowerTier{
		{Colour: gpio.Red, OutputWiring: gpio.OutputWiring{Line: "TOWER_RED"}},
		{Colour: gpio.Yellow, OutputWiring: gpio.OutputWiring{Line: "TOWER_YELLOW", ActiveLow: true}},
	}
	cfg.Meters = []gpio.MeterWiring{
		{Meter: gpio.MeterIn, OutputWiring: gpio.OutputWiring{Line: "METER_IN"}},
		{Meter: gpio.MeterOut, OutputWiring: gpio.OutputWiring{Line: "METER_OUT"}},
	}
	cfg.MeterSense = &gpio.SenseWiring{Line: "METER_SENSE", Pull: gpio.PullUp, ActiveLow: true}
	return cfg
}

func newRig(t *testing.T, mutate func(*rig)) *rig {
	t.Helper()
	r := &rig{t: t, clk: clocktest.New(t0), store: gpiotest.NewMeterStore(), cfg: defaultConfig()}
	if mutate != nil {
		mutate(r)
	}
	var err error
	r.board, err = gpiotest.New(r.clk, r.cfg.InputLines(), r.cfg.OutputLines())
	if err != nil {
		t.Fatal(err)
	}
	// Doors: closed pulls the line to ground.
	for _, in := range gpio.Inputs() {
		if in.Kind() == gpio.KindDoor {
			r.set(inputLine[in], false)
		}
	}
	if r.cfg.MeterSense != nil {
		var coils []string
		for _, m := range r.cfg.Meters {
			coils = append(coils, m.Line)
		}
		if err := r.board.Follow(r.cfg.MeterSense.Line, true, coils...); err != nil {
			t.Fatal(err)
		}
	}
	r.cfg.Clock = r.clk
	r.cfg.Store = r.store
	r.cfg.Sink = func(e gpio.Event) { r.events = append(r.events, e) }
	r.c, err = gpio.New(r.cfg, r.board.Inputs(), r.board.Outputs())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.c.Close() })
	return r
}

func (r *rig) set(line string, high bool) {
	r.t.Helper()
	if err := r.board.Set(line, high); err != nil {
		r.t.Fatal(err)
	}
}

// press drives a button or key line (active low).
func (r *rig) press(in gpio.Input, active bool) { r.set(inputLine[in], !active) }

// stepTo moves the clock to t0+d and steps.
func (r *rig) stepTo(d time.Duration) time.Time {
	r.t.Helper()
	now := r.clk.Now()
	target := t0.Add(d)
	if target.Before(now) {
		r.t.Fatalf("clock would go back from %v to %v", now.Sub(t0), d)
	}
	r.clk.Advance(target.Sub(now))
	next, err := r.c.Step()
	if err != nil {
		r.t.Fatal(err)
	}
	return next
}

// run steps every ms from the current time up to t0+d.
func (r *rig) run(d time.Duration) {
	r.t.Helper()
	for at := r.clk.Now().Sub(t0).Truncate(time.Millisecond) + time.Millisecond; at <= d; at += time.Millisecond {
		r.stepTo(at)
	}
}

func (r *rig) inputEvents() []gpio.InputChanged {
	var out []gpio.InputChanged
	for _, e := range r.events {
		if ic, ok := e.(gpio.InputChanged); ok {
			out = append(out, ic)
		}
	}
	return out
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

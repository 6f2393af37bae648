package gpio_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/gpiotest"
)

func transitions(h []gpiotest.Transition) []string {
	var out []string
	for _, tr := range h {
		out = append(out, map[bool]string{true: "H", false: "L"}[tr.High]+"@"+tr.At.Sub(t0).String())
	}
	return out
}

func wantHistory(t *testing.T, line string, got []gpiotest.Transition, want ...string) {
	t.Helper()
	g := strings.Join(transitions(got), " ")
	if w := strings.Join(want, " "); g != w {
		t.Errorf("%s: got  %s\n\twant %s", line, g, w)
	}
}

// Every output is written off at New: lamps low, the active-low tier high.
func TestOutputsStartOff(t *testing.T) {
	r := newRig(t, nil)
	wantHistory(t, "LAMP_START", r.board.History("LAMP_START"), "L@0s")
	wantHistory(t, "TOWER_YELLOW", r.board.History("TOWER_YELLOW"), "H@0s")
	wantHistory(t, "METER_IN", r.board.History("METER_IN"), "L@0s")
}

// A slow blink changes exactly every 500 ms, in phase with the epoch, when
// stepped only at the deadlines Step returns (as Run does); the active-low
// tier is inverted on the line.
func TestBlinkPatternsOnDeadlines(t *testing.T) {
	r := newRig(t, nil)
	if err := r.c.SetLamp(gpio.BtnStart, gpio.BlinkSlow); err != nil {
		t.Fatal(err)
	}
	if err := r.c.SetTower(gpio.Yellow, gpio.DoubleFlash); err != nil {
		t.Fatal(err)
	}
	next := r.stepTo(0)
	for next.Before(t0.Add(2 * time.Second)) {
		next = r.stepTo(next.Sub(t0))
	}
	wantHistory(t, "LAMP_START", r.board.History("LAMP_START"),
		"L@0s", "H@0s", "L@500ms", "H@1s", "L@1.5s")
	wantHistory(t, "TOWER_YELLOW", r.board.History("TOWER_YELLOW"),
		"H@0s", "L@0s", "H@100ms", "L@200ms", "H@300ms", "L@1s", "H@1.1s", "L@1.2s", "H@1.3s")
}

// Patterns set later stay in phase with the epoch, so lamps blink together;
// a steady lamp is written once and never again.
func TestPatternPhaseAndNoRewrites(t *testing.T) {
	r := newRig(t, nil)
	r.c.SetLamp(gpio.BtnAuto, gpio.On)
	r.run(ms(700))
	r.c.SetLamp(gpio.BtnBetPlus, gpio.BlinkFast) // 125/125
	writes := r.board.Writes()
	r.run(ms(1000))
	wantHistory(t, "LAMP_AUTO", r.board.History("LAMP_AUTO"), "L@0s", "H@1ms")
	wantHistory(t, "LAMP_BET_PLUS", r.board.History("LAMP_BET_PLUS"),
		"L@0s", "H@750ms", "L@875ms", "H@1s")
	if w := r.board.Writes() - writes; w != 3 {
		t.Errorf("%d writes for 3 transitions", w)
	}
	st := r.c.Outputs()
	var found bool
	for _, s := range st {
		if s.ID.Lamp == gpio.BtnAuto {
			found = s.On && s.Pattern == "on" && s.Line == "LAMP_AUTO"
		}
	}
	if !found {
		t.Errorf("Outputs() = %+v", st)
	}
}

func TestBadOutputRequests(t *testing.T) {
	r := newRig(t, nil)
	if err := r.c.SetTower(gpio.Blue, gpio.On); err == nil || !strings.Contains(err.Error(), "tower blue") {
		t.Errorf("blue tier on a red/yellow tower: %v", err)
	}
	if err := r.c.SetLamp(gpio.DoorMain, gpio.On); err == nil {
		t.Error("lamp on a door accepted")
	}
	if err := r.c.SetLamp(gpio.BtnStart, gpio.Blink("bad", 0, time.Second)); err == nil {
		t.Error("zero-length step accepted")
	}
	if err := r.c.Kick(gpio.MeterGames); err == nil {
		t.Error("kick of an unwired meter accepted")
	}
}

// Three committed units make exactly three 50 ms pulses 50 ms apart, each
// recorded in the store after the sense line confirmed it.
func TestMeterPulsesCommittedUnits(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	r.store.Commit(gpio.MeterIn, 3)
	r.c.Kick(gpio.MeterIn)
	r.run(ms(1000))
	wantHistory(t, "METER_IN", r.board.History("METER_IN"),
		"L@0s", "H@1ms", "L@51ms", "H@101ms", "L@151ms", "H@201ms", "L@251ms")
	if got := r.store.PulsedTotal(gpio.MeterIn); got != 3 {
		t.Errorf("store recorded %d pulses", got)
	}
	var pulsed int
	for _, e := range r.events {
		switch e := e.(type) {
		case gpio.MeterPulsed:
			pulsed++
		case gpio.MeterFailed:
			t.Errorf("unexpected %v", e)
		}
	}
	if pulsed != 3 || r.c.Owed()[gpio.MeterIn] != 0 {
		t.Errorf("%d pulse events, %d owed", pulsed, r.c.Owed()[gpio.MeterIn])
	}
	// A Kick with nothing committed pulses nothing: the count comes only
	// from the store.
	r.c.Kick(gpio.MeterIn)
	r.run(ms(2000))
	if n := len(r.board.History("METER_IN")); n != 7 {
		t.Errorf("kick without a commit pulsed: %d transitions", n)
	}
}

// Units owed before a power cut are pulsed at start-up without a Kick.
func TestMeterResumesAfterRestart(t *testing.T) {
	r := newRig(t, func(r *rig) { r.store.Commit(gpio.MeterOut, 2) })
	r.run(ms(500))
	if got := r.store.PulsedTotal(gpio.MeterOut); got != 2 {
		t.Fatalf("pulsed %d after restart, want 2", got)
	}
}

// Meters take turns, so one sense line can confirm each pulse.
func TestMetersRoundRobin(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	r.store.Commit(gpio.MeterIn, 2)
	r.store.Commit(gpio.MeterOut, 2)
	r.c.Kick(gpio.MeterIn)
	r.c.Kick(gpio.MeterOut)
	r.run(ms(1000))
	wantHistory(t, "METER_IN", r.board.History("METER_IN"), "L@0s", "H@1ms", "L@51ms", "H@201ms", "L@251ms")
	wantHistory(t, "METER_OUT", r.board.History("METER_OUT"), "L@0s", "H@101ms", "L@151ms", "H@301ms", "L@351ms")
}

// A disconnected meter never confirms: one MeterFailed, no further pulses,
// the units stay owed; reconnected and kicked, it finishes.
func TestMeterFailsWithoutSense(t *testing.T) {
	r := newRig(t, nil)
	r.board.Disconnect("METER_IN")
	r.stepTo(0)
	r.store.Commit(gpio.MeterIn, 3)
	r.c.Kick(gpio.MeterIn)
	r.run(ms(1000))
	var fails []gpio.MeterFailed
	for _, e := range r.events {
		if f, ok := e.(gpio.MeterFailed); ok {
			fails = append(fails, f)
		}
	}
	if len(fails) != 1 || fails[0].Meter != gpio.MeterIn || !strings.Contains(fails[0].Reason, "sense") ||
		!fails[0].At.Equal(t0.Add(ms(51))) {
		t.Fatalf("failures %+v", fails)
	}
	if owed, _ := r.store.Owed(gpio.MeterIn); owed != 3 {
		t.Fatalf("owed %d after failure, want 3", owed)
	}
	wantHistory(t, "METER_IN", r.board.History("METER_IN"), "L@0s", "H@1ms", "L@51ms")
	r.board.Reconnect("METER_IN")
	r.c.Kick(gpio.MeterIn)
	r.run(ms(2000))
	if got := r.store.PulsedTotal(gpio.MeterIn); got != 3 {
		t.Fatalf("pulsed %d after repair, want 3", got)
	}
}

// A sense line already active before the pulse (shorted) fails the meter
// without energising the coil.
func TestMeterFailsOnStuckSense(t *testing.T) {
	// Wired with the wrong polarity, the idle sense line reads active.
	r := newRig(t, func(r *rig) { r.cfg.MeterSense.ActiveLow = false })
	r.stepTo(0)
	r.store.Commit(gpio.MeterIn, 1)
	r.c.Kick(gpio.MeterIn)
	r.run(ms(300))
	var fails []gpio.MeterFailed
	for _, e := range r.events {
		if f, ok := e.(gpio.MeterFailed); ok {
			fails = append(fails, f)
		}
	}
	if len(fails) != 1 || !strings.Contains(fails[0].Reason, "before the pulse") {
		t.Fatalf("failures %+v", fails)
	}
	wantHistory(t, "METER_IN", r.board.History("METER_IN"), "L@0s")
}

// A store that cannot record a pulse stops the meter after that pulse.
func TestMeterStopsOnStoreFailure(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	r.store.Commit(gpio.MeterIn, 5)
	r.c.Kick(gpio.MeterIn)
	r.run(ms(120))
	r.store.Fail(errors.New("disk full"))
	r.run(ms(1000))
	var f *gpio.MeterFailed
	for _, e := range r.events {
		if e, ok := e.(gpio.MeterFailed); ok {
			f = &e
		}
	}
	if f == nil || !strings.Contains(f.Reason, "disk full") {
		t.Fatalf("no store failure reported: %v", r.events)
	}
	if n := len(r.board.History("METER_IN")); n != 5 { // L, H, L, H, L
		t.Fatalf("%d transitions: kept pulsing with a failing store", n)
	}
}

// Close turns an energised coil off.
func TestCloseDeenergises(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	r.store.Commit(gpio.MeterIn, 1)
	r.c.Kick(gpio.MeterIn)
	r.c.SetLamp(gpio.BtnStart, gpio.On)
	r.stepTo(ms(10))
	if on, _ := r.board.Output("METER_IN"); !on {
		t.Fatal("coil not on mid-pulse")
	}
	if err := r.c.Close(); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"METER_IN", "LAMP_START"} {
		if on, _ := r.board.Output(l); on {
			t.Errorf("%s left on after Close", l)
		}
	}
	if _, err := r.c.Step(); !errors.Is(err, gpio.ErrClosed) {
		t.Errorf("Step after Close: %v", err)
	}
}

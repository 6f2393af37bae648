package gpio_test

import (
	"testing"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// A test pulse (test mode's meter test) pulses the coil once, confirmed by
// the sense line, and is not recorded in the store: the units owed for
// money are pulsed as before, and the meter reads one more.
func TestTestPulseIsNotRecorded(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	r.store.Commit(gpio.MeterIn, 1)
	if err := r.c.TestPulse(gpio.MeterIn); err != nil {
		t.Fatal(err)
	}
	if err := r.c.TestPulse(gpio.MeterOut); err != nil {
		t.Fatal(err)
	}
	r.c.Kick(gpio.MeterIn)
	r.run(ms(1000))
	if n := len(r.board.History("METER_IN")); n != 5 { // off at start, then two pulses
		t.Fatalf("METER_IN: %d transitions, want two pulses", n)
	}
	wantHistory(t, "METER_OUT", r.board.History("METER_OUT"), "L@0s", "H@101ms", "L@151ms")
	if got := r.store.PulsedTotal(gpio.MeterIn); got != 1 {
		t.Fatalf("store recorded %d pulses on in, want the 1 owed", got)
	}
	if got := r.store.PulsedTotal(gpio.MeterOut); got != 0 {
		t.Fatalf("a test pulse was recorded: %d", got)
	}
	var tests int
	for _, e := range r.events {
		if p, ok := e.(gpio.MeterPulsed); ok && p.Test {
			tests++
		}
		if f, ok := e.(gpio.MeterFailed); ok {
			t.Errorf("unexpected %v", f)
		}
	}
	if tests != 2 {
		t.Fatalf("%d test pulse events, want 2", tests)
	}
	if err := r.c.TestPulse(gpio.MeterGames); err == nil {
		t.Fatal("test pulse of an unwired meter accepted")
	}
	if ms := r.c.Meters(); len(ms) != 2 || ms[0] != gpio.MeterIn {
		t.Fatalf("meters %v", ms)
	}
}

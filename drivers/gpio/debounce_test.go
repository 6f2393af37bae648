package gpio_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// A button bouncing with every stable run shorter than the 20 ms window never
// makes an edge, however long the bouncing lasts.
func TestBouncesShorterThanWindowMakeNoEdge(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	runs := []int{3, 2, 7, 1, 19, 4, 12, 19, 5, 8} // ms each level holds
	at, pressed := 0, true
	for _, n := range runs {
		r.press(gpio.BtnStart, pressed)
		for k := 1; k <= n; k++ {
			r.stepTo(ms(at + k))
		}
		at += n
		pressed = !pressed
	}
	r.press(gpio.BtnStart, false)
	r.run(ms(at + 500))
	if ev := r.inputEvents(); len(ev) != 0 {
		t.Fatalf("bounces made edges: %v", ev)
	}
	// A single glitch of 19 ms on a door (window 50 ms) is nothing either.
	r.set("DOOR_MAIN", true)
	r.run(ms(at + 549))
	r.set("DOOR_MAIN", false)
	r.run(ms(at + 1000))
	if ev := r.inputEvents(); len(ev) != 0 {
		t.Fatalf("door glitch made edges: %v", ev)
	}
}

// A held button, bouncing on press and on release, makes exactly one press
// and one release, timestamped when the level settled, delivered exactly one
// window later.
func TestHeldButtonMakesExactlyOneEdge(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	for i, lv := range []bool{true, false, true, false, true} { // bounces at 100..104 ms
		r.press(gpio.BtnCollect, lv)
		r.stepTo(ms(100 + i))
	}
	var deliveredAt time.Time
	for at := 105; at <= 3000; at++ {
		n := len(r.inputEvents())
		r.stepTo(ms(at))
		if len(r.inputEvents()) > n && deliveredAt.IsZero() {
			deliveredAt = r.clk.Now()
		}
	}
	ev := r.inputEvents()
	if len(ev) != 1 || ev[0].Input != gpio.BtnCollect || !ev[0].Active {
		t.Fatalf("events %v, want one collect press", ev)
	}
	if want := t0.Add(ms(104)); !ev[0].At.Equal(want) {
		t.Errorf("press stamped %v, want %v (last bounce)", ev[0].At.Sub(t0), want.Sub(t0))
	}
	if want := t0.Add(ms(124)); !deliveredAt.Equal(want) {
		t.Errorf("press delivered at %v, want %v", deliveredAt.Sub(t0), want.Sub(t0))
	}
	if !r.c.Inputs()[gpio.BtnCollect] {
		t.Error("Inputs() does not show collect held")
	}
	for i, lv := range []bool{false, true, false} {
		r.press(gpio.BtnCollect, lv)
		r.stepTo(ms(3001 + i))
	}
	r.run(ms(4000))
	ev = r.inputEvents()
	if len(ev) != 2 || ev[1].Active || ev[1].Input != gpio.BtnCollect {
		t.Fatalf("events %v, want press then release", ev)
	}
}

// Doors and keys use the longer switch window; a 30 ms change is a real press
// on a button and nothing on a door.
func TestWindowsByKind(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	r.press(gpio.BtnStop, true)
	r.set("DOOR_CASHBOX", true)
	r.run(ms(30))
	r.press(gpio.BtnStop, false)
	r.set("DOOR_CASHBOX", false)
	r.run(ms(500))
	ev := r.inputEvents()
	if len(ev) != 2 || ev[0].Input != gpio.BtnStop || !ev[0].Active || ev[1].Active {
		t.Fatalf("events %v, want stop press and release only", ev)
	}
	r.set("DOOR_CASHBOX", true) // opens for good; first seen at 501 ms
	r.run(ms(550))
	if n := len(r.inputEvents()); n != 2 {
		t.Fatal("door reported before its 50 ms window")
	}
	r.stepTo(ms(551))
	ev = r.inputEvents()
	if len(ev) != 3 || ev[2].Input != gpio.DoorCashbox || !ev[2].Active || ev[2].String() == "" {
		t.Fatalf("events %v, want cashbox door opened", ev)
	}
}

// A door open and a key turned at power-up are each reported once, after
// the window: the firmware learns the state it boots into.
func TestActiveAtStartReportedOnce(t *testing.T) {
	r := newRig(t, func(r *rig) {})
	r.set("DOOR_LOGIC", true)
	r.press(gpio.KeyTechnician, true)
	r.stepTo(0)
	r.run(ms(1000))
	ev := r.inputEvents()
	if len(ev) != 2 {
		t.Fatalf("events %v, want logic door and technician key", ev)
	}
	got := map[gpio.Input]bool{}
	for _, e := range ev {
		got[e.Input] = e.Active
	}
	if !got[gpio.DoorLogic] || !got[gpio.KeyTechnician] {
		t.Fatalf("events %v", ev)
	}
}

// Step's deadline lets Run sleep until exactly the confirming instant.
func TestDebounceDeadline(t *testing.T) {
	r := newRig(t, nil)
	r.stepTo(0)
	r.press(gpio.BtnRisk, true)
	next := r.stepTo(ms(7))
	if want := t0.Add(ms(27)); !next.Equal(want) {
		t.Fatalf("next %v, want %v", next.Sub(t0), want.Sub(t0))
	}
	r.stepTo(ms(27))
	if ev := r.inputEvents(); len(ev) != 1 || ev[0].Input != gpio.BtnRisk {
		t.Fatalf("events %v", ev)
	}
}

// FuzzDebouncer checks the debouncer's promises on arbitrary sample streams:
// edges alternate, and an edge's level was seen in every sample from its
// timestamp for at least the window.
func FuzzDebouncer(f *testing.F) {
	f.Add([]byte{1, 3, 0, 2, 1, 30, 0, 40}, uint8(20))
	f.Add([]byte{1, 19, 0, 1, 1, 25}, uint8(20))
	f.Fuzz(func(t *testing.T, stream []byte, win uint8) {
		window := time.Duration(win%60+1) * time.Millisecond
		d := gpio.NewDebouncer([]time.Duration{window})
		type sample struct {
			at time.Time
			lv bool
		}
		var samples []sample
		now := t0
		last := false
		for i := 0; i+1 < len(stream); i += 2 {
			lv := stream[i]&1 == 1
			now = now.Add(time.Duration(stream[i+1]%50+1) * time.Millisecond)
			samples = append(samples, sample{now, lv})
			for _, e := range d.Sample(now, map[bool]gpio.Bits{true: 1}[lv], nil) {
				if e.Level == last {
					t.Fatalf("edge to %v twice in a row", e.Level)
				}
				last = e.Level
				if now.Sub(e.At) < window {
					t.Fatalf("edge confirmed after %v, window %v", now.Sub(e.At), window)
				}
				for _, s := range samples {
					if !s.at.Before(e.At) && s.lv != e.Level {
						t.Fatalf("edge to %v at %v but sample %v at %v", e.Level, e.At.Sub(t0), s.lv, s.at.Sub(t0))
					}
				}
			}
		}
	})
}

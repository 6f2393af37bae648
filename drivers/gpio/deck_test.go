package gpio_test

import (
	"testing"

	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// Every input is exactly one thing of the deck, of its kind, and every
// button, key and door of the deck has its input.
func TestEveryInputIsOneThingOfTheDeck(t *testing.T) {
	seen := map[string]bool{}
	for _, in := range gpio.Inputs() {
		b, isB := in.Button()
		k, isK := in.Key()
		d, isD := in.Door()
		n := 0
		for _, ok := range []bool{isB, isK, isD} {
			if ok {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%s is %d things of the deck", in, n)
		}
		want := map[gpio.InputKind]bool{gpio.KindButton: isB, gpio.KindKey: isK, gpio.KindDoor: isD}
		if !want[in.Kind()] {
			t.Errorf("%s: kind %d, deck %q%q%q", in, in.Kind(), b, k, d)
		}
		name := string(b) + string(k) + string(d)
		if got, ok := gpio.InputOf(name); !ok || got != in {
			t.Errorf("InputOf(%q) = %s, want %s", name, got, in)
		}
		seen[name] = true
	}
	for _, b := range deck.Buttons {
		if !seen[string(b)] {
			t.Errorf("button %s has no input", b)
		}
	}
	for _, k := range deck.Keys {
		if !seen[string(k)] {
			t.Errorf("key %s has no input", k)
		}
	}
	for _, d := range deck.Doors {
		if !seen[string(d)] {
			t.Errorf("door %s has no input", d)
		}
	}
	if _, ok := gpio.Input(0).Button(); ok {
		t.Error("input 0 is a button")
	}
}

package gpio_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// BenchmarkStep is one round of the GPIO loop on the fake banks: read 14
// inputs, debounce, run 10 lamp patterns and the meter pulser, write what
// changed. Run calls it at most once per edge or deadline (≤ 20/s idle).
func BenchmarkStep(b *testing.B) {
	r := newRig(&testing.T{}, nil)
	for _, btn := range gpio.Buttons() {
		r.c.SetLamp(btn, gpio.BlinkFast)
	}
	r.c.SetTower(gpio.Red, gpio.DoubleFlash)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.clk.Advance(time.Millisecond)
		if _, err := r.c.Step(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDebounce is the debouncer alone on 14 lines with one toggling.
func BenchmarkDebounce(b *testing.B) {
	w := make([]time.Duration, 14)
	for i := range w {
		w[i] = 20 * time.Millisecond
	}
	d := gpio.NewDebouncer(w)
	now := t0
	buf := make([]gpio.Edge, 0, 14)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Millisecond)
		buf = d.Sample(now, gpio.Bits(i/40&1), buf[:0])
	}
}

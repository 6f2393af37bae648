package draw_test

import (
	"math/bits"
	mrand "math/rand/v2"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// TestSeededIsMathRandPCG: the inlined generator is math/rand/v2's
// PCG word for word, and Intn is its multiply-and-reject (so simulations
// and committed sheets are reproducible against the standard library).
func TestSeededIsMathRandPCG(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {20261129, 7}, {^uint64(0), 1 << 63}} {
		a, b := draw.NewSeeded(seed[0], seed[1]), mrand.NewPCG(seed[0], seed[1])
		for i := range 1000 {
			if x, y := a.Uint64(), b.Uint64(); x != y {
				t.Fatalf("seed %v word %d: %#x, math/rand/v2 %#x", seed, i, x, y)
			}
		}
		c, r := draw.NewSeeded(seed[0], seed[1]), mrand.NewPCG(seed[0], seed[1])
		// Lemire's multiply-and-reject on the library's words, written out.
		ref := func(n uint64) int {
			hi, lo := bits.Mul64(r.Uint64(), n)
			for lo < -n%n {
				hi, lo = bits.Mul64(r.Uint64(), n)
			}
			return int(hi)
		}
		for _, n := range []int{1, 2, 3, 52, 100, 32768, 1<<31 + 1} {
			for range 200 {
				if x, y := c.Intn(n), ref(uint64(n)); x != y {
					t.Fatalf("seed %v: Intn(%d) %d, math/rand/v2 %d", seed, n, x, y)
				}
			}
		}
	}
}

// The buffered words draw what the stream itself draws, in order, through
// engine.Intn's inline path (the simulation's results do not change).
func TestWordsDrawAsTheStream(t *testing.T) {
	a, b := draw.NewSeeded(7, 9), draw.NewSeeded(7, 9).Words()
	for i := range 10000 {
		n := 1 + i%97
		if i%1000 == 999 {
			n = 1<<31 + 1 // rejections happen
		}
		if x, y := a.Intn(n), engine.Intn(b, n); x != y {
			t.Fatalf("draw %d of range %d: stream %d, words %d", i, n, x, y)
		}
	}
}

package magicstars

import (
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// BenchmarkPlayMagicStars is a whole round (base spin and any free spins)
// through the production Play on a seeded source with a reused Round.
func BenchmarkPlayMagicStars(b *testing.B) {
	src := draw.NewSeeded(1, 2)
	var r engine.Round
	b.ReportAllocs()
	var total engine.Money
	for b.Loop() {
		if err := Default.Play(src, 5, &r); err != nil {
			b.Fatal(err)
		}
		total += r.Total
	}
	b.ReportMetric(float64(total)/float64(5*b.N), "rtp")
}

// BenchmarkExactMagicStars is the whole exact calculation: enumeration of
// the cycle, the branching formula and the capped distribution per stake.
func BenchmarkExactMagicStars(b *testing.B) {
	for b.Loop() {
		if _, err := Default.ComputeExact(); err != nil {
			b.Fatal(err)
		}
	}
}

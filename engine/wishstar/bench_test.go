package wishstar

import (
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// BenchmarkPlayWishStar is full-round simulation throughput on one core.
func BenchmarkPlayWishStar(b *testing.B) {
	src := draw.NewSeeded(1, 2)
	var r engine.Round
	for range 1000 { // grow r's storage first
		_ = Default.Play(src, 100, &r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := Default.Play(src, 100, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExact is the whole exact calculation, max-win search included
// (uncached: Exact keeps its first result).
func BenchmarkExact(b *testing.B) {
	for b.Loop() {
		if _, err := Default.exact(true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExactRTP is the exact RTP, hit frequency and sigma without the max-win search.
func BenchmarkExactRTP(b *testing.B) {
	for b.Loop() {
		if _, err := Default.ExactRTP(); err != nil {
			b.Fatal(err)
		}
	}
}

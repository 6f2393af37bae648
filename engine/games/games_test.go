package games_test

import (
	"runtime"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/wishstar"
)

func TestBothGamesRegistered(t *testing.T) {
	for _, id := range []engine.GameID{engine.WishStar, engine.MagicStars} {
		g, err := engine.Lookup(id)
		if err != nil || g.ID() != id || len(g.ModelID()) != 64 {
			t.Fatalf("%s: %v", id, err)
		}
	}
	if len(engine.Games()) < 2 {
		t.Fatal("registry incomplete")
	}
}

// BenchmarkPlay is one whole paid round (every feature included) through
// the production Play on a seeded source with a reused Round, per game.
// Besides ns/op (wall) it reports cpu-ns/op, the locked thread's CPU time
// per round, and M-rounds/s-cpu from it: the figure that does not count
// other processes' time on a shared machine.
func BenchmarkPlay(b *testing.B) {
	for _, g := range []engine.Game{wishstar.Default, magicstars.Default} {
		b.Run(string(g.ID()), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			src := engine.NewSeededSource(1, 2)
			var r engine.Round
			stake := g.Stakes()[0]
			b.ReportAllocs()
			c0 := threadCPU()
			for b.Loop() {
				if err := g.Play(src, stake, &r); err != nil {
					b.Fatal(err)
				}
			}
			if cpu := threadCPU() - c0; cpu > 0 && b.N > 0 {
				ns := float64(cpu) / float64(b.N)
				b.ReportMetric(ns, "cpu-ns/op")
				b.ReportMetric(1e3/ns, "M-rounds/s-cpu")
			}
		})
	}
}

// BenchmarkExact is each game's whole exact calculation (for Wish Upon a
// Star on a fresh Game, since Exact caches its report).
func BenchmarkExact(b *testing.B) {
	b.Run("wishstar", func(b *testing.B) {
		for b.Loop() {
			if _, err := wishstar.New().Exact(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("magicstars", func(b *testing.B) {
		for b.Loop() {
			if _, err := magicstars.Default.ComputeExact(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

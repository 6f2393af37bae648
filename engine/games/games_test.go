package games_test

import (
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
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
func BenchmarkPlay(b *testing.B) {
	for _, g := range []engine.Game{wishstar.Default, magicstars.Default} {
		b.Run(string(g.ID()), func(b *testing.B) {
			src := draw.NewSeeded(1, 2)
			var r engine.Round
			stake := g.Stakes()[0]
			b.ReportAllocs()
			for b.Loop() {
				if err := g.Play(src, stake, &r); err != nil {
					b.Fatal(err)
				}
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

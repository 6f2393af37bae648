package games_test

import (
	"runtime"
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
// Besides ns/op (wall) it reports cpu-ns/op, the locked thread's CPU time
// per round, and M-rounds/s-cpu from it: the figure that does not count
// other processes' time on a shared machine.
func BenchmarkPlay(b *testing.B) {
	for _, g := range []engine.Game{wishstar.Default, magicstars.Default} {
		b.Run(string(g.ID()), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			src := draw.NewSeeded(1, 2).Words()
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

// The optional capabilities are asserted by name: Magic Stars caps its
// rounds (MS-7), Wish Upon a Star has fixed jackpots (WS-10), both know
// their exact RTP at every stake of their ladders.
func TestCapabilitiesByName(t *testing.T) {
	ms, _ := engine.Lookup(engine.MagicStars)
	ws, _ := engine.Lookup(engine.WishStar)
	if c, ok := ms.(engine.RoundCapper); !ok || c.RoundCap() != magicstars.RoundCap {
		t.Error("Magic Stars does not cap its rounds by name")
	}
	if _, ok := ws.(engine.RoundCapper); ok {
		t.Error("Wish Upon a Star claims a round cap")
	}
	fj, ok := ws.(engine.FixedJackpotter)
	if !ok || fj.FixedJackpots(100)[engine.Grand] != 200*100 {
		t.Errorf("Wish Upon a Star's fixed Grand at stake 100: %v (WS-10: 200 × stake)", fj)
	}
	for _, g := range []engine.Game{ms, ws} {
		x, ok := g.(engine.ExactRTPer)
		if !ok {
			t.Fatalf("%s has no exact RTP", g.ID())
		}
		rtp, err := x.RTPByStake()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range g.Stakes() {
			if v := rtp[s]; v < 0.9 || v > 0.97 {
				t.Errorf("%s at stake %d: RTP %v", g.ID(), s, v)
			}
		}
	}
}

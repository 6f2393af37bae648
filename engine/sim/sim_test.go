package sim_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/par"
	"github.com/polaris-vlt/polaris/engine/wishstar"
)

import "github.com/polaris-vlt/polaris/engine/sim"

// TestCISimulationAgreesWithExact is the CI-sized simulation: the production
// Play of both games, at their lowest and highest stakes, lies within the
// 99 % interval of the exact RTP, and the batch groups behave.
func TestCISimulationAgreesWithExact(t *testing.T) {
	for _, c := range []struct {
		g     engine.Game
		stake engine.Money
		n     int64
	}{
		{magicstars.Default, 5, 3_000_000},
		{magicstars.Default, 1000, 1_000_000},
		{wishstar.Default, 25, 1_500_000},
		{wishstar.Default, 2500, 500_000},
	} {
		rtp, sigma, err := par.Theory(c.g.ID(), c.stake)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), sim.Config{Game: c.g, Stake: c.stake, N: c.n, Workers: 2, Seed: 7, Groups: 50, TheoryRTP: rtp, TheorySigma: sigma})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		res.Report(&b)
		t.Logf("%s", b.String())
		if !res.Within99 || !res.GroupsOK || res.N != c.n {
			t.Errorf("%s at %d: simulation disagrees with the exact RTP", c.g.ID(), c.stake)
		}
	}
}

// TestSimulationReproducible: the result depends on the seed, not on the
// number of workers; the sums are the exact integer sums.
func TestSimulationReproducible(t *testing.T) {
	run := func(workers int, seed uint64) *sim.Result {
		r, err := sim.Run(context.Background(), sim.Config{Game: magicstars.Default, Stake: 10, N: 200_000, Workers: workers, Seed: seed, Groups: 16})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b, c := run(1, 3), run(4, 3), run(2, 4)
	if a.Sum.Cmp(b.Sum) != 0 || a.SumSq.Cmp(b.SumSq) != 0 {
		t.Fatal("the result depends on the number of workers")
	}
	if a.Sum.Cmp(c.Sum) == 0 {
		t.Fatal("different seeds gave the same sums")
	}
	// Recompute group 0 by hand.
	src := draw.NewSeeded(3, 0)
	var r engine.Round
	var sum int64
	for range a.Groups[0].N {
		_ = magicstars.Default.Play(src, 10, &r)
		sum += int64(r.Total)
	}
	if sum != a.Groups[0].Sum {
		t.Fatalf("group 0 sum %d, replayed %d", a.Groups[0].Sum, sum)
	}
}

// TestSimulationDetectsABias: a game whose Play pays 10 % more than theory
// is caught.
func TestSimulationDetectsABias(t *testing.T) {
	rtp, sigma, _ := par.Theory(engine.MagicStars, 5)
	res, err := sim.Run(context.Background(), sim.Config{Game: biased{magicstars.Default}, Stake: 5, N: 3_000_000, Workers: 2, Seed: 1,
		TheoryRTP: rtp, TheorySigma: sigma})
	if err != nil {
		t.Fatal(err)
	}
	if res.Within99 {
		t.Fatalf("a +10 %% bias went unnoticed: z = %.2f", res.Z)
	}
}

type biased struct{ *magicstars.Game }

func (b biased) Play(src engine.Source, stake engine.Money, r *engine.Round) error {
	err := b.Game.Play(src, stake, r)
	r.Total += r.Total / 10
	return err
}

func TestProgressBar(t *testing.T) {
	var out bytes.Buffer
	clock := time.Unix(0, 0)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	if _, err := sim.Run(context.Background(), sim.Config{Game: magicstars.Default, Stake: 5, N: 300_000, Workers: 2, Progress: &out, Tick: time.Millisecond, Now: now}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "100.0%") || !strings.Contains(s, "\r[") || !strings.Contains(s, "rounds/s") {
		t.Fatalf("progress output %q", s)
	}
}

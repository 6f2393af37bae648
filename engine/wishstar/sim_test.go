package wishstar

import (
	"flag"
	"math"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

var bigSim = flag.Bool("bigsim", false, "simulate 40 million rounds")

type simResult struct {
	n                         int
	mean, sd, hit             float64
	fsRounds, locks, bonusWin int
}

// simulate plays n rounds of the production Play path on a seeded stream.
func simulate(t testing.TB, g *Game, seed uint64, n int, stake engine.Money) simResult {
	src := draw.NewSeeded(seed, 1)
	var r engine.Round
	var s, s2 float64
	res := simResult{n: n}
	hits := 0
	for range n {
		if err := g.Play(src, stake, &r); err != nil {
			t.Fatal(err)
		}
		x := float64(r.Total) / float64(stake)
		s += x
		s2 += x * x
		if r.Total > 0 {
			hits++
		}
		fs := false
		for i := range r.Steps {
			st := &r.Steps[i]
			switch st.Kind {
			case engine.StepFree:
				fs = true
			case engine.StepLockSpin:
				if st.RespinsLeft == g.c.m.Respins && (i == 0 || r.Steps[i-1].Kind != engine.StepLockSpin || r.Steps[i-1].RespinsLeft == 0) {
					res.locks++ // the feature's first step
				}
			case engine.StepBonusWin:
				res.bonusWin++
			}
		}
		if fs {
			res.fsRounds++
		}
	}
	res.mean = s / float64(n)
	res.hit = float64(hits) / float64(n)
	res.sd = math.Sqrt(s2/float64(n) - res.mean*res.mean)
	return res
}

func feature(t *testing.T, rep *Report, name string) float64 {
	for _, f := range rep.Features {
		if f.Name == name {
			return f.PerGame
		}
	}
	t.Fatalf("no feature %q", name)
	return 0
}

// TestSimulationAgreesWithExact (WS-11): a CI-sized simulation of the
// production Play path agrees with the exact RTP within its 99 % interval;
// hit frequency, free-spin rounds, Lock & Spin features and bonus wins per
// game agree with their exact values too (z < 3.3 each).
func TestSimulationAgreesWithExact(t *testing.T) {
	rep, err := Exact()
	if err != nil {
		t.Fatal(err)
	}
	n := 3_000_000
	if testing.Short() {
		n = 500_000
	}
	if *bigSim {
		n = 40_000_000
	}
	sim := simulate(t, Default, 20261129, n, 100)
	half := 2.576 * rep.Sigma / math.Sqrt(float64(n))
	t.Logf("exact RTP %.6f sigma %.4f hit %.5f; simulated %.6f ± %.6f (99%%), sd %.4f, hit %.5f", rep.RTP, rep.Sigma, rep.HitFrequency, sim.mean, half, sim.sd, sim.hit)
	if math.Abs(sim.mean-rep.RTP) > half {
		t.Errorf("simulated RTP %.6f outside exact %.6f ± %.6f", sim.mean, rep.RTP, half)
	}
	for _, c := range []struct {
		name  string
		got   float64
		p     float64
		count bool // an expected count per game rather than a probability
	}{
		{"hit frequency", sim.hit, rep.HitFrequency, false},
		{"free-spin rounds", float64(sim.fsRounds) / float64(n), feature(t, rep, "free spins (probability per game)"), false},
		{"Lock & Spin features", float64(sim.locks) / float64(n), feature(t, rep, "Lock & Spin in all (expected per game)"), true},
		{"bonus wins", float64(sim.bonusWin) / float64(n), feature(t, rep, "bonus wins in all (expected per game)"), true},
	} {
		se := math.Sqrt(c.p * (1 - c.p) / float64(n))
		if c.count {
			se = math.Sqrt(c.p*1.2/float64(n)) + 1e-12 // near-Poisson counts, a little overdispersed
		}
		z := (c.got - c.p) / se
		t.Logf("%-22s simulated %.6f exact %.6f z %+.2f", c.name, c.got, c.p, z)
		if math.Abs(z) > 3.3 {
			t.Errorf("%s: simulated %.6f, exact %.6f (z %.2f)", c.name, c.got, c.p, z)
		}
	}
}

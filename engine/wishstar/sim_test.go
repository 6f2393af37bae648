package wishstar

import (
	"flag"
	"math"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
)

var bigSim = flag.Bool("bigsim", false, "simulate 40 million rounds")

// simulate plays n rounds of the production Play path on a seeded stream
// and returns the mean, the hit frequency and the standard deviation of the
// round total in units of stake.
func simulate(t testing.TB, g *Game, seed uint64, n int, stake engine.Money) (mean, hit, sd float64) {
	src := engine.NewSeededSource(seed, 1)
	var r engine.Round
	var s, s2 float64
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
	}
	mean = s / float64(n)
	return mean, float64(hits) / float64(n), math.Sqrt(s2/float64(n) - mean*mean)
}

// TestSimulationAgreesWithExact (WS-11): a CI-sized simulation of Play
// agrees with the exact RTP within its 99 % interval, and the hit frequency
// likewise.
func TestSimulationAgreesWithExact(t *testing.T) {
	rep, err := Exact()
	if err != nil {
		t.Fatal(err)
	}
	n := 4_000_000
	if *bigSim {
		n = 40_000_000
	}
	if testing.Short() {
		n = 500_000
	}
	mean, hit, sd := simulate(t, Default, 20261129, n, 100)
	half := 2.576 * rep.Sigma / math.Sqrt(float64(n))
	t.Logf("exact RTP %.6f sigma %.4f hit %.5f; simulated %.6f ± %.6f (99%%), sd %.4f, hit %.5f", rep.RTP, rep.Sigma, rep.HitFrequency, mean, half, sd, hit)
	if math.Abs(mean-rep.RTP) > half {
		t.Errorf("simulated RTP %.6f outside exact %.6f ± %.6f", mean, rep.RTP, half)
	}
	hh := 2.576 * math.Sqrt(rep.HitFrequency*(1-rep.HitFrequency)/float64(n))
	if math.Abs(hit-rep.HitFrequency) > hh {
		t.Errorf("simulated hit frequency %.5f outside exact %.5f ± %.5f", hit, rep.HitFrequency, hh)
	}
}

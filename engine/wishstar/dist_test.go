package wishstar

import (
	"math"
	"testing"
)

// TestRoundDistributionAgreesWithExact: the round-total law (counting, the
// chain, the DP on Fourier transforms) has total mass 1, and its mean,
// variance and P(0) equal exact.go's moments and hit frequency, which come
// from a different route (moments only, no distributions); its far end is
// the structural max win, and the FFT's rounding stays below 1e-13.
func TestRoundDistributionAgreesWithExact(t *testing.T) {
	if testing.Short() {
		t.Skip("the round distribution takes seconds")
	}
	d, err := RoundDistribution()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Exact()
	if err != nil {
		t.Fatal(err)
	}
	var mass, m1, m2 float64
	for u, p := range d.P {
		x := float64(u) / Unit
		mass += p
		m1 += p * x
		m2 += p * x * x
	}
	sigma := math.Sqrt(m2 - m1*m1)
	t.Logf("mass 1%+.3g, mean %.12f (exact %.12f), sigma %.9f (%.9f), P(0) %.12f (%.12f), rounding %.3g, max %d units",
		mass-1, m1, rep.RTP, sigma, rep.Sigma, d.P[0], 1-rep.HitFrequency, d.Rounding, len(d.P)-1)
	if math.Abs(mass-1) > 1e-13 || math.Abs(m1-rep.RTP) > 1e-11 || math.Abs(sigma-rep.Sigma) > 1e-8 ||
		math.Abs(d.P[0]-(1-rep.HitFrequency)) > 1e-11 || d.Rounding > 1e-15 {
		t.Fatal("the round distribution disagrees with the exact moments")
	}
	if float64(len(d.P)-1) > rep.MaxWin*Unit {
		t.Fatalf("the law reaches %d units, beyond the max win %.0fx", len(d.P)-1, rep.MaxWin)
	}
}

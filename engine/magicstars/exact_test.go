package magicstars

import (
	"math"
	"testing"
)

// TestExactDistributionByDirectConvolution recomputes the round total's
// distribution on a short grid by plain fixed-point iteration with direct
// convolutions (no Miller recursion) and compares.
func TestExactDistributionByDirectConvolution(t *testing.T) {
	e, err := Default.ComputeExact()
	if err != nil {
		t.Fatal(err)
	}
	const K = 300
	p0, p1 := make([]float64, K), make([]float64, K)
	for _, o := range e.SpinDist {
		if k := o.Units / e.Grid; k < K {
			p0[k] += float64(o.NoTrigger) / float64(e.Cycle)
			p1[k] += float64(o.Trigger) / float64(e.Cycle)
		}
	}
	conv := func(a, b []float64) []float64 {
		c := make([]float64, K)
		for i := range K {
			for j := 0; i+j < K; j++ {
				c[i+j] += a[i] * b[j]
			}
		}
		return c
	}
	H := make([]float64, K)
	var D []float64
	for range 60 {
		D = make([]float64, K)
		copy(D, p0)
		PH := conv(p1, H)
		for k := range K {
			D[k] += PH[k]
		}
		pow := make([]float64, K)
		pow[0] = 1
		H = make([]float64, K)
		for n := 1; n <= 25; n++ {
			pow = conv(pow, D)
			for _, f := range e.FreeSpins {
				if f.Count == n {
					for k := range K {
						H[k] += float64(f.Weight) / float64(e.WeightSum) * pow[k]
					}
				}
			}
		}
	}
	for k := range K {
		if math.Abs(D[k]-e.Dist[k]) > 1e-13 {
			t.Fatalf("P(X = %d u): direct %.17g, exact %.17g", int64(k)*e.Grid, D[k], e.Dist[k])
		}
	}
	// The distribution's mean below the grid end approaches E[X].
	var m, mass float64
	for k, d := range e.Dist {
		m += d * float64(int64(k)*e.Grid) / LineCount
		mass += d
	}
	if ex := ratF(e.RTP); math.Abs(m-ex) > 1e-9 || math.Abs(mass-1) > 1e-12 {
		t.Fatalf("grid mean %.12f vs E[X] %.12f, mass %.15f", m, ex, mass)
	}
}

// TestExactModelTargets: the design targets of the PAR sheet.
func TestExactModelTargets(t *testing.T) {
	e, err := Default.ComputeExact()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range e.Stakes {
		if s.RTP < 0.90 || s.RTP > 0.96 {
			t.Errorf("stake %d: RTP %.6f outside 90..96 %%", s.Stake, s.RTP)
		}
	}
	// Every advertised award more frequent than 1 in 100 000 000 games.
	for _, s := range e.Symbols {
		if p := float64(s.Tuples) / float64(e.Cycle); p < 1e-8 {
			t.Errorf("%s line: p = %g", SymbolName(s.Symbol), p)
		}
		if Doubles[s.Symbol] && float64(s.FullScreens)/float64(e.Cycle) < 1e-8 {
			t.Errorf("%s full screen: p = %g", SymbolName(s.Symbol), float64(s.FullScreens)/float64(e.Cycle))
		}
	}
	if top := e.Stakes[len(e.Stakes)-1]; top.PCapped < 1e-8 {
		t.Errorf("the 500 000 CZK maximum win: p = %g at 1000 CZK", top.PCapped)
	}
	// The components add up to the RTP.
	sum := ratF(e.LinesBase) + ratF(e.DblBase) + ratF(e.LinesFS) + ratF(e.DblFS)
	if math.Abs(sum-ratF(e.RTP)) > 1e-15 {
		t.Fatalf("components %.15f, RTP %.15f", sum, ratF(e.RTP))
	}
}

func TestFastDiv(t *testing.T) {
	for _, d := range []uint32{2, 3, 7, 32, 1000, 1024, 32767, 1 << 20, 1<<22 - 3} {
		m := reciprocal(d)
		for _, x := range []uint32{0, 1, d - 1, d, d + 1, 1<<22 - 1, 1<<31 + 5, 1<<32 - 1, 123456789} {
			if got := fastDiv(x, m); got != x/d {
				t.Fatalf("%d / %d = %d, fastDiv %d", x, d, x/d, got)
			}
		}
	}
}

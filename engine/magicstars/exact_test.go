package magicstars

import (
	"math"
	"testing"
)

// TestExactDistributionByDirectConvolution recomputes the round total's
// distribution up to the 1 000 CZK cap by plain fixed-point iteration with
// direct convolutions (binary powers, no Miller recursion), and the capped
// RTP at 1 000 CZK from it.
func TestExactDistributionByDirectConvolution(t *testing.T) {
	e, err := Default.ComputeExact()
	if err != nil {
		t.Fatal(err)
	}
	lb := int64(1000 / LineCount)
	capU := int64(RoundCap) / lb // 2500 u
	K := int(capU / e.Grid)
	p0, p1 := make([]float64, K), make([]float64, K)
	for _, o := range e.SpinDist {
		if k := o.Units / e.Grid; k < int64(K) {
			p0[k] += float64(o.NoTrigger) / float64(e.Cycle)
			p1[k] += float64(o.Trigger) / float64(e.Cycle)
		}
	}
	conv := func(a, b []float64) []float64 {
		c := make([]float64, K)
		for i, x := range a {
			if x == 0 {
				continue
			}
			for j := 0; i+j < K; j++ {
				c[i+j] += x * b[j]
			}
		}
		return c
	}
	power := func(d []float64, n int) []float64 {
		r := make([]float64, K)
		r[0] = 1
		for sq := d; n > 0; n >>= 1 {
			if n&1 == 1 {
				r = conv(r, sq)
			}
			if n > 1 {
				sq = conv(sq, sq)
			}
		}
		return r
	}
	H := make([]float64, K)
	var D []float64
	for range 45 { // the error shrinks by q*E[L] = 0.41 per round
		D = conv(p1, H)
		for k := range K {
			D[k] += p0[k]
		}
		H = make([]float64, K)
		for _, f := range e.FreeSpins {
			pw := power(D, f.Count)
			for k := range K {
				H[k] += float64(f.Weight) / float64(e.WeightSum) * pw[k]
			}
		}
	}
	var m1, below float64
	for k := range K {
		if math.Abs(D[k]-e.Dist[k]) > 1e-13 {
			t.Fatalf("P(X = %d u): direct %.17g, exact %.17g", int64(k)*e.Grid, D[k], e.Dist[k])
		}
		m1 += D[k] * float64(int64(k)*e.Grid) / LineCount
		below += D[k]
	}
	direct := m1 + (1-below)*float64(RoundCap)/1000
	top := e.Stakes[len(e.Stakes)-1]
	if top.Stake != 1000 || math.Abs(direct-top.RTP) > 1e-11 {
		t.Fatalf("RTP at 1000 CZK: direct %.15f, exact %.15f", direct, top.RTP)
	}
	// The distribution's mean below the grid end approaches E[X].
	var m float64
	var mass float64
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
	// MS-7 as Play does it: PCapped is P(X > cap) (Play cuts only above),
	// PReach P(X >= cap); they differ by the mass exactly at the cap.
	top := e.Stakes[len(e.Stakes)-1]
	at := e.Dist[int(int64(RoundCap)/int64(top.Stake/LineCount)/e.Grid)]
	if at <= 0 || math.Abs(top.PReach-top.PCapped-at) > 1e-15 || math.Abs(top.RTP-(ratF(e.RTP)-top.CapLoss)) > 1e-15 {
		t.Errorf("cap at %d CZK: P(X > cap) %g, P(X >= cap) %g, P(X = cap) %g", top.Stake, top.PCapped, top.PReach, at)
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

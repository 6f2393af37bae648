package wishstar

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// tiny is a small model whose base set can be enumerated stop by stop.
func tiny(t *testing.T, fsMax int) *Game {
	t.Helper()
	var m Model
	if err := json.Unmarshal(modelBytes, &m); err != nil {
		t.Fatal(err)
	}
	m.Reels = map[string][5]string{
		"base": {
			"10 J STAR STAR BONUS K ELF Q 10",
			"WILD WILD WILD 10 J STAR WILD Q K ELF",
			"J 10 BONUS STAR STAR STAR Q ELF",
			"K WILD Q STAR STAR 10 WILD WILD WILD J",
			"10 BONUS J STAR Q K STAR ELF",
		},
		"free": {
			"10 J STAR BONUS K ELF Q",
			"WILD WILD WILD 10 J STAR Q K",
			"J 10 BONUS STAR Q ELF A",
			"K WILD Q STAR 10 WILD J",
			"10 BONUS J STAR Q K A",
		},
	}
	m.FreeSpinsMax = fsMax
	b, err := json.Marshal(&m)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestExactWaysAgainstEnumeration (WS-1..WS-3, slotmath §2.1): the
// factorised per-reel sums give the same E[W], E[W^2], P(W=0) and star /
// Bonus / full-wild distribution as evaluating every stop combination of a
// small model with the production ways code.
func TestExactWaysAgainstEnumeration(t *testing.T) {
	g := tiny(t, 50)
	rs := &g.c.base
	sc := g.calcSet("base", rs, 1)
	var n, ew, ew2, p0 float64
	var pz [nZ]float64
	var st [5]int
	var wins []engine.Win
	var rec func(r int)
	rec = func(r int) {
		if r == 5 {
			var inf [5]*reelInfo
			c, b, f := 0, 0, 0
			for i := range 5 {
				inf[i] = &rs.info[i][st[i]]
				c += int(inf[i].stars)
				b += int(inf[i].bonus)
				f += b2i(inf[i].full)
			}
			wins = wins[:0]
			w := float64(g.c.ways(&wins, &inf, 1)) / Unit
			n++
			ew += w
			ew2 += w * w
			if w == 0 {
				p0++
			}
			pz[zOf(c, b, f)]++
			return
		}
		for st[r] = range rs.info[r] {
			rec(r + 1)
		}
	}
	rec(0)
	var sw, sw2, s0 float64
	for z := range nZ {
		sw += sc.w1[z]
		sw2 += sc.w2[z]
		s0 += sc.w0[z]
		if math.Abs(sc.pZ[z]-pz[z]/n) > 1e-12 {
			t.Errorf("P(Z=%d): %g vs enumerated %g", z, sc.pZ[z], pz[z]/n)
		}
	}
	for _, c := range [][3]float64{{sw, ew / n, 0}, {sw2, ew2 / n, 1}, {s0, p0 / n, 2}} {
		if math.Abs(c[0]-c[1]) > 1e-9*math.Max(1, c[1]) {
			t.Errorf("moment %v: exact %.12f, enumerated %.12f", c[2], c[0], c[1])
		}
	}
	t.Logf("%d combinations: E[W] %.9f E[W^2] %.9f P(W=0) %.9f", int(n), ew/n, ew2/n, p0/n)
}

// TestExactFreeSpinDPMatchesBranching (WS-6, slotmath §2.3): with a limit
// too high to matter, the embedded model's free-spin DP gives the branching formula
// 10/(1 - 10q); with the model's limit it gives no more.
func TestExactFreeSpinDPMatchesBranching(t *testing.T) {
	for _, c := range []struct {
		max   int
		exact bool
	}{{400, true}, {50, false}} {
		var m Model
		if err := json.Unmarshal(modelBytes, &m); err != nil {
			t.Fatal(err)
		}
		m.FreeSpinsMax = c.max
		b, _ := json.Marshal(&m)
		g, err := NewFromBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := g.exact(false)
		if err != nil {
			t.Fatal(err)
		}
		d := rep.FreeSpinsCapped - rep.FreeSpinsBranching
		if c.exact && math.Abs(d) > 1e-9 || !c.exact && d > 1e-12 {
			t.Errorf("limit %d: DP %.12f, branching %.12f", c.max, rep.FreeSpinsCapped, rep.FreeSpinsBranching)
		}
	}
}

// TestExactLockChain (WS-8): the chain's final-count distribution sums to 1,
// never ends below its start, and from 6 stars with p = 0.03 gives the
// slotmath §2.4 figures (E = 7.1788, P(15) = 5.9e-5).
func TestExactLockChain(t *testing.T) {
	g := tiny(t, 50)
	g.c.m.RespinLand.Land, g.c.m.RespinLand.Range = 3, 100
	lc := g.calcLock(1)
	for s := 6; s <= 15; s++ {
		sum := 0.0
		for n, p := range lc.final[s] {
			sum += p
			if n < s && p != 0 {
				t.Errorf("from %d: P(end at %d) = %g", s, n, p)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("from %d: total %g", s, sum)
		}
	}
	if math.Abs(lc.meanStars[6]-7.1788) > 5e-5 || math.Abs(lc.final[6][15]-5.9e-5) > 0.05e-5 {
		t.Errorf("from 6 at p=0.03: E %.5f P(15) %.3g", lc.meanStars[6], lc.final[6][15])
	}
}

// TestWS11ExactRTP: the theoretical RTP is 95.20 % within ±0.01 pp at every
// stake of the ladder; the components add up; every advertised award is
// more frequent than 1 in 100 million games; hit frequency and sigma are in
// the ranges the README states.
func TestWS11ExactRTP(t *testing.T) {
	rep, err := Exact()
	if err != nil {
		t.Fatal(err)
	}
	if rep.ModelID != Default.ModelID() || len(rep.ModelID) != 64 {
		t.Fatalf("model id %q", rep.ModelID)
	}
	for _, s := range stakes {
		if r, ok := rep.RTPByStake[s]; !ok || math.Abs(r-0.952) > 0.0001 {
			t.Errorf("stake %d: RTP %.6f", s, r)
		}
	}
	sum := 0.0
	for _, c := range rep.Components {
		sum += c.RTP
	}
	if math.Abs(sum-rep.RTP) > 1e-12 {
		t.Errorf("components add to %.12f, RTP %.12f", sum, rep.RTP)
	}
	for _, j := range rep.Jackpots {
		if j.PerGame < 1e-8 {
			t.Errorf("%s is 1 in %.0f games", j.Tier, j.OneIn)
		}
	}
	for _, f := range rep.Features {
		if f.PerGame < 1e-8 {
			t.Errorf("%s: 1 in %.0f", f.Name, f.OneIn)
		}
	}
	for _, c := range rep.Combinations {
		if c.Set == "base" && (c.Hits == 0 || c.Prob < 1e-8) {
			t.Errorf("%s %s x%d: %d hits", c.Set, c.Symbol, c.Count, c.Hits)
		}
	}
	if rep.HitFrequency < 0.25 || rep.HitFrequency > 0.35 || rep.Sigma < 2 || rep.Sigma > 8 {
		t.Errorf("hit frequency %.4f sigma %.3f", rep.HitFrequency, rep.Sigma)
	}
	if rep.MaxWin <= 0 || rep.MaxWinPath == "" {
		t.Errorf("max win %v (%s)", rep.MaxWin, rep.MaxWinPath)
	}
	t.Logf("RTP %.6f hit %.4f sigma %.3f max %.0fx", rep.RTP, rep.HitFrequency, rep.Sigma, rep.MaxWin)
}

// TestExactReproducible: two computations give the same report to the last
// bit (the PAR sheet is a committed, regenerated file).
func TestExactReproducible(t *testing.T) {
	a, err := Default.exact(true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Default.exact(true)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatal("two exact computations differ")
	}
}

// TestMaxWinReachedByPlay (D5): the documented max win is reachable: the
// draws of the path the search found, fed to the production Play, pay
// exactly MaxWin x stake (no cap, no truncation).
func TestMaxWinReachedByPlay(t *testing.T) {
	c := Default.c
	lc, lcFree := Default.calcLock(1), Default.calcLock(float64(Default.c.freeCash))
	mw, _, _, path := Default.maxWin(lc, lcFree)
	best := func(tb table) int { // draw of the largest prize (Major)
		bi := 0
		for i, p := range tb.prizes {
			if p.freeSpins == 0 && p.units > tb.prizes[bi].units {
				bi = i
			}
		}
		return prizeDraw(tb, bi)
	}
	fsDraw := prizeDraw(c.bonus, prizeIndex(t, c.bonus, func(p *prize) bool { return p.freeSpins > 0 }))
	var draws []int
	for i, sp := range path {
		rs := &c.free
		if i == 0 {
			rs = &c.base
		}
		draws = append(draws, sp.stops[:]...)
		fs := sp.asFS
		for _, reel := range []int{1, 3} {
			if rs.info[reel][sp.stops[reel]].full {
				if fs > 0 {
					draws = append(draws, fsDraw)
					fs--
				} else {
					draws = append(draws, best(c.bonus))
				}
			}
		}
		stars := 0
		for r := range 5 {
			stars += int(rs.info[r][sp.stops[r]].stars)
		}
		if stars >= c.m.LockTrigger {
			draws = append(draws, repeat(stars, []int{best(c.stars)})...)
			if stars < 15 {
				draws = append(draws, repeat(15-stars, []int{landDraw()})...)
				draws = append(draws, repeat(15-stars, []int{best(c.stars)})...)
			}
		}
	}
	r := play(t, 2500, draws...)
	if want := engine.Money(math.Round(mw * 2500)); r.Total != want {
		t.Fatalf("path pays %d, max win %.2f x 2500 = %d", r.Total, mw, want)
	}
	t.Logf("max win %.0fx reached in %d steps: %d cents at EUR 25", mw, len(r.Steps), r.Total)
}

// TestMaxWaysByClassAgainstEnumeration: the max-win search's largest ways
// pay per feature class, and its probability, equal a full enumeration.
func TestMaxWaysByClassAgainstEnumeration(t *testing.T) {
	g := tiny(t, 50)
	rs := &g.c.base
	got := g.bestByClass(rs, func(int) float64 { return 1 })
	var want [2][2][3]classBest
	var st [5]int
	var wins []engine.Win
	cycle := 1.0
	for r := range 5 {
		cycle *= float64(len(rs.info[r]))
	}
	var rec func(r int)
	rec = func(r int) {
		if r == 5 {
			var inf [5]*reelInfo
			c, b, f := 0, 0, 0
			for i := range 5 {
				inf[i] = &rs.info[i][st[i]]
				c += int(inf[i].stars)
				b += int(inf[i].bonus)
				f += b2i(inf[i].full)
			}
			wins = wins[:0]
			w := float64(g.c.ways(&wins, &inf, 1)) / Unit
			cb := &want[b2i(c >= g.c.m.LockTrigger)][b2i(b >= 3)][f]
			switch {
			case !cb.ok || w > cb.ways+1e-9:
				*cb = classBest{ways: w, p: 1 / cycle, ok: true}
			case math.Abs(w-cb.ways) <= 1e-9:
				cb.p += 1 / cycle
			}
			return
		}
		for st[r] = range rs.info[r] {
			rec(r + 1)
		}
	}
	rec(0)
	for l := range 2 {
		for s := range 2 {
			for f := range 3 {
				a, b := got[l][s][f], want[l][s][f]
				if a.ok != b.ok || math.Abs(a.ways-b.ways) > 1e-9 || math.Abs(a.p-b.p) > 1e-12 {
					t.Errorf("class lock %d scatter %d full %d: search %+v, enumeration %+v", l, s, f, a, b)
				}
			}
		}
	}
}

// TestAmountsScaleWithStake (WS-11 at every stake, WS-12): the same draws
// at any stake of the ladder pay exactly stake/25 times what they pay at
// 25 cents, win by win, so the RTP is the same at every stake.
func TestAmountsScaleWithStake(t *testing.T) {
	for seed := range uint64(3000) {
		var ref engine.Round
		if err := Default.Play(draw.NewSeeded(seed, 5), 25, &ref); err != nil {
			t.Fatal(err)
		}
		for _, s := range stakes[1:] {
			var r engine.Round
			if err := Default.Play(draw.NewSeeded(seed, 5), s, &r); err != nil {
				t.Fatal(err)
			}
			k := s / 25
			if r.Total != k*ref.Total || len(r.Steps) != len(ref.Steps) {
				t.Fatalf("seed %d stake %d: total %d, %d x %d", seed, s, r.Total, k, ref.Total)
			}
			for i := range r.Steps {
				for j, w := range r.Steps[i].Wins {
					if w.Amount != k*ref.Steps[i].Wins[j].Amount {
						t.Fatalf("seed %d stake %d step %d win %d: %d vs %d x %d", seed, s, i, j, w.Amount, k, ref.Steps[i].Wins[j].Amount)
					}
				}
			}
		}
	}
}

// zOf is the index of a spin's summary (stars c, bonus b, full wild f)
// among the nZ that exact.go's tables are kept by.
func zOf(c, b, f int) int { return c*zStar + b*zBon + f }

package wishstar

import (
	"maps"
	"math"
	"slices"

	"github.com/polaris-vlt/polaris/engine"
)

// The exact figures come from the model alone, by combinatorics (slotmath
// §2): per-reel window statistics convolved over the five independent
// reels, a DP for the (bounded) retriggering free spins, and a Markov chain
// for Lock & Spin. Nothing here calls Play. Money is in multiples of the
// total stake.

// Component is one part of the RTP.
type Component struct {
	Name string  `json:"name"`
	RTP  float64 `json:"rtp"`
}

// JackpotFigure is one jackpot tier's figures per paid game.
type JackpotFigure struct {
	Tier    string  `json:"tier"`
	Factor  float64 `json:"factor"`  // x stake
	PerGame float64 `json:"perGame"` // expected hits per paid game
	OneIn   float64 `json:"oneIn"`
	RTP     float64 `json:"rtp"`
}

// Frequency is how often something happens per paid game.
type Frequency struct {
	Name    string  `json:"name"`
	PerGame float64 `json:"perGame"` // probability (or expected count, see Name)
	OneIn   float64 `json:"oneIn"`
}

// Combination is one row of the combination table of a reel set.
type Combination struct {
	Set      string  `json:"set"` // "base" or "free"
	Symbol   string  `json:"symbol"`
	Count    int     `json:"count"`
	Hits     int64   `json:"hits"`  // stop combinations of the cycle paying it
	Cycle    int64   `json:"cycle"` // stop combinations of the set
	Prob     float64 `json:"probability"`
	Pay      float64 `json:"pay"`      // factor x stake per way, before the free-spin multiplier
	MeanWays float64 `json:"meanWays"` // mean ways of a hit
	RTP      float64 `json:"rtp"`      // contribution per spin of that set, multiplier included
}

// SetFigures are one reel set's per-spin figures.
type SetFigures struct {
	Set          string      `json:"set"`
	Multiplier   int         `json:"multiplier"`
	Cycle        int64       `json:"cycle"`
	StarCount    [16]float64 `json:"starCount"` // P(k stars on the screen)
	PScatter     float64     `json:"pScatter"`  // P(3 Bonus)
	PFullWild    [2]float64  `json:"pFullWild"` // P(reel 2 full wild), P(reel 4 full wild)
	PLockSpin    float64     `json:"pLockSpin"`
	PAwards      [4]float64  `json:"pAwards"` // P(a free-spin awards from one spin), a = 0..3
	Ways         float64     `json:"ways"`    // per-spin expected pay of each part
	Scatter      float64     `json:"scatter"`
	BonusCash    float64     `json:"bonusCash"`
	BonusJackpot float64     `json:"bonusJackpot"`
	StarCash     float64     `json:"starCash"`
	StarJackpot  float64     `json:"starJackpot"`
	Grand        float64     `json:"grand"`
	WaysHit      float64     `json:"waysHit"` // P(some ways win)
}

// LockFigures describe Lock & Spin from each starting star count.
type LockFigures struct {
	RespinP   float64             `json:"respinP"` // landing probability per empty cell per respin
	StarMean  float64             `json:"starMean"`
	StarTable []PrizeFigure       `json:"starTable"`
	Final     map[int][16]float64 `json:"final"` // start count -> P(final count)
	Mean      map[int]float64     `json:"mean"`  // start count -> E[feature pay]
	PGrand    map[int]float64     `json:"pGrand"`
}

// PrizeFigure is one row of a prize table.
type PrizeFigure struct {
	Prize  string  `json:"prize"` // "3x", "MINI", "10 free spins"
	Factor float64 `json:"factor"`
	Weight int     `json:"weight"`
	Prob   float64 `json:"probability"`
}

// Report is the exact figures of the model.
type Report struct {
	Game         string                   `json:"game"`
	ModelID      string                   `json:"modelId"`
	RTP          float64                  `json:"rtp"`
	RTPByStake   map[engine.Money]float64 `json:"rtpByStake"`
	Components   []Component              `json:"components"`
	Jackpots     []JackpotFigure          `json:"jackpots"`
	HitFrequency float64                  `json:"hitFrequency"`
	Sigma        float64                  `json:"sigma"`
	Features     []Frequency              `json:"features"`
	// FreeSpinsPerGame is the expected free spins of a paid game;
	// FreeSpinsPerTrigger those of a round that has any.
	FreeSpinsPerGame    float64 `json:"freeSpinsPerGame"`
	FreeSpinsPerTrigger float64 `json:"freeSpinsPerTrigger"`
	// FreeSpinsBranching is E[spins per award] by the uncapped branching
	// formula 10/(1-10q), q = expected awards per free spin; FreeSpinsCapped
	// is the same from the capped DP (from 10 spins).
	FreeSpinsBranching float64 `json:"freeSpinsBranching"`
	FreeSpinsCapped    float64 `json:"freeSpinsCapped"`
	// PFreeSpinsCut is P(a round has an award cut by the FreeSpinsMax
	// bound, D5), per paid game.
	PFreeSpinsCut float64       `json:"pFreeSpinsCut"`
	MaxWin        float64       `json:"maxWin"`
	MaxWinLog10P  float64       `json:"maxWinLog10P"`
	MaxWinPath    string        `json:"maxWinPath"`
	Base          SetFigures    `json:"base"`
	Free          SetFigures    `json:"free"`
	Lock          LockFigures   `json:"lockAndSpin"`
	BonusTable    []PrizeFigure `json:"bonusTable"`
	Combinations  []Combination `json:"combinations"`
}

// Exact computes the embedded model's figures.
func Exact() (*Report, error) { return Default.Exact() }

const (
	nZ    = 16 * 4 * 3 // (stars 0..15, bonus 0..3, full-wild reels 0..2)
	nLoc  = 16         // per reel: stars 0..3, bonus 0..1, full wild 0..1
	nAwd  = 4
	zStar = 12
	zBon  = 3
)

func locOf(ri *reelInfo) int {
	f := 0
	if ri.full {
		f = 1
	}
	return int(ri.stars)*4 + int(ri.bonus)*2 + f
}
func locDelta(l int) int { return (l/4)*zStar + ((l/2)%2)*zBon + l%2 }

// convolve combines five per-reel tables over local states into one over Z.
func convolve(t *[5][nLoc]float64) [nZ]float64 {
	var cur, next [nZ]float64
	cur[0] = 1
	for r := range 5 {
		next = [nZ]float64{}
		for z, p := range cur {
			if p == 0 {
				continue
			}
			for l, q := range t[r] {
				if q != 0 {
					next[z+locDelta(l)] += p * q
				}
			}
		}
		cur = next
	}
	return cur
}

// waysFactor is reel r's factor of a k-of-a-kind of s at one stop.
func waysFactor(ri *reelInfo, r, s, k int) float64 {
	n := ri.n(s)
	switch {
	case r < k:
		return float64(n)
	case r == k:
		if n == 0 {
			return 1
		}
		return 0
	}
	return 1
}

type setCalc struct {
	name   string
	rs     *reelSet
	mult   float64
	pZ     [nZ]float64
	w1     [nZ]float64 // E[W 1_Z] before the multiplier, in stake
	w2     [nZ]float64 // E[W^2 1_Z]
	w0     [nZ]float64 // P(W = 0, Z)
	combos []Combination
}

func (g *Game) calcSet(name string, rs *reelSet, mult float64) *setCalc {
	sc := &setCalc{name: name, rs: rs, mult: mult}
	var t [5][nLoc]float64
	for r := range 5 {
		inv := 1 / float64(len(rs.info[r]))
		for i := range rs.info[r] {
			t[r][locOf(&rs.info[r][i])] += inv
		}
	}
	sc.pZ = convolve(&t)
	cycle := int64(1)
	for r := range 5 {
		cycle *= int64(len(rs.info[r]))
	}
	// E[W 1_Z]: each (symbol, k) factorises over the reels (slotmath §2.1).
	for s := range nPaying {
		for k := 3; k <= 5; k++ {
			pay := float64(g.c.pays[s][k]) / Unit
			var hits int64 = 1
			for r := range 5 {
				t[r] = [nLoc]float64{}
				inv := 1 / float64(len(rs.info[r]))
				var h int64
				for i := range rs.info[r] {
					ri := &rs.info[r][i]
					f := waysFactor(ri, r, s, k)
					t[r][locOf(ri)] += f * inv
					if f != 0 {
						h++
					}
				}
				hits *= h
			}
			j := convolve(&t)
			var ew, p float64
			for z := range nZ {
				sc.w1[z] += pay * j[z]
				ew += pay * j[z]
			}
			// hits probability from counts: reels 1..k show s, reel k+1 does not.
			p = float64(hits) / float64(cycle)
			mw := 0.0
			if p > 0 {
				mw = ew / pay / p
			}
			sc.combos = append(sc.combos, Combination{Set: name, Symbol: SymbolName(engine.Symbol(s)), Count: k,
				Hits: hits, Cycle: cycle, Prob: p, Pay: pay, MeanWays: mw, RTP: ew * mult})
		}
	}
	// E[W^2 1_Z] = sum over pairs of (symbol, k) wins; each pair factorises too.
	for s := range nPaying {
		for u := range nPaying {
			for ks := 3; ks <= 5; ks++ {
				for ku := 3; ku <= 5; ku++ {
					if s == u && ks != ku {
						continue // one symbol pays one k
					}
					pp := float64(g.c.pays[s][ks]) * float64(g.c.pays[u][ku]) / (Unit * Unit)
					zero := false
					for r := range 5 {
						t[r] = [nLoc]float64{}
						inv := 1 / float64(len(rs.info[r]))
						any := false
						for i := range rs.info[r] {
							ri := &rs.info[r][i]
							f := waysFactor(ri, r, s, ks) * waysFactor(ri, r, u, ku)
							if f != 0 {
								t[r][locOf(ri)] += f * inv
								any = true
							}
						}
						if !any {
							zero = true
							break
						}
					}
					if zero {
						continue
					}
					j := convolve(&t)
					for z := range nZ {
						sc.w2[z] += pp * j[z]
					}
				}
			}
		}
	}
	// P(W = 0, Z): no symbol shows on all of reels 1..3.
	var t45 [5][nLoc]float64
	t45[0][0], t45[1][0], t45[2][0] = 1, 1, 1
	for r := 3; r < 5; r++ {
		inv := 1 / float64(len(rs.info[r]))
		for i := range rs.info[r] {
			t45[r][locOf(&rs.info[r][i])] += inv
		}
	}
	z45 := convolve(&t45)
	var z123 [nZ]float64
	inv := 1 / float64(len(rs.info[0])*len(rs.info[1])*len(rs.info[2]))
	for i := range rs.info[0] {
		a := &rs.info[0][i]
		for j := range rs.info[1] {
			b := &rs.info[1][j]
			ab := a.pres & b.pres
			d := locDelta(locOf(a)) + locDelta(locOf(b))
			for k := range rs.info[2] {
				c := &rs.info[2][k]
				if ab&c.pres == 0 {
					z123[d+locDelta(locOf(c))] += inv
				}
			}
		}
	}
	for z1, p1 := range z123 {
		if p1 == 0 {
			continue
		}
		for z2, p2 := range z45 {
			if p2 != 0 && z1+z2 < nZ {
				sc.w0[z1+z2] += p1 * p2
			}
		}
	}
	return sc
}

// splitZ splits a Z index (z = stars·zStar + bonus·zBon + full-wild reels)
// into its stars, bonus symbols and full-wild reels.
func splitZ(z int) (c, b, f int) { return z / zStar, (z % zStar) / zBon, z % zBon }

// lockCalc is Lock & Spin's Markov chain on (locked stars, respins left)
// (slotmath §2.4): from each start count, the distribution of the final count.
type lockCalc struct {
	p         float64
	final     [16][16]float64 // [start][final]
	mu, nu    float64         // star prize mean and second moment
	pTier     [5]float64      // P(a star carries a tier)
	cashMean  float64         // E[star prize | cash] * P(cash)
	grand     float64
	m1, m2    [16]float64 // E[V | start], E[V^2 | start]
	meanStars [16]float64
}

// calcLock is the chain for a feature whose star cash prizes are multiplied
// by cash (1 in the base game, the model's FreeSpinsStarCash in free spins).
func (g *Game) calcLock(cash float64) *lockCalc {
	c := g.c
	lc := &lockCalc{p: float64(c.m.RespinLand.Land) / float64(c.m.RespinLand.Range), grand: float64(c.jackpots[engine.Grand]) / Unit}
	R := c.m.Respins
	// fin[n][r]: final-count distribution from n locked with r respins left.
	fin := make([][][16]float64, 16)
	for n := 15; n >= 0; n-- {
		fin[n] = make([][16]float64, R+1)
		fin[n][0][n] = 1
		for r := 1; r <= R; r++ {
			if n == 15 {
				fin[n][r][15] = 1
				continue
			}
			e := 15 - n
			for k := 0; k <= e; k++ {
				pk := binom(e, k) * math.Pow(lc.p, float64(k)) * math.Pow(1-lc.p, float64(e-k))
				from := &fin[n][r-1]
				if k > 0 {
					from = &fin[n+k][R]
				}
				for f := range 16 {
					fin[n][r][f] += pk * from[f]
				}
			}
		}
	}
	tot := float64(c.stars.total)
	for _, p := range c.stars.prizes {
		v := float64(p.units) / Unit
		if p.jackpot == engine.NoJackpot {
			v *= cash
		}
		w := float64(p.weight) / tot
		lc.mu += w * v
		lc.nu += w * v * v
		lc.pTier[p.jackpot] += w
		if p.jackpot == engine.NoJackpot {
			lc.cashMean += w * v
		}
	}
	for s := 1; s <= 15; s++ {
		lc.final[s] = fin[s][R]
		if s == 15 {
			lc.final[s] = [16]float64{15: 1}
		}
		for n, p := range lc.final[s] {
			N := float64(n)
			v1 := N * lc.mu
			v2 := N*lc.nu + N*(N-1)*lc.mu*lc.mu
			if n == 15 {
				v1 += lc.grand
				v2 += 2*lc.grand*N*lc.mu + lc.grand*lc.grand
			}
			lc.m1[s] += p * v1
			lc.m2[s] += p * v2
			lc.meanStars[s] += p * N
		}
	}
	return lc
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// spinCalc is one spin's own pay X (pay-table wins, bonus wins, Lock & Spin;
// not the free spins it awards) jointly with its award count a.
type spinCalc struct {
	pa, ex, ex2, p0 [nAwd]float64
	fig             SetFigures
	tierHits        [5]float64 // expected jackpot hits per spin
	tierPay         [5]float64
	bonusWins       float64 // expected bonus wins per spin
	lockSpins       float64 // P(Lock & Spin)
}

// bonusOutcome is one bonus-win result: cash/jackpot value or a free-spin award.
type bonusOutcome struct {
	p    float64
	v    float64
	fs   bool
	tier engine.Jackpot
}

func (g *Game) bonusOutcomes() []bonusOutcome {
	var out []bonusOutcome
	tot := float64(g.c.bonus.total)
	for _, p := range g.c.bonus.prizes {
		out = append(out, bonusOutcome{p: float64(p.weight) / tot, v: float64(p.units) / Unit, fs: p.freeSpins > 0, tier: p.jackpot})
	}
	return out
}

func (g *Game) calcSpin(sc *setCalc, lc *lockCalc) *spinCalc {
	c := g.c
	m := sc.mult
	scat := float64(c.m.ScatterPay) / Unit * m
	bo := g.bonusOutcomes()
	// combos of F bonus outcomes: F = 0, 1, 2.
	type combo struct {
		p     float64
		d     float64 // cash of the bonus wins
		a     int     // free-spin awards
		tiers [5]float64
	}
	combos := [3][]combo{{{p: 1}}}
	for f := 1; f <= 2; f++ {
		for _, prev := range combos[f-1] {
			for _, o := range bo {
				n := combo{p: prev.p * o.p, d: prev.d, a: prev.a, tiers: prev.tiers}
				if o.fs {
					n.a++
				} else {
					n.d += o.v
					n.tiers[o.tier]++
				}
				combos[f] = append(combos[f], n)
			}
		}
	}
	sp := &spinCalc{}
	fig := &sp.fig
	fig.Set, fig.Multiplier = sc.name, int(m)
	for z := range nZ {
		pz := sc.pZ[z]
		if pz == 0 {
			continue
		}
		C, B, F := splitZ(z)
		fig.StarCount[C] += pz
		ls1, ls2 := 0.0, 0.0
		lock := C >= c.m.LockTrigger
		if lock {
			ls1, ls2 = lc.m1[C], lc.m2[C]
			fig.PLockSpin += pz
			fig.StarCash += pz * lc.meanStars[C] * lc.cashMean
			for t := engine.Mini; t <= engine.Major; t++ {
				sp.tierHits[t] += pz * lc.meanStars[C] * lc.pTier[t]
				sp.tierPay[t] += pz * lc.meanStars[C] * lc.pTier[t] * float64(c.jackpots[t]) / Unit
			}
			sp.tierHits[engine.Grand] += pz * lc.final[C][15]
			sp.tierPay[engine.Grand] += pz * lc.final[C][15] * lc.grand
		}
		base := 0.0
		a0 := 0
		if B >= 3 {
			base, a0 = scat, 1
			fig.PScatter += pz
			fig.Scatter += pz * scat
		}
		fig.Ways += m * sc.w1[z]
		sp.bonusWins += pz * float64(F)
		for _, cb := range combos[F] {
			d := base + cb.d
			a := a0 + cb.a
			p := pz * cb.p
			sp.pa[a] += p
			// X = mW + d + LS, with W, LS independent given Z.
			sp.ex[a] += cb.p*m*sc.w1[z] + p*(d+ls1)
			sp.ex2[a] += cb.p*(m*m*sc.w2[z]+2*m*sc.w1[z]*(d+ls1)) + p*(d*d+2*d*ls1+ls2)
			if d == 0 && !lock {
				sp.p0[a] += sc.w0[z] * cb.p
			}
			for t := engine.Mini; t <= engine.Major; t++ {
				sp.tierHits[t] += p * cb.tiers[t]
				sp.tierPay[t] += p * cb.tiers[t] * float64(c.jackpots[t]) / Unit
			}
		}
	}
	fig.StarJackpot = sp.tierPay[engine.Mini] + sp.tierPay[engine.Minor] + sp.tierPay[engine.Major]
	fig.Grand = sp.tierPay[engine.Grand]
	for _, o := range bo {
		if !o.fs {
			if o.tier == engine.NoJackpot {
				fig.BonusCash += sp.bonusWins * o.p * o.v
			} else {
				fig.BonusJackpot += sp.bonusWins * o.p * o.v
			}
		}
	}
	// tierPay mixes star and bonus jackpots; split the bonus ones out of StarJackpot.
	fig.StarJackpot -= fig.BonusJackpot
	fig.PAwards = sp.pa
	sp.lockSpins = fig.PLockSpin
	for r := range 2 {
		var full int
		for i := range sc.rs.info[1+2*r] {
			if sc.rs.info[1+2*r][i].full {
				full++
			}
		}
		fig.PFullWild[r] = float64(full) / float64(len(sc.rs.info[1+2*r]))
	}
	cycle := int64(1)
	for r := range 5 {
		cycle *= int64(len(sc.rs.info[r]))
	}
	fig.Cycle = cycle
	for z := range nZ {
		fig.WaysHit += sc.pZ[z] - sc.w0[z]
	}
	return sp
}

// fsCalc is the free-spin DP over (spins left, spins awarded so far): the
// round awards at most FreeSpinsMax spins (decision D5).
type fsCalc struct {
	award, max     int
	e1, e2, p0, en [][]float64 // [left][awarded]
	cut            [][]float64 // P(a later award is cut by the bound)
}

func (g *Game) calcFree(sp *spinCalc) *fsCalc {
	A, M := g.c.m.FreeSpinsAward, g.c.m.FreeSpinsMax
	fc := &fsCalc{award: A, max: M}
	mk := func() [][]float64 {
		s := make([][]float64, M+1)
		for i := range s {
			s[i] = make([]float64, M+1)
		}
		return s
	}
	fc.e1, fc.e2, fc.p0, fc.en, fc.cut = mk(), mk(), mk(), mk(), mk()
	fc.p0[0][0] = 1
	for t := M; t >= A; t -= A {
		fc.p0[0][t] = 1
		for r := 1; r <= t; r++ {
			var e1, e2, p0, en, cut float64
			for a := range nAwd {
				add := min(a*A, M-t)
				nr, nt := r-1+add, t+add
				e1 += sp.ex[a] + sp.pa[a]*fc.e1[nr][nt]
				e2 += sp.ex2[a] + 2*sp.ex[a]*fc.e1[nr][nt] + sp.pa[a]*fc.e2[nr][nt]
				p0 += sp.p0[a] * fc.p0[nr][nt]
				en += sp.pa[a] * fc.en[nr][nt]
				if add < a*A {
					cut += sp.pa[a]
				} else {
					cut += sp.pa[a] * fc.cut[nr][nt]
				}
			}
			fc.e1[r][t], fc.e2[r][t], fc.p0[r][t], fc.en[r][t], fc.cut[r][t] = e1, e2, p0, 1+en, cut
		}
	}
	return fc
}

// start is the DP state after a paid spin with a awards.
func (fc *fsCalc) start(a int) (int, int) {
	n := min(a*fc.award, fc.max)
	return n, n
}

// Exact computes the figures of g's model once and returns a copy of them.
func (g *Game) Exact() (*Report, error) {
	g.once.Do(func() { g.rep, g.repErr = g.exact(true) })
	if g.repErr != nil {
		return nil, g.repErr
	}
	return g.rep.clone(), nil
}

func (r *Report) clone() *Report {
	c := *r
	c.RTPByStake = maps.Clone(r.RTPByStake)
	c.Components = slices.Clone(r.Components)
	c.Jackpots = slices.Clone(r.Jackpots)
	c.Features = slices.Clone(r.Features)
	c.Combinations = slices.Clone(r.Combinations)
	c.BonusTable = slices.Clone(r.BonusTable)
	c.Lock.StarTable = slices.Clone(r.Lock.StarTable)
	c.Lock.Final = maps.Clone(r.Lock.Final)
	c.Lock.Mean = maps.Clone(r.Lock.Mean)
	c.Lock.PGrand = maps.Clone(r.Lock.PGrand)
	return &c
}

// ExactRTP is the theoretical RTP alone (no max-win search): the tuning loop's probe.
func (g *Game) ExactRTP() (float64, error) {
	rep, err := g.exact(false)
	if err != nil {
		return 0, err
	}
	return rep.RTP, nil
}

func (g *Game) exact(withMax bool) (*Report, error) {
	c := g.c
	lc := g.calcLock(1)
	lcFree := g.calcLock(float64(c.freeCash))
	bsSet := g.calcSet("base", &c.base, 1)
	bs := g.calcSpin(bsSet, lc)
	fsSet := g.calcSet("free", &c.free, float64(c.m.FreeSpinsMultiplier))
	fsp := g.calcSpin(fsSet, lcFree)
	fc := g.calcFree(fsp)

	rep := &Report{Game: string(engine.WishStar), ModelID: c.id, Base: bs.fig, Free: fsp.fig}
	var e1, e2, p0, en float64
	for a := range nAwd {
		r, t := fc.start(a)
		if a*fc.award > fc.max {
			rep.PFreeSpinsCut += bs.pa[a]
		} else {
			rep.PFreeSpinsCut += bs.pa[a] * fc.cut[r][t]
		}
		e1 += bs.ex[a] + bs.pa[a]*fc.e1[r][t]
		e2 += bs.ex2[a] + 2*bs.ex[a]*fc.e1[r][t] + bs.pa[a]*fc.e2[r][t]
		p0 += bs.p0[a] * fc.p0[r][t]
		en += bs.pa[a] * fc.en[r][t]
	}
	rep.RTP = e1
	rep.Sigma = math.Sqrt(e2 - e1*e1)
	rep.HitFrequency = 1 - p0
	rep.FreeSpinsPerGame = en
	if pt := 1 - bs.pa[0]; pt > 0 {
		rep.FreeSpinsPerTrigger = en / pt
	}
	q := fsp.pa[1] + 2*fsp.pa[2] + 3*fsp.pa[3]
	A := float64(c.m.FreeSpinsAward)
	rep.FreeSpinsBranching = A / (1 - A*q)
	rep.FreeSpinsCapped = fc.en[c.m.FreeSpinsAward][c.m.FreeSpinsAward]
	rep.RTPByStake = map[engine.Money]float64{}
	for _, s := range stakes {
		// Every amount is units x stake/Unit exactly, so the RTP per stake
		// is the same fraction; a stake that were not a multiple of Unit
		// would round and is refused here.
		if s%Unit != 0 {
			return nil, modelErr("stake %d is not a multiple of %d", s, Unit)
		}
		rep.RTPByStake[s] = e1
	}
	b, f := &bs.fig, &fsp.fig
	rep.Components = []Component{
		{"base ways", b.Ways},
		{"base scatter", b.Scatter},
		{"base bonus wins", b.BonusCash + b.BonusJackpot},
		{"base Lock & Spin", b.StarCash + b.StarJackpot + b.Grand},
		{"free spins", en * (f.Ways + f.Scatter + f.BonusCash + f.BonusJackpot + f.StarCash + f.StarJackpot + f.Grand)},
	}
	rep.Jackpots = nil
	for t := engine.Mini; t <= engine.Grand; t++ {
		h := bs.tierHits[t] + en*fsp.tierHits[t]
		jf := JackpotFigure{Tier: JackpotName(t), Factor: float64(c.jackpots[t]) / Unit, PerGame: h, RTP: bs.tierPay[t] + en*fsp.tierPay[t]}
		if h > 0 {
			jf.OneIn = 1 / h
		}
		rep.Jackpots = append(rep.Jackpots, jf)
	}
	freq := func(name string, p float64) {
		fr := Frequency{Name: name, PerGame: p}
		if p > 0 {
			fr.OneIn = 1 / p
		}
		rep.Features = append(rep.Features, fr)
	}
	freq("free spins (probability per game)", 1-bs.pa[0])
	freq("3 Bonus in the base game (probability)", b.PScatter)
	freq("bonus wins in the base game (expected per game)", bs.bonusWins)
	freq("bonus wins in all (expected per game)", bs.bonusWins+en*fsp.bonusWins)
	freq("Lock & Spin in the base game (probability)", b.PLockSpin)
	freq("Lock & Spin in all (expected per game)", b.PLockSpin+en*f.PLockSpin)
	freq("Grand (expected per game)", bs.tierHits[engine.Grand]+en*fsp.tierHits[engine.Grand])
	freq("ways win in the base game (probability)", b.WaysHit)
	rep.Combinations = append(bsSet.combos, fsSet.combos...)
	// Lock & Spin tables.
	rep.Lock = LockFigures{RespinP: lc.p, StarMean: lc.mu, Final: map[int][16]float64{}, Mean: map[int]float64{}, PGrand: map[int]float64{}}
	for s := c.m.LockTrigger; s <= 15; s++ {
		rep.Lock.Final[s] = lc.final[s]
		rep.Lock.Mean[s] = lc.m1[s]
		rep.Lock.PGrand[s] = lc.final[s][15]
	}
	rep.Lock.StarTable = prizeFigures(c.stars, c.m.FreeSpinsAward)
	rep.BonusTable = prizeFigures(c.bonus, c.m.FreeSpinsAward)
	if withMax {
		rep.MaxWin, rep.MaxWinLog10P, rep.MaxWinPath, _ = g.maxWin(lc, lcFree)
	}
	return rep, nil
}

func prizeFigures(t table, fsAward int) []PrizeFigure {
	var out []PrizeFigure
	for _, p := range t.prizes {
		pf := PrizeFigure{Factor: float64(p.units) / Unit, Weight: p.weight, Prob: float64(p.weight) / float64(t.total)}
		switch {
		case p.freeSpins > 0:
			pf.Prize = "free spins"
			pf.Factor = 0
		case p.jackpot != engine.NoJackpot:
			pf.Prize = JackpotName(p.jackpot)
		default:
			pf.Prize = "cash"
		}
		out = append(out, pf)
	}
	return out
}

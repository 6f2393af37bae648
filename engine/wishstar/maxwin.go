package wishstar

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/polaris-vlt/polaris/engine"
)

// The maximum win is found by search, not simulation (slotmath §2.5): for
// each reel set, the largest ways pay among the screens of each feature
// class (Lock & Spin or not, 3 Bonus or not, 0..2 full-wild reels); then a
// DP over the free-spin states picks the best spin of each kind. The round
// total is bounded because a round awards at most FreeSpinsMax free spins.

// featClass is a screen's feature class: lock (0/1), scatter (0/1), full wild reels (0..2).
type featClass struct{ lock, scat, full int }

type classBest struct {
	ways  float64 // largest ways pay (before the multiplier), x stake
	p     float64 // probability of such a screen times that of the best Lock & Spin from it
	ok    bool
	stops [5]int // one screen that has it
}

type infoKey struct {
	pres         uint16
	cnt          uint64
	stars, bonus uint8
	full         bool
}

func distinct(infos []reelInfo) (keys []infoKey, counts, first []int) {
	idx := map[infoKey]int{}
	for i := range infos {
		ri := &infos[i]
		k := infoKey{ri.pres, ri.cnt, ri.stars, ri.bonus, ri.full}
		j, ok := idx[k]
		if !ok {
			j = len(keys)
			idx[k] = j
			keys = append(keys, k)
			counts = append(counts, 0)
			first = append(first, i)
		}
		counts[j]++
	}
	return keys, counts, first
}

func (k *infoKey) n(s int) int { return int(k.cnt>>(4*uint(s))) & 15 }

// bestByClass searches a reel set. pLock(c) is the probability that Lock &
// Spin from c stars ends with its largest pay.
func (g *Game) bestByClass(rs *reelSet, pLock func(c int) float64) *[2][2][3]classBest {
	var arr [2][2][3]classBest
	var pl [16]float64
	for c := g.c.m.LockTrigger; c <= 15; c++ {
		pl[c] = pLock(c)
	}
	var keys [5][]infoKey
	var counts, first [5][]int
	cycle := 1.0
	for r := range 5 {
		keys[r], counts[r], first[r] = distinct(rs.info[r])
		cycle *= float64(len(rs.info[r]))
	}
	type k123 struct {
		alive        uint16
		prod         [nPaying]uint8
		stars, bonus int
		full         int
	}
	// Insertion order keeps the float sums, hence the report, reproducible.
	frontIdx := map[k123]int{}
	var frontKeys []k123
	var frontN []float64
	var frontRep [][3]int
	for a, ka := range keys[0] {
		for b, kb := range keys[1] {
			for c, kc := range keys[2] {
				var k k123
				k.alive = ka.pres & kb.pres & kc.pres
				for m := k.alive; m != 0; m &= m - 1 {
					s := bits.TrailingZeros16(m)
					k.prod[s] = uint8(ka.n(s) * kb.n(s) * kc.n(s))
				}
				k.stars = int(ka.stars + kb.stars + kc.stars)
				k.bonus = int(ka.bonus + kb.bonus + kc.bonus)
				k.full = b2i(ka.full) + b2i(kb.full) + b2i(kc.full)
				i, ok := frontIdx[k]
				if !ok {
					i = len(frontKeys)
					frontIdx[k] = i
					frontKeys = append(frontKeys, k)
					frontN = append(frontN, 0)
					frontRep = append(frontRep, [3]int{first[0][a], first[1][b], first[2][c]})
				}
				frontN[i] += float64(counts[0][a] * counts[1][b] * counts[2][c])
			}
		}
	}
	T := g.c.m.LockTrigger
	for i, k := range frontKeys {
		n := frontN[i]
		for d, kd := range keys[3] {
			for e, ke := range keys[4] {
				ways := 0.0
				for m := k.alive; m != 0; m &= m - 1 {
					s := bits.TrailingZeros16(m)
					w, kk := float64(k.prod[s]), 3
					if n4 := kd.n(s); n4 > 0 {
						w *= float64(n4)
						kk = 4
						if n5 := ke.n(s); n5 > 0 {
							w *= float64(n5)
							kk = 5
						}
					}
					ways += w * float64(g.c.pays[s][kk]) / Unit
				}
				stars := k.stars + int(kd.stars+ke.stars)
				lock := b2i(stars >= T)
				cb := &arr[lock][b2i(k.bonus+int(kd.bonus+ke.bonus) >= 3)][k.full+b2i(kd.full)+b2i(ke.full)]
				if cb.ok && ways < cb.ways-1e-9 {
					continue
				}
				p := n * float64(counts[3][d]*counts[4][e]) / cycle
				if lock == 1 {
					p *= pl[stars]
				}
				switch {
				case !cb.ok || ways > cb.ways+1e-9:
					fr := frontRep[i]
					*cb = classBest{ways: ways, p: p, ok: true, stops: [5]int{fr[0], fr[1], fr[2], first[3][d], first[4][e]}}
				default:
					cb.p += p
				}
			}
		}
	}
	return &arr
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// spinMax is the best spin of a set that makes exactly a free-spin awards.
type spinMax struct {
	v, p  float64
	desc  string
	ok    bool
	stops [5]int // a screen of this spin
	asFS  int    // bonus wins taken as free spins (the others take the best prize)
}

// spinMaxima: cash multiplies the star cash prizes (WS-6 decision), not the jackpots.
func (g *Game) spinMaxima(rs *reelSet, mult, cash float64, lc *lockCalc) [nAwd]spinMax {
	c := g.c
	// Best non-free-spin bonus win and the best star prize.
	var bMax, bP, fsP, sMax, sP float64
	for _, p := range c.bonus.prizes {
		q := float64(p.weight) / float64(c.bonus.total)
		v := float64(p.units) / Unit
		switch {
		case p.freeSpins > 0:
			fsP += q
		case v > bMax:
			bMax, bP = v, q
		case v == bMax:
			bP += q
		}
	}
	for _, p := range c.stars.prizes {
		q := float64(p.weight) / float64(c.stars.total)
		v := float64(p.units) / Unit
		if p.jackpot == engine.NoJackpot {
			v *= cash
		}
		if v > sMax+1e-12 {
			sMax, sP = v, q
		} else if math.Abs(v-sMax) <= 1e-12 {
			sP += q
		}
	}
	lockMax := 15*sMax + lc.grand
	pLock := func(n int) float64 { return lc.final[n][15] * math.Pow(sP, 15) }
	best := g.bestByClass(rs, pLock)
	scat := float64(c.m.ScatterPay) / Unit
	var out [nAwd]spinMax
	for i := range 12 {
		fc := featClass{lock: i / 6, scat: (i / 3) % 2, full: i % 3}
		cb := best[fc.lock][fc.scat][fc.full]
		if !cb.ok {
			continue
		}
		for j := 0; j <= fc.full; j++ { // j bonus wins taken as free spins
			a := fc.scat + j
			v := mult*(cb.ways+scat*float64(fc.scat)) + bMax*float64(fc.full-j) + lockMax*float64(fc.lock)
			p := cb.p * binom(fc.full, j) * math.Pow(fsP, float64(j)) * math.Pow(bP, float64(fc.full-j))
			if !out[a].ok || v > out[a].v+1e-9 || (math.Abs(v-out[a].v) <= 1e-9 && p > out[a].p) {
				out[a] = spinMax{v: v, p: p, ok: true, stops: cb.stops, asFS: j, desc: fmt.Sprintf("ways %.2fx%g, 3 Bonus %d, bonus wins %d (%d as free spins), Lock & Spin %d", cb.ways, mult, fc.scat, fc.full, j, fc.lock)}
			}
		}
	}
	return out
}

// maxWin returns the largest round total (x stake), log10 of the
// probability of the found way to reach it, and that way, in words and as
// its spins (the paid spin first).
func (g *Game) maxWin(lc, lcFree *lockCalc) (float64, float64, string, []spinMax) {
	c := g.c
	bm := g.spinMaxima(&c.base, 1, 1, lc)
	fm := g.spinMaxima(&c.free, float64(c.m.FreeSpinsMultiplier), float64(c.freeCash), lcFree)
	A, M := c.m.FreeSpinsAward, c.m.FreeSpinsMax
	type st struct {
		v, lp float64 // value, log10 probability
		next  int     // award chosen
	}
	memo := map[[2]int]st{}
	var best func(r, t int) st
	best = func(r, t int) st {
		if r == 0 {
			return st{}
		}
		if s, ok := memo[[2]int{r, t}]; ok {
			return s
		}
		out := st{v: -1}
		for a := range nAwd {
			if !fm[a].ok {
				continue
			}
			add := min(a*A, M-t)
			n := best(r-1+add, t+add)
			v, lp := fm[a].v+n.v, math.Log10(fm[a].p)+n.lp
			if v > out.v+1e-9 || (math.Abs(v-out.v) <= 1e-9 && lp > out.lp) {
				out = st{v: v, lp: lp, next: a}
			}
		}
		memo[[2]int{r, t}] = out
		return out
	}
	var top st
	var topA int
	top.v = -1
	for a := range nAwd {
		if !bm[a].ok {
			continue
		}
		n := min(a*A, M)
		s := best(n, n)
		v, lp := bm[a].v+s.v, math.Log10(bm[a].p)+s.lp
		if v > top.v+1e-9 || (math.Abs(v-top.v) <= 1e-9 && lp > top.lp) {
			top, topA = st{v: v, lp: lp}, a
		}
	}
	// Describe the path.
	var b strings.Builder
	fmt.Fprintf(&b, "base: %s", bm[topA].desc)
	path := []spinMax{bm[topA]}
	r, t := min(topA*A, M), min(topA*A, M)
	counts := map[string]int{}
	var order []string
	for r > 0 {
		s := best(r, t)
		d := fm[s.next].desc
		path = append(path, fm[s.next])
		if counts[d] == 0 {
			order = append(order, d)
		}
		counts[d]++
		add := min(s.next*A, M-t)
		r, t = r-1+add, t+add
	}
	for _, d := range order {
		fmt.Fprintf(&b, "; %d free spins: %s", counts[d], d)
	}
	return top.v, top.lp, b.String(), path
}

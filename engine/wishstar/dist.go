package wishstar

import (
	"math"
	"math/bits"
	"math/cmplx"

	"github.com/polaris-vlt/polaris/engine"
)

// The round total's whole distribution, for the PAR sheet's win bands,
// tail ladder and exposure (slotmath §3). Like exact.go it uses the model
// alone, never Play:
//  1. per reel set, the joint law of (ways pay W in units, Z) by counting:
//     every stop triple of reels 1-3 (grouped by what reels 4-5 can
//     extend) against the distinct windows of reels 4 and 5 — integer
//     counts over the whole cycle;
//  2. one spin's own pay (multiplied ways and scatter, bonus wins, Lock &
//     Spin) jointly with its free-spin awards: bonus-win outcomes
//     enumerated, the Lock & Spin pay as the final-count law of the chain
//     times the n-fold convolution of the star-prize table (cash multiplied
//     in free spins, jackpots not) plus the Grand on 15;
//  3. the round by the same bounded free-spin DP as exact.go, done per
//     frequency on the discrete Fourier transforms of the spin laws (the
//     DP is a sum of products of convolutions), on a grid longer than the
//     largest possible round, so nothing wraps around; one inverse FFT.
// Steps 1 and 2 are exact rationals held in float64; step 3 adds FFT
// rounding (about 1e-15 per point; Distribution.Rounding measures it).

// Distribution is the law of a round's total in pay units (1 unit =
// stake/Unit): P[u] = P(round total = u units).
type Distribution struct {
	P []float64
	// Rounding is the largest |negative| value the FFT left (it is set to
	// 0): the size of the numerical error per point.
	Rounding float64
}

// Tail returns P(round total >= u units).
func (d *Distribution) Tail(u int) float64 {
	s := 0.0
	for i := len(d.P) - 1; i >= max(u, 0); i-- {
		s += d.P[i]
	}
	return s
}

// RoundDistribution computes the embedded model's round-total law.
func RoundDistribution() (*Distribution, error) { return Default.RoundDistribution() }

// RoundDistribution computes the law of g's round total.
func (g *Game) RoundDistribution() (*Distribution, error) {
	c := g.c
	lc := g.calcLock(1)
	lcFree := g.calcLock(float64(c.freeCash))
	bs := g.spinLaw(&c.base, 1, 1, lc)
	fs := g.spinLaw(&c.free, int64(c.m.FreeSpinsMultiplier), c.freeCash, lcFree)
	A, M := c.m.FreeSpinsAward, c.m.FreeSpinsMax
	// The longest round: its paid spin and M free spins, each at most the
	// longest spin law (the max-win search gives less; this bound needs none).
	maxB, maxF := 0, 0
	for a := range nAwd {
		maxB = max(maxB, len(bs[a]))
		maxF = max(maxF, len(fs[a]))
	}
	n := 1 << bits.Len(uint(maxB+M*maxF))
	B, F := fftLaws(bs, n), fftLaws(fs, n)
	out := make([]complex128, n)
	// States (left, awarded) as in calcFree; per frequency the DP is scalar.
	idx := func(r, t int) int { return t*(M+1) + r }
	e := make([]complex128, (M+1)*(M+1))
	for k := 0; k <= n/2; k++ {
		for t := M; t >= A; t -= A {
			e[idx(0, t)] = 1
			for r := 1; r <= t; r++ {
				var v complex128
				for a := range nAwd {
					add := min(a*A, M-t)
					v += F[a][k] * e[idx(r-1+add, t+add)]
				}
				e[idx(r, t)] = v
			}
		}
		var v complex128
		for a := range nAwd {
			s := min(a*A, M)
			w := complex(1, 0)
			if s > 0 {
				w = e[idx(s, s)]
			}
			v += B[a][k] * w
		}
		out[k] = v
		if k > 0 && k < n/2 {
			out[n-k] = cmplx.Conj(v)
		}
	}
	fft(out, true)
	d := &Distribution{P: make([]float64, n)}
	for i, v := range out {
		p := real(v) / float64(n)
		d.P[i] = p
		if p < 0 {
			d.Rounding = max(d.Rounding, -p)
		}
	}
	// A value within the rounding level is indistinguishable from 0: the
	// negative ones show the level (about 1e-17); dropping the noise keeps
	// it out of the moments, where the far end would weigh it by x and x².
	floor := 4 * d.Rounding
	last := 0
	for i, p := range d.P {
		if p <= floor {
			d.P[i] = 0
		} else {
			last = i
		}
	}
	d.P = d.P[:last+1]
	return d, nil
}

func fftLaws(laws [nAwd][]float64, n int) [nAwd][]complex128 {
	var out [nAwd][]complex128
	for a := range nAwd {
		out[a] = make([]complex128, n)
		for i, p := range laws[a] {
			out[a][i] = complex(p, 0)
		}
		fft(out[a], false)
	}
	return out
}

// fft is an in-place radix-2 transform (len(x) a power of two); inverse
// uses the conjugate roots and does not divide by n.
func fft(x []complex128, inverse bool) {
	n := len(x)
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			x[i], x[j] = x[j], x[i]
		}
	}
	sign := -1.0
	if inverse {
		sign = 1
	}
	for size := 2; size <= n; size <<= 1 {
		half := size / 2
		// Roots from sin/cos per index (not by repeated multiplication),
		// so the rounding does not grow with the transform length.
		tw := make([]complex128, half)
		for i := range tw {
			a := sign * 2 * math.Pi * float64(i) / float64(size)
			tw[i] = complex(math.Cos(a), math.Sin(a))
		}
		for start := 0; start < n; start += size {
			for i := range half {
				u, v := x[start+i], x[start+i+half]*tw[i]
				x[start+i], x[start+i+half] = u+v, u-v
			}
		}
	}
}

// waysLaw is the joint law of (W, Z) of a reel set as counts over its
// cycle: law[z][w] stop combinations with Z = z and ways pay w units
// (before any multiplier).
func (g *Game) waysLaw(rs *reelSet) (law [nZ][]int64, cycle int64) {
	c := g.c
	type k123 struct {
		d int
		m uint16
		w [nPaying]uint8 // ways over reels 1-3 of each symbol in m (at most 27)
	}
	groups := map[k123]int64{}
	for _, a := range rs.info[0] {
		for _, b := range rs.info[1] {
			ab := a.pres & b.pres
			for _, cc := range rs.info[2] {
				k := k123{d: locDelta(locOf(&a)) + locDelta(locOf(&b)) + locDelta(locOf(&cc)), m: ab & cc.pres}
				for m := k.m; m != 0; m &= m - 1 {
					s := bits.TrailingZeros16(m)
					k.w[s] = uint8(a.n(s) * b.n(s) * cc.n(s))
				}
				groups[k]++
			}
		}
	}
	type k45 struct {
		cnt uint64
		d   int
	}
	distinct := func(infos []reelInfo) map[k45]int64 {
		out := map[k45]int64{}
		for i := range infos {
			out[k45{cnt: infos[i].cnt, d: locDelta(locOf(&infos[i]))}]++
		}
		return out
	}
	r4, r5 := distinct(rs.info[3]), distinct(rs.info[4])
	cycle = 1
	for r := range 5 {
		cycle *= int64(len(rs.info[r]))
	}
	for k, n123 := range groups {
		for k4, n4 := range r4 {
			for k5, n5 := range r5 {
				w := int64(0)
				for m := k.m; m != 0; m &= m - 1 {
					s := bits.TrailingZeros16(m)
					ways := int64(k.w[s])
					kind := 3
					if x := int64(k4.cnt>>(4*uint(s))) & 15; x > 0 {
						ways *= x
						kind = 4
						if y := int64(k5.cnt>>(4*uint(s))) & 15; y > 0 {
							ways *= y
							kind = 5
						}
					}
					w += c.pays[s][kind] * ways
				}
				z := k.d + k4.d + k5.d
				for int64(len(law[z])) <= w {
					law[z] = append(law[z], 0)
				}
				law[z][w] += n123 * n4 * n5
			}
		}
	}
	return law, cycle
}

// lockLaw is the law of a Lock & Spin's pay in units from each start count
// (star cash multiplied by cash, jackpots not; Grand on 15).
func (g *Game) lockLaw(lc *lockCalc, cash int64) [16][]float64 {
	c := g.c
	prize := []float64{}
	for _, p := range c.stars.prizes {
		u := p.units
		if p.jackpot == engine.NoJackpot {
			u *= cash
		}
		for int64(len(prize)) <= u {
			prize = append(prize, 0)
		}
		prize[u] += float64(p.weight) / float64(c.stars.total)
	}
	// pow[n] = the law of the sum of n star prizes.
	pow := make([][]float64, 16)
	pow[0] = []float64{1}
	for n := 1; n <= 15; n++ {
		pow[n] = convolve1(pow[n-1], prize)
	}
	grand := int(c.jackpots[engine.Grand])
	var out [16][]float64
	for s := c.m.LockTrigger; s <= 15; s++ {
		law := make([]float64, len(pow[15])+grand)
		for n, p := range lc.final[s] {
			if p == 0 {
				continue
			}
			shift := 0
			if n == 15 {
				shift = grand
			}
			for u, q := range pow[n] {
				law[u+shift] += p * q
			}
		}
		out[s] = law
	}
	return out
}

func convolve1(a, b []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		if x == 0 {
			continue
		}
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}

// spinLaw is one spin's own pay law in units, split by its free-spin awards.
func (g *Game) spinLaw(rs *reelSet, mult, cash int64, lc *lockCalc) [nAwd][]float64 {
	c := g.c
	law, cycle := g.waysLaw(rs)
	locks := g.lockLaw(lc, cash)
	// Bonus-win outcomes of F full-wild reels, by (cash units, awards).
	type bo struct {
		d int64
		a int
		p float64
	}
	combos := [3][]bo{{{p: 1}}}
	for f := 1; f <= 2; f++ {
		for _, prev := range combos[f-1] {
			for _, p := range c.bonus.prizes {
				n := bo{d: prev.d, a: prev.a, p: prev.p * float64(p.weight) / float64(c.bonus.total)}
				if p.freeSpins > 0 {
					n.a++
				} else {
					n.d += p.units // jackpot units are set on the prize too
				}
				combos[f] = append(combos[f], n)
			}
		}
	}
	var out [nAwd][]float64
	add := func(a int, at int64, p float64) {
		for int64(len(out[a])) <= at {
			out[a] = append(out[a], 0)
		}
		out[a][at] += p
	}
	inv := 1 / float64(cycle)
	for z := range nZ {
		if len(law[z]) == 0 {
			continue
		}
		C, B, F := splitZ(z)
		base, a0 := int64(0), 0
		if B >= 3 {
			base, a0 = c.m.ScatterPay*mult, 1
		}
		// The spin's ways-and-scatter law, with Lock & Spin convolved in.
		var spin []float64
		for w, n := range law[z] {
			if n == 0 {
				continue
			}
			at := int64(w) * mult
			for int64(len(spin)) <= at {
				spin = append(spin, 0)
			}
			spin[at] += float64(n) * inv
		}
		if C >= c.m.LockTrigger {
			spin = convolve1(spin, locks[C])
		}
		for _, cb := range combos[F] {
			shift := base + cb.d
			for u, p := range spin {
				if p != 0 {
					add(a0+cb.a, int64(u)+shift, p*cb.p)
				}
			}
		}
	}
	return out
}

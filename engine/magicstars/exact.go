package magicstars

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/polaris-vlt/polaris/engine"
)

// Exact is the exact analysis of a model, computed from the strips and
// weights alone (never through Play): every stop tuple of the cycle is
// evaluated by Evaluate's rules, free spins follow the branching formula,
// and the round cap (MS-7) is applied per stake to the exact distribution of
// the round's total. Money amounts are in line-bet units ("u", a fifth of the
// stake) unless a field says stake.
type Exact struct {
	Cycle   int64    // L1*L2*L3 equally likely stop tuples
	Lengths [3]int64 // strip lengths

	// Per-symbol base-spin statistics over the cycle.
	Symbols []SymbolStats

	Hits      int64 // tuples whose lines pay
	HitsOrFS  int64 // tuples that pay or trigger
	Triggers  int64 // tuples lighting all three stars (MS-11)
	SpinDist  []SpinOutcome
	MaxSpin   int64 // largest single-spin win, u
	MaxSpinN  int64 // tuples paying it
	StarCells [3]int64

	// Free-spin count weights (MS-13).
	FreeSpins  []FreeSpins
	WeightSum  int64
	MeanAward  *big.Rat // E[L]
	MeanAward2 *big.Rat // E[L^2]

	// Exact rationals, per paid game, in stake units.
	EW, EW2, EWt       *big.Rat // base spin win W and the product W*t (t = trigger)
	Q                  *big.Rat // P(trigger) per spin
	Branch             *big.Rat // q*E[L], the mean awards a free spin makes
	MeanFreeSpins      *big.Rat // E[L]/(1-qE[L]) per feature
	FeatureMean        *big.Rat // E[feature total]
	RTP                *big.Rat // E[X], X the round total, no cap
	EX2                *big.Rat // E[X^2], no cap
	LinesBase, DblBase *big.Rat // base spin: line wins before MS-15, MS-15 extra
	LinesFS, DblFS     *big.Rat // same, in the free spins

	// The round total's distribution on a grid of Grid u, exact up to
	// (not including) len(Dist)*Grid u; everything above is in the tail.
	Grid int64
	Dist []float64

	Stakes []StakeStats
}

// SymbolStats is one row of the combination table.
type SymbolStats struct {
	Symbol      engine.Symbol
	Pay         int64 // u per line (MS-14)
	Count       [3]int64
	StarCount   [3]int64 // star-carrying cells of this symbol per reel
	LineHits    int64    // winning lines over the cycle (a tuple may have several)
	Tuples      int64    // tuples with at least one winning line of it
	FullScreens int64    // tuples showing nine of it
	Units       int64    // line pay over the cycle, u, before MS-15
	DblUnits    int64    // MS-15 extra over the cycle, u
}

// SpinOutcome is one value of a base spin's win with its tuple counts.
type SpinOutcome struct {
	Units     int64 // u, after MS-15
	NoTrigger int64
	Trigger   int64
}

// StakeStats is the capped return at one stake.
type StakeStats struct {
	Stake     engine.Money
	CapUnits  float64 // RoundCap in u at this stake
	RTP       float64 // E[min(X, cap)] / stake
	CapLoss   float64 // E[X] - RTP (>= 0)
	Bound     bool    // RTP is E[X] and CapLoss an upper bound (cap beyond the grid)
	PCapped   float64 // P(X > cap): Play cuts the round (Round.Capped)
	PReach    float64 // P(X >= cap): the round pays the cap (cut or exactly)
	Sigma     float64 // of min(X, cap), stake units
	ExactGrid bool
}

// grid limit: the distribution is computed exactly up to the cap of this
// stake; smaller stakes' caps lie further out and get a bound.
const exactDownTo engine.Money = 300

// NumTol is the numerical tolerance of the float part (the capped
// distribution): a cap effect below it is reported as a bound.
const NumTol = 1e-10

// ComputeExact analyses the game's model.
func (g *Game) ComputeExact() (*Exact, error) {
	e := &Exact{}
	st := g.strips
	e.Cycle = 1
	for i := range st {
		e.Lengths[i] = int64(len(st[i]))
		e.Cycle *= e.Lengths[i]
		for _, c := range st[i] {
			if c.Star {
				e.StarCells[i]++
			}
		}
	}
	syms := make([]SymbolStats, numSymbols)
	for s := 1; s < numSymbols; s++ {
		syms[s].Symbol, syms[s].Pay = engine.Symbol(s), int64(Pays[s])
		for i := range st {
			for _, c := range st[i] {
				if int(c.Sym) == s {
					syms[s].Count[i]++
					if c.Star {
						syms[s].StarCount[i]++
					}
				}
			}
		}
	}
	dist := map[int64]*SpinOutcome{}
	var screen [3][3]Cell
	wins := make([]engine.Win, 0, LineCount)
	for a := range st[0] {
		screen[0] = Window(st[0], a)
		for b := range st[1] {
			screen[1] = Window(st[1], b)
			for c := range st[2] {
				screen[2] = Window(st[2], c)
				ev := evaluate(&screen, 1, wins[:0])
				u := int64(ev.Pay)
				seen := [numSymbols]bool{}
				for _, w := range ev.Wins {
					s := &syms[w.Symbol]
					s.LineHits++
					s.Units += s.Pay
					if !seen[w.Symbol] {
						seen[w.Symbol] = true
						s.Tuples++
					}
				}
				if ev.FullScreen {
					s := &syms[screen[0][0].Sym]
					s.DblUnits += u / 2
				}
				if isFull(&screen) {
					syms[screen[0][0].Sym].FullScreens++
				}
				o := dist[u]
				if o == nil {
					o = &SpinOutcome{Units: u}
					dist[u] = o
				}
				if ev.FreeSpins {
					o.Trigger++
					e.Triggers++
				} else {
					o.NoTrigger++
				}
				if u > 0 {
					e.Hits++
				}
				if u > 0 || ev.FreeSpins {
					e.HitsOrFS++
				}
			}
		}
	}
	e.Symbols = syms[1:]
	for _, o := range dist {
		e.SpinDist = append(e.SpinDist, *o)
	}
	slices.SortFunc(e.SpinDist, func(a, b SpinOutcome) int { return int(a.Units - b.Units) })
	last := e.SpinDist[len(e.SpinDist)-1]
	e.MaxSpin, e.MaxSpinN = last.Units, last.NoTrigger+last.Trigger

	// Moments of one spin, in stake units (u/5).
	T := big.NewRat(e.Cycle*LineCount, 1)
	T2 := big.NewRat(e.Cycle*LineCount*LineCount, 1)
	sumW, sumW2, sumWt := new(big.Int), new(big.Int), new(big.Int)
	for _, o := range e.SpinDist {
		n := o.NoTrigger + o.Trigger
		u := big.NewInt(o.Units)
		sumW.Add(sumW, new(big.Int).Mul(u, big.NewInt(n)))
		sumW2.Add(sumW2, new(big.Int).Mul(new(big.Int).Mul(u, u), big.NewInt(n)))
		sumWt.Add(sumWt, new(big.Int).Mul(u, big.NewInt(o.Trigger)))
	}
	e.EW = new(big.Rat).Quo(new(big.Rat).SetInt(sumW), T)
	e.EW2 = new(big.Rat).Quo(new(big.Rat).SetInt(sumW2), T2)
	e.EWt = new(big.Rat).Quo(new(big.Rat).SetInt(sumWt), T)
	e.Q = big.NewRat(e.Triggers, e.Cycle)

	// MS-13: the award L is drawn by weight, independent of the screen.
	e.FreeSpins = g.model.FreeSpins
	var sl, sl2 int64
	for _, f := range e.FreeSpins {
		e.WeightSum += int64(f.Weight)
		sl += int64(f.Weight * f.Count)
		sl2 += int64(f.Weight * f.Count * f.Count)
	}
	e.MeanAward = big.NewRat(sl, e.WeightSum)
	e.MeanAward2 = big.NewRat(sl2, e.WeightSum)

	// Branching (Galton-Watson): each free spin makes L new ones with
	// probability q, so an award yields E[L]/(1-qE[L]) spins on average.
	one := big.NewRat(1, 1)
	e.Branch = new(big.Rat).Mul(e.Q, e.MeanAward)
	if e.Branch.Cmp(one) >= 0 {
		return nil, fmt.Errorf("magicstars: free spins are supercritical (qE[L] = %s >= 1)", e.Branch.FloatString(6))
	}
	den := new(big.Rat).Sub(one, e.Branch)
	e.MeanFreeSpins = new(big.Rat).Quo(e.MeanAward, den)
	// Award total H: E[H] = E[L]E[W]/(1-qE[L]).
	EH := new(big.Rat).Mul(e.MeanFreeSpins, e.EW)
	e.FeatureMean = EH
	// Round X = W + t*H, so E[X] = E[W] + q E[H] = E[W]/(1-qE[L]).
	e.RTP = new(big.Rat).Add(e.EW, new(big.Rat).Mul(e.Q, EH))
	// Second moments: V = W + tH' per spin, H = sum of L spins' V.
	// E[V^2] = E[W^2] + 2E[Wt]E[H] + qE[H^2];
	// E[H^2] = E[L]E[V^2] + E[L(L-1)]E[V]^2, with E[V] = E[X].
	EV := e.RTP
	ELL1 := new(big.Rat).Sub(e.MeanAward2, e.MeanAward)
	a := new(big.Rat).Add(e.EW2, new(big.Rat).Mul(big.NewRat(2, 1), new(big.Rat).Mul(e.EWt, EH)))
	num := new(big.Rat).Add(new(big.Rat).Mul(e.MeanAward, a), new(big.Rat).Mul(ELL1, new(big.Rat).Mul(EV, EV)))
	EH2 := new(big.Rat).Quo(num, den)
	e.EX2 = new(big.Rat).Add(a, new(big.Rat).Mul(e.Q, EH2))

	// Components: line wins and MS-15 extras, base and free spins.
	var lines, dbl int64
	for _, s := range e.Symbols {
		lines += s.Units
		dbl += s.DblUnits
	}
	e.LinesBase = big.NewRat(lines, e.Cycle*LineCount)
	e.DblBase = big.NewRat(dbl, e.Cycle*LineCount)
	fsShare := new(big.Rat).Quo(e.Branch, den) // q E[L]/(1-qE[L])
	e.LinesFS = new(big.Rat).Mul(e.LinesBase, fsShare)
	e.DblFS = new(big.Rat).Mul(e.DblBase, fsShare)

	if err := e.capped(); err != nil {
		return nil, err
	}
	return e, nil
}

func isFull(s *[3][3]Cell) bool {
	for i := range 3 {
		for r := range 3 {
			if s[i][r].Sym != s[0][0].Sym {
				return false
			}
		}
	}
	return true
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func ratF(r *big.Rat) float64 { f, _ := r.Float64(); return f }

// capped computes the distribution of the round total X on a grid and from
// it E[min(X, cap)] per stake (MS-7: RTP depends on the stake).
//
// With D the distribution of X (and of one free spin's value V = W + tH,
// which has the same law), P0/P1 the base spin's win distribution without and
// with a trigger, and p_L the award weights:
//
//	D = P0 + P1 * H,  H = sum_L p_L D^{*L}.
//
// All values are non-negative grid multiples, so D[k] depends on D[0..k]
// only: D[0] is the smallest root of its scalar equation, and the powers
// D^{*L}[k] follow Miller's recursion for powers of a power series, which is
// linear in D[k]; each k is then one linear equation. Cost O(K^2) for a grid
// of K points.
func (e *Exact) capped() error {
	var gd int64
	for _, o := range e.SpinDist {
		gd = gcd(gd, o.Units)
	}
	if gd == 0 {
		gd = 1
	}
	e.Grid = gd
	// Grid long enough for the cap at exactDownTo.
	K := int(int64(RoundCap)/(int64(exactDownTo)/LineCount)/gd) + 1
	p0 := make([]float64, K)
	p1 := make([]float64, K)
	cyc := float64(e.Cycle)
	for _, o := range e.SpinDist {
		k := o.Units / gd
		if k < int64(K) {
			p0[k] += float64(o.NoTrigger) / cyc
			p1[k] += float64(o.Trigger) / cyc
		}
	}
	type pw struct {
		L int
		p float64
		A []float64
	}
	var pws []pw
	for _, f := range e.FreeSpins {
		pws = append(pws, pw{L: f.Count, p: float64(f.Weight) / float64(e.WeightSum), A: make([]float64, K)})
	}
	// D[0] = P0[0] + P1[0] * sum p_L D0^L: iterate from 0 to the least root.
	d0 := 0.0
	for range 10000 {
		h := 0.0
		for _, w := range pws {
			h += w.p * math.Pow(d0, float64(w.L))
		}
		nd := p0[0] + p1[0]*h
		if math.Abs(nd-d0) < 1e-18 {
			d0 = nd
			break
		}
		d0 = nd
	}
	D := make([]float64, K)
	H := make([]float64, K)
	D[0] = d0
	alpha := 0.0
	for i := range pws {
		w := &pws[i]
		w.A[0] = math.Pow(d0, float64(w.L))
		H[0] += w.p * w.A[0]
		alpha += w.p * float64(w.L) * math.Pow(d0, float64(w.L-1))
	}
	// p1 is sparse: keep its non-zero entries.
	var p1k []int
	for k := 1; k < K; k++ {
		if p1[k] != 0 {
			p1k = append(p1k, k)
		}
	}
	S := make([]float64, len(pws))
	for k := 1; k < K; k++ {
		// Miller: A[k] = (1/(k D0)) sum_{j=1..k} ((L+1)j - k) D[j] A[k-j];
		// the j = k term is L*D0^(L-1)*D[k].
		beta := 0.0
		for i := range pws {
			w := &pws[i]
			s := 0.0
			L1 := float64(w.L + 1)
			kf := float64(k)
			for j := 1; j < k; j++ {
				s += (L1*float64(j) - kf) * D[j] * w.A[k-j]
			}
			S[i] = s / (kf * d0)
			beta += w.p * S[i]
		}
		rhs := p0[k] + p1[0]*beta
		for _, j := range p1k {
			if j > k {
				break
			}
			rhs += p1[j] * H[k-j]
		}
		D[k] = rhs / (1 - p1[0]*alpha)
		for i := range pws {
			w := &pws[i]
			w.A[k] = float64(w.L)*math.Pow(d0, float64(w.L-1))*D[k] + S[i]
			H[k] += w.p * w.A[k]
		}
	}
	e.Dist = D

	ex := ratF(e.RTP)
	ex2 := ratF(e.EX2)
	for _, stake := range stakes {
		lb := float64(stake / LineCount)
		capU := float64(RoundCap) / lb
		ss := StakeStats{Stake: stake, CapUnits: capU}
		if int64(capU) < int64(K)*gd {
			// min(X, cap) in stake units, summed over the grid below the cap.
			var m1, m2, below, at float64
			for k := 0; k < K; k++ {
				u := float64(int64(k) * gd)
				if u*lb == float64(RoundCap) {
					at = D[k]
				}
				if u*lb >= float64(RoundCap) {
					break
				}
				x := u / LineCount
				m1 += D[k] * x
				m2 += D[k] * x * x
				below += D[k]
			}
			c := float64(RoundCap) / float64(stake)
			ss.PReach = 1 - below
			ss.PCapped = max(ss.PReach-at, 0)
			ss.RTP = m1 + ss.PReach*c
			ss.CapLoss = ex - ss.RTP
			ss.Sigma = math.Sqrt(m2 + ss.PReach*c*c - ss.RTP*ss.RTP)
			ss.ExactGrid = true
			if ss.CapLoss < NumTol {
				ss.RTP, ss.CapLoss, ss.Bound = ex, NumTol, true
			}
		} else {
			// The cap lies beyond the grid: E[min(X,cap)] is between
			// E[min(X,grid end)] and E[X].
			var m1, below float64
			for k := 0; k < K; k++ {
				m1 += D[k] * float64(int64(k)*gd) / LineCount
				below += D[k]
			}
			end := float64(int64(K)*gd) / LineCount
			ss.RTP = ex
			ss.CapLoss = max(ex-(m1+(1-below)*end), NumTol)
			ss.Bound = true
			ss.PCapped, ss.PReach = 1-below, 1-below // bounds: P(X > grid end)
			ss.Sigma = math.Sqrt(ex2 - ex*ex)
		}
		e.Stakes = append(e.Stakes, ss)
	}
	return nil
}

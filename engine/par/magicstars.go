package par

import (
	"fmt"
	"math"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
)

// MagicStars is the Magic Stars part of the sheet.
type MagicStars struct {
	Version      string          `json:"version"`
	Cycle        int64           `json:"cycle"`
	RTPFraction  string          `json:"rtpFraction"` // E[X] without the cap, exact
	Reels        [][]string      `json:"reels"`
	SymbolCounts []SymbolCount   `json:"symbolCounts"`
	Combinations []MSCombination `json:"combinations"`
	FreeSpins    MSFreeSpins     `json:"freeSpins"`
	ByStake      []MSStake       `json:"byStake"`
	BaseHit      float64         `json:"baseHitFrequency"`          // P(base spin pays)
	BaseHitOrFS  float64         `json:"baseHitOrTriggerFrequency"` // P(base spin pays or triggers)
	MaxSpinWin   float64         `json:"maxSpinWin"`                // x stake, one spin
	MaxSpinP     float64         `json:"maxSpinProbability"`
	Histogram    []Bucket        `json:"histogram"`
	Risk         string          `json:"risk"`
	Jackpot      string          `json:"jackpot"`
}

// SymbolCount is a symbol's count per reel, star-carrying cells included.
type SymbolCount struct {
	Symbol string   `json:"symbol"`
	Count  [3]int64 `json:"count"`
	Stars  [3]int64 `json:"stars"`
}

// MSCombination is one row of the combination table (per base spin).
type MSCombination struct {
	Symbol       string  `json:"symbol"`
	Pay          int64   `json:"pay"` // x line bet
	LineHits     int64   `json:"lineHits"`
	Tuples       int64   `json:"tuples"` // tuples with at least one line of it
	OneIn        float64 `json:"oneIn"`  // spins per spin with a line of it
	RTP          float64 `json:"rtp"`    // base spin line pays, before doubling
	FullScreens  int64   `json:"fullScreens"`
	FullScreenIn float64 `json:"fullScreenOneIn"`
	Doubled      bool    `json:"doubled"`
	DoubleRTP    float64 `json:"doubleRtp"`
}

// MSFreeSpins is the free-spin feature table.
type MSFreeSpins struct {
	StarCells       [3]int64   `json:"starCells"`
	PStarReel       [3]float64 `json:"pStarReel"`
	Triggers        int64      `json:"triggers"` // tuples per cycle
	P               float64    `json:"p"`
	OneIn           float64    `json:"oneIn"`
	Weights         []Weight   `json:"weights"`
	MeanAward       float64    `json:"meanAward"`
	Branching       float64    `json:"branching"` // q E[L]
	SpinsPerFeature float64    `json:"spinsPerFeature"`
	FeatureMean     float64    `json:"featureMean"` // x stake
	RTP             float64    `json:"rtp"`
}

// Weight is one free-spin count outcome.
type Weight struct {
	Count  int     `json:"count"`
	Weight int     `json:"weight"`
	P      float64 `json:"p"`
}

// MSStake is the capped return at one stake (MS-7).
type MSStake struct {
	Stake    engine.Money `json:"stake"`
	CapX     float64      `json:"capX"` // 500 000 CZK in x stake
	RTP      float64      `json:"rtp"`
	CapLoss  float64      `json:"capLoss"`
	Bound    bool         `json:"capLossIsBound"`
	PCapped  float64      `json:"pCapped"`
	Sigma    float64      `json:"sigma"`
	Exposure engine.Money `json:"exposure"`
}

// Bucket is one win range of the round total (x stake, at 5 CZK).
type Bucket struct {
	Range string  `json:"range"`
	P     float64 `json:"p"`
	RTP   float64 `json:"rtp"`
}

func buildMagicStars() (*Sheet, error) {
	g := magicstars.Default
	e, err := g.ComputeExact()
	if err != nil {
		return nil, err
	}
	m, _ := g.Model()
	rtp := ratF(e.RTP)
	s := &Sheet{Game: string(engine.MagicStars), Title: "Magic Stars", ModelID: g.ModelID(), Currency: "CZK (whole crowns)",
		Stakes: g.Stakes(), RTPByStake: map[string]float64{}, HitFrequency: 1 - e.Dist[0],
		Sigma: math.Sqrt(ratF(e.EX2) - rtp*rtp)}
	for _, st := range e.Stakes {
		s.RTPByStake[stakeKey(st.Stake)] = st.RTP
	}
	s.RTP = e.Stakes[0].RTP
	top := e.Stakes[len(e.Stakes)-1]
	s.MaxWin = float64(magicstars.RoundCap) / float64(top.Stake)
	s.MaxWinNote = fmt.Sprintf("500 000 CZK per round (MS-7) at every stake, %gx at %d CZK; P(a round reaches it at %d CZK) = %.3g (1 in %.0f); uncapped, free-spin retriggers make the round total unbounded",
		s.MaxWin, top.Stake, top.Stake, top.PCapped, oneIn(top.PCapped))
	s.Components = []Component{
		{"base game line wins (MS-8, MS-14)", ratF(e.LinesBase)},
		{"base game full-screen doubling (MS-15)", ratF(e.DblBase)},
		{"free spins line wins (MS-11..MS-13)", ratF(e.LinesFS)},
		{"free spins full-screen doubling", ratF(e.DblFS)},
	}
	ms := &MagicStars{Version: m.Version, Cycle: e.Cycle, RTPFraction: e.RTP.String(), Reels: m.Reels,
		BaseHit: float64(e.Hits) / float64(e.Cycle), BaseHitOrFS: float64(e.HitsOrFS) / float64(e.Cycle),
		MaxSpinWin: float64(e.MaxSpin) / magicstars.LineCount, MaxSpinP: float64(e.MaxSpinN) / float64(e.Cycle),
		Risk: "MS-9/MS-10: red or black, one card from 52 (26 red, 26 black) per step, win doubled or lost: EV-neutral (100 % return). " +
			"Offered only on the paid game's own win (not for free-spin wins, not during free spins, not after a jackpot) and only while the doubled win stays within 500 000 CZK (magicstars.RiskOffered, engine.RiskAllowed), so a Risk win is never cut. Not part of the game RTP.",
		Jackpot: "MS-16..MS-19: progressive mystery jackpot drawn by the central system at every Start, independent of the reels; seed, contribution and hit model are central-system parameters; paid by the attendant outside the credit. Not part of this RTP: add the contribution configured centrally.",
	}
	for _, sy := range e.Symbols {
		ms.SymbolCounts = append(ms.SymbolCounts, SymbolCount{Symbol: magicstars.SymbolName(sy.Symbol), Count: sy.Count, Stars: sy.StarCount})
		c := MSCombination{Symbol: magicstars.SymbolName(sy.Symbol), Pay: sy.Pay, LineHits: sy.LineHits, Tuples: sy.Tuples,
			OneIn: float64(e.Cycle) / float64(sy.Tuples), RTP: float64(sy.Units) / float64(e.Cycle*magicstars.LineCount),
			FullScreens: sy.FullScreens, Doubled: magicstars.Doubles[sy.Symbol], DoubleRTP: float64(sy.DblUnits) / float64(e.Cycle*magicstars.LineCount)}
		if sy.FullScreens > 0 {
			c.FullScreenIn = float64(e.Cycle) / float64(sy.FullScreens)
		}
		ms.Combinations = append(ms.Combinations, c)
		if c.Doubled && sy.FullScreens > 0 {
			s.Features = append(s.Features, Feature{Name: "full screen of " + c.Symbol + " (doubled, base spin)", PerGame: 1 / c.FullScreenIn, OneIn: c.FullScreenIn})
		}
	}
	q := ratF(e.Q)
	fs := MSFreeSpins{StarCells: e.StarCells, Triggers: e.Triggers, P: q, OneIn: 1 / q, MeanAward: ratF(e.MeanAward),
		Branching: ratF(e.Branch), SpinsPerFeature: ratF(e.MeanFreeSpins), FeatureMean: ratF(e.FeatureMean),
		RTP: ratF(e.LinesFS) + ratF(e.DblFS)}
	for i := range 3 {
		var hit int64
		for stop := range e.Lengths[i] {
			_, strips := g.Model()
			for _, c := range magicstars.Window(strips[i], int(stop)) {
				if c.Star {
					hit++
					break
				}
			}
		}
		fs.PStarReel[i] = float64(hit) / float64(e.Lengths[i])
	}
	for _, f := range e.FreeSpins {
		fs.Weights = append(fs.Weights, Weight{Count: f.Count, Weight: f.Weight, P: float64(f.Weight) / float64(e.WeightSum)})
	}
	ms.FreeSpins = fs
	s.Features = append([]Feature{
		{"free spins (every reel shows a star, MS-11), per paid game", q, 1 / q},
		{"retrigger, per free spin", q, 1 / q},
		{"free-spin awards per paid game (triggers and retriggers, expected)", q / (1 - ratF(e.Branch)), (1 - ratF(e.Branch)) / q},
	}, s.Features...)
	for _, c := range ms.Combinations {
		s.Features = append(s.Features, Feature{Name: "3 " + c.Symbol + " on a line (base spin)", PerGame: 1 / c.OneIn, OneIn: c.OneIn})
	}
	s.Features = append(s.Features, Feature{Name: fmt.Sprintf("round capped at 500 000 CZK (stake %d)", top.Stake), PerGame: top.PCapped, OneIn: oneIn(top.PCapped)})
	for _, st := range e.Stakes {
		ms.ByStake = append(ms.ByStake, MSStake{Stake: st.Stake, CapX: float64(magicstars.RoundCap) / float64(st.Stake), RTP: st.RTP,
			CapLoss: st.CapLoss, Bound: st.Bound, PCapped: st.PCapped, Sigma: st.Sigma, Exposure: magicstars.RoundCap})
	}
	edges := []float64{0, 1, 2, 5, 10, 20, 50, 100, 200, 500}
	ms.Histogram = make([]Bucket, len(edges)+1)
	ms.Histogram[0].Range = "0"
	for i := 1; i < len(edges); i++ {
		ms.Histogram[i].Range = fmt.Sprintf("(%g, %g]", edges[i-1], edges[i])
	}
	ms.Histogram[len(edges)].Range = fmt.Sprintf("> %g", edges[len(edges)-1])
	var below, m1 float64
	for k, p := range e.Dist {
		x := float64(int64(k)*e.Grid) / magicstars.LineCount
		b := 0
		for b < len(edges) && x > edges[b] {
			b++
		}
		ms.Histogram[b].P += p
		ms.Histogram[b].RTP += p * x
		below += p
		m1 += p * x
	}
	last := &ms.Histogram[len(edges)]
	last.P += max(1-below, 0)
	last.RTP += max(rtp-m1, 0)
	s.MagicStars = ms
	s.Verification = &Verification{Checks: []string{
		fmt.Sprintf("components add up to the RTP: %.12f = %.12f", ratF(e.LinesBase)+ratF(e.DblBase)+ratF(e.LinesFS)+ratF(e.DblFS), rtp),
		fmt.Sprintf("round-total distribution: mass below %d u = 1 - %.2g; its mean below the grid end differs from E[X] by %.2g", int64(len(e.Dist))*e.Grid, math.Abs(1-below), math.Abs(rtp-m1)),
		"Play's hot path agrees with the independent evaluator on all " + fmt.Sprint(e.Cycle) + " stop tuples (TestPlayAgreesWithEvaluateOnEveryTuple)",
		"the capped distribution (Miller recursion) agrees with plain fixed-point iteration by direct convolutions to 1e-13 at every point up to the 1000 CZK cap, and the RTP at 1000 CZK to 1e-11 (TestExactDistributionByDirectConvolution)",
	}}
	return s, nil
}

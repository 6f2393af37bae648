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
	Risk         string          `json:"risk"`
	Jackpot      string          `json:"jackpot"`
	JackpotPools []JackpotMath   `json:"jackpotPools,omitempty"`
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
	PCapped  float64      `json:"pCapped"` // P(X > cap): Play cuts the round
	PReach   float64      `json:"pReach"`  // P(X >= cap): the round pays the cap
	Sigma    float64      `json:"sigma"`
	Exposure engine.Money `json:"exposure"`
}

// Bucket is one win range of the round total (x stake, at 5 CZK).
type Bucket struct {
	Range string  `json:"range"`
	P     float64 `json:"p"`
	RTP   float64 `json:"rtp"`
}

func buildMagicStars(jp *JackpotConfig) (*Sheet, error) {
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
	s.MaxWinNote = fmt.Sprintf("500 000 CZK per round (MS-7) at every stake, %gx at %d CZK; P(a round pays it at %d CZK) = P(X >= 500 000 CZK) = %.4g (1 in %.0f); uncapped, free-spin retriggers make the round total unbounded",
		s.MaxWin, top.Stake, top.Stake, top.PReach, oneIn(top.PReach))
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
	// The cap row is what Play does: it cuts a round only above 500 000 CZK
	// (Round.Capped), so P(X > cap); a round of exactly 500 000 is not cut.
	s.Features = append(s.Features, Feature{Name: fmt.Sprintf("round cut by the 500 000 CZK cap, P(X > cap) (stake %d)", top.Stake), PerGame: top.PCapped, OneIn: oneIn(top.PCapped)})
	for _, st := range e.Stakes {
		ms.ByStake = append(ms.ByStake, MSStake{Stake: st.Stake, CapX: float64(magicstars.RoundCap) / float64(st.Stake), RTP: st.RTP,
			CapLoss: st.CapLoss, Bound: st.Bound, PCapped: st.PCapped, PReach: st.PReach, Sigma: st.Sigma, Exposure: magicstars.RoundCap})
	}
	var l law
	var below, m1 float64
	for k, p := range e.Dist {
		x := float64(int64(k)*e.Grid) / magicstars.LineCount
		if p > 0 {
			l.x, l.p = append(l.x, x), append(l.p, p)
		}
		below += p
		m1 += p * x
	}
	l.rest, l.mean = max(1-below, 0), rtp
	gridEnd := float64(int64(len(e.Dist))*e.Grid) / magicstars.LineCount
	s.Law = l.build(fmt.Sprintf("exact up to %gx stake (the capped distribution's grid of %d line bets, float64), uncapped X; the mass above it (%.3g) is in the last band and bounds the tails beyond", gridEnd, e.Grid, l.rest))
	eur := func(m engine.Money) int64 { return int64(m) * 100 }
	if jp != nil && jp.CZKPerEURCenti > 0 {
		s.Law.ExposureRateCZK = fmt.Sprintf("EUR at %.2f CZK/EUR (central jackpot configuration czk_per_eur_centi)", float64(jp.CZKPerEURCenti)/100)
		eur = func(m engine.Money) int64 { return int64(m) * 10000 / jp.CZKPerEURCenti }
	}
	s.Law.exposure(s.Stakes, func(engine.Money) engine.Money { return magicstars.RoundCap }, eur)
	s.Draws = []string{
		fmt.Sprintf("paid game and each free spin: 1 draw of range %d = %d x %d x %d, the stop tuple read as mixed-radix digits (reel 1 most significant)", e.Cycle, e.Lengths[0], e.Lengths[1], e.Lengths[2]),
		fmt.Sprintf("after each spin that lights all three stars: 1 free-spin count draw of range %d (15/20/25 by weight), kept raw in Step.CountDraw", e.WeightSum),
		"Risk (MS-9/MS-10), only when offered and chosen: 1 card draw of range 52 per Risk step (cards 0..25 red)",
		"progressive jackpot (MS-17): the central system's own draw at every Start (central/jackpot: x uniform in [0, ceiling - value), hit when x < the game's contribution), outside the game's tape",
		fmt.Sprintf("at most %d free spins per round (a replay bound far beyond any real round); every draw is made by the central system", magicstars.MaxFreeSpins),
	}
	var pWinTrig float64
	for _, o := range e.SpinDist {
		if o.Units > 0 {
			pWinTrig += float64(o.Trigger) / float64(e.Cycle)
		}
	}
	s.Disclosures = []Disclosure{
		{Rule: "MS-7 (cap)", Text: fmt.Sprintf("a round (paid game and its free spins) pays at most 500 000 CZK; Play cuts it only when the total is above (P(X > cap) at %d CZK = %.4g, 1 in %.0f); exactly 500 000 CZK is paid uncut (P = %.3g); the cut costs %.3g of RTP at %d CZK, nothing measurable below (section 7)", top.Stake, top.PCapped, oneIn(top.PCapped), max(top.PReach-top.PCapped, 0), top.CapLoss, top.Stake), P: top.PCapped},
		{Rule: "MS-15 (free spins)", Text: fmt.Sprintf("a full screen of LEMON, CHERRY, RASPBERRY or ORANGE doubles the spin's win in free spins too (a free spin is a game); that doubling adds %s to the RTP (base game %s)", pct(ratF(e.DblFS)), pct(ratF(e.DblBase)))},
		{Rule: "MS-9 (Risk exclusions)", Text: fmt.Sprintf("Risk is not offered for free-spin wins, during free spins, after a jackpot hit, for the win of a spin that triggered free spins (P = %.4g per paid game), for a win at or above the market's handpay threshold, nor when the doubled win would pass 500 000 CZK; Risk returns 100 %% and is not in the RTP", pWinTrig), P: pWinTrig},
		{Rule: "MS-16..MS-19 (jackpot)", Text: "the progressive jackpot is drawn and paid outside the reel game (attendant, payout form); its share is in section 9 when the central configuration is given"},
	}
	if jp != nil {
		ms.JackpotPools = jackpotMath(jp, s.Stakes, func(st engine.Money) float64 { return s.RTPByStake[stakeKey(st)] })
	}
	ms.Jackpot = jackpotText(jp, ms.JackpotPools)
	s.MagicStars = ms
	s.Verification = &Verification{Checks: []string{
		fmt.Sprintf("components add up to the RTP: %.12f = %.12f", ratF(e.LinesBase)+ratF(e.DblBase)+ratF(e.LinesFS)+ratF(e.DblFS), rtp),
		fmt.Sprintf("round-total distribution: mass below %d u = 1 - %.2g; its mean below the grid end differs from E[X] by %.2g", int64(len(e.Dist))*e.Grid, math.Abs(1-below), math.Abs(rtp-m1)),
		"Play's hot path agrees with the independent evaluator on all " + fmt.Sprint(e.Cycle) + " stop tuples (TestPlayAgreesWithEvaluateOnEveryTuple)",
		"the capped distribution (Miller recursion) agrees with plain fixed-point iteration by direct convolutions to 1e-13 at every point up to the 1000 CZK cap, and the RTP at 1000 CZK to 1e-11 (TestExactDistributionByDirectConvolution)",
	}}
	return s, nil
}

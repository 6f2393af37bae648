// Package par builds the PAR sheets of both games from their exact
// calculations (never from Play): one struct, printed as text for people and
// as JSON for tools, with a seeded simulation of the production Play as the
// verification appendix. The committed sheets in this folder are its
// output; TestCommittedSheets fails when they are stale (make par).
package par

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/sim"
	"github.com/polaris-vlt/polaris/engine/wishstar"
)

// Sheet is one game's PAR sheet.
type Sheet struct {
	Game         string             `json:"game"`
	Title        string             `json:"title"`
	ModelID      string             `json:"modelId"`
	Currency     string             `json:"currency"`
	Stakes       []engine.Money     `json:"stakes"` // minor units
	RTP          float64            `json:"rtp"`    // at the lowest stake (where no cap binds)
	RTPByStake   map[string]float64 `json:"rtpByStake"`
	HitFrequency float64            `json:"hitFrequency"` // P(round total > 0)
	Sigma        float64            `json:"sigma"`        // of the round total per unit stake
	// VolatilityIndex is z*sigma at 90/95/99 %.
	VolatilityIndex map[string]float64 `json:"volatilityIndex"`
	MaxWin          float64            `json:"maxWin"` // x stake
	MaxWinNote      string             `json:"maxWinNote"`
	// OddsCheck states the rarest advertised award against GLI-11's
	// 1 in 100 000 000 games.
	OddsCheck  string      `json:"oddsCheck"`
	Components []Component `json:"components"`
	Features   []Feature   `json:"features"`
	// Law: win bands, P(win > stake), the tail ladder, the largest win
	// with odds better than 1 in 1e8, exposure per stake.
	Law *Law `json:"law"`
	// Draws lists every draw of a round in order, with its range.
	Draws []string `json:"draws"`
	// Disclosures are the rules beyond the rule sheet that the player's
	// rules screen states, each with its probability where it has one.
	Disclosures  []Disclosure     `json:"disclosures"`
	Verification *Verification    `json:"verification,omitempty"`
	MagicStars   *MagicStars      `json:"magicStars,omitempty"`
	WishStar     *wishstar.Report `json:"wishStar,omitempty"`
}

// Disclosure is one disclosed rule.
type Disclosure struct {
	Rule string  `json:"rule"`
	Text string  `json:"text"`
	P    float64 `json:"p,omitempty"` // per paid game, where the rule has one
}

// Component is one part of the RTP.
type Component struct {
	Name string  `json:"name"`
	RTP  float64 `json:"rtp"`
}

// Feature is an event's frequency per paid game.
type Feature struct {
	Name    string  `json:"name"`
	PerGame float64 `json:"perGame"`
	OneIn   float64 `json:"oneIn"`
}

// Verification is the appendix: a seeded simulation of the production Play.
type Verification struct {
	Stake         engine.Money `json:"stake"`
	Rounds        int64        `json:"rounds"`
	Seed          uint64       `json:"seed"`
	Groups        int          `json:"groups"`
	SimRTP        float64      `json:"simRtp"`
	SimSigma      float64      `json:"simSigma"`
	Z             float64      `json:"z"`
	Lo99          float64      `json:"lo99"`
	Hi99          float64      `json:"hi99"`
	Within99      bool         `json:"within99"`
	GroupsOutside int          `json:"groupsOutside"`
	Checks        []string     `json:"checks"`
}

// Options of Build.
type Options struct {
	SimRounds int64 // 0: no verification simulation
	SimSeed   uint64
	// Jackpot is the central system's progressive configuration (Magic
	// Stars, MS-16..MS-19); the engine does not read central files, so the
	// caller (polaris-math) passes its numbers. Nil: the sheet says so.
	Jackpot *JackpotConfig
}

// DefaultOptions are the committed sheets' settings.
var DefaultOptions = Options{SimRounds: 4_000_000, SimSeed: 20261129}

func oneIn(p float64) float64 {
	if p <= 0 {
		return math.Inf(1)
	}
	return 1 / p
}

// Theory returns the exact RTP and sigma per unit stake at stake.
func Theory(id engine.GameID, stake engine.Money) (rtp, sigma float64, err error) {
	switch id {
	case engine.MagicStars:
		e, err := magicstars.Default.ComputeExact()
		if err != nil {
			return 0, 0, err
		}
		for _, s := range e.Stakes {
			if s.Stake == stake {
				return s.RTP, s.Sigma, nil
			}
		}
		return 0, 0, &engine.StakeError{Game: id, Stake: stake, Ladder: magicstars.Stakes()}
	case engine.WishStar:
		r, err := wishstar.Exact()
		if err != nil {
			return 0, 0, err
		}
		v, ok := r.RTPByStake[stake]
		if !ok {
			return 0, 0, &engine.StakeError{Game: id, Stake: stake, Ladder: wishstar.Default.Stakes()}
		}
		return v, r.Sigma, nil
	}
	return 0, 0, &engine.UnknownGameError{ID: id}
}

// Build computes a game's sheet.
func Build(id engine.GameID, opt Options) (*Sheet, error) {
	var s *Sheet
	var err error
	switch id {
	case engine.MagicStars:
		s, err = buildMagicStars(opt.Jackpot)
	case engine.WishStar:
		s, err = buildWishStar()
	default:
		return nil, &engine.UnknownGameError{ID: id}
	}
	if err != nil {
		return nil, err
	}
	// A feature that cannot happen has no "1 in N" (and JSON has no Inf).
	s.Features = slices.DeleteFunc(s.Features, func(f Feature) bool { return !(f.PerGame > 0) })
	rare := Feature{OneIn: 0}
	for _, f := range s.Features {
		if f.PerGame > 0 && f.OneIn > rare.OneIn {
			rare = f
		}
	}
	verdict := "within"
	if rare.OneIn > 1e8 {
		verdict = "BEYOND"
	}
	s.OddsCheck = fmt.Sprintf("rarest listed award: %s, 1 in %.0f games: %s the 1 in 100 000 000 limit (GLI-11 4.8.2)", rare.Name, rare.OneIn, verdict)
	s.VolatilityIndex = map[string]float64{"90": 1.6449 * s.Sigma, "95": 1.9600 * s.Sigma, "99": 2.5758 * s.Sigma}
	if opt.SimRounds > 0 {
		g, err := engine.Lookup(id)
		if err != nil {
			return nil, err
		}
		stake := s.Stakes[0]
		rtp, sigma, err := Theory(id, stake)
		if err != nil {
			return nil, err
		}
		res, err := sim.Run(context.Background(), sim.Config{Game: g, Stake: stake, N: opt.SimRounds, Workers: runtime.GOMAXPROCS(0),
			Seed: opt.SimSeed, Groups: 100, TheoryRTP: rtp, TheorySigma: sigma})
		if err != nil {
			return nil, err
		}
		if s.Verification == nil {
			s.Verification = &Verification{}
		}
		v := s.Verification
		v.Stake, v.Rounds, v.Seed, v.Groups = stake, res.N, res.Seed(), len(res.Groups)
		v.SimRTP, v.SimSigma, v.Z, v.Lo99, v.Hi99, v.Within99, v.GroupsOutside = res.RTP, res.Sigma, res.Z, res.Lo99, res.Hi99, res.Within99, res.GroupsOutside
	}
	return s, nil
}

func stakeKey(m engine.Money) string { return strconv.FormatInt(int64(m), 10) }

func buildWishStar() (*Sheet, error) {
	r, err := wishstar.Exact()
	if err != nil {
		return nil, err
	}
	s := &Sheet{Game: string(engine.WishStar), Title: "Wish Upon a Star", ModelID: r.ModelID, Currency: "EUR (minor unit: cent)",
		Stakes: wishstar.Default.Stakes(), RTPByStake: map[string]float64{}, HitFrequency: r.HitFrequency, Sigma: r.Sigma,
		MaxWin: r.MaxWin, MaxWinNote: fmt.Sprintf("structural maximum of a round; log10 P(one way to reach it) = %.2f; %s", r.MaxWinLog10P, r.MaxWinPath),
		WishStar: r}
	for k, v := range r.RTPByStake {
		s.RTPByStake[stakeKey(k)] = v
	}
	s.RTP = r.RTPByStake[s.Stakes[0]]
	for _, c := range r.Components {
		s.Components = append(s.Components, Component{Name: c.Name, RTP: c.RTP})
	}
	for _, f := range r.Features {
		s.Features = append(s.Features, Feature{Name: f.Name, PerGame: f.PerGame, OneIn: f.OneIn})
	}
	for _, j := range r.Jackpots {
		s.Features = append(s.Features, Feature{Name: "jackpot " + j.Tier, PerGame: j.PerGame, OneIn: j.OneIn})
	}
	d, err := wishstar.RoundDistribution()
	if err != nil {
		return nil, err
	}
	var l law
	mass := 0.0
	for u, p := range d.P {
		if p > 0 {
			l.x, l.p = append(l.x, float64(u)/wishstar.Unit), append(l.p, p)
			mass += p
		}
	}
	// What the rounding floor dropped (and the sum's own rounding) bounds
	// every tail beyond the last point.
	l.rest, l.mean = max(1-mass, 0), r.RTP
	s.Law = l.build(fmt.Sprintf("exact: joint (ways, stars, Bonus, wild reels) law by counting over the cycle, Lock & Spin chain with "+
		"n-fold star-prize convolutions, the bounded free-spin DP on discrete Fourier transforms (length > the largest round, no "+
		"wrap-around); float64 rounding per point below %.1g (dropped); unaccounted mass %.2g bounds the tails beyond %gx", 4*d.Rounding, l.rest, l.x[len(l.x)-1]))
	s.Law.exposure(s.Stakes, func(st engine.Money) engine.Money { return engine.Money(math.Round(r.MaxWin * float64(st))) },
		func(m engine.Money) int64 { return int64(m) })
	m := wishstar.Default.Model()
	g := wishstar.Default
	lens := func(set string) string {
		out := ""
		for i := range 5 {
			out += fmt.Sprintf(" %d", g.StripLen(set, i))
		}
		return out
	}
	stars, bonus := g.TableTotals()
	s.Draws = []string{
		"paid spin: 5 reel stops, reels 1..5, ranges" + lens("base") + " (base set)",
		fmt.Sprintf("then for each full-wild reel (reel 2, then reel 4): 1 bonus-win draw, range %d (WS-4)", bonus),
		fmt.Sprintf("then, on 6 or more Stars: Lock & Spin: 1 star-prize draw of range %d per triggering star (cells in order reel*3+row); "+
			"per respin 1 landing draw of range %d per empty cell in cell order (a star lands below %d), then 1 star-prize draw per landed star", stars, m.RespinLand.Range, m.RespinLand.Land),
		"then each free spin in turn: 5 reel stops, ranges" + lens("free") + " (free-spin set), followed by its bonus-win and Lock & Spin draws as above",
		fmt.Sprintf("at most %d free spins per round (D5); every draw is made by the central system and every raw value is kept in the round (Step.Stops, BonusDraw, StarDraws, LandDraws)", m.FreeSpinsMax),
	}
	fsLock := 0.0
	for _, f := range r.Features {
		if f.Name == "Lock & Spin in all (expected per game)" {
			fsLock = f.PerGame
		}
	}
	fsLock -= r.Base.PLockSpin
	s.Disclosures = []Disclosure{
		{Rule: "D5 (free-spin bound)", Text: fmt.Sprintf("a round plays at most %d free spins; awards beyond are not played. P(a round has an award cut) = %.4g (1 in %.4g paid games)", m.FreeSpinsMax, r.PFreeSpinsCut, oneIn(r.PFreeSpinsCut)), P: r.PFreeSpinsCut},
		{Rule: "WS-9 (Grand)", Text: fmt.Sprintf("the Grand (%gx) is paid in addition to the prizes on the 15 stars. P(Grand) = %.4g per paid game (1 in %.0f)", r.Jackpots[3].Factor, r.Jackpots[3].PerGame, r.Jackpots[3].OneIn), P: r.Jackpots[3].PerGame},
		{Rule: "WS-6 (free spins)", Text: fmt.Sprintf("free spins double ways and scatter wins; a Lock & Spin started in a free spin pays its star cash prizes doubled and its jackpots (Mini, Minor, Major, Grand) at the fixed multiples of WS-10; bonus wins are not doubled. Lock & Spin started in free spins: %.4g per paid game (1 in %.0f); the doubling of its star cash adds %s to the RTP", fsLock, oneIn(fsLock), pct(r.FreeSpinsPerGame*r.Free.StarCash/2)), P: fsLock},
		{Rule: "WS-12 (stakes)", Text: "every amount is an integer number of stake/25 units, so the RTP is the same at every stake of the ladder (no rounding)"},
	}
	return s, nil
}

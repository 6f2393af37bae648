package par

import (
	"fmt"

	"github.com/polaris-vlt/polaris/engine"
)

// JackpotConfig is the central system's progressive configuration as the
// sheet needs it (central/jackpot's Config; amounts in whole CZK).
type JackpotConfig struct {
	Source         string        `json:"source"` // where the numbers came from
	CZKPerEURCenti int64         `json:"czkPerEurCenti"`
	Pools          []JackpotPool `json:"pools"`
}

// JackpotPool is one pool: seed (value after a hit), must-hit-by ceiling,
// contribution rate in basis points of every paid Magic Stars stake.
type JackpotPool struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Scope     string `json:"scope"`
	Seed      int64  `json:"seed"`
	MustHitBy int64  `json:"mustHitBy"`
	RateBP    int64  `json:"rateBp"`
}

// JackpotMath is one pool's figures.
type JackpotMath struct {
	JackpotPool
	// MeanHit is E[value at the hit] without the overshoot: the hidden
	// trigger is uniform between seed and ceiling, so (seed + ceiling)/2.
	MeanHit float64 `json:"meanHit"`
	// RTP is the jackpot's return per CZK staked: contributions r plus the
	// operator's reseeding, r E[V]/(E[V] - seed). RTPLow allows the largest
	// overshoot (one 1 000 CZK game's contribution past the trigger).
	RTP    float64 `json:"rtp"`
	RTPLow float64 `json:"rtpLow"`
	// Total is the game's RTP plus the pool's, per stake.
	Total []StakeRTP `json:"total"`
	// OneIn is the expected paid games per hit of one game at each stake.
	OneIn []StakeRTP `json:"oneIn"`
}

// StakeRTP is a figure at one stake.
type StakeRTP struct {
	Stake engine.Money `json:"stake"`
	V     float64      `json:"v"`
}

// jackpotMath computes every pool's figures; game is the RTP per stake.
func jackpotMath(cfg *JackpotConfig, stakes []engine.Money, game func(engine.Money) float64) []JackpotMath {
	var out []JackpotMath
	top := float64(stakes[len(stakes)-1])
	for _, p := range cfg.Pools {
		r := float64(p.RateBP) / 10000
		s, h := float64(p.Seed), float64(p.MustHitBy)
		v := (s + h) / 2
		m := JackpotMath{JackpotPool: p, MeanHit: v, RTP: r * v / (v - s)}
		vo := v + r*top
		m.RTPLow = r * vo / (vo - s)
		for _, st := range stakes {
			m.Total = append(m.Total, StakeRTP{Stake: st, V: game(st) + m.RTP})
			m.OneIn = append(m.OneIn, StakeRTP{Stake: st, V: (v - s) / (r * float64(st))})
		}
		out = append(out, m)
	}
	return out
}

func jackpotText(cfg *JackpotConfig, ms []JackpotMath) string {
	if cfg == nil {
		return "no central jackpot configuration given (polaris-math par magicstars --jackpot FILE): the jackpot's share is not in this sheet"
	}
	t := fmt.Sprintf("from %s; hit model (central/jackpot README): a hidden trigger uniform over (seed, must-hit-by], "+
		"drawn game by game by the central system at every Start with a chance proportional to the game's contribution; "+
		"the operator reseeds after a hit, so the jackpot returns r E[V]/(E[V] - seed) of every stake", cfg.Source)
	return t
}

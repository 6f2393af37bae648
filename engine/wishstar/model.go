package wishstar

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/polaris-vlt/polaris/engine"
)

//go:embed model/wishstar.json
var modelBytes []byte

//go:embed model/wishstar-v1.json
var modelV1Bytes []byte

// ModelBytes returns a copy of the embedded model file: the bytes the model id hashes.
func ModelBytes() []byte { return append([]byte(nil), modelBytes...) }

// Unit is the pay unit: every factor in the model is in 1/Unit of the total
// stake, and every stake on the ladder is a multiple of Unit cents, so every
// amount is an exact integer (a factor of 0.04 x stake = 1 unit).
const Unit = 25

// Model is the math model file. Factors are in units of stake/Unit.
type Model struct {
	Game    string `json:"game"`
	Name    string `json:"name"`
	Version string `json:"version"`
	// PayUnit must equal Unit.
	PayUnit int `json:"payUnit"`
	// Pays maps a paying symbol name to its 3-, 4- and 5-of-a-kind factors (WS-1).
	Pays       map[string][3]int64 `json:"pays"`
	ScatterPay int64               `json:"scatterPay"` // 3 Bonus (WS-5)
	// FreeSpinsAward is the spins of one award (WS-4, WS-5); FreeSpinsMultiplier
	// doubles pay-table wins in free spins (WS-6); FreeSpinsMax is the most free
	// spins one round awards in all (see README, decision D5).
	FreeSpinsAward      int `json:"freeSpinsAward"`
	FreeSpinsMultiplier int `json:"freeSpinsMultiplier"`
	FreeSpinsMax        int `json:"freeSpinsMax"`
	// FreeSpinsStarCash multiplies the star cash prizes of a Lock & Spin
	// started in a free spin (WS-6 with the WS decision: 2); its jackpots
	// are never multiplied. Absent (0) means 1: model 1 (id f48f036a…),
	// kept for the recall of its stored rounds, predates the decision.
	FreeSpinsStarCash int `json:"freeSpinsStarCash,omitempty"`
	// LockTrigger stars start Lock & Spin (WS-7) with Respins respins (WS-8).
	LockTrigger int `json:"lockTrigger"`
	Respins     int `json:"respins"`
	// RespinLand: on a respin each empty cell draws once from [0, Range) and
	// lands a star when the draw is below Land.
	RespinLand struct {
		Range int `json:"range"`
		Land  int `json:"land"`
	} `json:"respinLand"`
	// Jackpots: MINI, MINOR, MAJOR, GRAND factors (WS-10).
	Jackpots   map[string]int64 `json:"jackpots"`
	StarPrizes []Prize          `json:"starPrizes"` // WS-9
	BonusWins  []Prize          `json:"bonusWins"`  // WS-4
	// Reels: "base" and "free" sets of 5 strips, each a space-separated list of symbol names.
	Reels map[string][5]string `json:"reels"`
}

// Prize is one weighted entry of a prize table: cash Units, a Jackpot tier
// name, or FreeSpins (bonus wins only).
type Prize struct {
	Units     int64  `json:"units,omitempty"`
	Jackpot   string `json:"jackpot,omitempty"`
	FreeSpins int    `json:"freeSpins,omitempty"`
	Weight    int    `json:"weight"`
}

// ModelError refuses a model file that breaks a rule or is malformed.
type ModelError struct{ Reason string }

func (e *ModelError) Error() string { return "wishstar: bad model: " + e.Reason }

func modelErr(f string, a ...any) error { return &ModelError{Reason: fmt.Sprintf(f, a...)} }

var jackpotNames = map[string]engine.Jackpot{"MINI": engine.Mini, "MINOR": engine.Minor, "MAJOR": engine.Major, "GRAND": engine.Grand}

// JackpotName names a tier as the model file does.
func JackpotName(j engine.Jackpot) string {
	for n, t := range jackpotNames {
		if t == j {
			return n
		}
	}
	return ""
}

// prize is a parsed prize: its factor in units, its jackpot tier, or free spins.
type prize struct {
	units     int64
	jackpot   engine.Jackpot
	freeSpins int
	weight    int
}

// table is a weighted prize table drawn with one draw of range total.
type table struct {
	prizes []prize
	total  int
}

func (t *table) pick(v int) *prize {
	for i := range t.prizes {
		if v < t.prizes[i].weight {
			return &t.prizes[i]
		}
		v -= t.prizes[i].weight
	}
	panic("wishstar: draw beyond table") // Intn(total) never gets here
}

// reelInfo is what the rules need of one reel's window.
type reelInfo struct {
	pres  uint16 // bit s: paying symbol s (or a wild standing for it) shows
	cnt   uint64 // nibble s: cells showing s or a wild
	stars uint8
	bonus uint8
	full  bool  // the whole window is wild (WS-4)
	star  uint8 // bit row: a star stands there
	win   [3]engine.Symbol
}

func (ri *reelInfo) n(s int) int { return int(ri.cnt>>(4*uint(s))) & 15 }

func windowInfo(w [3]engine.Symbol) reelInfo {
	ri := reelInfo{win: w}
	wilds := 0
	for row, s := range w {
		switch {
		case s < nPaying:
			ri.pres |= 1 << s
			ri.cnt += 1 << (4 * uint(s))
		case s == Wild:
			wilds++
		case s == Star:
			ri.stars++
			ri.star |= 1 << row
		case s == Bonus:
			ri.bonus++
		}
	}
	if wilds > 0 {
		// WS-3: a wild stands for every paying symbol, never Star or Bonus.
		ri.pres = 1<<nPaying - 1
		for s := range nPaying {
			ri.cnt += uint64(wilds) << (4 * uint(s))
		}
	}
	ri.full = wilds == 3
	return ri
}

// reelSet is a set of five strips with each stop's window precomputed.
type reelSet struct {
	strips [5][]engine.Symbol
	info   [5][]reelInfo
}

func (rs *reelSet) window(reel, stop int) [3]engine.Symbol {
	s := rs.strips[reel]
	n := len(s)
	return [3]engine.Symbol{s[stop], s[(stop+1)%n], s[(stop+2)%n]}
}

// compiled is the model ready to play.
type compiled struct {
	m        *Model
	id       string
	pays     [nPaying][6]int64 // [symbol][k] in units
	base     reelSet
	free     reelSet
	stars    table
	bonus    table
	jackpots [5]int64 // by engine.Jackpot
	freeCash int64    // star cash multiplier in free spins (FreeSpinsStarCash, 1 when absent)
}

func parseModel(b []byte) (*compiled, error) {
	m := new(Model)
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(m); err != nil {
		return nil, modelErr("%v", err)
	}
	sum := sha256.Sum256(b)
	c := &compiled{m: m, id: hex.EncodeToString(sum[:])}
	if m.Game != string(engine.WishStar) {
		return nil, modelErr("game %q", m.Game)
	}
	if m.PayUnit != Unit {
		return nil, modelErr("payUnit %d, want %d", m.PayUnit, Unit)
	}
	if len(m.Pays) != nPaying {
		return nil, modelErr("%d paying symbols, want %d", len(m.Pays), nPaying)
	}
	for name, p := range m.Pays {
		s, err := ParseSymbol(name)
		if err != nil || s >= nPaying {
			return nil, modelErr("pays: %q is not a paying symbol", name)
		}
		for k := range 3 {
			if p[k] <= 0 {
				return nil, modelErr("pays: %s %d-of-a-kind is %d", name, k+3, p[k])
			}
			c.pays[s][k+3] = p[k]
		}
	}
	if m.ScatterPay <= 0 || m.FreeSpinsAward <= 0 || m.FreeSpinsMultiplier < 1 || m.FreeSpinsMax < m.FreeSpinsAward {
		return nil, modelErr("scatter pay / free spins %d %d %d %d", m.ScatterPay, m.FreeSpinsAward, m.FreeSpinsMultiplier, m.FreeSpinsMax)
	}
	switch c.freeCash = int64(m.FreeSpinsStarCash); {
	case c.freeCash == 0:
		c.freeCash = 1
	case c.freeCash < 0 || c.freeCash > int64(m.FreeSpinsMultiplier):
		return nil, modelErr("freeSpinsStarCash %d outside 1..%d", m.FreeSpinsStarCash, m.FreeSpinsMultiplier)
	}
	if m.FreeSpinsMax%m.FreeSpinsAward != 0 {
		return nil, modelErr("freeSpinsMax %d is not a multiple of the award %d", m.FreeSpinsMax, m.FreeSpinsAward)
	}
	if m.LockTrigger < 1 || m.LockTrigger > 15 || m.Respins < 1 {
		return nil, modelErr("lock trigger %d / respins %d", m.LockTrigger, m.Respins)
	}
	// Draw values are recorded in 16 bits (engine.Step.LandDraws, StarDraws).
	if m.RespinLand.Range < 1 || m.RespinLand.Range > 1<<16 || m.RespinLand.Land < 1 || m.RespinLand.Land >= m.RespinLand.Range {
		return nil, modelErr("respinLand %d of %d", m.RespinLand.Land, m.RespinLand.Range)
	}
	for name, t := range jackpotNames {
		f, ok := m.Jackpots[name]
		if !ok || f <= 0 {
			return nil, modelErr("jackpot %s missing", name)
		}
		c.jackpots[t] = f
	}
	if len(m.Jackpots) != 4 {
		return nil, modelErr("%d jackpots, want 4", len(m.Jackpots))
	}
	var err error
	// WS-9: a star carries cash up to 15x, or Mini/Minor/Major (not Grand).
	if c.stars, err = parseTable(m.StarPrizes, "starPrizes", 15*Unit, false, c); err != nil {
		return nil, err
	}
	// WS-4: a bonus win is cash up to 10x, Mini/Minor/Major, or free spins.
	if c.bonus, err = parseTable(m.BonusWins, "bonusWins", 10*Unit, true, c); err != nil {
		return nil, err
	}
	for _, set := range []struct {
		name string
		rs   *reelSet
	}{{"base", &c.base}, {"free", &c.free}} {
		strips, ok := m.Reels[set.name]
		if !ok {
			return nil, modelErr("reel set %q missing", set.name)
		}
		if err := set.rs.build(set.name, strips); err != nil {
			return nil, err
		}
	}
	if len(m.Reels) != 2 {
		return nil, modelErr("%d reel sets, want base and free", len(m.Reels))
	}
	return c, nil
}

func parseTable(ps []Prize, name string, maxUnits int64, bonus bool, c *compiled) (table, error) {
	t := table{}
	for i, p := range ps {
		q := prize{units: p.Units, freeSpins: p.FreeSpins, weight: p.Weight}
		kinds := 0
		if p.Units != 0 {
			kinds++
			if p.Units < 0 || p.Units > maxUnits {
				return t, modelErr("%s[%d]: %d units outside 1..%d", name, i, p.Units, maxUnits)
			}
		}
		if p.Jackpot != "" {
			kinds++
			j, ok := jackpotNames[p.Jackpot]
			if !ok || j == engine.Grand {
				return t, modelErr("%s[%d]: jackpot %q (Mini, Minor or Major only)", name, i, p.Jackpot)
			}
			q.jackpot, q.units = j, c.jackpots[j]
		}
		if p.FreeSpins != 0 {
			kinds++
			if !bonus || p.FreeSpins != c.m.FreeSpinsAward {
				return t, modelErr("%s[%d]: free spins %d not allowed here", name, i, p.FreeSpins)
			}
		}
		if kinds != 1 || p.Weight <= 0 {
			return t, modelErr("%s[%d]: want exactly one of units, jackpot, freeSpins and a positive weight", name, i)
		}
		t.prizes = append(t.prizes, q)
		t.total += p.Weight
	}
	if len(t.prizes) == 0 || t.total > 1<<16 {
		return t, modelErr("%s is empty or weighs more than 65536", name)
	}
	return t, nil
}

func (rs *reelSet) build(name string, strips [5]string) error {
	for r := range 5 {
		fields := strings.Fields(strips[r])
		if len(fields) < 3 {
			return modelErr("%s reel %d: %d stops", name, r+1, len(fields))
		}
		for i, f := range fields {
			s, err := ParseSymbol(f)
			if err != nil {
				return modelErr("%s reel %d stop %d: %v", name, r+1, i, err)
			}
			if !allowedOn(s, r) {
				return modelErr("%s reel %d stop %d: %s cannot stand on this reel", name, r+1, i, f)
			}
			rs.strips[r] = append(rs.strips[r], s)
		}
		rs.info[r] = make([]reelInfo, len(fields))
		for stop := range fields {
			ri := windowInfo(rs.window(r, stop))
			// At most one Bonus per window keeps "three Bonus" = one on each
			// of reels 1, 3, 5, as the exact calculation assumes.
			if ri.bonus > 1 {
				return modelErr("%s reel %d: two Bonus symbols within 3 stops of stop %d", name, r+1, stop)
			}
			rs.info[r][stop] = ri
		}
	}
	return nil
}

package wishstar

import (
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/polaris-vlt/polaris/engine"
)

// Game is Wish Upon a Star over one math model.
type Game struct {
	c *compiled
	// The exact figures, computed on first use.
	once   sync.Once
	rep    *Report
	repErr error
}

// Default is the game over the embedded model; init registers it.
var Default = New()

// V1 is model 1 (id f48f036a…, model/wishstar-v1.json): it did not double
// the star cash of a Lock & Spin started in a free spin. Nobody plays it;
// it is registered as retired so the rounds stored under it still replay
// (engine.LookupModel) for recall.
var V1 = mustGame(modelV1Bytes)

func init() {
	engine.Register(Default)
	engine.RegisterRetired(V1)
}

func mustGame(b []byte) *Game {
	g, err := NewFromBytes(b)
	if err != nil {
		panic(err) // the embedded models are checked by the package tests
	}
	return g
}

// New returns the game over the embedded model.
func New() *Game { return mustGame(modelBytes) }

// NewFromBytes returns the game over a model file (tuning and tests).
func NewFromBytes(b []byte) (*Game, error) {
	c, err := parseModel(b)
	if err != nil {
		return nil, err
	}
	return &Game{c: c}, nil
}

// stakes is the WS-12 ladder in euro cents (WS decision).
var stakes = []engine.Money{25, 50, 100, 200, 500, 1000, 2500}

func (g *Game) ID() engine.GameID      { return engine.WishStar }
func (g *Game) ModelID() string        { return g.c.id }
func (g *Game) Stakes() []engine.Money { return slices.Clone(stakes) }

// Model returns the parsed model file; callers must not change it.
func (g *Game) Model() *Model { return g.c.m }

// checkStake is engine.CheckStake without the ladder copy on the hot path.
func (g *Game) checkStake(stake engine.Money) error {
	switch stake {
	case 25, 50, 100, 200, 500, 1000, 2500:
		return nil
	}
	return &engine.StakeError{Game: engine.WishStar, Stake: stake, Ladder: g.Stakes()}
}

// freeSpins counts a round's free spins: those left to play and all awarded.
type freeSpins struct{ left, awarded, max int }

// add awards n spins, bounded so the round awards at most max (decision D5),
// and returns the spins actually added.
func (f *freeSpins) add(n int) int {
	n = min(n, f.max-f.awarded)
	f.awarded += n
	f.left += n
	return n
}

// Play plays one paid round: the base spin, its bonus wins and Lock & Spin,
// then every free spin with its own. Draw order: 5 reel stops (reels 1..5);
// one bonus-win draw per full-wild reel (reel 2, then 4); Lock & Spin: one
// star-prize draw per triggering star (cell order reel*3+row), then per
// respin one landing draw per empty cell in cell order followed by one prize
// draw per landed star in cell order.
func (g *Game) Play(src engine.Source, stake engine.Money, r *engine.Round) error {
	if err := g.checkStake(stake); err != nil {
		return err
	}
	r.ResetAs(engine.WishStar, g.c.id, stake)
	unit := int64(stake) / Unit
	fs := freeSpins{max: g.c.m.FreeSpinsMax}
	g.spin(src, r, &g.c.base, engine.StepBase, 1, unit, &fs)
	mult := int64(g.c.m.FreeSpinsMultiplier)
	for fs.left > 0 {
		fs.left--
		g.spin(src, r, &g.c.free, engine.StepFree, mult, unit, &fs)
	}
	var total engine.Money
	for i := range r.Steps {
		total += r.Steps[i].Pay
	}
	r.Total = total
	return nil
}

func (g *Game) spin(src engine.Source, r *engine.Round, set *reelSet, kind engine.StepKind, mult, unit int64, fs *freeSpins) {
	c := g.c
	st := r.NewStep(kind)
	var inf [5]*reelInfo
	for reel := range 5 {
		stop := engine.Intn(src, len(set.strips[reel]))
		st.Stops[reel] = int32(stop)
		inf[reel] = &set.info[reel][stop]
		st.Screen[reel] = inf[reel].win
	}
	st.Multiplier = int(mult)
	pay := c.ways(&st.Wins, &inf, unit*mult)
	bonus := inf[0].bonus + inf[2].bonus + inf[4].bonus
	if bonus >= 3 { // WS-5
		amt := c.m.ScatterPay * unit * mult
		st.Wins = append(st.Wins, engine.Win{Kind: engine.WinScatter, Symbol: Bonus, Count: int(bonus), Amount: engine.Money(amt)})
		pay += amt
		st.FreeSpinsWon = fs.add(c.m.FreeSpinsAward)
	}
	st.Pay = engine.Money(pay)
	st.FreeSpinsLeft = fs.left
	screen := st.Screen // st is invalid once another step is added
	for _, reel := range [2]int{1, 3} {
		if inf[reel].full { // WS-4
			g.bonusWin(src, r, screen, reel, unit, fs)
		}
	}
	stars := int(inf[0].stars + inf[1].stars + inf[2].stars + inf[3].stars + inf[4].stars)
	if stars >= c.m.LockTrigger { // WS-7
		cash := int64(1)
		if kind == engine.StepFree {
			cash = c.freeCash // WS-6 decision: star cash doubled, jackpots not
		}
		g.lockSpin(src, r, &inf, unit, cash, fs)
	}
}

// waysRule is the WS-1..WS-3 rule for engine.EvalWays.
func (c *compiled) waysRule() *engine.WaysRule {
	return &engine.WaysRule{
		Reels: 5,
		Pay: func(s engine.Symbol, k int) engine.Money {
			if s >= nPaying || k < 3 {
				return 0
			}
			return engine.Money(c.pays[s][k])
		},
		Wild:        Wild,
		WildReels:   1<<1 | 1<<3,
		Substitutes: func(s engine.Symbol) bool { return s < nPaying },
	}
}

// ways appends the ways wins of a window (WS-1..WS-3) and returns their sum.
// Reel 1 has no wild, so each way has one candidate symbol (WS-2).
func (c *compiled) ways(wins *[]engine.Win, inf *[5]*reelInfo, perUnit int64) int64 {
	var total int64
	m := inf[0].pres & inf[1].pres & inf[2].pres
	for m != 0 {
		s := bits.TrailingZeros16(m)
		m &= m - 1
		ways := inf[0].n(s) * inf[1].n(s) * inf[2].n(s)
		k := 3
		if n := inf[3].n(s); n > 0 {
			ways *= n
			k = 4
			if n := inf[4].n(s); n > 0 {
				ways *= n
				k = 5
			}
		}
		amt := c.pays[s][k] * int64(ways) * perUnit
		*wins = append(*wins, engine.Win{Kind: engine.WinWays, Symbol: engine.Symbol(s), Count: k, Ways: ways, Amount: engine.Money(amt)})
		total += amt
	}
	return total
}

func (g *Game) bonusWin(src engine.Source, r *engine.Round, screen engine.Screen, reel int, unit int64, fs *freeSpins) {
	c := g.c
	v := engine.Intn(src, c.bonus.total)
	p := c.bonus.pick(v)
	st := r.NewStep(engine.StepBonusWin)
	st.BonusDraw = int32(v)
	st.Screen = screen
	st.BonusReel = reel
	switch {
	case p.freeSpins > 0:
		st.FreeSpinsWon = fs.add(p.freeSpins)
	case p.jackpot != engine.NoJackpot:
		st.Wins = append(st.Wins, engine.Win{Kind: engine.WinJackpot, Symbol: Wild, Jackpot: p.jackpot, Amount: engine.Money(p.units * unit)})
	default:
		st.Wins = append(st.Wins, engine.Win{Kind: engine.WinInstant, Symbol: Wild, Amount: engine.Money(p.units * unit)})
	}
	if len(st.Wins) > 0 {
		st.Pay = st.Wins[0].Amount
	}
	st.FreeSpinsLeft = fs.left
}

const allCells = 1<<15 - 1

func lockScreen(locked uint16) engine.Screen {
	var sc engine.Screen
	for cell := range 15 {
		sym := Blank
		if locked&(1<<cell) != 0 {
			sym = Star
		}
		sc[cell/3][cell%3] = sym
	}
	return sc
}

// lockSpin plays Lock & Spin (WS-7..WS-10): no pay-table prizes, locked
// stars, respins reset on a new star, Grand on 15 stars paid on top of the
// star prizes. Prizes are collected on its last step. Star cash prizes are
// multiplied by cash (2 for a feature started in a free spin, WS-6 as the
// WS decision reads it); jackpots never are (WS-10 names their amount).
func (g *Game) lockSpin(src engine.Source, r *engine.Round, inf *[5]*reelInfo, unit, cash int64, fs *freeSpins) {
	c := g.c
	var locked uint16
	var vals [15]engine.Money
	var jps [15]engine.Jackpot
	var sdraws, ldraws [15]uint16
	draw := func(cell int) {
		v := engine.Intn(src, c.stars.total)
		p := c.stars.pick(v)
		sdraws[cell] = uint16(v)
		vals[cell] = engine.Money(p.units * unit)
		if p.jackpot == engine.NoJackpot {
			vals[cell] *= engine.Money(cash)
		}
		jps[cell] = p.jackpot
	}
	for reel := range 5 {
		for row := range 3 {
			if inf[reel].star&(1<<row) != 0 {
				cell := reel*3 + row
				locked |= 1 << cell
				draw(cell)
			}
		}
	}
	left := c.m.Respins
	fill := func(st *engine.Step) {
		st.Screen = lockScreen(locked)
		st.Locked = locked
		st.StarValues = vals
		st.StarJackpot = jps
		st.RespinsLeft = left
		st.FreeSpinsLeft = fs.left
		st.StarDraws = sdraws
		st.LandDraws = ldraws
		if cash > 1 {
			st.Multiplier = int(cash) // shown values already include it
		}
	}
	fill(r.NewStep(engine.StepLockSpin))
	land, rng := c.m.RespinLand.Land, c.m.RespinLand.Range
	for left > 0 && locked != allCells {
		var landed uint16
		ldraws = [15]uint16{}
		for cell := range 15 {
			if locked&(1<<cell) == 0 {
				v := engine.Intn(src, rng)
				ldraws[cell] = uint16(v)
				if v < land {
					landed |= 1 << cell
				}
			}
		}
		for m := landed; m != 0; m &= m - 1 {
			draw(bits.TrailingZeros16(m))
		}
		locked |= landed
		if landed != 0 {
			left = c.m.Respins
		} else {
			left--
		}
		fill(r.NewStep(engine.StepLockSpin))
	}
	st := &r.Steps[len(r.Steps)-1]
	var pay engine.Money
	for m := locked; m != 0; m &= m - 1 {
		cell := bits.TrailingZeros16(m)
		w := engine.Win{Kind: engine.WinStar, Symbol: Star, Cell: cell, Jackpot: jps[cell], Amount: vals[cell]}
		if jps[cell] != engine.NoJackpot {
			w.Kind = engine.WinJackpot
		}
		st.Wins = append(st.Wins, w)
		pay += vals[cell]
	}
	if locked == allCells { // WS-9: Grand on top of the 15 star prizes
		amt := engine.Money(c.jackpots[engine.Grand] * unit)
		st.Wins = append(st.Wins, engine.Win{Kind: engine.WinJackpot, Symbol: Star, Jackpot: engine.Grand, Amount: amt})
		pay += amt
	}
	st.Pay = pay
}

// Triggers are the features a screen starts.
type Triggers struct {
	FreeSpins   bool `json:"freeSpins"`   // 3 Bonus (WS-5)
	LockAndSpin bool `json:"lockAndSpin"` // 6 or more Stars (WS-7)
	BonusWins   int  `json:"bonusWins"`   // full-wild reels 2 and 4 (WS-4)
	// StarCashMultiplier multiplies the star cash prizes of the Lock & Spin
	// the screen starts (1 in the base game, 2 in a free spin: WS-6 with the
	// WS decision; jackpots never); 0 when it starts none.
	StarCashMultiplier int `json:"starCashMultiplier,omitempty"`
}

// Evaluation is a forced screen's pay-table wins and triggers (no draws).
type Evaluation struct {
	Total      engine.Money `json:"total"`
	Wins       []engine.Win `json:"wins"`
	Multiplier int          `json:"multiplier"`
	Triggers   Triggers     `json:"triggers"`
}

// Evaluate evaluates a screen as the base game (freeSpin false) or a free
// spin (wins doubled, WS-6) would, with the embedded model.
func Evaluate(screen engine.Screen, stake engine.Money, freeSpin bool) (*Evaluation, error) {
	return Default.Evaluate(screen, stake, freeSpin)
}

// Evaluate evaluates a screen with g's model.
func (g *Game) Evaluate(screen engine.Screen, stake engine.Money, freeSpin bool) (*Evaluation, error) {
	if err := g.checkStake(stake); err != nil {
		return nil, err
	}
	if err := CheckScreen(screen); err != nil {
		return nil, err
	}
	var infos [5]reelInfo
	for reel := range 5 {
		infos[reel] = windowInfo(screen[reel])
	}
	mult := int64(1)
	if freeSpin {
		mult = int64(g.c.m.FreeSpinsMultiplier)
	}
	unit := int64(stake) / Unit
	ev := &Evaluation{Multiplier: int(mult)}
	// The generic screen evaluator, not Play's precomputed path: the tests
	// that compare Play with Evaluate compare two implementations.
	var waysPay engine.Money
	ev.Wins, waysPay = engine.EvalWays(&screen, g.c.waysRule(), engine.Money(unit*mult), make([]engine.Win, 0, 4))
	pay := int64(waysPay)
	if b := infos[0].bonus + infos[2].bonus + infos[4].bonus; b >= 3 {
		amt := g.c.m.ScatterPay * unit * mult
		ev.Wins = append(ev.Wins, engine.Win{Kind: engine.WinScatter, Symbol: Bonus, Count: int(b), Amount: engine.Money(amt)})
		pay += amt
		ev.Triggers.FreeSpins = true
	}
	ev.Total = engine.Money(pay)
	for _, reel := range [2]int{1, 3} {
		if infos[reel].full {
			ev.Triggers.BonusWins++
		}
	}
	stars := 0
	for reel := range 5 {
		stars += int(infos[reel].stars)
	}
	ev.Triggers.LockAndSpin = stars >= g.c.m.LockTrigger
	if ev.Triggers.LockAndSpin {
		ev.Triggers.StarCashMultiplier = 1
		if freeSpin {
			ev.Triggers.StarCashMultiplier = int(g.c.freeCash)
		}
	}
	return ev, nil
}

// StripLen is the length of a strip ("base" or "free" set, reel 0..4): the
// range of its stop draw.
func (g *Game) StripLen(set string, reel int) int {
	if set == "free" {
		return len(g.c.free.strips[reel])
	}
	return len(g.c.base.strips[reel])
}

// TableTotals are the draw ranges of the star-prize and bonus-win tables.
func (g *Game) TableTotals() (stars, bonus int) { return g.c.stars.total, g.c.bonus.total }

// FixedJackpots is engine.FixedJackpotter: the model's factors (in units
// of stake/Unit) at stake (WS-10).
func (g *Game) FixedJackpots(stake engine.Money) map[engine.Jackpot]engine.Money {
	m := g.Model()
	if m == nil {
		return nil
	}
	out := map[engine.Jackpot]engine.Money{}
	for t := engine.Mini; t <= engine.Grand; t++ {
		if f, ok := m.Jackpots[JackpotName(t)]; ok {
			out[t] = engine.Money(f * int64(stake) / Unit)
		}
	}
	return out
}

// RTPByStake is engine.ExactRTPer.
func (g *Game) RTPByStake() (map[engine.Money]float64, error) {
	r, err := g.Exact()
	if err != nil {
		return nil, err
	}
	return r.RTPByStake, nil
}

var (
	_ engine.FixedJackpotter = (*Game)(nil)
	_ engine.ExactRTPer      = (*Game)(nil)
)

// MaxWin is the structural maximum of a round at stake, from the exact
// calculation (the PAR sheet's figure, in stake units times the stake).
func (g *Game) MaxWin(stake engine.Money) (engine.Money, error) {
	r, err := g.Exact()
	if err != nil {
		return 0, err
	}
	return engine.Money(math.Round(r.MaxWin * float64(stake))), nil
}

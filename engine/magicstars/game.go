package magicstars

import (
	"fmt"
	"math/bits"

	"github.com/polaris-vlt/polaris/engine"
)

// RoundCap is MS-7 as decided: a paid game and every free spin it leads to
// never pay more than 500 000 CZK together. Pass it to engine.PlayRisk and
// engine.RiskAllowed: Risk is offered only while a doubled win stays within it.
const RoundCap engine.Money = 500_000

// DefaultStake is the bet after start-up (MS-6).
const DefaultStake engine.Money = 5

// MaxFreeSpins bounds one round's free spins so that a replay of a broken
// tape (which answers 0 to every draw) cannot loop for ever. A legitimate
// round needs that many with a probability far below 10^-300: it takes at
// least 2 600 awards of at most 25 spins, and an award makes q*E[L] = 0.41
// new awards on average (see the PAR sheet).
const MaxFreeSpins = 1 << 16

var stakes = []engine.Money{5, 10, 15, 25, 50, 100, 200, 300, 500, 1000}

// Stakes is the bet ladder in whole CZK (MS-6).
func Stakes() []engine.Money { return append([]engine.Money(nil), stakes...) }

// Game is Magic Stars with one math model. It is immutable and safe for
// concurrent use.
type Game struct {
	id     string
	model  *Model
	strips [3][]Cell
	reels  [3]reel
	// fsTable maps a draw in [0, total weight) to a free-spin count (MS-13).
	fsTable []int32
	// outcome caches, per stop tuple (a*L2+b)*L3+c, what spin's own line
	// check found (outLines | outDoubled | outTrigger): one byte per tuple,
	// so the whole table stays in the first-level cache.
	outcome []uint8
	// n23 = L2*L3 and n3 = L3 with their reciprocals for fastDiv.
	n23, n3 uint32
	m23, m3 uint64
}

// fastDiv is x / d for 32-bit x and d >= 2, with m = reciprocal(d) (Lemire,
// "Faster remainder by direct computation", 2019): one multiplication
// instead of a division on the hot path.
func fastDiv(x uint32, m uint64) uint32 {
	hi, _ := bits.Mul64(m, uint64(x))
	return uint32(hi)
}

func reciprocal(d uint32) uint64 { return ^uint64(0)/uint64(d) + 1 }

const (
	outLines   = 0x1f // bit i: line i+1 wins
	outDoubled = 0x20 // MS-15 doubled the wins
	outTrigger = 0x40 // every reel shows a star-carrying cell (MS-11)
)

// reel holds, per stop, the window's symbols and star bits (bit row).
type reel struct {
	n    int
	win  [][3]engine.Symbol
	mark []uint8
}

// New builds the game from a model file; the model id is the file's SHA-256.
func New(data []byte) (*Game, error) {
	m, strips, err := ParseModel(data)
	if err != nil {
		return nil, err
	}
	g := &Game{id: ModelIDOf(data), model: m, strips: strips}
	for i, s := range strips {
		rl := reel{n: len(s), win: make([][3]engine.Symbol, len(s)), mark: make([]uint8, len(s))}
		for stop := range s {
			w := Window(s, stop)
			for row, c := range w {
				rl.win[stop][row] = c.Sym
				if c.Star {
					rl.mark[stop] |= 1 << row
				}
			}
		}
		g.reels[i] = rl
	}
	if c := len(strips[0]) * len(strips[1]) * len(strips[2]); c > 1<<22 {
		return nil, &ModelError{Reason: fmt.Sprintf("cycle %d exceeds 2^22 stop tuples", c)}
	}
	for _, f := range m.FreeSpins {
		for range f.Weight {
			g.fsTable = append(g.fsTable, int32(f.Count))
		}
	}
	r0, r1, r2 := &g.reels[0], &g.reels[1], &g.reels[2]
	g.outcome = make([]uint8, 0, r0.n*r1.n*r2.n)
	for a := range r0.n {
		for b := range r1.n {
			for c := range r2.n {
				out := outcomeFor(&[3][3]engine.Symbol{r0.win[a], r1.win[b], r2.win[c]})
				if r0.mark[a] != 0 && r1.mark[b] != 0 && r2.mark[c] != 0 {
					out |= outTrigger
				}
				g.outcome = append(g.outcome, out)
			}
		}
	}
	g.n23, g.n3 = uint32(r1.n*r2.n), uint32(r2.n)
	g.m23, g.m3 = reciprocal(g.n23), reciprocal(g.n3)
	return g, nil
}

// Default is the game with the embedded model.
var Default = mustNew(modelData)

func mustNew(data []byte) *Game {
	g, err := New(data)
	if err != nil {
		panic(err)
	}
	return g
}

func init() { engine.Register(Default) }

func (g *Game) ID() engine.GameID      { return engine.MagicStars }
func (g *Game) ModelID() string        { return g.id }
func (g *Game) Stakes() []engine.Money { return Stakes() }

// Model returns the parsed model and its strips.
func (g *Game) Model() (*Model, [3][]Cell) { return g.model, g.strips }

// ladder has bit s set for every stake s of MS-6 (one test instead of a
// switch on the hot path).
var ladder = func() (b [1000/64 + 1]uint64) {
	for _, s := range stakes {
		b[s/64] |= 1 << (s % 64)
	}
	return b
}()

func onLadder(stake engine.Money) bool {
	return stake >= 0 && stake <= 1000 && ladder[stake/64]&(1<<(stake%64)) != 0
}

// FreeSpinLimitError reports a round that would exceed MaxFreeSpins.
type FreeSpinLimitError struct{ Spins int }

func (e *FreeSpinLimitError) Error() string {
	return fmt.Sprintf("magicstars: %d free spins exceed the limit %d", e.Spins, MaxFreeSpins)
}

// Play plays one paid game at stake: the base spin and, when every reel
// shows a star-carrying cell (MS-11), the free spins it awards, with
// retriggers (MS-13), at the same bet (MS-12), then caps the total (MS-7).
// Draws, in order: per spin one draw of range L1*L2*L3, the stop tuple
// (stop1*L2 + stop2)*L3 + stop3; after each triggering spin one count draw
// (range = total weight).
func (g *Game) Play(src engine.Source, stake engine.Money, r *engine.Round) error {
	if !onLadder(stake) {
		return &engine.StakeError{Game: engine.MagicStars, Stake: stake, Ladder: Stakes()}
	}
	r.ResetAs(engine.MagicStars, g.id, stake)
	lineBet := stake / LineCount // MS decision: line bet = bet / 5
	s := r.NewStep(engine.StepBase)
	left := 0
	if g.spin(src, s, lineBet) {
		n := g.drawCount(src, s)
		s.FreeSpinsWon, s.FreeSpinsLeft = n, n
		left = n
	}
	total := s.Pay
	played := 0
	for left > 0 {
		played++
		if played > MaxFreeSpins {
			return &FreeSpinLimitError{Spins: played}
		}
		fs := r.NewStep(engine.StepFree)
		left--
		if g.spin(src, fs, lineBet) { // MS-13: retrigger
			n := g.drawCount(src, fs)
			fs.FreeSpinsWon = n
			left += n
		}
		fs.FreeSpinsLeft = left
		total += fs.Pay // MS-12: wins accumulate
	}
	if total > RoundCap {
		total, r.Capped = RoundCap, true
	}
	r.Total = total
	return nil
}

// drawCount draws the award (MS-13) and records the raw draw in s.
func (g *Game) drawCount(src engine.Source, s *engine.Step) int {
	v := engine.Intn(src, len(g.fsTable))
	s.CountDraw = int32(v)
	return int(g.fsTable[v])
}

// rows of the five lines on reels 1, 2, 3 (see Lines).
var lineRows = [LineCount][3]uint8{{1, 1, 1}, {0, 0, 0}, {2, 2, 2}, {0, 1, 2}, {2, 1, 0}}

// outcomeFor checks the five lines of a screen (MS-8, MS-14) and MS-15.
func outcomeFor(sc *[3][3]engine.Symbol) uint8 {
	var mask uint8
	for li := range lineRows {
		lr := &lineRows[li]
		a := sc[0][lr[0]]
		if sc[1][lr[1]] == a && sc[2][lr[2]] == a { // three from the left
			mask |= 1 << li
		}
	}
	// Five winning lines are a full screen (the three rows won, and the
	// diagonals join them in the middle cell).
	if mask == outLines && Doubles[sc[1][1]] {
		mask |= outDoubled
	}
	return mask
}

// spin draws one stop tuple, fills s and reports whether the free spins
// trigger. It is the hot path of simulation: no allocation once s.Wins has
// grown to five.
func (g *Game) spin(src engine.Source, s *engine.Step, lineBet engine.Money) bool {
	// One draw per spin over the whole cycle, read as mixed-radix digits
	// (reel 1 most significant): uniform over tuples as three draws would be,
	// at a third of the cost.
	t := uint32(engine.Intn(src, len(g.outcome)))
	out := g.outcome[t]
	a := fastDiv(t, g.m23)
	rem := t - a*g.n23
	b := fastDiv(rem, g.m3)
	c := rem - b*g.n3
	r0, r1, r2 := &g.reels[0], &g.reels[1], &g.reels[2]
	s.Stops[0], s.Stops[1], s.Stops[2] = int32(a), int32(b), int32(c)
	// One assignment per reel (a tuple assignment copies through the stack).
	s.Screen[0] = r0.win[a]
	s.Screen[1] = r1.win[b]
	s.Screen[2] = r2.win[c]
	s.Marked = uint16(r0.mark[a]) | uint16(r1.mark[b])<<3 | uint16(r2.mark[c])<<6
	s.Multiplier = 1
	if mask := out & outLines; mask != 0 {
		mult := engine.Money(1)
		if out&outDoubled != 0 {
			mult = 2
			s.FullScreen, s.Multiplier = true, 2
		}
		var pay engine.Money
		for li := range LineCount {
			if mask&(1<<li) != 0 {
				sym := s.Screen[0][lineRows[li][0]]
				amt := Pays[sym] * lineBet * mult
				s.Wins = append(s.Wins, engine.Win{Kind: engine.WinLine, Symbol: sym, Count: 3, Line: li + 1, Amount: amt})
				pay += amt
			}
		}
		s.Pay = pay
	}
	return out&outTrigger != 0 // MS-11: all three stars lit
}

// RoundCap is engine.RoundCapper.
func (g *Game) RoundCap() engine.Money { return RoundCap }

// RTPByStake is engine.ExactRTPer.
func (g *Game) RTPByStake() (map[engine.Money]float64, error) {
	e, err := g.ComputeExact()
	if err != nil {
		return nil, err
	}
	m := map[engine.Money]float64{}
	for _, s := range e.Stakes {
		m[s.Stake] = s.RTP
	}
	return m, nil
}

var (
	_ engine.RoundCapper = (*Game)(nil)
	_ engine.ExactRTPer  = (*Game)(nil)
)

// MaxWin is the round cap at every stake (MS-7).
func (g *Game) MaxWin(engine.Money) (engine.Money, error) { return RoundCap, nil }

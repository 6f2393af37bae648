package engine

// Layout is a game's screen and the kinds of feature its rounds hold:
// what a display draws, the lab tool reads and the central system decides
// on, so that none of them names a game (a third game brings its Layout
// and every caller follows). The slices and the map are the game's own:
// callers read them and never change them.
type Layout struct {
	// Reels and Rows are the window: Screen[reel][row] for reel < Reels
	// and row < Rows.
	Reels, Rows int
	// Lines are a line game's paylines (line n is Lines[n-1]); Ways is a
	// ways game's number of ways. A game has one or the other.
	Lines []Line
	Ways  int
	// Symbols are every symbol a cell can show, in the game's code order
	// (Blank included); Names are their names in the model file and the
	// lab tool, which also key the catalogues' symbol names.
	Symbols []Symbol
	Names   map[Symbol]string
	// Wilds stand in for the paying symbols of a ways win on every reel
	// but the first; Scatters pay wherever they stand (WinScatter).
	Wilds, Scatters []Symbol
	// Top are the symbols the game is recognised by (its card in the game
	// menu), in the order they are shown.
	Top []Symbol
	// Marks: a cell may carry a mark (Step.Marked), which the screen shows
	// and the recall keeps.
	Marks bool
	// FreeSpins: a round may lead to free spins (StepFree).
	FreeSpins bool
	// LockSpin: the game has Lock & Spin respins (StepLockSpin); Blank is
	// the symbol of their empty cell, which stands on no reel.
	LockSpin bool
	Blank    Symbol
	// Risk: a won paid round may be gambled red/black (PlayRisk).
	Risk bool
	// Jackpot is the kind of jackpot the game has.
	Jackpot JackpotKind
}

// JackpotKind says where a game's jackpots come from.
type JackpotKind uint8

const (
	// NoJackpots: the game has none.
	NoJackpots JackpotKind = iota
	// TierJackpots are fixed tiers by stake (Mini..Grand) the round itself
	// pays (FixedJackpotter).
	TierJackpots
	// ProgressiveJackpot is a pool the central system keeps, funded by
	// every paid round and paid beside it (MS-16..MS-19).
	ProgressiveJackpot
)

// Layouter is a game that states its Layout; every game does.
type Layouter interface {
	Layout() Layout
}

// LayoutOf is the Layout of the registered game id; ok is false for a
// game that is not registered or states none. Callers ask it instead of
// comparing id with a game's constant.
func LayoutOf(id GameID) (l Layout, ok bool) {
	g, err := Lookup(id)
	if err != nil {
		return Layout{}, false
	}
	lg, ok := g.(Layouter)
	if !ok {
		return Layout{}, false
	}
	return lg.Layout(), true
}

// LineGame: the game's wins are counted on paylines (else on ways).
func (l Layout) LineGame() bool { return len(l.Lines) > 0 }

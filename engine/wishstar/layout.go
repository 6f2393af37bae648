package wishstar

import "github.com/polaris-vlt/polaris/engine"

// layout is built once: the display asks for it every frame.
var layout = func() engine.Layout {
	l := engine.Layout{
		Reels: 5, Rows: 3, Ways: 243, // WS-1
		Names: map[engine.Symbol]string{},
		Wilds: []engine.Symbol{Wild}, Scatters: []engine.Symbol{Bonus}, // WS-3, WS-5
		// the feature symbols (WS-4, WS-5, WS-7)
		Top:       []engine.Symbol{Bonus, Wild, Star},
		FreeSpins: true,               // WS-5, WS-6
		LockSpin:  true, Blank: Blank, // WS-7..WS-9
		Jackpot: engine.TierJackpots, // WS-10
	}
	for s := Ten; s <= Blank; s++ {
		l.Symbols = append(l.Symbols, s)
		l.Names[s] = SymbolName(s)
	}
	return l
}()

// Layout is Wish Upon a Star's screen: 5×3, 243 ways, Lock & Spin with its
// fixed jackpot tiers.
func (g *Game) Layout() engine.Layout { return layout }

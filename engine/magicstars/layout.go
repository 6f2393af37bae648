package magicstars

import "github.com/polaris-vlt/polaris/engine"

// layout is built once: the display asks for it every frame.
var layout = func() engine.Layout {
	l := engine.Layout{
		Reels: 3, Rows: 3, Lines: Lines,
		Names: map[engine.Symbol]string{},
		// the star, then the fruit that pay most (MS-14)
		Top:       []engine.Symbol{Star, Melon, Grape},
		Marks:     true, // star-carrying cells (MS-11)
		FreeSpins: true, // MS-11..MS-13
		Risk:      true, // MS-9, MS-10
		Jackpot:   engine.ProgressiveJackpot,
	}
	for s := Star; s <= Lemon; s++ {
		l.Symbols = append(l.Symbols, s)
		l.Names[s] = SymbolName(s)
	}
	return l
}()

// Layout is Magic Stars' screen: 3×3, five lines, star marks, Risk and the
// central progressive jackpot.
func (g *Game) Layout() engine.Layout { return layout }

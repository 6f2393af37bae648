package games_test

import (
	"slices"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/wishstar"
)

// Every game states a Layout that holds together: callers decide on it
// alone, so a wrong field draws a wrong screen or skips a jackpot pool.
func TestLayoutsHoldTogether(t *testing.T) {
	for _, g := range engine.Games() {
		l, ok := engine.LayoutOf(g.ID())
		if !ok {
			t.Errorf("%s states no engine.Layout", g.ID())
			continue
		}
		if l.Reels < 1 || l.Reels > len(engine.Screen{}) || l.Rows < 1 || l.Rows > len(engine.Screen{}[0]) {
			t.Errorf("%s: window %d×%d does not fit engine.Screen", g.ID(), l.Reels, l.Rows)
		}
		if l.LineGame() == (l.Ways > 0) {
			t.Errorf("%s: %d lines and %d ways: want one or the other", g.ID(), len(l.Lines), l.Ways)
		}
		for i, ln := range l.Lines {
			if len(ln) != l.Reels {
				t.Errorf("%s: line %d spans %d reels of %d", g.ID(), i+1, len(ln), l.Reels)
			}
		}
		if l.Ways > 0 && l.Ways != pow(l.Rows, l.Reels) {
			t.Errorf("%s: %d ways on %d×%d", g.ID(), l.Ways, l.Reels, l.Rows)
		}
		for _, s := range l.Symbols {
			if l.Names[s] == "" {
				t.Errorf("%s: symbol %d has no name", g.ID(), s)
			}
		}
		for _, set := range [][]engine.Symbol{l.Top, l.Wilds, l.Scatters} {
			for _, s := range set {
				if !slices.Contains(l.Symbols, s) {
					t.Errorf("%s: symbol %d is not one of its symbols", g.ID(), s)
				}
			}
		}
		if l.LockSpin && !slices.Contains(l.Symbols, l.Blank) {
			t.Errorf("%s: Lock & Spin's blank %d is not one of its symbols", g.ID(), l.Blank)
		}
	}
}

// The layout states what the game's rounds really hold: no cell outside
// the window, marks, Lock & Spin and free spins only in a game that says
// it has them, every cell symbol one of its symbols.
func TestLayoutsMatchPlay(t *testing.T) {
	for _, g := range engine.Games() {
		l, _ := engine.LayoutOf(g.ID())
		src := draw.NewSeeded(31, 7).Words()
		var r engine.Round
		seen := map[engine.StepKind]bool{}
		marked, scattered := false, false
		for range 20000 {
			if err := g.Play(src, g.Stakes()[0], &r); err != nil {
				t.Fatal(err)
			}
			for _, st := range r.Steps {
				seen[st.Kind] = true
				marked = marked || st.Marked != 0
				for _, w := range st.Wins {
					scattered = scattered || w.Kind == engine.WinScatter
				}
				for reel := range len(st.Screen) {
					for row := range len(st.Screen[reel]) {
						s := st.Screen[reel][row]
						inside := reel < l.Reels && row < l.Rows
						if inside && !slices.Contains(l.Symbols, s) || !inside && s != 0 {
							t.Fatalf("%s: reel %d row %d shows %d (window %d×%d)", g.ID(), reel+1, row+1, s, l.Reels, l.Rows)
						}
					}
				}
			}
		}
		if scattered != (len(l.Scatters) > 0) {
			t.Errorf("%s: scatter wins seen %v, layout's scatters %v", g.ID(), scattered, l.Scatters)
		}
		if marked != l.Marks {
			t.Errorf("%s: marks seen %v, layout says %v", g.ID(), marked, l.Marks)
		}
		if seen[engine.StepLockSpin] != l.LockSpin {
			t.Errorf("%s: Lock & Spin seen %v, layout says %v", g.ID(), seen[engine.StepLockSpin], l.LockSpin)
		}
		if seen[engine.StepFree] != l.FreeSpins {
			t.Errorf("%s: free spins seen %v, layout says %v", g.ID(), seen[engine.StepFree], l.FreeSpins)
		}
	}
}

// The layouts restate the games' own figures.
func TestLayoutsOfBothGames(t *testing.T) {
	ms, _ := engine.LayoutOf(engine.MagicStars)
	if len(ms.Lines) != magicstars.LineCount || !ms.Risk || ms.Jackpot != engine.ProgressiveJackpot {
		t.Errorf("magicstars layout: %d lines (want %d), Risk %v, jackpot %d", len(ms.Lines), magicstars.LineCount, ms.Risk, ms.Jackpot)
	}
	ws, _ := engine.LayoutOf(engine.WishStar)
	if ws.Risk || ws.Jackpot != engine.TierJackpots || ws.Blank != wishstar.Blank {
		t.Errorf("wishstar layout: Risk %v, jackpot %d, blank %d", ws.Risk, ws.Jackpot, ws.Blank)
	}
	if _, ok := wishstar.Default.FixedJackpots(100)[engine.Grand]; !ok {
		t.Error("wishstar: TierJackpots but no fixed Grand")
	}
}

func pow(b, e int) int {
	n := 1
	for range e {
		n *= b
	}
	return n
}

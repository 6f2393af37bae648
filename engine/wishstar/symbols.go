package wishstar

import (
	"fmt"
	"strings"

	"github.com/polaris-vlt/polaris/engine"
)

// Symbols of Wish Upon a Star. The ten paying symbols come first so a
// paying symbol's code indexes the pay table.
const (
	Ten engine.Symbol = iota
	J
	Q
	K
	A
	Bell
	Cane
	Candle
	Tree
	Elf
	Bonus
	Wild
	Star
	// Blank is an empty cell of a Lock & Spin screen; it never stands on a reel.
	Blank
)

// nPaying is the number of paying symbols (Ten..Elf).
const nPaying = 10

var symbolNames = [...]string{"10", "J", "Q", "K", "A", "BELL", "CANE", "CANDLE", "TREE", "ELF", "BONUS", "WILD", "STAR", "-"}

// SymbolName is the symbol's name in the lab format (Blank is "-").
func SymbolName(s engine.Symbol) string {
	if int(s) < len(symbolNames) {
		return symbolNames[s]
	}
	return fmt.Sprintf("symbol(%d)", s)
}

// SymbolError refuses an unknown symbol name.
type SymbolError struct{ Name string }

func (e *SymbolError) Error() string {
	return fmt.Sprintf("wishstar: unknown symbol %q (want one of %s)", e.Name, strings.Join(symbolNames[:Blank], " "))
}

// ParseSymbol reads a symbol name, case-insensitively. Blank is refused:
// it is not a reel symbol.
func ParseSymbol(name string) (engine.Symbol, error) {
	u := strings.ToUpper(strings.TrimSpace(name))
	for i, n := range symbolNames[:Blank] {
		if u == n {
			return engine.Symbol(i), nil
		}
	}
	return 0, &SymbolError{Name: name}
}

// allowedOn reports whether s can stand on reel (0-based): Wild only on
// reels 2 and 4 (WS-3), Bonus only on reels 1, 3 and 5 (WS-5).
func allowedOn(s engine.Symbol, reel int) bool {
	switch s {
	case Wild:
		return reel == 1 || reel == 3
	case Bonus:
		return reel == 0 || reel == 2 || reel == 4
	case Blank:
		return false
	}
	return s < Blank
}

// ScreenError refuses a screen that cannot occur.
type ScreenError struct{ Reason string }

func (e *ScreenError) Error() string { return "wishstar: bad screen: " + e.Reason }

// ParseScreen reads 5 reels of 3 symbol names (top, middle, bottom).
func ParseScreen(cols [][]string) (engine.Screen, error) {
	var sc engine.Screen
	if len(cols) != 5 {
		return sc, &ScreenError{Reason: fmt.Sprintf("%d reels, want 5", len(cols))}
	}
	for r, col := range cols {
		if len(col) != 3 {
			return sc, &ScreenError{Reason: fmt.Sprintf("reel %d has %d rows, want 3", r+1, len(col))}
		}
		for row, name := range col {
			s, err := ParseSymbol(name)
			if err != nil {
				return sc, &ScreenError{Reason: fmt.Sprintf("reel %d row %d: %v", r+1, row+1, err)}
			}
			sc[r][row] = s
		}
	}
	return sc, CheckScreen(sc)
}

// CheckScreen refuses a screen with a symbol on a reel where it cannot stand.
func CheckScreen(sc engine.Screen) error {
	for r := range 5 {
		for row := range 3 {
			if s := sc[r][row]; !allowedOn(s, r) {
				return &ScreenError{Reason: fmt.Sprintf("%s cannot stand on reel %d", SymbolName(s), r+1)}
			}
		}
	}
	return nil
}

package magicstars

import (
	"fmt"
	"strings"

	"github.com/polaris-vlt/polaris/engine"
)

// The eight symbols (MS-14). Zero is no symbol (the unused reels 4 and 5 of
// engine.Screen). A star-carrying cell (MS-11) shows its base symbol and is
// flagged in Step.Marked; it pays as its base symbol.
const (
	Star engine.Symbol = iota + 1
	Melon
	Grape
	Plum
	Orange
	Raspberry
	Cherry
	Lemon
	numSymbols = int(Lemon) + 1
)

var symbolNames = [numSymbols]string{"", "STAR", "MELON", "GRAPE", "PLUM", "ORANGE", "RASPBERRY", "CHERRY", "LEMON"}

// SymbolName is the symbol's name in the model file and the lab interface.
func SymbolName(s engine.Symbol) string {
	if int(s) < numSymbols && s != 0 {
		return symbolNames[s]
	}
	return fmt.Sprintf("SYMBOL(%d)", s)
}

// SymbolError refuses an unknown symbol name.
type SymbolError struct{ Name string }

func (e *SymbolError) Error() string { return fmt.Sprintf("magicstars: unknown symbol %q", e.Name) }

// ParseCell reads a cell name such as "CHERRY" or "CHERRY*" (star-carrying).
func ParseCell(name string) (sym engine.Symbol, star bool, err error) {
	base, star := strings.CutSuffix(name, "*")
	for i := 1; i < numSymbols; i++ {
		if symbolNames[i] == base {
			return engine.Symbol(i), star, nil
		}
	}
	return 0, false, &SymbolError{Name: name}
}

// CellName is the inverse of ParseCell.
func CellName(sym engine.Symbol, star bool) string {
	if star {
		return SymbolName(sym) + "*"
	}
	return SymbolName(sym)
}

// Pays is the pay table (MS-14): the multiple of the line bet for three of a
// symbol on a line.
var Pays = [numSymbols]engine.Money{Star: 500, Melon: 80, Grape: 40, Plum: 16, Orange: 8, Raspberry: 8, Cherry: 8, Lemon: 2}

// Doubles says which full screens double the win (MS-15).
var Doubles = [numSymbols]bool{Orange: true, Raspberry: true, Cherry: true, Lemon: true}

// Lines are the five fixed lines (MS-1, decision): 1 middle, 2 top,
// 3 bottom, 4 top-left to bottom-right, 5 bottom-left to top-right.
var Lines = []engine.Line{{1, 1, 1}, {0, 0, 0}, {2, 2, 2}, {0, 1, 2}, {2, 1, 0}}

// LineCount is MS-1's five lines.
const LineCount = 5

// linePay is the pay table as an engine.LinePay: three of a kind only.
func linePay(sym engine.Symbol, count int) engine.Money {
	if count != 3 || int(sym) >= numSymbols {
		return 0
	}
	return Pays[sym]
}

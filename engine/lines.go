package engine

// Line is a payline: the row (0 top, 1 middle, 2 bottom) it crosses on each
// reel, left to right. Its length is the number of reels it spans.
type Line []uint8

// LinePay gives the multiplier of count equal symbols sym on a line, counted
// from the leftmost reel; 0 means the combination does not pay.
type LinePay func(sym Symbol, count int) Money

// LineRun returns the symbol on the leftmost reel of line and how many
// reels in a row, from the left, show it (MS-8: wins count from left to
// right).
func LineRun(s *Screen, line Line) (Symbol, int) {
	sym := s[0][line[0]]
	n := 1
	for n < len(line) && s[n][line[n]] == sym {
		n++
	}
	return sym, n
}

// EvalLines evaluates every line of s: a line whose leftmost run pays
// appends one WinLine (Line is 1-based, Amount = multiplier x unit) to wins.
// There are no wilds, so a line has exactly one candidate combination and
// "highest win per line" needs no search. It returns the extended slice and
// the sum of the appended amounts (MS-8: the wins of the lines are added).
func EvalLines(s *Screen, lines []Line, pay LinePay, unit Money, wins []Win) ([]Win, Money) {
	var sum Money
	for i, l := range lines {
		sym, n := LineRun(s, l)
		m := pay(sym, n)
		if m == 0 {
			continue
		}
		a := m * unit
		wins = append(wins, Win{Kind: WinLine, Symbol: sym, Count: n, Line: i + 1, Amount: a})
		sum += a
	}
	return wins, sum
}

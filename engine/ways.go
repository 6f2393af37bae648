package engine

// WaysPay gives the factor of count equal symbols sym on adjacent reels
// from the leftmost, per way; 0 means the combination does not pay.
type WaysPay func(sym Symbol, count int) Money

// WaysRule describes a ways game (WS-1..WS-3): which combinations pay, and
// which wild stands for which symbols on which reels.
type WaysRule struct {
	Reels int // reels of the screen counted, from the left
	Pay   WaysPay
	Wild  Symbol
	// WildReels has bit i set when a wild on reel i (0-based) substitutes.
	WildReels uint8
	// Substitutes reports whether the wild stands for sym.
	Substitutes func(sym Symbol) bool
}

// EvalWays evaluates every way of s: each choice of one cell per reel. A way
// pays the k-of-a-kind factor of the symbol on reel 1 when reels 1..k show
// it (or a substituting wild) and reel k+1 does not; the ways of a symbol
// and count are the product of its matching cells per reel, so one WinWays
// per (symbol, count) is appended (Amount = factor x ways x unit) in symbol
// order. The symbol on reel 1 is each way's only candidate: a wild there
// is not one (WS-2: reel 1 never shows a wild), so "the highest win per
// way" needs no search. It returns the extended slice and the appended sum.
func EvalWays(s *Screen, rule *WaysRule, unit Money, wins []Win) ([]Win, Money) {
	var seen [256]bool
	var cands []Symbol
	for row := range 3 {
		if sym := s[0][row]; !seen[sym] && (sym != rule.Wild || rule.WildReels&1 == 0) {
			seen[sym] = true
			cands = append(cands, sym)
		}
	}
	// Symbol order, so the result does not depend on the rows.
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && cands[j] < cands[j-1]; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	var sum Money
	for _, sym := range cands {
		ways, k := 1, 0
		for reel := range rule.Reels {
			n := 0
			for row := range 3 {
				c := s[reel][row]
				if c == sym || c == rule.Wild && rule.WildReels&(1<<reel) != 0 && rule.Substitutes(sym) {
					n++
				}
			}
			if n == 0 {
				break
			}
			ways *= n
			k++
		}
		f := rule.Pay(sym, k)
		if f == 0 {
			continue
		}
		a := f * Money(ways) * unit
		wins = append(wins, Win{Kind: WinWays, Symbol: sym, Count: k, Ways: ways, Amount: a})
		sum += a
	}
	return wins, sum
}

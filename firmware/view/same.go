package view

import (
	"maps"
	"slices"
)

// SameView reports whether a and b draw the same: equal in everything but
// Seq and Now. The cabinet publishes a snapshot only when this is false
// for the one it published last, so a consumer that compares Seq learns
// of every change. Round, Risk, Menu and Player are compared by pointer: the
// cabinet keeps them while they are unchanged, and a new pointer costs one
// publication, never a stale screen.
func SameView(a, b *Snapshot) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.Mode == b.Mode && a.Market == b.Market && a.Language == b.Language &&
		a.Currency == b.Currency && slices.Equal(a.Games, b.Games) && a.Game == b.Game &&
		slices.Equal(a.Bets, b.Bets) && a.Bet == b.Bet && a.Credit == b.Credit && a.Win == b.Win &&
		a.Auto == b.Auto && a.Round == b.Round && a.RiskOffer == b.RiskOffer && a.Risk == b.Risk &&
		slices.Equal(a.Jackpots, b.Jackpots) &&
		(a.Lockup == b.Lockup || a.Lockup != nil && b.Lockup != nil && *a.Lockup == *b.Lockup) &&
		slices.Equal(a.Tilts, b.Tilts) && slices.Equal(a.TiltKinds, b.TiltKinds) && slices.EqualFunc(a.TiltLines, b.TiltLines, sameLine) && slices.Equal(a.Doors, b.Doors) &&
		a.Message == b.Message && a.MessageAmount == b.MessageAmount && a.Menu == b.Menu &&
		maps.Equal(a.Lamps, b.Lamps) && a.Tower == b.Tower && a.Sound == b.Sound &&
		(a.Info == b.Info || a.Info != nil && b.Info != nil && *a.Info == *b.Info) &&
		a.Player == b.Player &&
		(a.CountUp == b.CountUp || a.CountUp != nil && b.CountUp != nil && *a.CountUp == *b.CountUp)
}

// sameLine: the same catalogue key with the same arguments (times equal
// as instants).
func sameLine(a, b MenuLine) bool {
	return a.Key == b.Key && slices.EqualFunc(a.Args, b.Args, func(x, y Arg) bool {
		return x.Kind == y.Kind && x.S == y.S && x.N == y.N && x.T.Equal(y.T) && slices.Equal(x.L, y.L)
	})
}

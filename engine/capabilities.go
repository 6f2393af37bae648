package engine

// Optional capabilities: what only some games have. A caller asks a game
// for one by its name here (g.(engine.RoundCapper)), never with an
// anonymous interface or a concrete game's type, so a new game gains a
// capability by having the method, and no caller adds a case. What every
// game has but each has differently — its window, lines or ways, symbols,
// features, Risk, jackpot kind — is its Layout (layout.go): callers ask
// LayoutOf(id) and never compare id with a game's constant (a test in the
// module's root finds such comparisons).

// RoundCapper is a game whose paid round, with every feature and Risk
// step it leads to, pays at most RoundCap at any stake (Magic Stars:
// MS-7).
type RoundCapper interface {
	RoundCap() Money
}

// FixedJackpotter is a game with fixed jackpots, by stake (Wish Upon a
// Star: WS-10).
type FixedJackpotter interface {
	FixedJackpots(stake Money) map[Jackpot]Money
}

// ExactRTPer is a game whose return to player is computed exactly, for
// every stake of its ladder (the audit page shows it beside the meters).
type ExactRTPer interface {
	RTPByStake() (map[Money]float64, error)
}

// MaxWinner is a game that knows the most one paid round can pay at a
// stake (the player's rules state it): a cap, or the structural maximum
// of its exact calculation.
type MaxWinner interface {
	MaxWin(stake Money) (Money, error)
}

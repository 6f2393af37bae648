package engine

import (
	"fmt"
	"slices"
)

// Money is an amount in the currency's minor unit (euro cents, whole CZK).
type Money int64

// StakeError refuses a stake that is not on a game's ladder.
type StakeError struct {
	Game   GameID
	Stake  Money
	Ladder []Money
}

func (e *StakeError) Error() string {
	return fmt.Sprintf("engine: %s: stake %d is not on the ladder %v", e.Game, e.Stake, e.Ladder)
}

// CheckStake returns a *StakeError unless stake is one of the game's stakes.
func CheckStake(g Game, stake Money) error {
	if slices.Contains(g.Stakes(), stake) {
		return nil
	}
	return &StakeError{Game: g.ID(), Stake: stake, Ladder: g.Stakes()}
}

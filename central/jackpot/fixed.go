package jackpot

import "github.com/polaris-vlt/polaris/engine"

// WishStarStakes is Wish Upon a Star's stake ladder in euro cents (WS-12 and
// its decision): 0.25 … 25.00 EUR.
var WishStarStakes = []engine.Money{25, 50, 100, 200, 500, 1000, 2500}

// FixedMultiples are WS-10's jackpots as multiples of the total stake.
var FixedMultiples = [...]struct {
	Tier     engine.Jackpot
	Name     string
	Multiple int64
}{
	{engine.Mini, "Mini", 20},
	{engine.Minor, "Minor", 30},
	{engine.Major, "Major", 50},
	{engine.Grand, "Grand", 200},
}

// FixedValues are the four fixed jackpot amounts at one stake, in euro cents.
type FixedValues struct {
	Stake                     engine.Money
	Mini, Minor, Major, Grand engine.Money
}

// WishStarFixed returns WS-10's amounts for each stake (euro cents); nil
// stakes means WishStarStakes.
func WishStarFixed(stakes []engine.Money) []FixedValues {
	if stakes == nil {
		stakes = WishStarStakes
	}
	out := make([]FixedValues, len(stakes))
	for i, s := range stakes {
		out[i] = FixedValues{Stake: s, Mini: 20 * s, Minor: 30 * s, Major: 50 * s, Grand: 200 * s}
	}
	return out
}

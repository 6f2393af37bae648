package players

import (
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/market"
)

// Profile is what a market asks of registered play at the central system,
// as its market profile (package market) states it.
type Profile struct {
	Market string
	// CardRequired: no round is drawn for a cabinet without an active
	// player session (cz, at). Without it (demo) a round with a session is
	// recorded and checked against that player's limits, one without is
	// anonymous.
	CardRequired bool
	// LimitsRequired: each of the four self-limits must be set or
	// explicitly refused before the first wager (cz).
	LimitsRequired bool
	// MaxPlay of continuous play is followed by a Break without play; a
	// pause of at least Break ends a stretch of continuous play. 0: none.
	MaxPlay, Break time.Duration
	// Warn is how long before the break the state says so.
	Warn time.Duration
	// BreakCredit is the market's rule for the credit at the break:
	// "keep" (kept for the player's return) or "payout".
	BreakCredit string
	// LoosenWait: a milder limit (higher, or refused) takes effect only
	// this long after it was asked for; a stricter one at once.
	LoosenWait time.Duration
	// ClosedGrace: a person who closed an account with limits gets them on
	// a new account, and no milder one takes effect within ClosedGrace of
	// the closing.
	ClosedGrace time.Duration
	// MinAge at registration, in years.
	MinAge int
	// ExclusionsMaxAge: a login is refused when the newest imported
	// exclusion register is older than this (0: not checked).
	ExclusionsMaxAge time.Duration
	// Location gives the calendar day and month of the limits.
	Location *time.Location
	// ChallengeTTL is how long a card challenge may be answered.
	ChallengeTTL time.Duration
}

// Profiles are the players' rules of every built-in market profile.
func Profiles() map[string]Profile {
	out := map[string]Profile{}
	for _, id := range market.Names() {
		p, err := ProfileFor(id)
		if err != nil {
			panic(err) // the built-in profiles are checked by market's tests
		}
		out[id] = p
	}
	return out
}

// ProfileFor returns the players' rules of a built-in market ("cz", "at",
// "demo"): its market profile's [players] table, who must play with a
// card and the minimum age, as the cabinet reads the same profile.
func ProfileFor(id string) (Profile, error) {
	m, err := market.Builtin(id)
	if err != nil {
		return Profile{}, fmt.Errorf("players: %w", err)
	}
	return FromMarket(m)
}

// FromMarket is the players' rules of a market profile; a profile without
// a [players] table has none and is refused.
func FromMarket(m *market.Profile) (Profile, error) {
	pl := m.Players
	if pl == nil {
		return Profile{}, fmt.Errorf("players: market %q has no [players] table", m.ID)
	}
	loc, err := pl.Location()
	if err != nil {
		return Profile{}, fmt.Errorf("players: market %q: %w", m.ID, err)
	}
	return Profile{Market: m.ID, CardRequired: m.CardRequired, LimitsRequired: pl.LimitsRequired,
		MaxPlay: pl.MaxPlay.D(), Break: pl.Break.D(), Warn: pl.Warn.D(), BreakCredit: pl.BreakCredit,
		LoosenWait: pl.LoosenWait.D(), ClosedGrace: pl.ClosedGrace.D(), MinAge: m.Info.MinAge,
		ExclusionsMaxAge: pl.ExclusionsMaxAge.D(), Location: loc, ChallengeTTL: pl.ChallengeTTL.D()}, nil
}

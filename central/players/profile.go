package players

import (
	"fmt"
	"time"
	_ "time/tzdata"
)

// Profile is what a market asks of registered play at the central system.
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

// zone loads a market's time zone from the embedded tzdata (imported
// below), so a host without /usr/share/zoneinfo computes the same days.
func zone(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic("players: " + err.Error())
	}
	return l
}

// Profiles are the built-in market profiles. The at values are the
// standards note's open item (GlSpAV §40, "max continuous play time" not
// found): a cooling-off of at least 5 minutes with the credit paid out.
func Profiles() map[string]Profile {
	cet := zone("Europe/Prague")
	vie := zone("Europe/Vienna")
	return map[string]Profile{
		"cz": {Market: "cz", CardRequired: true, LimitsRequired: true, MaxPlay: 120 * time.Minute, Break: 15 * time.Minute,
			Warn: 5 * time.Minute, BreakCredit: "keep", LoosenWait: 7 * 24 * time.Hour, ClosedGrace: 7 * 24 * time.Hour,
			MinAge: 18, ExclusionsMaxAge: 48 * time.Hour, Location: cet, ChallengeTTL: 30 * time.Second},
		"at": {Market: "at", CardRequired: true, MaxPlay: 120 * time.Minute, Break: 5 * time.Minute,
			Warn: 5 * time.Minute, BreakCredit: "payout", LoosenWait: 7 * 24 * time.Hour, ClosedGrace: 7 * 24 * time.Hour,
			MinAge: 18, Location: vie, ChallengeTTL: 30 * time.Second},
		"demo": {Market: "demo", LoosenWait: 24 * time.Hour, ClosedGrace: 7 * 24 * time.Hour, MinAge: 18,
			Location: time.UTC, ChallengeTTL: 30 * time.Second},
	}
}

// ProfileFor returns the built-in profile of market ("cz", "at", "demo").
func ProfileFor(market string) (Profile, error) {
	p, ok := Profiles()[market]
	if !ok {
		return Profile{}, fmt.Errorf("players: no profile for market %q (cz, at, demo)", market)
	}
	return p, nil
}

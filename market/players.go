package market

import (
	"fmt"
	"time"
	// A market's zone must load on a host without /usr/share/zoneinfo,
	// where both the check here and central/players compute its days.
	_ "time/tzdata"
)

// Players are a market's rules of registered play at the central system
// (the [players] table). Who must play with a card (Profile.CardRequired)
// and the minimum age (Info.MinAge) are the profile's own, which the
// cabinet reads too.
type Players struct {
	// LimitsRequired: each of the four self-limits must be set or
	// explicitly refused before the first wager (cz).
	LimitsRequired bool `toml:"limits_required"`
	// MaxPlay of continuous play is followed by a Break without play; a
	// pause of at least Break ends a stretch of continuous play. 0: none.
	MaxPlay Duration `toml:"max_play"`
	Break   Duration `toml:"break"`
	// Warn is how long before the break the player is told.
	Warn Duration `toml:"warn"`
	// BreakCredit is the rule for the credit at the break: "keep" (kept
	// for the player's return) or "payout"; "" without breaks.
	BreakCredit string `toml:"break_credit"`
	// LoosenWait: a milder limit (higher, or refused) takes effect only
	// this long after it was asked for; a stricter one at once.
	LoosenWait Duration `toml:"loosen_wait"`
	// ClosedGrace: a person who closed an account with limits gets them on
	// a new account, and no milder one takes effect within ClosedGrace of
	// the closing.
	ClosedGrace Duration `toml:"closed_grace"`
	// ExclusionsMaxAge: a login is refused when the newest imported
	// exclusion register is older than this (0: not checked).
	ExclusionsMaxAge Duration `toml:"exclusions_max_age"`
	// Zone (IANA) gives the calendar day and month of the limits.
	Zone string `toml:"zone"`
	// ChallengeTTL is how long a card challenge may be answered.
	ChallengeTTL Duration `toml:"challenge_ttl"`
}

// Duration is a span written as Go writes one: "15m", "168h", "30s".
type Duration time.Duration

// UnmarshalText reads "15m" and the like.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// D is the span as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// Location is the market's time zone.
func (p *Players) Location() (*time.Location, error) {
	return time.LoadLocation(p.Zone)
}

func (p *Players) check() error {
	for name, d := range map[string]Duration{"max_play": p.MaxPlay, "break": p.Break, "warn": p.Warn,
		"loosen_wait": p.LoosenWait, "closed_grace": p.ClosedGrace, "exclusions_max_age": p.ExclusionsMaxAge} {
		if d < 0 {
			return fmt.Errorf("%s %v is negative", name, d.D())
		}
	}
	if p.ChallengeTTL <= 0 {
		return fmt.Errorf("challenge_ttl %v must be positive", p.ChallengeTTL.D())
	}
	if p.Zone == "" {
		return fmt.Errorf("zone is missing (an IANA zone such as Europe/Prague)")
	}
	if _, err := p.Location(); err != nil {
		return fmt.Errorf("zone: %w", err)
	}
	switch {
	case p.MaxPlay == 0 && (p.Break != 0 || p.BreakCredit != ""):
		return fmt.Errorf("break %v and break_credit %q without max_play", p.Break.D(), p.BreakCredit)
	case p.MaxPlay > 0 && p.Break <= 0:
		return fmt.Errorf("max_play %v without a break", p.MaxPlay.D())
	case p.MaxPlay > 0 && p.BreakCredit != "keep" && p.BreakCredit != "payout":
		return fmt.Errorf("break_credit %q is not keep or payout", p.BreakCredit)
	case p.Warn >= p.MaxPlay && p.MaxPlay > 0:
		return fmt.Errorf("warn %v is not before max_play %v", p.Warn.D(), p.MaxPlay.D())
	}
	return nil
}

package view

import (
	"time"

	"github.com/polaris-vlt/polaris/engine"
)

// WinTier is how big a win is against the bet: a tier has its own caption,
// sound and count-up length. The cabinet and the display both read it
// from TierOf, so that they never disagree.
type WinTier string

const (
	TierNone  WinTier = ""
	TierBig   WinTier = "big"   // at least BigWinX times the bet
	TierMega  WinTier = "mega"  // at least MegaWinX times the bet
	TierSuper WinTier = "super" // at least SuperWinX times the bet
)

// The tiers' thresholds, in multiples of the round's bet: a player sees a
// "big win" where a hall's cabinets do, not on every line win.
const (
	BigWinX   = 15
	MegaWinX  = 50
	SuperWinX = 100
)

// TierOf is the tier of win at stake (TierNone for no stake).
func TierOf(win, stake engine.Money) WinTier {
	switch {
	case stake <= 0 || win < BigWinX*stake:
		return TierNone
	case win >= SuperWinX*stake:
		return TierSuper
	case win >= MegaWinX*stake:
		return TierMega
	}
	return TierBig
}

// CountUp is a settled round's win counting up on screen: from Start to
// End the Win field runs from From (what it showed as the round ended: 0
// for a base game's win, the free spins' wins so far, the whole win after
// a Risk offer) to Amount, and the Credit field takes Amount in over the
// same time.
// It is presentation only: the ledger credited Amount before Start, so a
// power cut during it loses nothing. A press of a play button ends it
// early (the cabinet publishes a new CountUp with End at the press).
type CountUp struct {
	Round      uint64
	Amount     engine.Money
	From       engine.Money
	Stake      engine.Money
	Start, End time.Time
	Tier       WinTier
}

// Shown is the amount the Win field shows at now.
func (c *CountUp) Shown(now time.Time) engine.Money {
	if c == nil {
		return 0
	}
	return c.From + c.part(c.Amount-c.From, now)
}

// Credited is how much of Amount the Credit field shows taken in at now.
func (c *CountUp) Credited(now time.Time) engine.Money {
	if c == nil {
		return 0
	}
	return c.part(c.Amount, now)
}

// part is the share of m counted at now.
func (c *CountUp) part(m engine.Money, now time.Time) engine.Money {
	switch {
	case !now.Before(c.End):
		return m
	case !now.After(c.Start):
		return 0
	}
	return engine.Money(float64(m) * float64(now.Sub(c.Start)) / float64(c.End.Sub(c.Start)))
}

// Running reports whether the count-up still counts at now.
func (c *CountUp) Running(now time.Time) bool { return c != nil && now.Before(c.End) }

// BannerKind is which feature screen a step ends with.
type BannerKind string

const (
	BannerNone      BannerKind = ""
	BannerFreeIntro BannerKind = "free_intro" // "10 FREE SPINS" before they play
	BannerLockIntro BannerKind = "lock_intro" // Lock & Spin: its triggering stars locked
	BannerFreeTotal BannerKind = "free_total" // the free spins' total win
	BannerLockTotal BannerKind = "lock_total" // what Lock & Spin collected
)

// Banner is a step's feature screen: the cabinet reserves time for it on
// the round's timeline (StepTime.Banner), the display draws it.
type Banner struct {
	Kind BannerKind
	// Count is the free spins won, or the respins a Lock & Spin starts with.
	Count int
	// Amount is a total's win.
	Amount engine.Money
	// Locked is the cells (bit reel*3+row) a Lock & Spin starts with.
	Locked uint16
}

// BannerOf is the feature screen step i of steps ends with. The round's
// last step shows the free spins' total when it had free spins (a Lock &
// Spin inside them included); a Lock & Spin's last respin its collected
// total; the step that triggers a Lock & Spin or free spins their intro (a
// bonus win reveal announces its free spins itself).
func BannerOf(steps []engine.Step, i int) Banner {
	if i < 0 || i >= len(steps) {
		return Banner{}
	}
	st := &steps[i]
	if i == len(steps)-1 {
		for f := range steps {
			if steps[f].Kind == engine.StepFree {
				b := Banner{Kind: BannerFreeTotal}
				for k := f; k <= i; k++ {
					b.Amount += steps[k].Pay
				}
				return b
			}
		}
	}
	if st.Kind == engine.StepLockSpin && (i+1 == len(steps) || steps[i+1].Kind != engine.StepLockSpin) {
		b := Banner{Kind: BannerLockTotal}
		for k := i; k >= 0 && steps[k].Kind == engine.StepLockSpin; k-- {
			b.Amount += steps[k].Pay
		}
		return b
	}
	if i+1 < len(steps) && st.Kind != engine.StepLockSpin && steps[i+1].Kind == engine.StepLockSpin {
		return Banner{Kind: BannerLockIntro, Count: steps[i+1].RespinsLeft, Locked: steps[i+1].Locked}
	}
	if i+1 < len(steps) && st.FreeSpinsWon > 0 && st.Kind != engine.StepBonusWin {
		return Banner{Kind: BannerFreeIntro, Count: st.FreeSpinsWon}
	}
	return Banner{}
}

// Celebration is a jackpot hit as the screen celebrates it: the tier
// (engine.NoJackpot for a progressive pool) and the amount.
type Celebration struct {
	Tier   engine.Jackpot
	Amount engine.Money
}

// CelebrationOf is the jackpot step i of a round celebrates, if any: the
// highest fixed jackpot its wins hold (Wish Upon a Star), or on the last
// step the round's progressive hit (Magic Stars, never credited).
func CelebrationOf(steps []engine.Step, i int, progressive engine.Money) (Celebration, bool) {
	if i < 0 || i >= len(steps) {
		return Celebration{}, false
	}
	var c Celebration
	found := false
	for _, w := range steps[i].Wins {
		if w.Kind == engine.WinJackpot && w.Jackpot != engine.NoJackpot && (!found || w.Jackpot > c.Tier) {
			c, found = Celebration{Tier: w.Jackpot, Amount: w.Amount}, true
		}
	}
	if !found && progressive > 0 && i == len(steps)-1 {
		c, found = Celebration{Tier: engine.NoJackpot, Amount: progressive}, true
	}
	return c, found
}

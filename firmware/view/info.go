package view

import (
	"github.com/polaris-vlt/polaris/engine"
	// The pages follow the game's engine.Layout: the games must be
	// registered wherever the pages are listed.
	_ "github.com/polaris-vlt/polaris/engine/games"
)

// InfoPage names one page of the player's information screens; the
// display draws each from the snapshot alone.
type InfoPage string

// The pages. Both games share the RTP and responsible-gaming pages.
const (
	InfoPayTable    InfoPage = "paytable"    // every win in the current bet's money
	InfoWays        InfoPage = "ways"        // WS: 243 ways, wild, bonus wins
	InfoFreeSpins   InfoPage = "free_spins"  // WS-5, WS-6 / MS-11..MS-13, and the 50-spin decision
	InfoLockSpin    InfoPage = "lock_spin"   // WS-7..WS-10: Lock & Spin and its jackpots
	InfoLines       InfoPage = "lines"       // MS: the five lines drawn
	InfoRisk        InfoPage = "risk"        // MS-9, MS-10 and the decisions' exclusions
	InfoJackpot     InfoPage = "jackpot"     // MS-16..MS-18: the progressive jackpot
	InfoRTP         InfoPage = "rtp"         // the RTP at the bet, maximum win (check 35)
	InfoResponsible InfoPage = "responsible" // 18+, helpline, gambling can be addictive
)

// InfoPages lists a game's information pages in the order the player
// pages through them: a page for each feature its engine.Layout states.
// An unknown game has the shared pages only.
func InfoPages(g engine.GameID) []InfoPage {
	l, _ := engine.LayoutOf(g)
	pages := []InfoPage{InfoPayTable}
	switch {
	case l.LineGame():
		pages = append(pages, InfoLines)
	case l.Ways > 0:
		pages = append(pages, InfoWays)
	}
	if l.FreeSpins {
		pages = append(pages, InfoFreeSpins)
	}
	if l.LockSpin {
		pages = append(pages, InfoLockSpin)
	}
	if l.Risk {
		pages = append(pages, InfoRisk)
	}
	if l.Jackpot == engine.ProgressiveJackpot {
		pages = append(pages, InfoJackpot)
	}
	return append(pages, InfoRTP, InfoResponsible)
}

// AllInfoPages lists every page of every game (for the catalogue check).
func AllInfoPages() []InfoPage {
	return []InfoPage{InfoPayTable, InfoWays, InfoFreeSpins, InfoLockSpin, InfoLines, InfoRisk, InfoJackpot, InfoRTP, InfoResponsible}
}

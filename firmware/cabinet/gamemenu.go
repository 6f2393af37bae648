package cabinet

import (
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// The player's game menu: Risk in idle (it has nothing to gamble there)
// opens it where the market offers more than one game or more than one
// language. Bet+/Bet− move the cursor, Start takes the game or steps the
// language, Stop leaves. A game is chosen from idle only and the credit
// stays; the language holds until the player's session ends (the card
// out), or, in play without a card, until it is changed again.

const menuGames = "menu.games"

// playerMenu is the game menu's cursor and the player's language.
type playerMenu struct {
	cursor int
	lang   string // "" : the market's
	// langGen is the card (playerState.gen) the language was chosen
	// with, when a player session was open; another card, or none,
	// ends the choice.
	langGen     uint64
	langSession bool
}

// gameMenuOffered: the market gives the player something to choose.
func gameMenuOffered(m *market.Profile) bool {
	return len(m.Games) > 1 || len(m.PlayerLanguages()) > 1
}

// openGameMenu opens the game menu from idle.
func (c *Cabinet) openGameMenu() {
	if !gameMenuOffered(c.cfg.Market) || c.play.round != nil || c.cashOut.voucher != nil || c.conditions().frozen() {
		return
	}
	c.gameMenu.open(c.cfg.Market, c.play.game)
	c.menus.show(c.gameMenu.page(c.cfg.Market, c.language()))
}

// open puts the cursor on game.
func (pm *playerMenu) open(m *market.Profile, game engine.GameID) {
	pm.cursor = 0
	for i, g := range m.Games {
		if g.ID == game {
			pm.cursor = i
		}
	}
}

// page is the game menu of market m, the screen in lang.
func (pm *playerMenu) page(m *market.Profile, lang string) *view.MenuPage {
	p := &view.MenuPage{Title: menuGames, Page: 1, Pages: 1}
	row := 0
	line := func(key string, args ...view.Arg) {
		if row == pm.cursor {
			key += "_on"
		}
		p.Lines = append(p.Lines, view.Line(key, args...))
		row++
	}
	if len(m.Games) > 1 {
		for _, g := range m.Games {
			line("menu.games.game", view.Key("game."+string(g.ID)))
		}
	}
	if langs := m.PlayerLanguages(); len(langs) > 1 {
		line("menu.games.language", view.Key("language."+lang))
	}
	p.Lines = append(p.Lines, view.Line("menu.games.credit")) // the buttons are the footer's (menu.games.help)
	return p
}

// gameMenuRows is how many rows the cursor moves over.
func gameMenuRows(m *market.Profile) int {
	n := 0
	if len(m.Games) > 1 {
		n = len(m.Games)
	}
	if len(m.PlayerLanguages()) > 1 {
		n++
	}
	return n
}

// gameMenuPress handles the game menu's buttons.
func (c *Cabinet) gameMenuPress(b view.Button) {
	m := c.cfg.Market
	switch b {
	case view.BetPlus, view.BetMinus:
		c.gameMenu.move(b == view.BetPlus, gameMenuRows(m))
	case view.Stop, view.Risk:
		c.menus.close()
		return
	case view.Start:
		if games := m.Games; len(games) > 1 && c.gameMenu.cursor < len(games) {
			// The game is taken and the menu left; the credit stays.
			c.menus.close()
			if id := games[c.gameMenu.cursor].ID; id != c.play.game {
				c.selectGame(id)
				c.logEvent("game_chosen", "player", string(id), 0)
			}
			return
		}
		c.gameMenu.nextLanguage(m, c.language(), c.player.gen, c.player.session != nil)
	default:
		return
	}
	c.menus.show(c.gameMenu.page(m, c.language()))
}

// move moves the cursor down (or up) over rows.
func (pm *playerMenu) move(down bool, rows int) {
	if down {
		pm.cursor = (pm.cursor + 1) % rows
	} else {
		pm.cursor = (pm.cursor + rows - 1) % rows
	}
}

// nextLanguage steps the player's language, cur now, through the market's
// list; it holds for the session of card gen if one is open.
func (pm *playerMenu) nextLanguage(m *market.Profile, cur string, gen uint64, session bool) {
	langs := m.PlayerLanguages()
	next := langs[0]
	for i, l := range langs {
		if l == cur {
			next = langs[(i+1)%len(langs)]
		}
	}
	pm.lang, pm.langGen, pm.langSession = next, gen, session
	if next == m.Language {
		pm.lang = ""
	}
}

// language is the screen's language: the player's choice while it holds,
// else the market's.
func (c *Cabinet) language() string {
	return c.gameMenu.language(c.cfg.Market, c.player.gen, c.player.session != nil)
}

// language is the player's choice while it holds (the session of card gen
// it was chosen in, if any, still open), else the market's.
func (pm *playerMenu) language(m *market.Profile, gen uint64, session bool) string {
	if pm.lang == "" {
		return m.Language
	}
	if pm.langSession && (!session || gen != pm.langGen) {
		return m.Language // the session it was chosen in ended
	}
	return pm.lang
}

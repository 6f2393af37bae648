package cabinet

import (
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
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
func (c *Cabinet) gameMenuOffered() bool {
	return len(c.cfg.Market.Games) > 1 || len(c.cfg.Market.PlayerLanguages()) > 1
}

// openGameMenu opens the game menu from idle.
func (c *Cabinet) openGameMenu() {
	if !c.gameMenuOffered() || c.play.round != nil || c.cashOut.voucher != nil || c.frozen() {
		return
	}
	c.gameMenu.cursor = 0
	for i, g := range c.cfg.Market.Games {
		if g.ID == c.play.game {
			c.gameMenu.cursor = i
		}
	}
	c.showGameMenu()
}

func (c *Cabinet) showGameMenu() {
	m := c.cfg.Market
	p := &view.MenuPage{Title: menuGames, Page: 1, Pages: 1}
	row := 0
	line := func(key string, args ...view.Arg) {
		if row == c.gameMenu.cursor {
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
		line("menu.games.language", view.Key("language."+c.language()))
	}
	p.Lines = append(p.Lines, view.Line("menu.games.credit")) // the buttons are the footer's (menu.games.help)
	c.menus.show(p)
}

// gameMenuRows is how many rows the cursor moves over.
func (c *Cabinet) gameMenuRows() int {
	n := 0
	if len(c.cfg.Market.Games) > 1 {
		n = len(c.cfg.Market.Games)
	}
	if len(c.cfg.Market.PlayerLanguages()) > 1 {
		n++
	}
	return n
}

// gameMenuPress handles the game menu's buttons.
func (c *Cabinet) gameMenuPress(b view.Button) {
	pm := &c.gameMenu
	rows := c.gameMenuRows()
	switch b {
	case view.BetPlus:
		pm.cursor = (pm.cursor + 1) % rows
	case view.BetMinus:
		pm.cursor = (pm.cursor + rows - 1) % rows
	case view.Stop, view.Risk:
		c.menus.close()
		return
	case view.Start:
		games := c.cfg.Market.Games
		if len(games) > 1 && pm.cursor < len(games) {
			c.chooseGame(games[pm.cursor].ID)
			return
		}
		c.nextLanguage()
	default:
		return
	}
	c.showGameMenu()
}

// chooseGame takes the game and leaves the menu; the credit stays.
func (c *Cabinet) chooseGame(id engine.GameID) {
	c.menus.close()
	if id != c.play.game {
		c.selectGame(id)
		c.logEvent("game_chosen", "player", string(id), 0)
	}
}

// nextLanguage steps the player's language through the market's list.
func (c *Cabinet) nextLanguage() {
	langs := c.cfg.Market.PlayerLanguages()
	cur := c.language()
	next := langs[0]
	for i, l := range langs {
		if l == cur {
			next = langs[(i+1)%len(langs)]
		}
	}
	pm := &c.gameMenu
	pm.lang, pm.langGen, pm.langSession = next, c.player.gen, c.player.session != nil
	if next == c.cfg.Market.Language {
		pm.lang = ""
	}
}

// language is the screen's language: the player's choice while it holds,
// else the market's.
func (c *Cabinet) language() string {
	pm := c.gameMenu
	if pm.lang == "" {
		return c.cfg.Market.Language
	}
	if pm.langSession && (c.player.session == nil || c.player.gen != pm.langGen) {
		return c.cfg.Market.Language // the session it was chosen in ended
	}
	return pm.lang
}

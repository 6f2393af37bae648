package render

import (
	"image"
	"strings"

	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The player's game menu (menu.games) is a player's screen, not a service
// page: a card per game with its name and its symbols, the language by
// its name, the buttons' help as a player reads it. It reads the same
// menu lines the firmware publishes (menu.games.game with the game's
// key, menu.games.language with the language's), the cursor's row keyed
// "_on".

const (
	gcardW, gcardH, gcardGap = 600, 400, 60
	gcardTop                 = 200
)

// GameMenuCard is the screen rectangle of game card i of n.
func GameMenuCard(i, n int) image.Rectangle {
	span := n*gcardW + (n-1)*gcardGap
	x := (W-span)/2 + i*(gcardW+gcardGap)
	return image.Rect(x, gcardTop, x+gcardW, gcardTop+gcardH)
}

// GameMenuLanguage is the screen rectangle of the language row.
func GameMenuLanguage() image.Rectangle { return image.Rect(W/2-420, 660, W/2+420, 770) }

// menuCardSyms are the symbols a game's card shows: the ones it is
// recognised by.
func menuCardSyms(g engine.GameID) []engine.Symbol {
	l, _ := engine.LayoutOf(g)
	return l.Top
}

func (r *Renderer) gameMenu(s *view.Snapshot) {
	lang := s.Language
	copy(r.frame.Pix, r.attract.Pix)
	r.fBig.Draw(r.frame, i18n.T(lang, "menu.games"), W/2, 50, Center, cGold)
	var games []view.MenuLine
	var language *view.MenuLine
	var rest []view.MenuLine
	for i, ln := range s.Menu.Lines {
		switch strings.TrimSuffix(ln.Key, "_on") {
		case "menu.games.game":
			games = append(games, ln)
		case "menu.games.language":
			language = &s.Menu.Lines[i]
		default:
			rest = append(rest, ln)
		}
	}
	for i, ln := range games {
		on := strings.HasSuffix(ln.Key, "_on")
		box := GameMenuCard(i, len(games))
		var g engine.GameID
		if len(ln.Args) > 0 {
			g = engine.GameID(strings.TrimPrefix(ln.Args[0].S, "game."))
		}
		r.shade(box, cShade)
		edge, width := cGoldDim, 4
		if on {
			edge, width = cGold, 12
		}
		r.border(box, width, edge)
		name := i18n.T(lang, "game."+string(g))
		f := r.fField
		if f.Width(name) > gcardW-60 {
			f = r.fBody
		}
		nameCol := cText
		if on {
			nameCol = cGold
		}
		f.Draw(r.frame, name, box.Min.X+gcardW/2, box.Min.Y+40, Center, nameCol)
		syms := menuCardSyms(g)
		x := box.Min.X + (gcardW-len(syms)*infoSymW-(len(syms)-1)*20)/2
		for _, sym := range syms {
			r.blit(r.infoSprite(g, sym), image.Pt(x, box.Min.Y+150))
			x += infoSymW + 20
		}
		if on {
			r.fBody.Draw(r.frame, i18n.T(lang, "menu.games.play"), box.Min.X+gcardW/2, box.Max.Y-80, Center, cWhite)
		}
	}
	if language != nil {
		on := strings.HasSuffix(language.Key, "_on")
		box := GameMenuLanguage()
		r.shade(box, cShade)
		edge, width := cGoldDim, 4
		if on {
			edge, width = cGold, 8
		}
		r.border(box, width, edge)
		cur := ""
		if len(language.Args) > 0 {
			cur = i18n.T(lang, language.Args[0].S)
		}
		r.fBody.Draw(r.frame, i18n.T(lang, "menu.games.language_label"), box.Min.X+40, box.Min.Y+32, Left, cDim)
		r.fField.Draw(r.frame, cur, box.Max.X-40, box.Min.Y+22, Right, cGold)
		if on {
			r.fSmall.Draw(r.frame, i18n.T(lang, "menu.games.switch"), W/2, box.Max.Y+14, Center, cWhite)
		}
	}
	y := 860
	for _, ln := range rest {
		r.buf2 = i18n.AppendLine(r.buf2[:0], lang, s.Currency, ln)
		r.fBody.DrawB(r.frame, r.buf2, W/2, y, Center, cText)
		y += 50
	}
	strip := image.Rect(0, H-90, W, H)
	r.shade(strip, cShade)
	r.fBody.Draw(r.frame, i18n.T(lang, "menu.games.help"), W/2, H-70, Center, cWhite)
}

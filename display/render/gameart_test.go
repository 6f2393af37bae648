package render

import (
	"testing"

	"github.com/polaris-vlt/polaris/display/art"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
)

// Every registered game has the art the display keeps per game id: a game
// added to the engine without it fails here, not on a cabinet's screen
// in another game's cells.
func TestEveryGameHasItsArt(t *testing.T) {
	for _, g := range engine.Games() {
		id := g.ID()
		if _, ok := cellSizes[id]; !ok {
			t.Errorf("%s: no cell size (layout.go)", id)
		}
		if _, ok := restMixes[id]; !ok {
			t.Errorf("%s: no resting screen (render.go)", id)
		}
		if _, ok := payTables[id]; !ok {
			t.Errorf("%s: no pay table (info.go)", id)
		}
		if !i18n.Has(gameKeys[id]) {
			t.Errorf("%s: no name %q in every catalogue", id, gameKeys[id])
		}
		l := LayoutOf(id)
		if l.Game.Reels == 0 || l.Origin.X < 0 || l.Window().Max.X > W {
			t.Errorf("%s: window %v does not fit the screen", id, l.Window())
		}
		for _, s := range art.Symbols(id) {
			if _, ok := art.Key(id, s); !ok {
				t.Errorf("%s: symbol %s has no plate", id, art.Name(id, s))
			}
		}
	}
}

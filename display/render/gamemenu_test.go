package render

import (
	"image"
	"image/color"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// The game menu is a player's screen: a card per game, the cursor's card
// framed in gold and the others not, each with its symbols' art inside,
// on the attract backdrop rather than the service pages' flat panel.
func TestGameMenuIsAPlayerScreen(t *testing.T) {
	for _, lang := range []string{"cs", "de", "en"} {
		var s *view.Snapshot
		for _, f := range Fixtures(lang) {
			if f.Snap.Menu != nil && f.Snap.Menu.Title == "menu.games" {
				s = f.Snap
			}
		}
		if s == nil {
			t.Fatalf("%s: no game menu fixture", lang)
		}
		fr := New().Render(s, s.Now)
		gold := color.RGBA{255, 205, 40, 255}
		on, off := GameMenuCard(1, 2), GameMenuCard(0, 2) // the fixture's cursor is on the second game
		edge := func(r image.Rectangle) color.RGBA { return fr.RGBAAt(r.Min.X+2, r.Min.Y+r.Dy()/2) }
		if edge(on) != gold || edge(off) == gold {
			t.Fatalf("%s: card edges %v (cursor) and %v, want only the cursor's gold", lang, edge(on), edge(off))
		}
		for _, card := range []image.Rectangle{on, off} {
			colours := map[color.RGBA]bool{}
			for y := card.Min.Y + 150; y < card.Min.Y+150+infoSymH; y += 3 {
				for x := card.Min.X + 20; x < card.Max.X-20; x += 3 {
					colours[fr.RGBAAt(x, y)] = true
				}
			}
			if len(colours) < 50 {
				t.Fatalf("%s: card %v shows %d colours where its symbols are: no art", lang, card, len(colours))
			}
		}
		panel := color.RGBA{16, 18, 40, 255}
		if fr.RGBAAt(10, 10) == panel && fr.RGBAAt(W-10, H/2) == panel {
			t.Fatalf("%s: the game menu is drawn on the service pages' panel", lang)
		}
	}
}

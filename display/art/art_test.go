package art

import (
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
)

// Every registered game has its drawings and its backdrop.
func TestEveryGameHasItsArt(t *testing.T) {
	for _, g := range engine.Games() {
		if _, ok := drawings[g.ID()]; !ok {
			t.Errorf("%s: no drawings", g.ID())
		}
		if _, ok := backdrops[g.ID()]; !ok {
			t.Errorf("%s: no backdrop", g.ID())
		}
		if len(Symbols(g.ID())) == 0 {
			t.Errorf("%s: no symbols", g.ID())
		}
	}
}

package par

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
)

// TestCommittedSheets regenerates both PAR sheets and fails if a committed
// file differs: run `make par` after changing a model or the sheet format.
func TestCommittedSheets(t *testing.T) {
	for _, id := range []engine.GameID{engine.WishStar, engine.MagicStars} {
		s, err := Build(id, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		var txt, js bytes.Buffer
		s.Text(&txt)
		if err := s.JSON(&js); err != nil {
			t.Fatal(err)
		}
		for name, got := range map[string][]byte{string(id) + ".txt": txt.Bytes(), string(id) + ".json": js.Bytes()} {
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatalf("%v (run make par)", err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("engine/par/%s is stale (run make par): line %d is\n%s\nwant\n%s", name, i+1, wl[i], gl[i])
					}
				}
				t.Fatalf("engine/par/%s is stale (run make par): %d lines, fresh %d", name, len(wl), len(gl))
			}
		}
		if s.ModelID == "" || s.RTP <= 0.9 || s.RTP >= 0.96 || len(s.RTPByStake) != len(s.Stakes) || len(s.Components) == 0 {
			t.Fatalf("%s: sheet lacks required figures: %+v", id, s)
		}
	}
}

// TestSheetContents: every part a lab expects (slotmath §3) is present in
// the committed text sheets.
func TestSheetContents(t *testing.T) {
	common := []string{"IDENTIFICATION", "model id", "theoretical RTP", "RTP by stake", "RTP components", "hit frequency",
		"sigma per unit stake", "volatility index", "max win", "1 in ", "RTP spread", "award odds limit", "REEL STRIPS",
		"COMBINATIONS", "VERIFICATION APPENDIX", "simulation of the production Play"}
	extra := map[string][]string{
		"magicstars": {"FREE SPINS", "ROUND CAP", "RISK", "PROGRESSIVE JACKPOT", "Symbol distribution", "full screen of CHERRY"},
		"wishstar":   {"JACKPOTS", "FEATURE TABLES", "Lock & Spin", "symbol counts per reel"},
	}
	for game, want := range extra {
		b, err := os.ReadFile(game + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range append(common, want...) {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s.txt lacks %q", game, w)
			}
		}
	}
}

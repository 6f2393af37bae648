package par

import (
	"math"

	"github.com/polaris-vlt/polaris/engine"
	"os"
	"strings"
	"testing"
)

// TestSheetContents: every part a lab expects (slotmath §3) is present in
// the committed text sheets.
func TestSheetContents(t *testing.T) {
	common := []string{"IDENTIFICATION", "model id", "theoretical RTP", "RTP by stake", "RTP components", "hit frequency",
		"sigma per unit stake", "volatility index", "max win", "1 in ", "RTP spread", "award odds limit", "REEL STRIPS",
		"COMBINATIONS", "VERIFICATION APPENDIX", "simulation of the production Play", "DISTRIBUTION OF THE ROUND TOTAL",
		"win band", "P(win > stake)", "P(round >= X x stake)", "largest win with odds better than 1 in 100 000 000",
		"exposure per round by stake", "DRAWS PER ROUND", "DISCLOSURES"}
	extra := map[string][]string{
		"magicstars": {"FREE SPINS", "ROUND CAP", "RISK", "PROGRESSIVE JACKPOT", "Symbol distribution", "full screen of CHERRY",
			"P(X > cap), cut", "jackpot RTP", "game RTP + jackpot", "MS-15 (free spins)", "MS-9 (Risk exclusions)"},
		"wishstar": {"JACKPOTS", "FEATURE TABLES", "Lock & Spin", "symbol counts per reel", "D5 (free-spin bound)",
			"WS-9 (Grand)", "star cash prizes doubled"},
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

// TestJackpotMath: a pool with seed S, ceiling H and rate r returns
// r (S+H)/2 / ((H-S)/2) of every stake (the operator reseeds), a game at
// stake s hits 1 in (H-S)/2/(r s), and the total adds the game's RTP.
func TestJackpotMath(t *testing.T) {
	cfg := &JackpotConfig{Pools: []JackpotPool{{ID: "p", Seed: 20000, MustHitBy: 100000, RateBP: 100}}}
	m := jackpotMath(cfg, []engine.Money{5, 1000}, func(engine.Money) float64 { return 0.9 })
	j := m[0]
	if math.Abs(j.RTP-0.015) > 1e-15 || !(j.RTPLow < j.RTP) || math.Abs(j.Total[0].V-0.915) > 1e-15 ||
		math.Abs(j.OneIn[0].V-800000) > 1e-6 || math.Abs(j.OneIn[1].V-4000) > 1e-9 {
		t.Fatalf("%+v", j)
	}
}

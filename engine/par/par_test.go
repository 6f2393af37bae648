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

// TestLawFigures: win bands, P(win > stake), the ladder, the 1-in-1e8 win
// and the exposure of a small known distribution.
func TestLawFigures(t *testing.T) {
	l := law{x: []float64{0, 0.5, 1, 3, 150, 600}, p: []float64{0.5, 0.2, 0.1, 0.15, 0.05 - 2e-8, 2e-8}, mean: 0.1 + 0.1 + 0.45 + 150*(0.05-2e-8) + 600*2e-8}
	o := l.build("test")
	sumP, sumR := 0.0, 0.0
	for _, b := range o.Bands {
		sumP += b.P
		sumR += b.RTP
	}
	if math.Abs(sumP-1) > 1e-15 || math.Abs(sumR-l.mean) > 1e-12 || o.Bands[0].P != 0.5 || math.Abs(o.Bands[1].P-0.3) > 1e-15 {
		t.Fatalf("bands %+v", o.Bands)
	}
	if math.Abs(o.PWinAboveStake-0.2) > 1e-15 || math.Abs(o.Ladder[0].P-0.3) > 1e-15 || math.Abs(o.Ladder[6].P-0.05) > 1e-15 {
		t.Fatalf("P(win > stake) %g, ladder %+v", o.PWinAboveStake, o.Ladder)
	}
	if o.LargestWin1e8 != 600 || !o.Ladder[len(o.Ladder)-1].Bound {
		t.Fatalf("1e8 win %g, ladder %+v", o.LargestWin1e8, o.Ladder)
	}
	l.p[5], l.p[4] = 5e-9, 0.05-5e-9 // 600x now rarer than 1 in 1e8
	if o := l.build("test"); o.LargestWin1e8 != 150 {
		t.Fatalf("1e8 win %g, want 150", o.LargestWin1e8)
	}
	o.exposure([]engine.Money{100}, func(engine.Money) engine.Money { return 50000 }, func(m engine.Money) int64 { return int64(m) / 25 })
	if e := o.Exposure[0]; e.Max != 50000 || e.Odds1e8 != 50000 || e.MaxEUR != 2000 {
		t.Fatalf("exposure %+v (600x at 100 is capped by the 50000 maximum)", e)
	}
}

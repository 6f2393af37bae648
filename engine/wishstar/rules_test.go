package wishstar

import (
	"errors"
	"slices"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

func eval(t *testing.T, s engine.Screen, stake engine.Money, free bool) *Evaluation {
	t.Helper()
	ev, err := Evaluate(s, stake, free)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// The pay table of GAME_RULES.md, factor x total stake, in 1/25 units.
var rulePays = map[string][3]int64{
	"10": {5, 15, 50}, "J": {5, 15, 50}, "Q": {5, 15, 50}, "K": {5, 15, 50}, "A": {5, 15, 50},
	"BELL": {10, 30, 75}, "CANE": {20, 40, 80}, "CANDLE": {25, 50, 80}, "TREE": {25, 50, 100}, "ELF": {25, 75, 200},
}

// TestWSPayTable: the model's pays are the rule sheet's (0.2/0.6/2 ... Elf 1/3/8, Bonus 1).
func TestWSPayTable(t *testing.T) {
	m := Default.Model()
	for name, p := range rulePays {
		if m.Pays[name] != p {
			t.Errorf("%s pays %v, rule sheet %v", name, m.Pays[name], p)
		}
	}
	if m.ScatterPay != Unit {
		t.Errorf("scatter pay %d units, rule sheet 1x = %d", m.ScatterPay, Unit)
	}
	// Elf 5 of a kind on one way at EUR 25: 8 x 2500 = 20000 cents.
	s := sc(t, [3]string{"ELF", "10", "J"}, [3]string{"ELF", "Q", "K"}, [3]string{"ELF", "A", "J"}, [3]string{"ELF", "10", "Q"}, [3]string{"ELF", "J", "K"})
	if ev := eval(t, s, 2500, false); ev.Total != 20000 {
		t.Errorf("Elf x5 at 2500 pays %d, want 20000", ev.Total)
	}
}

// TestWS1WaysLeftToRightAnyRow: 3, 4, 5 on adjacent reels from reel 1, any
// row; ways multiply; a symbol missing on reel 1 pays nothing.
func TestWS1WaysLeftToRightAnyRow(t *testing.T) {
	s := sc(t, [3]string{"10", "J", "Q"}, [3]string{"K", "10", "10"}, [3]string{"A", "BELL", "10"}, [3]string{"J", "Q", "K"}, [3]string{"10", "A", "J"})
	ev := eval(t, s, 100, false)
	want := []engine.Win{{Kind: engine.WinWays, Symbol: Ten, Count: 3, Ways: 2, Amount: 2 * 20}}
	if !slices.Equal(ev.Wins, want) || ev.Total != 40 {
		t.Fatalf("wins %+v total %d, want %+v", ev.Wins, ev.Total, want)
	}
	// 5 of a kind: 1*1*1*2*1 ways x 2 x stake.
	s = sc(t, [3]string{"CANE", "J", "Q"}, [3]string{"K", "CANE", "J"}, [3]string{"A", "BELL", "CANE"}, [3]string{"CANE", "Q", "CANE"}, [3]string{"10", "CANE", "Q"})
	ev = eval(t, s, 100, false)
	if len(ev.Wins) != 1 || ev.Wins[0].Count != 5 || ev.Wins[0].Ways != 2 || ev.Wins[0].Amount != 2*320 {
		t.Fatalf("5 canes: %+v", ev.Wins)
	}
	// Not from reel 1: TREE on reels 2..5 pays nothing.
	s = sc(t, [3]string{"10", "J", "Q"}, [3]string{"TREE", "K", "A"}, [3]string{"TREE", "K", "A"}, [3]string{"TREE", "BELL", "A"}, [3]string{"TREE", "BELL", "CANE"})
	ev = eval(t, s, 100, false)
	for _, w := range ev.Wins {
		if w.Symbol == Tree {
			t.Fatalf("a combination not starting on reel 1 paid: %+v", w)
		}
	}
	// Not adjacent: reels 1, 2, 4, 5 only.
	s = sc(t, [3]string{"ELF", "J", "Q"}, [3]string{"ELF", "K", "A"}, [3]string{"10", "K", "A"}, [3]string{"ELF", "BELL", "A"}, [3]string{"ELF", "BELL", "CANE"})
	if ev := eval(t, s, 100, false); ev.Total != 0 {
		t.Fatalf("a gap paid: %+v", ev.Wins)
	}
}

// TestWS2HighestWinPerWay: a way paying 4 of a kind pays only that, not 3 as well.
func TestWS2HighestWinPerWay(t *testing.T) {
	s := sc(t, [3]string{"K", "J", "Q"}, [3]string{"K", "10", "A"}, [3]string{"K", "BELL", "10"}, [3]string{"K", "Q", "J"}, [3]string{"10", "A", "J"})
	ev := eval(t, s, 100, false)
	want := []engine.Win{{Kind: engine.WinWays, Symbol: K, Count: 4, Ways: 1, Amount: 60}}
	if !slices.Equal(ev.Wins, want) {
		t.Fatalf("wins %+v, want only %+v", ev.Wins, want)
	}
}

// TestWS3WildReels2And4Only: wilds substitute for paying symbols on reels 2
// and 4, never for Star or Bonus, and cannot stand on reels 1, 3, 5.
func TestWS3WildReels2And4Only(t *testing.T) {
	s := sc(t, [3]string{"TREE", "STAR", "BONUS"}, [3]string{"WILD", "J", "K"}, [3]string{"TREE", "STAR", "BONUS"}, [3]string{"WILD", "STAR", "K"}, [3]string{"TREE", "STAR", "BONUS"})
	ev := eval(t, s, 100, false)
	// TREE 5 of a kind through the wilds, 1 way: 4 x 100.
	want := []engine.Win{{Kind: engine.WinWays, Symbol: Tree, Count: 5, Ways: 1, Amount: 400},
		{Kind: engine.WinScatter, Symbol: Bonus, Count: 3, Amount: 100}}
	if !slices.Equal(ev.Wins, want) {
		t.Fatalf("wins %+v, want %+v", ev.Wins, want)
	}
	// Stars: 4 on screen, wilds do not make them 6 or pay them.
	if ev.Triggers.LockAndSpin {
		t.Fatal("wilds counted as stars")
	}
	s = sc(t, [3]string{"STAR", "J", "BONUS"}, [3]string{"WILD", "WILD", "K"}, [3]string{"STAR", "STAR", "Q"}, [3]string{"WILD", "STAR", "A"}, [3]string{"STAR", "10", "K"})
	ev = eval(t, s, 100, false)
	if ev.Total != 0 || ev.Triggers.LockAndSpin || ev.Triggers.FreeSpins {
		t.Fatalf("wild stood for Star or Bonus: %+v", ev)
	}
	for _, bad := range [][][]string{
		{{"WILD", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "Q"}},
		{{"K", "J", "Q"}, {"K", "J", "Q"}, {"WILD", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "Q"}},
		{{"K", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "WILD"}},
	} {
		var se *ScreenError
		if _, err := ParseScreen(bad); !errors.As(err, &se) {
			t.Errorf("wild off reels 2/4 accepted: %v", err)
		}
	}
	// And the strips never put one there.
	for _, set := range []*reelSet{&Default.c.base, &Default.c.free} {
		for r, strip := range set.strips {
			if (r == 0 || r == 2 || r == 4) && slices.Contains(strip, Wild) {
				t.Errorf("wild on reel %d", r+1)
			}
		}
	}
}

// TestWS4FullWildReelsTriggerBonusWins: a whole reel of wilds on reel 2 or 4
// is one bonus win; both reels, two.
func TestWS4FullWildReelsTriggerBonusWins(t *testing.T) {
	w := [3]string{"WILD", "WILD", "WILD"}
	for _, c := range []struct {
		r2, r4 [3]string
		want   int
	}{
		{w, [3]string{"J", "WILD", "WILD"}, 1},
		{[3]string{"WILD", "WILD", "J"}, w, 1},
		{w, w, 2},
		{[3]string{"WILD", "Q", "WILD"}, [3]string{"WILD", "WILD", "A"}, 0},
	} {
		s := sc(t, [3]string{"10", "J", "Q"}, c.r2, [3]string{"K", "A", "BELL"}, c.r4, [3]string{"CANE", "ELF", "TREE"})
		if got := eval(t, s, 50, false).Triggers.BonusWins; got != c.want {
			t.Errorf("%v/%v: %d bonus wins, want %d", c.r2, c.r4, got, c.want)
		}
	}
}

// TestWS5ThreeBonusScatter: three Bonus symbols anywhere (reels 1, 3, 5)
// pay 1x and award free spins; two do nothing; Bonus only on reels 1, 3, 5.
func TestWS5ThreeBonusScatter(t *testing.T) {
	s := sc(t, [3]string{"10", "J", "BONUS"}, [3]string{"K", "A", "Q"}, [3]string{"BONUS", "A", "BELL"}, [3]string{"CANE", "ELF", "Q"}, [3]string{"CANE", "BONUS", "TREE"})
	ev := eval(t, s, 200, false)
	if !ev.Triggers.FreeSpins || ev.Total != 200 {
		t.Fatalf("3 Bonus: %+v", ev)
	}
	s[4][1] = J
	if ev := eval(t, s, 200, false); ev.Triggers.FreeSpins || ev.Total != 0 {
		t.Fatalf("2 Bonus: %+v", ev)
	}
	var se *ScreenError
	if _, err := ParseScreen([][]string{{"K", "J", "Q"}, {"BONUS", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "Q"}, {"K", "J", "Q"}}); !errors.As(err, &se) {
		t.Errorf("Bonus on reel 2 accepted: %v", err)
	}
}

// TestWS6FreeSpinEvaluationDoubled: in a free spin every pay-table win is doubled.
func TestWS6FreeSpinEvaluationDoubled(t *testing.T) {
	s := sc(t, [3]string{"ELF", "J", "BONUS"}, [3]string{"ELF", "WILD", "Q"}, [3]string{"BONUS", "ELF", "BELL"}, [3]string{"CANE", "ELF", "Q"}, [3]string{"CANE", "BONUS", "TREE"})
	base, free := eval(t, s, 100, false), eval(t, s, 100, true)
	if base.Total == 0 || free.Total != 2*base.Total || free.Multiplier != 2 || base.Multiplier != 1 {
		t.Fatalf("base %+v free %+v", base, free)
	}
	for i := range base.Wins {
		if free.Wins[i].Amount != 2*base.Wins[i].Amount {
			t.Errorf("win %d not doubled: %+v vs %+v", i, free.Wins[i], base.Wins[i])
		}
	}
}

// TestWS7SixStarsStartLockAndSpin: six or more Stars anywhere, five do not.
func TestWS7SixStarsStartLockAndSpin(t *testing.T) {
	s := sc(t, [3]string{"STAR", "STAR", "Q"}, [3]string{"K", "STAR", "Q"}, [3]string{"STAR", "A", "BELL"}, [3]string{"CANE", "STAR", "Q"}, [3]string{"CANE", "STAR", "TREE"})
	if tr := eval(t, s, 100, false).Triggers; !tr.LockAndSpin || tr.StarCashMultiplier != 1 {
		t.Fatalf("6 stars: %+v", tr)
	}
	// WS-6 decision: started in a free spin, its star cash is doubled.
	if tr := eval(t, s, 100, true).Triggers; !tr.LockAndSpin || tr.StarCashMultiplier != 2 {
		t.Fatalf("6 stars in a free spin: %+v", tr)
	}
	if V1.c.freeCash != 1 {
		t.Fatalf("retired model 1 doubles star cash: %d", V1.c.freeCash)
	}
	s[4][1] = J
	if tr := eval(t, s, 100, true).Triggers; tr.LockAndSpin || tr.StarCashMultiplier != 0 {
		t.Fatalf("5 stars triggered: %+v", tr)
	}
}

// TestWS12StakeLadder: EUR 0.25 .. 25.00 on the decided ladder; any other
// stake is a *StakeError and draws nothing.
func TestWS12StakeLadder(t *testing.T) {
	want := []engine.Money{25, 50, 100, 200, 500, 1000, 2500}
	if got := Default.Stakes(); !slices.Equal(got, want) {
		t.Fatalf("ladder %v, want %v", got, want)
	}
	for _, s := range []engine.Money{0, -25, 1, 24, 26, 75, 250, 2501, 5000} {
		rec := &engine.Recorder{Src: draw.NewSeeded(1, 1)}
		err := Default.Play(rec, s, new(engine.Round))
		var se *engine.StakeError
		if !errors.As(err, &se) || se.Stake != s || len(rec.Tape) != 0 {
			t.Errorf("stake %d: err %v, %d draws", s, err, len(rec.Tape))
		}
		if _, err := Evaluate(engine.Screen{}, s, false); !errors.As(err, &se) {
			t.Errorf("Evaluate at stake %d: %v", s, err)
		}
	}
	for _, s := range want {
		if _, _, err := engine.Play(Default, draw.NewSeeded(2, 2), s); err != nil {
			t.Errorf("stake %d refused: %v", s, err)
		}
	}
}

package magicstars

import (
	"errors"
	"slices"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
)

// noDraws fails the test if the game draws anything.
type noDraws struct{ t *testing.T }

func (s noDraws) Intn(n int) int { s.t.Fatalf("drew from range %d", n); return 0 }

func cells(names ...string) [3][3]Cell {
	// names are given row by row (top, middle, bottom), 3 per row.
	var sc [3][3]Cell
	for i, n := range names {
		sym, star, err := ParseCell(n)
		if err != nil {
			panic(err)
		}
		sc[i%3][i/3] = Cell{Sym: sym, Star: star}
	}
	return sc
}

func cycle() int { return len(Default.strips[0]) * len(Default.strips[1]) * len(Default.strips[2]) }

// tuple returns the first stop tuple (as the spin draw) whose screen
// satisfies pred, found from the strips, not from Play's tables.
func tuple(t *testing.T, pred func(sc [3][3]Cell) bool) engine.Draw {
	t.Helper()
	st := Default.strips
	for a := range st[0] {
		for b := range st[1] {
			for c := range st[2] {
				sc := [3][3]Cell{Window(st[0], a), Window(st[1], b), Window(st[2], c)}
				if pred(sc) {
					return engine.Draw{Value: uint32((a*len(st[1])+b)*len(st[2]) + c), Range: uint32(cycle())}
				}
			}
		}
	}
	t.Fatal("no tuple satisfies the predicate")
	return engine.Draw{}
}

func evalAt(sc [3][3]Cell, stake engine.Money) Evaluation {
	ev, err := Evaluate(sc, stake)
	if err != nil {
		panic(err)
	}
	return ev
}

var (
	trigNoWin = func(sc [3][3]Cell) bool { ev := evalAt(sc, 5); return ev.FreeSpins && ev.Pay == 0 }
	noWin     = func(sc [3][3]Cell) bool { ev := evalAt(sc, 5); return !ev.FreeSpins && ev.Pay == 0 }
	starLine  = func(sc [3][3]Cell) bool {
		ev := evalAt(sc, 5)
		return !ev.FreeSpins && len(ev.Wins) == 1 && ev.Wins[0].Symbol == Star
	}
)

// countDraw returns a count draw giving n free spins.
func countDraw(t *testing.T, n int) engine.Draw {
	for v, c := range Default.fsTable {
		if int(c) == n {
			return engine.Draw{Value: uint32(v), Range: uint32(len(Default.fsTable))}
		}
	}
	t.Fatalf("no draw gives %d", n)
	return engine.Draw{}
}

func replay(t *testing.T, stake engine.Money, tape engine.Tape) *engine.Round {
	t.Helper()
	tr := engine.NewTapeReader(tape)
	var r engine.Round
	if err := Default.Play(tr, stake, &r); err != nil {
		t.Fatal(err)
	}
	if err := tr.Err(); err != nil {
		t.Fatal(err)
	}
	return &r
}

func TestMS1FiveFixedLines(t *testing.T) {
	want := []engine.Line{{1, 1, 1}, {0, 0, 0}, {2, 2, 2}, {0, 1, 2}, {2, 1, 0}}
	if !slices.EqualFunc(Lines, want, slices.Equal) || LineCount != 5 {
		t.Fatalf("lines %v", Lines)
	}
	ev := evalAt(cells("GRAPE", "GRAPE", "GRAPE", "GRAPE", "GRAPE", "GRAPE", "GRAPE", "GRAPE", "GRAPE"), 5)
	var got []int
	for _, w := range ev.Wins {
		got = append(got, w.Line)
	}
	if !slices.Equal(got, []int{1, 2, 3, 4, 5}) {
		t.Fatalf("a full screen wins on lines %v, want 1..5", got)
	}
	// Each line alone: V shapes and the like are not lines.
	ev = evalAt(cells("PLUM", "GRAPE", "PLUM", "GRAPE", "PLUM", "GRAPE", "LEMON", "MELON", "CHERRY"), 5)
	if len(ev.Wins) != 0 {
		t.Fatalf("a V of plums paid %v", ev.Wins)
	}
}

func TestMS6StakeLadder(t *testing.T) {
	if !slices.Equal(Default.Stakes(), []engine.Money{5, 10, 15, 25, 50, 100, 200, 300, 500, 1000}) || DefaultStake != 5 {
		t.Fatalf("ladder %v default %d", Default.Stakes(), DefaultStake)
	}
	for _, bad := range []engine.Money{0, -5, 1, 4, 6, 20, 1001, 2000, 5000} {
		var r engine.Round
		err := Default.Play(noDraws{t}, bad, &r)
		var se *engine.StakeError
		if !errors.As(err, &se) || se.Stake != bad {
			t.Errorf("stake %d: %v", bad, err)
		}
		if _, err := Evaluate(cells("LEMON", "LEMON", "LEMON", "LEMON", "LEMON", "LEMON", "LEMON", "LEMON", "LEMON"), bad); !errors.As(err, &se) {
			t.Errorf("Evaluate stake %d: %v", bad, err)
		}
	}
}

// capTape: a triggering spin, 25 free spins of which five pay a Star line.
func capTape(t *testing.T) engine.Tape {
	tape := engine.Tape{tuple(t, trigNoWin), countDraw(t, 25)}
	star, none := tuple(t, starLine), tuple(t, noWin)
	for i := range 25 {
		if i < 5 {
			tape = append(tape, star)
		} else {
			tape = append(tape, none)
		}
	}
	return tape
}

func TestMS7RoundCap(t *testing.T) {
	tape := capTape(t)
	r := replay(t, 1000, tape)
	var sum engine.Money
	for _, s := range r.Steps {
		sum += s.Pay
	}
	if sum != 5*500*200 || r.Total != RoundCap || r.Capped {
		t.Fatalf("steps pay %d, total %d capped %v; want exactly the cap, not cut", sum, r.Total, r.Capped)
	}
	// 5 Star lines at 1000 CZK are exactly the cap plus nothing: add one more.
	tape[len(tape)-1] = tuple(t, starLine)
	r = replay(t, 1000, tape)
	if r.Total != RoundCap || !r.Capped {
		t.Fatalf("600000 won, total %d capped %v", r.Total, r.Capped)
	}
	r = replay(t, 5, tape)
	if r.Total != 6*500 || r.Capped {
		t.Fatalf("at 5 CZK: total %d capped %v, want 3000 uncapped", r.Total, r.Capped)
	}
}

func TestMS8LeftToRightLinesAdded(t *testing.T) {
	// Reels 2 and 3 match on the middle line, reel 1 does not: no win.
	ev := evalAt(cells("LEMON", "CHERRY", "PLUM", "GRAPE", "MELON", "MELON", "ORANGE", "PLUM", "LEMON"), 100)
	if len(ev.Wins) != 0 {
		t.Fatalf("right-to-left paid: %v", ev.Wins)
	}
	// Top row plums (16) and middle row melons (80) at line bet 20: 1920.
	ev = evalAt(cells("PLUM", "PLUM", "PLUM", "MELON", "MELON", "MELON", "ORANGE", "LEMON", "CHERRY"), 100)
	if ev.Pay != (16+80)*20 || len(ev.Wins) != 2 {
		t.Fatalf("two lines paid %d %v", ev.Pay, ev.Wins)
	}
}

func TestMS11StarsAnywhereOnEachReel(t *testing.T) {
	// Stars on different rows, none on a line together: still a trigger.
	ev := evalAt(cells("LEMON*", "PLUM", "GRAPE", "MELON", "PLUM", "CHERRY*", "GRAPE", "ORANGE*", "LEMON"), 5)
	if !ev.FreeSpins {
		t.Fatal("a star on every reel did not trigger")
	}
	ev = evalAt(cells("LEMON*", "PLUM*", "GRAPE", "MELON", "PLUM*", "CHERRY", "GRAPE", "ORANGE", "LEMON"), 5)
	if ev.FreeSpins {
		t.Fatal("reel 3 without a star triggered")
	}
	// Through Play: a triggering tuple awards free spins, others do not.
	r := replay(t, 5, append(engine.Tape{tuple(t, trigNoWin), countDraw(t, 15)}, slices.Repeat(engine.Tape{tuple(t, noWin)}, 15)...))
	if r.Steps[0].FreeSpinsWon != 15 || len(r.Steps) != 16 {
		t.Fatalf("won %d free spins in %d steps", r.Steps[0].FreeSpinsWon, len(r.Steps))
	}
}

func TestMS12FreeSpinsAtBetAccumulate(t *testing.T) {
	for _, stake := range Default.Stakes() {
		tape := engine.Tape{tuple(t, trigNoWin), countDraw(t, 15)}
		for i := range 15 {
			if i%5 == 0 {
				tape = append(tape, tuple(t, starLine))
			} else {
				tape = append(tape, tuple(t, noWin))
			}
		}
		r := replay(t, stake, tape)
		var sum engine.Money
		for i, s := range r.Steps {
			if (i == 0) != (s.Kind == engine.StepBase) {
				t.Fatalf("step %d kind %d", i, s.Kind)
			}
			sum += s.Pay
		}
		if r.Steps[1].Pay != 500*stake/5 || sum != 3*500*stake/5 || r.Total != min(sum, RoundCap) {
			t.Fatalf("stake %d: free spin pays %d, total %d (sum %d)", stake, r.Steps[1].Pay, r.Total, sum)
		}
	}
}

func TestMS13CountDrawWeightsAndRetrigger(t *testing.T) {
	// The count draw's range and mapping are fixed by the weights alone.
	var cum []int32
	for _, f := range Default.model.FreeSpins {
		for range f.Weight {
			cum = append(cum, int32(f.Count))
		}
	}
	if !slices.Equal(cum, Default.fsTable) {
		t.Fatal("count table differs from the weights")
	}
	for _, stake := range []engine.Money{5, 1000} {
		for _, c := range []int{15, 20, 25} {
			tape := engine.Tape{tuple(t, trigNoWin), countDraw(t, c)}
			tape = append(tape, slices.Repeat(engine.Tape{tuple(t, noWin)}, c)...)
			if r := replay(t, stake, tape); r.Steps[0].FreeSpinsWon != c || len(r.Steps) != c+1 {
				t.Fatalf("stake %d count %d: %d steps", stake, c, len(r.Steps))
			}
		}
	}
	// A retrigger on the 3rd free spin adds 20 to the 12 left.
	tape := engine.Tape{tuple(t, trigNoWin), countDraw(t, 15), tuple(t, noWin), tuple(t, noWin), tuple(t, trigNoWin), countDraw(t, 20)}
	tape = append(tape, slices.Repeat(engine.Tape{tuple(t, noWin)}, 32)...)
	r := replay(t, 5, tape)
	if s := r.Steps[3]; s.FreeSpinsWon != 20 || s.FreeSpinsLeft != 32 || len(r.Steps) != 36 {
		t.Fatalf("retrigger: won %d left %d steps %d", s.FreeSpinsWon, s.FreeSpinsLeft, len(r.Steps))
	}
}

func TestMS14PayTable(t *testing.T) {
	want := map[string]engine.Money{"STAR": 500, "MELON": 80, "GRAPE": 40, "PLUM": 16, "ORANGE": 8, "RASPBERRY": 8, "CHERRY": 8, "LEMON": 2}
	for name, pay := range want {
		var f []string // three fillers other than name
		for _, o := range []string{"LEMON", "PLUM", "MELON", "GRAPE"} {
			if o != name {
				f = append(f, o)
			}
		}
		for _, stake := range Default.Stakes() {
			ev := evalAt(cells(f[0], f[1], f[2], name, name+"*", name, f[2], f[0], f[1]), stake)
			if len(ev.Wins) != 1 || ev.Pay != pay*stake/5 || ev.Wins[0].Line != 1 {
				t.Fatalf("%s at %d: %v (pay %d, want %d)", name, stake, ev.Wins, ev.Pay, pay*stake/5)
			}
		}
	}
}

func TestMS15FullScreenDoubling(t *testing.T) {
	for s := Star; s <= Lemon; s++ {
		n := SymbolName(s)
		ev := evalAt(cells(n, n, n+"*", n, n, n, n+"*", n, n), 50)
		base := 5 * Pays[s] * 10
		doubled := s == Lemon || s == Cherry || s == Raspberry || s == Orange
		if doubled && (ev.Pay != 2*base || !ev.FullScreen) || !doubled && (ev.Pay != base || ev.FullScreen) {
			t.Errorf("full screen of %s: pay %d full %v (base %d)", n, ev.Pay, ev.FullScreen, base)
		}
	}
	// Eight cherries and a lemon: not a full screen.
	ev := evalAt(cells("CHERRY", "CHERRY", "CHERRY", "CHERRY", "CHERRY", "CHERRY", "CHERRY", "CHERRY", "LEMON"), 50)
	if ev.FullScreen {
		t.Fatal("eight cherries doubled")
	}
}

// TestPlayAgreesWithEvaluateOnEveryTuple replays every stop tuple of the
// cycle through Play's hot path and compares its base step with Evaluate's
// independent reading of the strips (MS-8, MS-11, MS-14, MS-15).
func TestPlayAgreesWithEvaluateOnEveryTuple(t *testing.T) {
	st := Default.strips
	n := uint32(cycle())
	var r engine.Round
	for a := range st[0] {
		for b := range st[1] {
			for c := range st[2] {
				sc := [3][3]Cell{Window(st[0], a), Window(st[1], b), Window(st[2], c)}
				ev := evalAt(sc, 1000)
				v := uint32((a*len(st[1])+b)*len(st[2]) + c)
				tr := engine.NewTapeReader(engine.Tape{{Value: v, Range: n}, {Value: 0, Range: uint32(len(Default.fsTable))}})
				_ = Default.Play(tr, 1000, &r)
				s := r.Steps[0]
				if s.Pay != ev.Pay || s.FullScreen != ev.FullScreen || (s.FreeSpinsWon > 0) != ev.FreeSpins ||
					!slices.Equal(s.Wins, ev.Wins) || s.Stops != [5]int32{int32(a), int32(b), int32(c)} {
					t.Fatalf("tuple %d %d %d: Play %+v, Evaluate %+v", a, b, c, s, ev)
				}
				for i := range 3 {
					for row := range 3 {
						if s.Screen[i][row] != sc[i][row].Sym || (s.Marked>>(3*i+row)&1 == 1) != sc[i][row].Star {
							t.Fatalf("tuple %d %d %d cell %d,%d", a, b, c, i, row)
						}
					}
				}
			}
		}
	}
}

func TestRiskMS9MS10WithinCap(t *testing.T) {
	// Risk is offered only while the doubled win stays within the cap.
	if !engine.RiskAllowed(RoundCap/2, RoundCap) || engine.RiskAllowed(RoundCap/2+1, RoundCap) || engine.RiskAllowed(0, RoundCap) {
		t.Fatal("RiskAllowed does not follow the cap")
	}
	// MS-10: red/black, one card; the win doubles on the right colour.
	red := engine.Tape{{Value: 3, Range: 52}}
	s, err := engine.PlayRisk(engine.NewTapeReader(red), 1, 1000, engine.Red, RoundCap)
	if err != nil || !s.Won || s.After != 2000 {
		t.Fatalf("red card, red choice: %+v %v", s, err)
	}
	s, _ = engine.PlayRisk(engine.NewTapeReader(red), 1, 1000, engine.Black, RoundCap)
	if s.Won || s.After != 0 {
		t.Fatalf("red card, black choice: %+v", s)
	}
	if _, err := engine.PlayRisk(noDraws{t}, 1, RoundCap, engine.Red, RoundCap); err == nil {
		t.Fatal("Risk on a win whose double exceeds the cap was allowed")
	}
}

func TestModel(t *testing.T) {
	if Default.ModelID() != ModelIDOf(ModelData()) || len(Default.ModelID()) != 64 {
		t.Fatal("model id is not the SHA-256 of the model file")
	}
	// A broken tape replays zeros: stop tuple 0 must not trigger, so such
	// a replay always ends.
	if Default.reels[0].mark[0] != 0 {
		t.Fatal("stop 0 of reel 1 shows a star-carrying cell")
	}
	for _, bad := range []string{`{}`, `{"game":"magicstars","reels":[["LEMON","LEMON","LEMON"]]}`, `not json`,
		`{"game":"magicstars","reels":[["LEMON","LEMON","KIWI"],["LEMON","LEMON","LEMON"],["LEMON","LEMON","LEMON"]],"freeSpins":[{"count":15,"weight":1},{"count":20,"weight":1},{"count":25,"weight":1}]}`,
		`{"game":"magicstars","reels":[["LEMON","LEMON","LEMON"],["LEMON","LEMON","LEMON"],["LEMON","LEMON","LEMON"]],"freeSpins":[{"count":15,"weight":1},{"count":30,"weight":1},{"count":25,"weight":1}]}`} {
		var me *ModelError
		if _, err := New([]byte(bad)); !errors.As(err, &me) {
			t.Errorf("model %.40q: %v", bad, err)
		}
	}
}

func TestRiskOfferedMS9(t *testing.T) {
	// A plain base-game win: offered.
	r := replay(t, 1000, engine.Tape{tuple(t, starLine)})
	if !RiskOffered(r) {
		t.Fatalf("base win %d not offered", r.Total)
	}
	// No win: not offered.
	if r := replay(t, 1000, engine.Tape{tuple(t, noWin)}); RiskOffered(r) {
		t.Fatal("Risk offered on nothing")
	}
	// A round with free spins (wins from the bonus game): not offered.
	tape := engine.Tape{tuple(t, trigNoWin), countDraw(t, 15), tuple(t, starLine)}
	tape = append(tape, slices.Repeat(engine.Tape{tuple(t, noWin)}, 14)...)
	if r := replay(t, 5, tape); r.Total == 0 || RiskOffered(r) {
		t.Fatalf("Risk offered after free spins (total %d)", r.Total)
	}
	// A win whose double would pass the cap: not offered.
	big := &engine.Round{Game: engine.MagicStars, Steps: []engine.Step{{Kind: engine.StepBase}}, Total: RoundCap/2 + 1}
	if RiskOffered(big) {
		t.Fatal("Risk offered beyond the cap")
	}
	big.Total = RoundCap / 2
	if !RiskOffered(big) {
		t.Fatal("Risk refused within the cap")
	}
}

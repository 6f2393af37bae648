package engine_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// coin is a tiny game for the core: one draw of range 6 per spin; a 6
// (value 5) pays the stake and spins again.
type coin struct{}

func (coin) ID() engine.GameID      { return "coin" }
func (coin) ModelID() string        { return "coin-1" }
func (coin) Stakes() []engine.Money { return []engine.Money{1, 2} }
func (c coin) Play(src engine.Source, stake engine.Money, r *engine.Round) error {
	if err := engine.CheckStake(c, stake); err != nil {
		return err
	}
	r.Reset(c, stake)
	for {
		s := r.NewStep(engine.StepBase)
		v := src.Intn(6)
		s.Stops[0] = int32(v)
		if v != 5 {
			return nil
		}
		s.Wins = append(s.Wins, engine.Win{Kind: engine.WinLine, Amount: stake})
		s.Pay = stake
		r.Total += stake
	}
}

var good = engine.Tape{{Value: 5, Range: 6}, {Value: 5, Range: 6}, {Value: 2, Range: 6}}

func recorded(t *testing.T) *engine.Round {
	r, tape, err := engine.Play(coin{}, engine.NewTapeReader(good), 2)
	if err != nil || !slices.Equal(tape, good) || r.Total != 4 || len(r.Steps) != 3 {
		t.Fatalf("play: %v %v %+v", err, tape, r)
	}
	return r
}

func TestTapeReaderErrors(t *testing.T) {
	r := recorded(t)
	if _, err := engine.Mirror(coin{}, 2, good, r); err != nil {
		t.Fatalf("good tape refused: %v", err)
	}
	for _, c := range []struct {
		name  string
		tape  engine.Tape
		prob  engine.TapeProblem
		index int
	}{
		{"short", good[:2], engine.TapeShort, 2},
		{"long", append(slices.Clone(good), engine.Draw{Value: 1, Range: 6}), engine.TapeLong, 3},
		{"range", engine.Tape{{5, 6}, {5, 7}, {2, 6}}, engine.TapeRange, 1},
		{"out of range", engine.Tape{{5, 6}, {6, 6}, {2, 6}}, engine.TapeOutOfRange, 1},
	} {
		_, err := engine.Mirror(coin{}, 2, c.tape, r)
		var te *engine.TapeError
		if !errors.As(err, &te) || te.Problem != c.prob || te.Index != c.index {
			t.Errorf("%s: %v", c.name, err)
		} else if err.Error() == "" {
			t.Errorf("%s: empty message", c.name)
		}
	}
	var se *engine.StakeError
	if _, err := engine.Mirror(coin{}, 3, good, r); !errors.As(err, &se) {
		t.Fatalf("stake off the ladder: %v", err)
	}
}

func TestCompareNamesFirstDifference(t *testing.T) {
	r := recorded(t)
	for _, c := range []struct {
		path   string
		change func(*engine.Round)
	}{
		{"Round.Total", func(x *engine.Round) { x.Total++ }},
		{"Round.Steps[1].Wins[0].Amount", func(x *engine.Round) { x.Steps[1].Wins[0].Amount = 7 }},
		{"Round.Steps[0].Stops[0]", func(x *engine.Round) { x.Steps[0].Stops[0] = 4; x.Total = 0 }},
		{"Round.Steps.len", func(x *engine.Round) { x.Steps = x.Steps[:2] }},
		{"Round.ModelID", func(x *engine.Round) { x.ModelID = "other" }},
	} {
		x := *r
		x.Steps = slices.Clone(r.Steps)
		for i := range x.Steps {
			x.Steps[i].Wins = slices.Clone(r.Steps[i].Wins)
		}
		c.change(&x)
		_, err := engine.Mirror(coin{}, 2, good, &x)
		var me *engine.MismatchError
		if !errors.As(err, &me) || me.Path != c.path {
			t.Errorf("want mismatch at %s, got %v", c.path, err)
		}
	}
	if _, err := engine.Mirror(coin{}, 2, good, nil); err == nil {
		t.Fatal("nil claim accepted")
	}
}

// chiSquare draws k values of range n and returns the statistic against
// the uniform law (n-1 degrees of freedom).
func chiSquare(src engine.Source, n, k int) float64 {
	counts := make([]int, n)
	for range k {
		counts[src.Intn(n)]++
	}
	e := float64(k) / float64(n)
	var x float64
	for _, c := range counts {
		x += (float64(c) - e) * (float64(c) - e) / e
	}
	return x
}

// TestSourcesUnbiased: chi-square on small ranges, including ranges that
// do not divide 2^64 (where a plain modulo would be biased), at the 99.9 %
// critical values.
func TestSourcesUnbiased(t *testing.T) {
	crit := map[int]float64{2: 10.83, 3: 13.82, 6: 20.52, 7: 22.46, 10: 27.88, 52: 85.35}
	for name, src := range map[string]engine.Source{"crypto": draw.NewCrypto(), "seeded": draw.NewSeeded(11, 3)} {
		for n, c := range crit {
			if x := chiSquare(src, n, 60_000); x > c {
				t.Errorf("%s range %d: chi-square %.2f > %.2f", name, n, x, c)
			}
		}
	}
	// Risk's 52-card draw: red and black even.
	src := draw.NewSeeded(5, 5)
	red := 0
	const k = 100_000
	for range k {
		if engine.Card(src.Intn(52)).Colour() == engine.Red {
			red++
		}
	}
	if z := (float64(red) - k/2) / math.Sqrt(k/4); math.Abs(z) > 3.3 {
		t.Fatalf("red %d of %d (z %.2f)", red, k, z)
	}
	// The test can fail: a biased source is caught.
	if x := chiSquare(biased{}, 6, 60_000); x < crit[6] {
		t.Fatalf("a biased source passed: %.2f", x)
	}
}

type biased struct{}

func (b biased) Intn(n int) int { return int(uint64(math.MaxUint32*uint64(n))%uint64(n+1)) % n }

func TestRiskMirror(t *testing.T) {
	rec := &engine.Recorder{Src: draw.NewSeeded(1, 1)}
	s, err := engine.PlayRisk(rec, 1, 100, engine.Black, 500_000)
	if err != nil || len(rec.Tape) != 1 || rec.Tape[0].Range != 52 {
		t.Fatalf("%+v %v %v", s, err, rec.Tape)
	}
	if err := engine.MirrorRisk(rec.Tape, s, 500_000); err != nil {
		t.Fatalf("own step refused: %v", err)
	}
	bad := s
	bad.Won, bad.After = !s.Won, 200-s.After
	var me *engine.MismatchError
	if err := engine.MirrorRisk(rec.Tape, bad, 500_000); !errors.As(err, &me) {
		t.Fatalf("flipped result accepted: %v", err)
	}
	other := engine.Tape{{Value: (rec.Tape[0].Value + 26) % 52, Range: 52}}
	if err := engine.MirrorRisk(other, s, 500_000); err == nil {
		t.Fatal("card of the other colour accepted")
	}
	var te *engine.TapeError
	if err := engine.MirrorRisk(append(slices.Clone(rec.Tape), rec.Tape[0]), s, 500_000); !errors.As(err, &te) || te.Problem != engine.TapeLong {
		t.Fatalf("long risk tape: %v", err)
	}
	var re *engine.RiskError
	if _, err := engine.PlayRisk(rec, 1, 250_001, engine.Red, 500_000); !errors.As(err, &re) {
		t.Fatalf("risk beyond the cap: %v", err)
	}
	if _, err := engine.PlayRisk(rec, 1, 10, engine.Colour(9), 500_000); !errors.As(err, &re) {
		t.Fatalf("risk on no colour: %v", err)
	}
}

func TestEvalLines(t *testing.T) {
	var s engine.Screen
	s[0] = [3]engine.Symbol{1, 2, 3}
	s[1] = [3]engine.Symbol{1, 2, 4}
	s[2] = [3]engine.Symbol{4, 2, 3}
	lines := []engine.Line{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}
	pay := func(sym engine.Symbol, n int) engine.Money {
		if n == 3 {
			return engine.Money(sym) * 10
		}
		return 0
	}
	wins, sum := engine.EvalLines(&s, lines, pay, 5, nil)
	if sum != 100 || len(wins) != 1 || wins[0].Line != 2 || wins[0].Symbol != 2 || wins[0].Count != 3 {
		t.Fatalf("%v %d", wins, sum)
	}
	if sym, n := engine.LineRun(&s, lines[0]); sym != 1 || n != 2 {
		t.Fatalf("run %d %d", sym, n)
	}
}

// FuzzTapeReader: any tape replayed through the core mirror is either
// accepted with a replay equal to the claim, or refused with a typed error;
// never a panic.
func FuzzTapeReader(f *testing.F) {
	f.Add([]byte{5, 6, 5, 6, 2, 6})
	f.Add([]byte{9, 6})
	f.Add([]byte{})
	r := &engine.Round{}
	*r = *func() *engine.Round { x, _, _ := engine.Play(coin{}, engine.NewTapeReader(good), 2); return x }()
	f.Fuzz(func(t *testing.T, b []byte) {
		var tape engine.Tape
		for i := 0; i+1 < len(b); i += 2 {
			tape = append(tape, engine.Draw{Value: uint32(b[i]), Range: uint32(b[i+1])})
		}
		got, err := engine.Mirror(coin{}, 2, tape, r)
		var te *engine.TapeError
		var me *engine.MismatchError
		switch {
		case err == nil:
			if !slices.Equal(tape, good) || got.Total != r.Total {
				t.Fatalf("tape %v accepted", tape)
			}
		case !errors.As(err, &te) && !errors.As(err, &me):
			t.Fatalf("untyped error %v", err)
		}
	})
}

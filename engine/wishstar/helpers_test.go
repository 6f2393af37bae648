package wishstar

import (
	"testing"

	"github.com/polaris-vlt/polaris/engine"
)

// script is a Source that answers the listed values in order and fails the
// test if the game asks for more or for a range a value does not fit.
type script struct {
	t    testing.TB
	vals []int
	i    int
}

func (s *script) Intn(n int) int {
	s.t.Helper()
	if s.i >= len(s.vals) {
		s.t.Fatalf("draw %d (range %d) beyond the script", s.i, n)
	}
	v := s.vals[s.i]
	if v < 0 || v >= n {
		s.t.Fatalf("draw %d: scripted %d outside range %d", s.i, v, n)
	}
	s.i++
	return v
}

func (s *script) done() {
	s.t.Helper()
	if s.i != len(s.vals) {
		s.t.Fatalf("script has %d draws left", len(s.vals)-s.i)
	}
}

func play(t testing.TB, stake engine.Money, vals ...int) *engine.Round {
	t.Helper()
	src := &script{t: t, vals: vals}
	r := new(engine.Round)
	if err := Default.Play(src, stake, r); err != nil {
		t.Fatal(err)
	}
	src.done()
	return r
}

// stop finds a stop of reel whose window satisfies ok.
func stop(t testing.TB, rs *reelSet, reel int, ok func(ri *reelInfo) bool) int {
	t.Helper()
	for i := range rs.info[reel] {
		if ok(&rs.info[reel][i]) {
			return i
		}
	}
	t.Fatalf("no stop on reel %d fits", reel+1)
	return 0
}

func plain(ri *reelInfo) bool { return ri.stars == 0 && ri.bonus == 0 && ri.pres != 1<<nPaying-1 }

// quiet returns stops that show no win and start nothing.
func quiet(t testing.TB, rs *reelSet) []int {
	t.Helper()
	s1 := stop(t, rs, 0, plain)
	p1 := rs.info[0][s1].pres
	s2 := stop(t, rs, 1, func(ri *reelInfo) bool { return plain(ri) && ri.pres&p1 == 0 })
	out := []int{s1, s2}
	for r := 2; r < 5; r++ {
		out = append(out, stop(t, rs, r, plain))
	}
	return out
}

func repeat(n int, v []int) []int {
	var out []int
	for range n {
		out = append(out, v...)
	}
	return out
}

func cat(parts ...[]int) []int {
	var out []int
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// prizeDraw is the first draw value that picks entry i of t.
func prizeDraw(t table, i int) int {
	v := 0
	for j := range i {
		v += t.prizes[j].weight
	}
	return v
}

func prizeIndex(t testing.TB, tb table, ok func(p *prize) bool) int {
	t.Helper()
	for i := range tb.prizes {
		if ok(&tb.prizes[i]) {
			return i
		}
	}
	t.Fatal("no such prize")
	return 0
}

// sc builds a screen from 5 reels of 3 symbol names.
func sc(t testing.TB, cols ...[3]string) engine.Screen {
	t.Helper()
	var in [][]string
	for _, c := range cols {
		in = append(in, c[:])
	}
	s, err := ParseScreen(in)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func kinds(r *engine.Round) []engine.StepKind {
	var k []engine.StepKind
	for _, s := range r.Steps {
		k = append(k, s.Kind)
	}
	return k
}

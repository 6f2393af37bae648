package wishstar

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// forced answers its list first, then from a seeded stream, so random
// rounds can be steered into each feature.
type forced struct {
	vals []int
	src  engine.Source
}

func (f *forced) Intn(n int) int {
	if len(f.vals) > 0 {
		v := f.vals[0]
		f.vals = f.vals[1:]
		if v < n {
			return v
		}
	}
	return f.src.Intn(n)
}

// starters are base-game stop lists that start each feature.
func starters(t testing.TB) [][]int {
	tt, ok := t.(*testing.T)
	if !ok {
		return nil
	}
	return [][]int{
		nil,
		fsStops(tt, base),
		starStops(tt, base, 6),
		{0, stop(t, base, 1, fullWild), 0, stop(t, base, 3, fullWild), 0},
	}
}

func recorded(t testing.TB, seed uint64, start []int) (*engine.Round, engine.Tape, engine.Money) {
	t.Helper()
	stake := stakes[seed%uint64(len(stakes))]
	r, tape, err := engine.Play(Default, &forced{vals: slices.Clone(start), src: draw.NewSeeded(seed, 99)}, stake)
	if err != nil {
		t.Fatal(err)
	}
	return r, tape, stake
}

// TestMirrorProperty: for random rounds (a quarter each steered into free
// spins, Lock & Spin and double bonus wins) Mirror of the recorded tape
// reproduces the round exactly; any change of one draw, of one win or of the
// total is refused, and so are short, long and out-of-range tapes.
func TestMirrorProperty(t *testing.T) {
	st := starters(t)
	rng := rand.New(rand.NewPCG(7, 7))
	features := 0
	for seed := range uint64(800) {
		r, tape, stake := recorded(t, seed, st[seed%4])
		if len(r.Steps) > 1 {
			features++
		}
		got, err := engine.Mirror(Default, stake, tape, r)
		if err != nil {
			t.Fatalf("seed %d: mirror refused its own round: %v", seed, err)
		}
		if err := engine.Compare(r, got); err != nil {
			t.Fatal(err)
		}
		// Every draw, changed to any other value of its range: refused.
		for range 3 {
			i := rng.IntN(len(tape))
			bad := slices.Clone(tape)
			bad[i].Value = (bad[i].Value + 1 + uint32(rng.IntN(int(bad[i].Range)-1))) % bad[i].Range
			if _, err := engine.Mirror(Default, stake, bad, r); err == nil {
				t.Fatalf("seed %d: draw %d changed %d -> %d was accepted", seed, i, tape[i].Value, bad[i].Value)
			}
		}
		var te *engine.TapeError
		for name, bad := range map[string]engine.Tape{
			"short":        tape[:len(tape)-1],
			"long":         append(slices.Clone(tape), engine.Draw{Value: 0, Range: 7}),
			"out of range": append(engine.Tape{{Value: tape[0].Range, Range: tape[0].Range}}, tape[1:]...),
		} {
			if _, err := engine.Mirror(Default, stake, bad, r); !errors.As(err, &te) {
				t.Fatalf("seed %d: %s tape: %v", seed, name, err)
			}
		}
		// One win or the total changed: a *MismatchError naming it.
		var me *engine.MismatchError
		claim := clone(r)
		claim.Total++
		if _, err := engine.Mirror(Default, stake, tape, claim); !errors.As(err, &me) || me.Path != "Round.Total" {
			t.Fatalf("seed %d: total changed: %v", seed, err)
		}
		for si, s := range r.Steps {
			if len(s.Wins) == 0 {
				continue
			}
			claim := clone(r)
			wi := rng.IntN(len(s.Wins))
			claim.Steps[si].Wins[wi].Amount += 1
			if _, err := engine.Mirror(Default, stake, tape, claim); !errors.As(err, &me) {
				t.Fatalf("seed %d: win changed: %v", seed, err)
			}
			break
		}
		// Another stake with the same tape: refused.
		other := stakes[(seed+1)%uint64(len(stakes))]
		if _, err := engine.Mirror(Default, other, tape, r); err == nil {
			t.Fatalf("seed %d: stake %d accepted for a round at %d", seed, other, stake)
		}
	}
	if features < 600 {
		t.Fatalf("only %d of 800 rounds had a feature", features)
	}
}

func clone(r *engine.Round) *engine.Round {
	c := *r
	c.Steps = slices.Clone(r.Steps)
	for i := range c.Steps {
		c.Steps[i].Wins = slices.Clone(r.Steps[i].Wins)
	}
	return &c
}

// FuzzMirrorWishStar: a recorded tape with fuzzed edits (changed values,
// ranges, cut or extended), or raw fuzz bytes as a whole tape, never panics
// the mirror; it is refused with a typed error or reproduces the claimed
// round exactly, and then only because it is the recorded tape itself.
func FuzzMirrorWishStar(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{})
	f.Add(uint64(2), uint8(1), []byte{3, 0, 5, 0, 0, 0})
	f.Add(uint64(3), uint8(2), []byte{9, 0, 1, 0, 0, 0, 200, 1, 0, 0, 0})
	f.Add(uint64(4), uint8(3), []byte{0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Add(uint64(5), uint8(4), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	st := [][]int{nil} // filled on the first run, where a *testing.T exists
	f.Fuzz(func(t *testing.T, seed uint64, mode uint8, edits []byte) {
		if len(st) == 1 {
			st = starters(t)
		}
		r, tape, stake := recorded(t, seed, st[int(mode)%len(st)])
		bad := slices.Clone(tape)
		if mode >= 4 {
			// Raw bytes as a tape: value and range, 4 bytes each.
			bad = nil
			for len(edits) >= 8 {
				bad = append(bad, engine.Draw{Value: binary.LittleEndian.Uint32(edits), Range: binary.LittleEndian.Uint32(edits[4:])})
				edits = edits[8:]
			}
		} else {
			for len(edits) >= 6 {
				i := int(binary.LittleEndian.Uint16(edits)) % (len(bad) + 1)
				v := binary.LittleEndian.Uint32(edits[2:])
				switch {
				case i == len(bad):
					bad = append(bad, engine.Draw{Value: v % 1000, Range: 1000})
				case v == 0xffffffff:
					bad = bad[:i]
				case v&1 == 1:
					bad[i].Range = v >> 1
				default:
					bad[i].Value = v >> 1
				}
				edits = edits[6:]
			}
		}
		got, err := engine.Mirror(Default, stake, bad, r)
		if err != nil {
			var te *engine.TapeError
			var me *engine.MismatchError
			if !errors.As(err, &te) && !errors.As(err, &me) {
				t.Fatalf("untyped refusal: %v", err)
			}
			return
		}
		if err := engine.Compare(r, got); err != nil {
			t.Fatalf("accepted but differs: %v", err)
		}
		if !slices.Equal(bad, tape) {
			t.Fatalf("an edited tape reproduced the round: %v vs %v", bad, tape)
		}
	})
}

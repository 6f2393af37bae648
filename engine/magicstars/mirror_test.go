package magicstars

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// triggering makes rounds with free spins common so that retriggers and
// count draws are exercised: every 4th round starts from a triggering tuple.
type triggering struct {
	src   engine.Source
	force engine.Draw
	first bool
}

func (s *triggering) Intn(n int) int {
	if s.first && n == int(s.force.Range) {
		s.first = false
		return int(s.force.Value)
	}
	return s.src.Intn(n)
}

func recorded(t testing.TB, seed uint64, force *engine.Draw) (*engine.Round, engine.Tape, engine.Money) {
	rng := rand.New(rand.NewPCG(seed, 7))
	stake := stakes[rng.IntN(len(stakes))]
	var src engine.Source = draw.NewSeeded(seed, 1)
	if force != nil {
		src = &triggering{src: src, force: *force, first: true}
	}
	r, tape, err := engine.Play(Default, src, stake)
	if err != nil {
		t.Fatal(err)
	}
	return r, tape, stake
}

// TestMirrorProperty: for random rounds, Mirror of the recorded tape
// reproduces the round exactly; any change of one draw, one win or the
// total is refused.
func TestMirrorProperty(t *testing.T) {
	trig := tuple(t, trigNoWin)
	rng := rand.New(rand.NewPCG(42, 42))
	for seed := range uint64(600) {
		var force *engine.Draw
		if seed%4 == 0 {
			force = &trig
		}
		r, tape, stake := recorded(t, seed, force)
		got, err := engine.Mirror(Default, stake, tape, r)
		if err != nil {
			t.Fatalf("seed %d: mirror refused its own round: %v", seed, err)
		}
		if err := engine.Compare(r, got); err != nil {
			t.Fatal(err)
		}
		// One draw changed (to another in-range value): refused.
		i := rng.IntN(len(tape))
		bad := slices.Clone(tape)
		bad[i].Value = (bad[i].Value + 1 + uint32(rng.IntN(int(bad[i].Range)-1))) % bad[i].Range
		if _, err := engine.Mirror(Default, stake, bad, r); err == nil {
			t.Fatalf("seed %d: draw %d changed %d -> %d was accepted", seed, i, tape[i].Value, bad[i].Value)
		}
		// One draw out of range, one dropped, one added: typed tape errors.
		for _, bad := range []engine.Tape{
			append(slices.Clone(tape[:i]), append(engine.Tape{{Value: tape[i].Range, Range: tape[i].Range}}, tape[i+1:]...)...),
			tape[:len(tape)-1],
			append(slices.Clone(tape), engine.Draw{Value: 0, Range: 2}),
		} {
			var te *engine.TapeError
			var me *engine.MismatchError
			if _, err := engine.Mirror(Default, stake, bad, r); !errors.As(err, &te) && !errors.As(err, &me) {
				t.Fatalf("seed %d: broken tape gave %v", seed, err)
			}
		}
		// The claimed total or one win changed: refused naming the field.
		c := *r
		c.Total++
		var me *engine.MismatchError
		if _, err := engine.Mirror(Default, stake, tape, &c); !errors.As(err, &me) || me.Path != "Round.Total" {
			t.Fatalf("seed %d: changed total: %v", seed, err)
		}
		for si, s := range r.Steps {
			if len(s.Wins) > 0 {
				c := *r
				c.Steps = slices.Clone(r.Steps)
				c.Steps[si].Wins = slices.Clone(s.Wins)
				c.Steps[si].Wins[0].Amount *= 2
				if _, err := engine.Mirror(Default, stake, tape, &c); !errors.As(err, &me) {
					t.Fatalf("seed %d: changed win accepted: %v", seed, err)
				}
				break
			}
		}
	}
}

// FuzzMirrorMagicStars: a recorded round and a mutated tape. Mirror must
// never panic, must accept exactly the recorded tape, and must refuse every
// other one with a typed error.
func FuzzMirrorMagicStars(f *testing.F) {
	f.Add(uint64(1), uint16(0), uint32(5), uint32(32768), []byte{})
	f.Add(uint64(4), uint16(1), uint32(7), uint32(100), []byte{1, 2, 3})
	f.Add(uint64(9), uint16(3), uint32(0), uint32(0), []byte{0xff})
	trig := engine.Draw{}
	for a, out := range Default.outcome {
		if out&outTrigger != 0 {
			trig = engine.Draw{Value: uint32(a), Range: uint32(len(Default.outcome))}
			break
		}
	}
	f.Fuzz(func(t *testing.T, seed uint64, pos uint16, val, rng uint32, extra []byte) {
		var force *engine.Draw
		if seed%3 == 0 {
			force = &trig
		}
		r, tape, stake := recorded(t, seed, force)
		bad := slices.Clone(tape)
		switch {
		case len(extra) > 0 && extra[0]%3 == 0:
			bad = bad[:int(pos)%len(bad)]
		case len(extra) > 0 && extra[0]%3 == 1:
			for _, b := range extra[1:] {
				bad = append(bad, engine.Draw{Value: uint32(b), Range: rng})
			}
		default:
			bad[int(pos)%len(bad)] = engine.Draw{Value: val, Range: rng}
		}
		_, err := engine.Mirror(Default, stake, bad, r)
		same := slices.Equal(bad, tape)
		if same && err != nil {
			t.Fatalf("recorded tape refused: %v", err)
		}
		if !same {
			var te *engine.TapeError
			var me *engine.MismatchError
			if !errors.As(err, &te) && !errors.As(err, &me) {
				t.Fatalf("changed tape %v (was %v): %v", bad, tape, err)
			}
		}
	})
}

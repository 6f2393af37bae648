package wishstar

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// TestModelIDIsSHA256: the model id is the SHA-256 of the embedded file,
// carried by every round; the game is registered under "wishstar".
func TestModelIDIsSHA256(t *testing.T) {
	sum := sha256.Sum256(ModelBytes())
	if id := hex.EncodeToString(sum[:]); Default.ModelID() != id {
		t.Fatalf("model id %s, sha256 %s", Default.ModelID(), id)
	}
	r, _, err := engine.Play(Default, draw.NewSeeded(3, 3), 25)
	if err != nil || r.ModelID != Default.ModelID() || r.Game != engine.WishStar {
		t.Fatalf("round %+v err %v", r, err)
	}
	if g, err := engine.Lookup(engine.WishStar); err != nil || g != engine.Game(Default) {
		t.Fatalf("lookup: %v %v", g, err)
	}
}

// TestRetiredModelReplays: model 1 (f48f036a…) stays known to
// engine.LookupModel, not to Lookup, so its stored rounds still mirror
// (recall); a round of one model never mirrors under the other.
func TestRetiredModelReplays(t *testing.T) {
	const v1 = "f48f036a7e643de669515fe9efd87d8a9639c56190205038231c55ab2c4d5154"
	if V1.ModelID() != v1 || Default.ModelID() == v1 {
		t.Fatalf("model ids: v1 %s, current %s", V1.ModelID(), Default.ModelID())
	}
	if got := engine.RetiredModels(engine.WishStar); !slices.Equal(got, []string{v1}) {
		t.Fatalf("retired %v", got)
	}
	for id, want := range map[string]*Game{v1: V1, Default.ModelID(): Default} {
		if g, err := engine.LookupModel(engine.WishStar, id); err != nil || g != engine.Game(want) {
			t.Fatalf("LookupModel(%s) = %v, %v", id, g, err)
		}
	}
	var ume *engine.UnknownModelError
	if _, err := engine.LookupModel(engine.WishStar, "00"); !errors.As(err, &ume) {
		t.Fatalf("unknown model: %v", err)
	}
	mismatches := 0
	for i := range 300 {
		r, tape, err := engine.Play(V1, draw.NewSeeded(17, uint64(i)), 100)
		if err != nil {
			t.Fatal(err)
		}
		g, err := engine.LookupModel(engine.WishStar, r.ModelID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Mirror(g, 100, tape, r); err != nil {
			t.Fatalf("round %d of model 1: %v", i, err)
		}
		if _, err := engine.Mirror(Default, 100, tape, r); err != nil {
			mismatches++
		}
	}
	if mismatches != 300 { // the model id alone differs
		t.Fatalf("%d of 300 model-1 rounds refused by the current model", mismatches)
	}
}

// TestModelRefusesRuleBreaks: a model that breaks a rule is refused with a
// *ModelError naming it (WS-3, WS-4, WS-5, WS-9, WS-10, D7).
func TestModelRefusesRuleBreaks(t *testing.T) {
	edit := func(f func(m *Model)) []byte {
		var m Model
		if err := json.Unmarshal(modelBytes, &m); err != nil {
			t.Fatal(err)
		}
		f(&m)
		b, _ := json.Marshal(&m)
		return b
	}
	setReel := func(set string, r int, s string) func(m *Model) {
		return func(m *Model) { x := m.Reels[set]; x[r] = s; m.Reels[set] = x }
	}
	for name, b := range map[string][]byte{
		"wild on reel 1 (WS-3)":      edit(setReel("base", 0, "WILD 10 J Q K")),
		"bonus on reel 4 (WS-5)":     edit(setReel("free", 3, "BONUS 10 J Q K")),
		"two Bonus in a window (D7)": edit(setReel("base", 2, "BONUS 10 BONUS Q K A J")),
		"star prize 16x (WS-9)":      edit(func(m *Model) { m.StarPrizes[0].Units = 16 * Unit }),
		"Grand on a star (WS-9)":     edit(func(m *Model) { m.StarPrizes[0] = Prize{Jackpot: "GRAND", Weight: 1} }),
		"instant 11x (WS-4)":         edit(func(m *Model) { m.BonusWins[0].Units = 11 * Unit }),
		"20 free spins (WS-4)":       edit(func(m *Model) { m.BonusWins[len(m.BonusWins)-1].FreeSpins = 20 }),
		"missing jackpot (WS-10)":    edit(func(m *Model) { delete(m.Jackpots, "MINOR") }),
		"unknown symbol":             edit(setReel("base", 1, "10 J SNOWMAN")),
		"other pay unit":             edit(func(m *Model) { m.PayUnit = 100 }),
		"unknown field":              []byte(strings.Replace(string(modelBytes), `"game"`, `"gaem": 1, "game"`, 1)),
		"not json":                   []byte("{"),
	} {
		var me *ModelError
		if _, err := NewFromBytes(b); !errors.As(err, &me) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestPlayAgreesWithEvaluate: every spin of random rounds pays what the
// forced-screen evaluation of its screen says, with the same triggers.
func TestPlayAgreesWithEvaluate(t *testing.T) {
	src := draw.NewSeeded(11, 12)
	var r engine.Round
	spins := 0
	for range 20000 {
		if err := Default.Play(src, 50, &r); err != nil {
			t.Fatal(err)
		}
		for i, s := range r.Steps {
			if s.Kind != engine.StepBase && s.Kind != engine.StepFree {
				continue
			}
			spins++
			ev := eval(t, s.Screen, 50, s.Kind == engine.StepFree)
			if !slices.Equal(ev.Wins, s.Wins) || ev.Total != s.Pay {
				t.Fatalf("step %d: play %+v, evaluate %+v", i, s.Wins, ev.Wins)
			}
			j := i + 1 // the steps this spin leads to: bonus wins, then Lock & Spin
			for j < len(r.Steps) && r.Steps[j].Kind == engine.StepBonusWin {
				j++
			}
			if ev.Triggers.BonusWins != j-i-1 {
				t.Fatalf("step %d: %d bonus wins, %d bonus steps", i, ev.Triggers.BonusWins, j-i-1)
			}
			if lock := j < len(r.Steps) && r.Steps[j].Kind == engine.StepLockSpin; lock != ev.Triggers.LockAndSpin {
				t.Fatalf("step %d: Lock & Spin %v, played %v", i, ev.Triggers.LockAndSpin, lock)
			}
			awarded := 0
			for _, p := range r.Steps[:i] {
				awarded += p.FreeSpinsWon
			}
			if ev.Triggers.FreeSpins != (s.FreeSpinsWon > 0) && !(ev.Triggers.FreeSpins && awarded == Default.c.m.FreeSpinsMax) {
				t.Fatalf("step %d: free spins %v, won %d", i, ev.Triggers.FreeSpins, s.FreeSpinsWon)
			}
		}
	}
	if spins < 20000 {
		t.Fatalf("%d spins", spins)
	}
}

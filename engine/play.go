package engine

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Play plays one round of g at stake from src and returns it with the tape
// of every draw. The central system calls it with a draw.Crypto source.
func Play(g Game, src Source, stake Money) (*Round, Tape, error) {
	rec := &Recorder{Src: src}
	r := new(Round)
	if err := g.Play(rec, stake, r); err != nil {
		return nil, nil, err
	}
	return r, rec.Tape, nil
}

// MismatchError says where a replayed round first differs from the claimed one.
type MismatchError struct {
	Path     string // e.g. "Steps[2].Wins[0].Amount"
	Claimed  string
	Replayed string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("engine: outcome mismatch at %s: claimed %s, replay gives %s", e.Path, e.Claimed, e.Replayed)
}

// Mirror replays tape through g at stake and refuses the claimed round
// unless the replay uses every draw exactly and reproduces it field for
// field. It returns the replayed round. Errors: *StakeError, *TapeError,
// *MismatchError.
func Mirror(g Game, stake Money, tape Tape, claimed *Round) (*Round, error) {
	if claimed == nil {
		return nil, &MismatchError{Path: "Round", Claimed: "nothing", Replayed: "a round"}
	}
	tr := NewTapeReader(tape)
	got := new(Round)
	if err := g.Play(tr, stake, got); err != nil {
		return nil, err
	}
	if err := tr.Err(); err != nil {
		return nil, err
	}
	if err := Compare(claimed, got); err != nil {
		return nil, err
	}
	return got, nil
}

// Compare returns a *MismatchError naming the first field in which the
// replayed round differs from the claimed one. Nil and empty slices are equal.
func Compare(claimed, replayed *Round) error {
	if p, a, b, differ := firstDiff("Round", reflect.ValueOf(*claimed), reflect.ValueOf(*replayed)); differ {
		return &MismatchError{Path: p, Claimed: a, Replayed: b}
	}
	return nil
}

// firstDiff finds the first field, element or key at which a and b
// differ: its path and both values, and differ true; differ is false when
// they are equal throughout.
func firstDiff(path string, a, b reflect.Value) (at, inA, inB string, differ bool) {
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if p, x, y, differ := firstDiff(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); differ {
				return p, x, y, true
			}
		}
		return "", "", "", false
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path + ".len", fmt.Sprint(a.Len()), fmt.Sprint(b.Len()), true
		}
		for i := 0; i < a.Len(); i++ {
			if p, x, y, differ := firstDiff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); differ {
				return p, x, y, true
			}
		}
		return "", "", "", false
	case reflect.Map:
		// Maps are compared by sorted key so the named field is stable.
		ka, kb := sortedKeys(a), sortedKeys(b)
		if strings.Join(ka, ",") != strings.Join(kb, ",") {
			return path + ".keys", fmt.Sprint(ka), fmt.Sprint(kb), true
		}
		for _, k := range a.MapKeys() {
			if p, x, y, differ := firstDiff(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), b.MapIndex(k)); differ {
				return p, x, y, true
			}
		}
		return "", "", "", false
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path, fmt.Sprint(a), fmt.Sprint(b), true
			}
			return "", "", "", false
		}
		return firstDiff(path, a.Elem(), b.Elem())
	default:
		if !a.Equal(b) {
			return path, fmt.Sprint(a), fmt.Sprint(b), true
		}
		return "", "", "", false
	}
}

func sortedKeys(m reflect.Value) []string {
	ks := make([]string, 0, m.Len())
	for _, k := range m.MapKeys() {
		ks = append(ks, fmt.Sprint(k))
	}
	sort.Strings(ks)
	return ks
}

var (
	registryMu sync.RWMutex
	registry   = map[GameID]Game{}
	retired    = map[[2]string]Game{} // (game, model id) of models kept for recall
)

// RegisterRetired keeps a game's earlier model known to LookupModel, so the
// rounds stored under it still replay (recall, audits) although neither side
// plays it any more: Lookup and Games answer only the current model.
func RegisterRetired(g Game) {
	registryMu.Lock()
	defer registryMu.Unlock()
	k := [2]string{string(g.ID()), g.ModelID()}
	if _, dup := retired[k]; dup {
		panic("engine: retired model registered twice: " + k[0] + " " + k[1])
	}
	retired[k] = g
}

// UnknownModelError refuses a model id that is neither a game's current
// model nor one of its retired ones.
type UnknownModelError struct {
	ID    GameID
	Model string
}

func (e *UnknownModelError) Error() string {
	return fmt.Sprintf("engine: %s has no model %q (current or retired)", string(e.ID), e.Model)
}

// LookupModel returns the game id over model: the current model (as Lookup)
// or a retired one. It is for replaying stored rounds, never for new play.
func LookupModel(id GameID, model string) (Game, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	if g, ok := registry[id]; ok && g.ModelID() == model {
		return g, nil
	}
	if g, ok := retired[[2]string{string(id), model}]; ok {
		return g, nil
	}
	if _, ok := registry[id]; !ok {
		return nil, &UnknownGameError{ID: id}
	}
	return nil, &UnknownModelError{ID: id, Model: model}
}

// RetiredModels lists the retired models of a game (their ids, sorted).
func RetiredModels(id GameID) []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	var out []string
	for k := range retired {
		if k[0] == string(id) {
			out = append(out, k[1])
		}
	}
	sort.Strings(out)
	return out
}

// Register makes a game known to Lookup; game packages call it from init.
func Register(g Game) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[g.ID()]; dup {
		panic("engine: game registered twice: " + string(g.ID()))
	}
	registry[g.ID()] = g
}

// UnknownGameError refuses a game id that is not registered.
type UnknownGameError struct{ ID GameID }

func (e *UnknownGameError) Error() string {
	return fmt.Sprintf("engine: unknown game %q", string(e.ID))
}

// Lookup returns the registered game with this id.
func Lookup(id GameID) (Game, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	if g, ok := registry[id]; ok {
		return g, nil
	}
	return nil, &UnknownGameError{ID: id}
}

// Games lists the registered games by id.
func Games() []Game {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]Game, 0, len(registry))
	for _, g := range registry {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}

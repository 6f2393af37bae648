//go:build display

package display

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/display/render"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// TestHeartbeatEveryUpdate: as ebiten runs the game, each Update calls the
// heartbeat exactly once.
func TestHeartbeatEveryUpdate(t *testing.T) {
	beats := 0
	src := &fixedSource{s: render.Fixtures("en")[1].Snap}
	g := NewGame(Options{Source: src.get, Renderer: rend, Heartbeat: func() { beats++ }})
	onMain(func() { loop.game, loop.stepped = g, true })
	defer onMain(func() { loop.game, loop.stepped = nil, false })
	// counted on the loop, at the start of an Update (before its heartbeat)
	var b0, u0, b1, u1 int
	onMain(func() { b0, u0 = beats, loop.updates })
	for range 7 {
		loop.step <- struct{}{}
	}
	onMain(func() { b1, u1 = beats, loop.updates })
	if b, u := b1-b0, u1-u0; b != u || u != 8 {
		t.Errorf("%d heartbeats in %d updates, want 8 in 8", b, u)
	}
}

// TestSameView: a snapshot equal in everything but Seq and Now is the same
// view; a change in any other field, existing or added later, is not.
func TestSameView(t *testing.T) {
	base := *render.Fixtures("en")[9].Snap // MS line win: most fields set
	base.Lockup = &view.Lockup{Kind: "handpay_win", Amount: 100}
	twin := base
	twin.Seq++
	twin.Now = twin.Now.Add(time.Second)
	twin.Games = slices.Clone(base.Games)
	twin.Tilts = slices.Clone(base.Tilts)
	twin.Lamps = map[view.Button]view.Lamp{}
	for k, v := range base.Lamps {
		twin.Lamps[k] = v
	}
	lockup := *base.Lockup
	twin.Lockup = &lockup
	if !sameView(&base, &twin) {
		t.Fatal("copies differing only in Seq, Now and storage are not the same view")
	}
	if sameView(&base, nil) || sameView(nil, &base) || !sameView(nil, nil) {
		t.Error("nil snapshots")
	}
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if name == "Seq" || name == "Now" {
			continue
		}
		changed := base
		changed.Lamps = twin.Lamps // a map shared with base would change both
		if !perturb(reflect.ValueOf(&changed).Elem().Field(i)) {
			t.Fatalf("field %s: kind %s not handled by this test", name, typ.Field(i).Type.Kind())
		}
		if sameView(&base, &changed) {
			t.Errorf("a change in %s is not seen", name)
		}
	}
}

// perturb changes v to a different value of its type.
func perturb(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() && perturb(v.Field(i)) {
				return true
			}
		}
		return false
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		} else {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(v.Elem())
			if !perturb(p.Elem()) {
				return false
			}
			v.Set(p)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for _, k := range v.MapKeys() {
			m.SetMapIndex(k, v.MapIndex(k))
		}
		k := reflect.New(v.Type().Key()).Elem()
		perturb(k)
		m.SetMapIndex(k, reflect.Zero(v.Type().Elem()))
		v.Set(m)
	default:
		return false
	}
	return true
}

// TestRepublishedViewNotRedrawn: the cabinet republishes an unchanged view
// every tick; the game renders it once and uploads nothing more.
func TestRepublishedViewNotRedrawn(t *testing.T) {
	f := render.Fixtures("en")[1] // idle
	twin := *f.Snap
	twin.Seq++
	src := &fixedSource{s: f.Snap}
	g := NewGame(Options{Source: src.get, Renderer: rend})
	g.Frame(f.At)
	if !g.dirty {
		t.Fatal("first frame not rendered")
	}
	g.dirty = false
	src.s = &twin
	g.Frame(f.At.Add(5 * time.Millisecond))
	if g.dirty {
		t.Error("an unchanged view was rendered again")
	}
	twin.Credit++
	g.Frame(f.At.Add(10 * time.Millisecond))
	if !g.dirty {
		t.Error("a changed credit was not rendered")
	}
}

// TestPanelUploadedWhenChanged: while the reels spin the devkit panel stays
// the same and is not marked for upload; a lamp going out marks it.
func TestPanelUploadedWhenChanged(t *testing.T) {
	f := render.Fixtures("en")[2] // reels spinning
	src := &fixedSource{s: f.Snap}
	g := NewGame(Options{Source: src.get, Devkit: &fakeDevkit{}, Renderer: rend})
	g.Frame(f.At)
	if !g.panelDirty {
		t.Fatal("first panel not marked")
	}
	g.panelDirty = false
	g.Frame(f.At.Add(40 * time.Millisecond))
	if !g.dirty || g.panelDirty {
		t.Errorf("spinning frame: screen dirty %v (want true), panel dirty %v (want false)", g.dirty, g.panelDirty)
	}
	dark := *f.Snap
	dark.Lamps = map[view.Button]view.Lamp{}
	for _, b := range view.Buttons {
		dark.Lamps[b] = view.LampOff
	}
	src.s = &dark
	g.Frame(f.At.Add(80 * time.Millisecond))
	if !g.panelDirty {
		t.Error("lamps out: panel not marked for upload")
	}
}

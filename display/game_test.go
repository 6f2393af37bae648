//go:build display

package display

import (
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/polaris-vlt/polaris/display/render"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
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
// view; a change in any other field, existing or added later, is not. The
// cabinet publishes (a new Seq) exactly when view.SameView is false, which
// is why the display may compare Seq alone (samePublication).
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
	if !view.SameView(&base, &twin) {
		t.Fatal("copies differing only in Seq, Now and storage are not the same view")
	}
	if view.SameView(&base, nil) || view.SameView(nil, &base) || !view.SameView(nil, nil) {
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
		if view.SameView(&base, &changed) {
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

// TestSameSeqNotRedrawn: the game trusts the snapshot's Seq and never
// compares contents: a snapshot with the Seq it drew (even another copy,
// even one whose contents a careless source changed) is not rendered
// again; a new Seq is.
func TestSameSeqNotRedrawn(t *testing.T) {
	f := render.Fixtures("en")[1] // idle
	drawn := *f.Snap
	drawn.Seq = 7
	src := &fixedSource{s: &drawn}
	g := NewGame(Options{Source: src.get, Renderer: rend})
	g.Frame(f.At)
	if !g.dirty {
		t.Fatal("first frame not rendered")
	}
	g.dirty = false
	twin := drawn
	twin.Credit++
	src.s = &twin
	g.Frame(f.At.Add(5 * time.Millisecond))
	if g.dirty {
		t.Error("a snapshot with the Seq drawn was rendered again")
	}
	next := twin
	next.Seq++
	src.s = &next
	g.Frame(f.At.Add(10 * time.Millisecond))
	if !g.dirty {
		t.Error("a new Seq was not rendered")
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

// republisher serves the current view as a publication: its own Seq,
// given anew by each set, the same until set (two copies in turn, a new
// pointer on every call, so only the Seq can tell they are the same).
type republisher struct {
	pair atomic.Pointer[[2]*view.Snapshot]
	n    atomic.Int64
	seq  atomic.Uint64
}

func (r *republisher) set(s *view.Snapshot) {
	a, b := *s, *s
	a.Seq = r.seq.Add(1)
	b.Seq = a.Seq
	r.pair.Store(&[2]*view.Snapshot{&a, &b})
}

func (r *republisher) get() *view.Snapshot { return r.pair.Load()[r.n.Add(1)%2] }

func (r *republisher) is(s *view.Snapshot) bool {
	p := r.pair.Load()
	return s == p[0] || s == p[1]
}

// runOnDemand installs g in the loop as Run runs it: frames on demand, its
// pacer running; the harness's own mode (TestMain) comes back afterwards.
func runOnDemand(t testing.TB, g *Game) *pacer {
	//lint:ignore SA1019 frames on demand, as Run asks for them (ebitenMode)
	p := g.onDemand(ebitenMode, ebiten.ScheduleFrame)
	stop := make(chan struct{})
	go p.run(stop)
	onMain(func() { loop.game, loop.stepped = g, false })
	t.Cleanup(func() {
		// on the loop: ebiten's mode changes need its main thread, which
		// waits for events outside a frame
		onMain(func() {
			loop.game = nil
			ebiten.SetTPS(ebiten.SyncWithFPS)
			ebiten.SetVsyncEnabled(false)
		})
		close(stop)
	})
	return p
}

// beats records the heartbeat's instants.
type beats struct {
	mu sync.Mutex
	at []time.Time
}

func (b *beats) beat() { b.mu.Lock(); b.at = append(b.at, time.Now()); b.mu.Unlock() }

// maxGap is the longest time without a beat from since until now.
func (b *beats) maxGap(since time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	prev, gap := since, time.Duration(0)
	for _, t := range append(b.at, time.Now()) {
		if t.After(since) {
			gap = max(gap, t.Sub(prev))
			prev = t
		}
	}
	return gap
}

// framesIn counts the frames ebiten runs during d.
func framesIn(d time.Duration) int64 {
	f0 := loop.frames.Load()
	time.Sleep(d) // sleep-ok: the window the frames are counted in: their rate is what is tested
	return loop.frames.Load() - f0
}

// TestOnDemand: as Run runs it, an idle cabinet (its snapshot read as new
// pointers with the same Seq) runs no frames but the heartbeat's probe, about one a second, and
// the heart beats; a changed view runs a frame at once and is drawn;
// spinning reels run every frame, and once they stop frames stop too.
func TestOnDemand(t *testing.T) {
	idle := render.Fixtures("en")[1].Snap // ws_idle: nothing blinks
	src := &republisher{}
	src.set(idle)
	var hb beats
	g := NewGame(Options{Source: src.get, Renderer: rend, Clock: time.Now, Heartbeat: hb.beat})
	p := runOnDemand(t, g)
	// The window runs: it drew the idle view (on a loaded machine its
	// first frame can take a while, and then the idle count saw none).
	poll.Until(t, 10*time.Second, "the idle view drawn", func() bool { return src.is(p.drawn.Load()) })
	time.Sleep(300 * time.Millisecond) // sleep-ok: settles past the first frames before their rate is counted

	since := time.Now()
	n := framesIn(2500 * time.Millisecond)
	t.Logf("idle: %d frames in 2.5 s", n)
	if n > 4 || n < 1 {
		t.Errorf("idle: %d frames in 2.5 s, want the probe's 2 or 3", n)
	}
	if gap := hb.maxGap(since); gap > 2*time.Second {
		t.Errorf("idle: %v without a heartbeat (probe every %v)", gap, p.probe)
	}

	changed := *idle
	changed.Credit += 100
	f0, t0 := loop.frames.Load(), time.Now()
	src.set(&changed)
	poll.Until(t, time.Second, "a changed credit drawn", func() bool { return src.is(p.drawn.Load()) })
	t.Logf("changed view drawn %v after it was published, in %d frames", time.Since(t0).Round(time.Millisecond), loop.frames.Load()-f0)

	spin := changed
	spin.Mode = view.ModeWagering // all reels spin: every frame differs
	src.set(&spin)
	poll.Until(t, 5*time.Second, "the spinning reels drawn", func() bool { return src.is(p.drawn.Load()) })
	n = framesIn(time.Second)
	t.Logf("spinning: %d frames in 1 s", n)
	if n < 5 {
		t.Errorf("spinning: %d frames in a second, want every frame", n)
	}
	src.set(&changed)
	poll.Until(t, 5*time.Second, "the stopped reels drawn", func() bool { return src.is(p.drawn.Load()) })
	time.Sleep(300 * time.Millisecond) // sleep-ok: settles past the last spinning frames before the rate is counted
	n = framesIn(1500 * time.Millisecond)
	t.Logf("stopped: %d frames in 1.5 s", n)
	if n > 3 {
		t.Errorf("stopped: %d frames in 1.5 s, want the probe's 1 or 2", n)
	}
}

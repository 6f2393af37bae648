//go:build display

package display

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/polaris-vlt/polaris/display/render"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// benchWindow measures whole frames at 1080p as ebiten runs them when it
// runs every frame (the harness's mode; Run's while reels spin): each op
// is one frame of the real loop (ebiten's input polling, our Update and
// Draw, the command queue's flush to GL, the buffer swap). allocs/op are
// the whole process's allocations per frame. cpu-ms/frame is the process's
// CPU time (user+system, every thread: Go and the in-process Mesa GL).
//
// The source alternates between two copies of the snapshot with the same
// content, as the cabinet publishes a new snapshot every tick (5 ms) even
// when nothing changed.
func benchWindow(b *testing.B, fixture int, devkit bool) {
	f := render.Fixtures("en")[fixture]
	twin := *f.Snap
	snaps := [2]*view.Snapshot{f.Snap, &twin}
	n := 0
	source := func() *view.Snapshot { n++; return snaps[n%2] }
	start := f.At
	var ticks time.Duration
	o := Options{Source: source, Renderer: rend, Clock: func() time.Time {
		ticks += time.Millisecond // stays inside the spin for a few thousand frames
		return start.Add(ticks % time.Second)
	}}
	if devkit {
		o.Devkit = &fakeDevkit{}
	}
	g := NewGame(o)
	w, h := g.LogicalSize()
	onMain(func() {
		loop.game, loop.stepped = g, true
		ebiten.SetWindowSize(w*benchScale/100, h*benchScale/100)
	})
	defer onMain(func() {
		loop.game, loop.stepped = nil, false
		ebiten.SetWindowSize(64, 64)
	})
	for range 30 {
		loop.step <- struct{}{}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, u0 := cpuTime(), loop.updates
	for range b.N {
		loop.step <- struct{}{}
	}
	loop.step <- struct{}{} // the last op's frame is complete when the next Update starts
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/frame")
	if u := loop.updates - u0; u != b.N+1 {
		b.Fatalf("%d updates for %d frames", u, b.N)
	}
}

// benchScale is the window's size in percent of the logical size: 100, a
// cabinet at 1080p; make bench-display also runs 50, the devkit window.
var benchScale = func() int {
	if v, err := strconv.Atoi(os.Getenv("POLARIS_BENCH_SCALE")); err == nil && v > 0 {
		return v
	}
	return 100
}()

func BenchmarkWindowIdle(b *testing.B)           { benchWindow(b, 1, false) }
func BenchmarkWindowSpinning(b *testing.B)       { benchWindow(b, 2, false) }
func BenchmarkWindowDevkitIdle(b *testing.B)     { benchWindow(b, 1, true) }
func BenchmarkWindowDevkitSpinning(b *testing.B) { benchWindow(b, 2, true) }

// benchOnDemand measures the cabinet as Run runs it, frames on demand: one
// op is one second of wall time with the fixture's view published once (a
// new pointer on every read, the same Seq), the window at benchScale. allocs/op are the
// process's allocations per second: ebiten's frames, the pacer's polling,
// the source; frames/s are the frames ebiten ran, cpu-ms/s the process's
// CPU time per second.
func benchOnDemand(b *testing.B, fixture int, still bool) {
	src := &republisher{}
	src.set(render.Fixtures("en")[fixture].Snap)
	g := NewGame(Options{Source: src.get, Renderer: rend, Clock: time.Now})
	w, h := g.LogicalSize()
	onMain(func() { ebiten.SetWindowSize(w*benchScale/100, h*benchScale/100) })
	runOnDemand(b, g)
	b.Cleanup(func() { onMain(func() { ebiten.SetWindowSize(64, 64) }) })
	// Steady state: past the first frames, and past ebiten's re-presenting
	// of the last changed frame (its maxSkipCount: the next 3 frames draw
	// the final screen and swap again; on demand the next 3 wakes).
	if still {
		settle(b)
	} else {
		time.Sleep(300 * time.Millisecond) // sleep-ok: a benchmark's warm-up: the attract view moves, it never settles
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, f0, p0 := cpuTime(), loop.frames.Load(), loop.presents.Load()
	for range b.N {
		time.Sleep(time.Second) // sleep-ok: the benchmark's op is one second of the window running
	}
	b.StopTimer()
	b.ReportMetric(float64(loop.frames.Load()-f0)/float64(b.N), "frames/s")
	b.ReportMetric(float64(loop.presents.Load()-p0)/float64(b.N), "presents/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/s")
}

// One op is one second (see benchOnDemand): allocs/op are per second.
func BenchmarkOnDemandIdle(b *testing.B)    { benchOnDemand(b, 1, true) }
func BenchmarkOnDemandAttract(b *testing.B) { benchOnDemand(b, 0, false) }

// settle asks for frames until 4 in a row were not presented (ebiten's
// skip count is full), for at most 5 s.
func settle(b *testing.B) {
	time.Sleep(300 * time.Millisecond) // sleep-ok: a benchmark's warm-up, past the first frames
	quiet := 0
	for end := time.Now().Add(5 * time.Second); quiet < 4 && time.Now().Before(end); {
		f0, p0 := loop.frames.Load(), loop.presents.Load()
		//lint:ignore SA1019 frames on demand, as Run asks for them (ebitenMode)
		ebiten.ScheduleFrame()
		time.Sleep(100 * time.Millisecond)
		switch {
		case loop.presents.Load() != p0:
			quiet = 0
		case loop.frames.Load() != f0:
			quiet++
		}
	}
	if quiet < 4 {
		b.Logf("not settled: frames are still presented")
	}
}

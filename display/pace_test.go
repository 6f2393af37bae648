package display

import (
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// TestPacer walks the pacer through an idle cabinet on a fake clock: no
// frame while the snapshot keeps its Seq (whatever the pointer, and without
// looking at the contents), one when a new Seq is published, when a blink is due and when the heartbeat's probe is due,
// none while ebiten runs every frame itself, and a lost request is
// repeated.
func TestPacer(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	a := &view.Snapshot{Seq: 1, Mode: view.ModeIdle, Credit: 500, Lamps: map[view.Button]view.Lamp{view.Start: view.LampOn}}
	src := a
	p := newPacer(func() *view.Snapshot { return src }, nil, nil)
	p.framed(t0, a, time.Time{}, false, false)

	at := func(d time.Duration) time.Time { return t0.Add(d) }
	expect := func(when time.Duration, want bool, why string) time.Duration {
		t.Helper()
		got, wait := p.check(at(when))
		if got != want {
			t.Fatalf("%s: frame %v, want %v", why, got, want)
		}
		if wait <= 0 || wait > p.poll {
			t.Fatalf("%s: next check in %v", why, wait)
		}
		return wait
	}

	for k := range 50 { // the same publication, read as new pointers every 5 ms
		twin := *a
		twin.Credit += engine.Money(k) // the contents are not looked at: the Seq says it is drawn
		src = &twin
		expect(time.Duration(k)*5*time.Millisecond, false, "same Seq")
	}

	changed := *a
	changed.Seq++
	changed.Credit++
	src = &changed
	expect(300*time.Millisecond, true, "new Seq")
	expect(310*time.Millisecond, false, "asked already, frame not run yet")
	p.framed(at(320*time.Millisecond), src, time.Time{}, false, false)
	expect(330*time.Millisecond, false, "changed view drawn")

	// the heartbeat's probe: a frame a second after the last one at most
	wait := expect(1310*time.Millisecond, false, "before the probe")
	if want := 10 * time.Millisecond; wait != want {
		t.Errorf("check again in %v, want %v (the probe)", wait, want)
	}
	expect(1320*time.Millisecond, true, "probe due")
	// the request got lost: asked again a probe later, not before
	expect(2000*time.Millisecond, false, "asked already")
	expect(2320*time.Millisecond, true, "lost request repeated")
	p.framed(at(2330*time.Millisecond), src, at(2630*time.Millisecond), false, true) // a blink due

	wait = expect(2625*time.Millisecond, false, "before the blink")
	if want := 5 * time.Millisecond; wait != want {
		t.Errorf("check again in %v, want %v (the blink)", wait, want)
	}
	expect(2630*time.Millisecond, true, "blink due")

	// reels spinning: ebiten runs every frame, the pacer asks for none
	p.framed(at(2640*time.Millisecond), src, time.Time{}, true, true)
	moved := changed
	moved.Seq++
	moved.Credit++
	src = &moved
	expect(5*time.Second, false, "continuous")
	p.framed(at(5*time.Second), &changed, time.Time{}, false, false)
	expect(5010*time.Millisecond, true, "still again, a new Seq")

	if n := p.asked.Load(); n != 5 {
		t.Errorf("%d frames asked for, want 5", n)
	}
}

// TestPacerRuns: the pacer's goroutine asks for a frame when the view
// changes and stops when told.
func TestPacerRuns(t *testing.T) {
	a := &view.Snapshot{Seq: 1, Mode: view.ModeIdle, Credit: 500}
	var src atomic.Pointer[view.Snapshot]
	src.Store(a)
	asked := make(chan struct{}, 100)
	p := newPacer(src.Load, time.Now, func() { asked <- struct{}{} })
	p.framed(time.Now(), a, time.Time{}, false, false)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { p.run(stop); close(done) }()
	b := *a
	b.Seq, b.Credit = 2, 600
	src.Store(&b)
	select {
	case <-asked:
	case <-poll.After(2 * time.Second):
		t.Fatal("no frame asked for a changed view")
	}
	close(stop)
	<-done
}

// BenchmarkPacerCheck: what an idle window costs between frames, 60 times
// a second: one check against the publication drawn, read as a new pointer
// (its Seq compared, never the contents).
func BenchmarkPacerCheck(b *testing.B) {
	a := &view.Snapshot{Seq: 1, Mode: view.ModeIdle, Credit: 500, Games: []engine.GameID{engine.WishStar, engine.MagicStars},
		Lamps: map[view.Button]view.Lamp{view.Start: view.LampOn, view.Auto: view.LampOn, view.BetMinus: view.LampOn, view.BetPlus: view.LampOn}}
	twins := [2]*view.Snapshot{a, new(view.Snapshot)}
	*twins[1] = *a
	n := 0
	p := newPacer(func() *view.Snapshot { n++; return twins[n%2] }, nil, nil)
	t0 := time.Unix(1_800_000_000, 0)
	p.framed(t0, a, time.Time{}, false, false)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if frame, _ := p.check(t0.Add(time.Duration(i%1000) * time.Microsecond)); frame {
			b.Fatal("frame asked for an unchanged view")
		}
	}
}

// BenchmarkPacerIdle: the pacer alone on an idle view, as it runs beside
// the window: one op is one second; cpu-ms/s is the process's CPU time
// (its 60 wakes a second, each a check), asked/s the frames it asked for
// (the heartbeat's probe).
func BenchmarkPacerIdle(b *testing.B) {
	a := &view.Snapshot{Seq: 1, Mode: view.ModeIdle, Credit: 500, Lamps: map[view.Button]view.Lamp{view.Start: view.LampOn}}
	twins := [2]*view.Snapshot{a, new(view.Snapshot)}
	*twins[1] = *a
	var n atomic.Int64
	var p *pacer
	p = newPacer(func() *view.Snapshot { return twins[n.Add(1)%2] }, time.Now, func() {
		p.framed(time.Now(), a, time.Time{}, false, false) // the frame, at once
	})
	p.framed(time.Now(), a, time.Time{}, false, false)
	stop := make(chan struct{})
	go p.run(stop)
	defer close(stop)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, a0 := cpuTime(), p.asked.Load()
	for range b.N {
		time.Sleep(time.Second) // sleep-ok: the benchmark's op is one second of the pacer running
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/s")
	b.ReportMetric(float64(p.asked.Load()-a0)/float64(b.N), "asked/s")
}

// cpuTime is the process's CPU time so far: user and system, every thread.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

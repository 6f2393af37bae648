package display

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// pacer asks the render loop for frames while the window runs on demand:
// ebiten then waits for events between frames instead of running 60 a
// second, so an idle cabinet runs one frame a second (the probe). The loop reports after
// each frame what it drew and until when that stays right; the pacer, on
// its own goroutine, asks for a frame (schedule) when the cabinet publishes
// a new snapshot (a new Seq), when the picture changes by itself (a
// blink, the attract parade's next step), and at least every probe, so
// that the watchdog's heartbeat, called by every frame, keeps proving the
// loop alive. While something moves continuously (reels spinning) ebiten
// runs every frame itself and the pacer stays out of it. Keyboard input
// wakes ebiten on its own.
type pacer struct {
	source   func() *view.Snapshot
	clock    func() time.Time
	schedule func()
	// poll is how often the source is compared (cheap: its Seq); probe
	// the longest time without a frame.
	poll, probe time.Duration

	// Written by the loop at the end of each frame (framed). Times are the
	// clock's UnixNano.
	drawn      atomic.Pointer[view.Snapshot]
	due        atomic.Int64 // the picture changes by itself; MaxInt64 never
	last       atomic.Int64 // the last frame
	continuous atomic.Bool  // ebiten runs every frame itself
	pending    atomic.Int64 // a frame was asked for and has not run; 0 none
	asked      atomic.Int64 // frames asked for, for tests
}

const (
	pacePoll  = time.Second / 60
	paceProbe = time.Second
)

func newPacer(source func() *view.Snapshot, clock func() time.Time, schedule func()) *pacer {
	return &pacer{source: source, clock: clock, schedule: schedule, poll: pacePoll, probe: paceProbe}
}

// framed is the loop's report at the end of a frame at now: it shows
// drawn, which stays right until next (ok false: forever) unless moving.
func (p *pacer) framed(now time.Time, drawn *view.Snapshot, next time.Time, moving, ok bool) {
	n := now.UnixNano()
	due := int64(math.MaxInt64)
	if d := next.Sub(now); ok && d < time.Hour {
		due = n + int64(d)
	}
	p.drawn.Store(drawn)
	p.due.Store(due)
	p.last.Store(n)
	p.continuous.Store(moving)
	p.pending.Store(0)
}

// check reports whether the loop needs a frame at now, and marks it asked
// for; wait is how long until the next check.
func (p *pacer) check(now time.Time) (frame bool, wait time.Duration) {
	n := now.UnixNano()
	wait = p.poll
	if p.continuous.Load() {
		return false, wait
	}
	if pend := p.pending.Load(); pend != 0 && n-pend < int64(p.probe) {
		return false, wait // asked already; ask again only if it was lost
	}
	due, last := p.due.Load(), p.last.Load()
	if n >= due || n-last >= int64(p.probe) || p.changed() {
		p.pending.Store(n)
		p.asked.Add(1)
		return true, wait
	}
	wait = min(wait, time.Duration(due-n), time.Duration(last+int64(p.probe)-n))
	return false, wait
}

// changed reports whether the source's snapshot is another publication
// than the one drawn last.
func (p *pacer) changed() bool { return !samePublication(p.source(), p.drawn.Load()) }

// run checks until stop is closed, asking for frames as check says.
func (p *pacer) run(stop <-chan struct{}) {
	t := time.NewTimer(p.poll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		frame, wait := p.check(p.clock())
		if frame {
			p.schedule()
		}
		t.Reset(max(wait, time.Millisecond))
	}
}

// samePublication reports whether a and b are the same publication: the
// same pointer, or the same Seq. The cabinet publishes a snapshot only when
// it draws differently from the last one (view.SameView, compared there,
// once per change) and numbers each publication, so a consumer compares
// Seq and never the contents. Seq 0 is an unnumbered snapshot (fixtures,
// tests): only its pointer tells.
func samePublication(a, b *view.Snapshot) bool {
	return a == b || a != nil && b != nil && a.Seq != 0 && a.Seq == b.Seq
}

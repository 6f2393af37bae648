package cabinet

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// The memory bound (issue 23): a cabinet runs for months without a restart,
// so after a warm-up neither its live heap nor its goroutines may grow with
// the rounds it plays. The warm-up fills the recall (100 rounds) and the
// chain (256 transactions, 4 a round); the done set (256) and the events
// (1 000) go on filling meanwhile, bounded, within the heap bound. The soak
// (make soak) watches the whole process for hours; this is its share of
// make test: the cabinet, its ledger's two copies and the embedded central
// system behind the real link in one process, autoplay with no
// presentation time.
const (
	memWarmRounds  = 150
	memRounds      = 450 // after the warm-up, in memCheckpoints steps
	memCheckpoints = 3
	// memHeapBound is the growth of the heap in use (after a GC), and of
	// the live heap, allowed past the warm-up: 512 KiB over 450 rounds catches a leak of 1 200
	// bytes a round; honest runs measured +8…+216 KiB (the tables above
	// filling, and the GC's granularity).
	memHeapBound = 512 << 10
	// memGoroutineBound: the count at rest (autoplay stopped, the outbox
	// drained) may differ by the odd timer or stream goroutine, not more.
	memGoroutineBound = 3
)

func TestMemoryBoundedAfterWarmup(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 600 rounds")
	}
	r := newBenchRig(t)
	play := func(n int) {
		t.Helper()
		target := r.meter(ledger.GamesPlayed) + int64(n)
		r.press(view.Auto)
		state := func() string {
			s := r.cab.View()
			return fmt.Sprintf("%d rounds short: mode %s, auto %v, credit %d, tilts %v, message %q",
				target-r.meter(ledger.GamesPlayed), s.Mode, s.Auto, s.Credit, s.Tilts, s.Message)
		}
		poll.Until(t, 2*time.Minute, fmt.Sprintf("%d rounds of autoplay", n), func() bool {
			if r.meter(ledger.GamesPlayed) >= target {
				return true
			}
			// The state now, not the last published snapshot: Auto pressed on
			// a stale "idle" (a loaded machine) turned autoplay off in the
			// next round's Risk offer, and nothing took the win.
			if s := r.state(); !s.Auto && s.Mode == view.ModeIdle {
				r.press(view.Auto)
			}
			return false
		}, state)
		// At rest: autoplay off, the cabinet idle, the last commit acked.
		// Its own deadline (a loaded machine can spend the first on the
		// rounds), and the state now, as above.
		r.press(view.Stop)
		collected := false
		poll.Until(t, 2*time.Minute, "autoplay off and the cabinet idle", func() bool {
			s := r.state()
			if s.RiskOffer && !collected {
				r.press(view.Collect) // once: a second Collect would cash out
				collected = true
			}
			return !s.Auto && s.Mode == view.ModeIdle
		}, state)
		poll.Until(t, 2*time.Minute, "the outbox drained (the last commit acked)", func() bool {
			m, err := r.led.Pending(1)
			return err == nil && len(m) == 0
		})
	}
	measure := func() (heap, live uint64, goroutines int) {
		runtime.GC()
		runtime.GC() // the first GC's finalizers free more
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		// The heap the GC marked: what is reachable, without the spans'
		// free slots that the heap in use also counts.
		l := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(l)
		return m.HeapInuse, l[0].Value.Uint64(), runtime.NumGoroutine()
	}
	play(memWarmRounds)
	heap0, live0, g0 := measure()
	var b strings.Builder
	fmt.Fprintf(&b, "after the warm-up (%d rounds): heap in use %d KiB, live %d KiB, %d goroutines\n", memWarmRounds, heap0>>10, live0>>10, g0)
	failed := false
	for i := 1; i <= memCheckpoints; i++ {
		play(memRounds / memCheckpoints)
		heap, live, g := measure()
		fmt.Fprintf(&b, "+%4d rounds: heap in use %d KiB (%+d KiB), live %d KiB (%+d KiB), %d goroutines (%+d)\n",
			i*memRounds/memCheckpoints, heap>>10, (int64(heap)-int64(heap0))>>10, live>>10, (int64(live)-int64(live0))>>10, g, g-g0)
		if int64(heap)-int64(heap0) > memHeapBound || int64(live)-int64(live0) > memHeapBound || g-g0 > memGoroutineBound {
			failed = true
		}
	}
	if failed {
		t.Fatalf("the cabinet grows after its warm-up (bounds: heap in use and live heap +%d KiB each, goroutines +%d):\n%s", memHeapBound>>10, memGoroutineBound, b.String())
	}
	t.Log("\n" + b.String())
}

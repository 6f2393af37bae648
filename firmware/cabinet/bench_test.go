package cabinet

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"

	"github.com/polaris-vlt/polaris/internal/poll"
)

func pct(d []time.Duration, p float64) float64 {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[int(p*float64(len(s)-1))].Microseconds()) / 1000
}

// fsyncOnce times a 4 KiB write and fsync in dir: the floor under every
// ledger commit on this disk.
func fsyncOnce(b *testing.B, dir string) time.Duration {
	f, err := os.OpenFile(filepath.Join(dir, "fsync-probe"), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	t := time.Now()
	f.Write(buf)
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	return time.Since(t)
}

// BenchmarkStartToSpinning times Start until the reels spin: the wager
// journaled in both ledger copies, the outcome drawn, signed and stored by
// the embedded central system over loopback mutual TLS, verified and
// mirrored, the outcome journaled. The raw fsync of the same disk is
// measured in the same run.
func BenchmarkStartToSpinning(b *testing.B) {
	r := newBenchRig(b)
	var lat, fs []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := uint64(r.meter(ledger.GamesPlayed)) + 1
		start := time.Now()
		r.cab.Post(Press{Button: view.Start})
		for {
			if s := r.cab.View(); s.Round != nil && s.Round.Number == n {
				break
			}
			time.Sleep(20 * time.Microsecond) // sleep-ok: the benchmark's own latency probe, finer than poll.Every
		}
		lat = append(lat, time.Since(start))
		b.StopTimer()
		collected := false
		for r.cab.View().Mode != view.ModeIdle || r.meter(ledger.GamesPlayed) != int64(n) {
			if r.cab.View().RiskOffer && !collected {
				r.cab.Post(Press{Button: view.Collect}) // once: a second Collect would cash out
				collected = true
			}
			time.Sleep(50 * time.Microsecond) // sleep-ok: the benchmark paces its wait outside the timer
		}
		fs = append(fs, fsyncOnce(b, filepath.Join(r.dir, "a")))
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(pct(lat, 0.5), "start-p50-ms")
	b.ReportMetric(pct(lat, 0.99), "start-p99-ms")
	b.ReportMetric(pct(fs, 0.5), "fsync-p50-ms")
	b.ReportMetric(pct(fs, 0.99), "fsync-p99-ms")
}

// BenchmarkAutoplay is sustained headless play: Auto on, presentation
// time zero, every round journaled, drawn centrally and settled.
func BenchmarkAutoplay(b *testing.B) {
	r := newBenchRig(b)
	start := r.meter(ledger.GamesPlayed)
	b.ResetTimer()
	t0 := time.Now()
	r.cab.Post(Press{Button: view.Auto})
	for r.meter(ledger.GamesPlayed)-start < int64(b.N) {
		// Auto takes the win past a Risk offer by itself (RiskOffer time 0).
		if s := r.cab.View(); !s.Auto && s.Mode == view.ModeIdle {
			r.cab.Post(Press{Button: view.Auto})
		}
		time.Sleep(100 * time.Microsecond) // sleep-ok: the benchmark paces its look at the meter, the rounds run meanwhile
	}
	el := time.Since(t0)
	b.StopTimer()
	r.cab.Post(Press{Button: view.Stop})
	b.ReportMetric(float64(b.N)/el.Seconds(), "rounds/s")
}

// newBenchRig is a cabinet with a large credit, Magic Stars at 5 CZK, no
// presentation time and no minimum round time.
func newBenchRig(b testing.TB) *rig {
	b.Helper()
	r := newRigWith(b, "cz", nil, withTiming(Timing{}), withMarket(func(p *market.Profile) { p.Timers.MinRoundMs = 0 }))
	poll.Until(b, 15*time.Second, "idle", func() bool { return r.state().Mode == view.ModeIdle })
	for i := 0; i < 4; i++ {
		r.insertNote(5000, 0)
	}
	return r
}

// BenchmarkIdleCabinet is one second of an idle cabinet with credit (the
// rig's loop ticks every millisecond): the snapshots it publishes, the
// allocations and the process's CPU time in that second (the embedded
// central system's idle goroutines included).
func BenchmarkIdleCabinet(b *testing.B) {
	r := newBenchRig(b)
	r.idle()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	seq0, allocs0, cpu0 := r.cab.View().Seq, ms.Mallocs, processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		time.Sleep(time.Second) // sleep-ok: one second of an idle cabinet is what is measured
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	n := float64(b.N)
	b.ReportMetric(float64(r.cab.View().Seq-seq0)/n, "snapshots/s")
	b.ReportMetric(float64(ms.Mallocs-allocs0)/n, "allocs/s")
	b.ReportMetric(float64(processCPU()-cpu0)/float64(time.Millisecond)/n, "cpu-ms/s")
}

// processCPU is the process's user and system time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

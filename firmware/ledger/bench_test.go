package ledger

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"
)

var (
	fullOnce sync.Once
	fullDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fullDir != "" {
		os.RemoveAll(fullDir)
	}
	os.Exit(code)
}

// fullLedger opens a copy of a ledger filled to its history limits: 1000+
// events, 100+ recalled rounds with a 2 KiB outcome each, 50+ notes in,
// 35+ vouchers (filled once per process, then copied).
func fullLedger(b testing.TB, o Options) *Ledger {
	fullOnce.Do(func() {
		d, err := os.MkdirTemp("", "polaris-ledger-full-")
		if err != nil {
			b.Fatal(err)
		}
		fo := Options{DirA: filepath.Join(d, "a"), DirB: filepath.Join(d, "b"), Clock: clocktest.New(t0)}
		l := fillLedger(b, fo)
		l.Close()
		fullDir = d
	})
	image(b, filepath.Join(fullDir, "a"), o.DirA)
	image(b, filepath.Join(fullDir, "b"), o.DirB)
	l, err := Open(o)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

func fillLedger(b testing.TB, o Options) *Ledger {
	l, err := Create(o, "bench")
	if err != nil {
		b.Fatal(err)
	}
	body := bytes.Repeat([]byte("outcome-tape-"), 160)
	for i := 0; i < 60; i++ {
		insertBill(b, l, 10000)
	}
	for i := 0; i < 110; i++ {
		n := l.NextRound()
		must(b, l.Wager(Wager{Round: n, Game: "wish", Denom: 1, Stake: 100, Choices: []byte(`{"lines":10}`)}))
		must(b, l.Outcome(n, 150, body))
		must(b, l.Settle(n, Settlement{Credit: 150, Payload: []byte(`{"screens":[[1,2,3],[4,5,6]]}`)}))
	}
	for i := 0; i < 40; i++ {
		id := l.NextDocID()
		must(b, l.VoucherPrinting(id, 100, "123456789012345678"))
		must(b, l.VoucherPrinted(id))
	}
	for i := 0; i < 11; i++ { // 1100 events, 100 per transaction to fill faster
		testExec(b, l, func(t *tx) error {
			for j := 0; j < 100; j++ {
				t.event("tilt", "printer", "paper low", 0, nil)
			}
			return nil
		})
	}
	if _, err := l.Verify("filled"); err != nil {
		b.Fatal(err)
	}
	return l
}

// cpuTime is this process's user+system CPU time: on a loaded machine it
// compares checks better than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func percentile(d []time.Duration, p float64) float64 {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[int(p*float64(len(s)-1))].Microseconds()) / 1000
}

// rawFsync measures write(4 KiB)+fsync latencies of a file in dir.
func rawFsync(b *testing.B, dir string, n int) []time.Duration {
	f, err := os.Create(filepath.Join(dir, "fsync-probe"))
	if err != nil {
		b.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := make([]byte, 4096)
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		t := time.Now()
		f.Write(buf)
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		out = append(out, time.Since(t))
	}
	return out
}

// BenchmarkMoneyCommit times one money transaction (a wager: credit,
// coin-in meters for cabinet, game and denomination, the round journal)
// committed to both copies, beside the raw fsync latency of copy A's
// directory measured in the same run, interleaved.
func benchmarkMoneyCommit(b *testing.B, parallel bool) {
	o := testOptions(b)
	o.Parallel = parallel
	l := fullLedger(b, o)
	defer l.Close()
	insertBill(b, l, 1<<40)
	var commit, fsync, check []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := l.NextRound()
		t := time.Now()
		must(b, l.Wager(Wager{Round: n, Game: "wish", Denom: 1, Stake: 100}))
		commit = append(commit, time.Since(t))
		b.StopTimer()
		must(b, l.Outcome(n, 0, []byte("o")))
		must(b, l.Settle(n, Settlement{}))
		fsync = append(fsync, rawFsync(b, o.DirA, 1)...)
		check = append(check, storageCheck(b, l))
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(percentile(commit, 0.5), "commit-p50-ms")
	b.ReportMetric(percentile(commit, 0.99), "commit-p99-ms")
	b.ReportMetric(percentile(fsync, 0.5), "fsync-p50-ms")
	b.ReportMetric(percentile(fsync, 0.99), "fsync-p99-ms")
	b.ReportMetric(percentile(commit, 0.99)/percentile(fsync, 0.99), "p99-ratio")
	// the storage check is inside the commit timed above; shown apart
	b.ReportMetric(percentile(check, 0.5)*1000, "check-p50-us")
	b.ReportMetric(percentile(check, 0.99)*1000, "check-p99-us")
}

// storageCheck times the check run before every transaction (statfs and
// access on both copies), once more on its own.
func storageCheck(b *testing.B, l *Ledger) time.Duration {
	t := time.Now()
	for _, s := range l.stores {
		if err := s.health(l.o.FreeReserve); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(t)
}

// BenchmarkStorageCheck is that check alone, many times.
func BenchmarkStorageCheck(b *testing.B) {
	o := testOptions(b)
	l := fullLedger(b, o)
	defer l.Close()
	b.ResetTimer()
	c := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, s := range l.stores {
			if err := s.health(l.o.FreeReserve); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, c)
}

func BenchmarkMoneyCommit(b *testing.B)         { benchmarkMoneyCommit(b, false) }
func BenchmarkMoneyCommitParallel(b *testing.B) { benchmarkMoneyCommit(b, true) }

// BenchmarkVerify is a full Verify after a write (both copies read back on
// fresh connections with quick_check, chain and digest).
func BenchmarkVerify(b *testing.B) {
	o := testOptions(b)
	l := fullLedger(b, o)
	defer l.Close()
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		must(b, l.LogEvent("x", "", "", 0, nil))
		c := cpuTime()
		b.StartTimer()
		if _, err := l.Verify("bench"); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkVerifyUnchanged is a Verify with no write since the last one
// (file fingerprints only).
func BenchmarkVerifyUnchanged(b *testing.B) {
	o := testOptions(b)
	l := fullLedger(b, o)
	defer l.Close()
	b.ResetTimer()
	c := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := l.Verify("bench"); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c)
}

func benchCheck(b *testing.B, check string) {
	o := testOptions(b)
	l := fullLedger(b, o)
	defer l.Close()
	st, _ := os.Stat(filepath.Join(o.DirA, DBName))
	b.ReportMetric(float64(st.Size())/1024, "db-KiB")
	b.ResetTimer()
	c := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := readCopyFresh(o.DirA, check); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c)
}

// BenchmarkReadCopy*: reading one full copy on a fresh connection with
// each SQLite check (and with none, to see the check's own share).
func BenchmarkReadCopyNoCheck(b *testing.B)        { benchCheck(b, "none") }
func BenchmarkReadCopyQuickCheck(b *testing.B)     { benchCheck(b, "quick_check") }
func BenchmarkReadCopyIntegrityCheck(b *testing.B) { benchCheck(b, "integrity_check") }

// BenchmarkOpen opens a full ledger (integrity_check on both copies).
func BenchmarkOpen(b *testing.B) {
	o := testOptions(b)
	l := fullLedger(b, o)
	l.Close()
	b.ResetTimer()
	c := cpuTime()
	for i := 0; i < b.N; i++ {
		l, err := Open(o)
		if err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
	reportCPU(b, c)
}

// Command polaris-soak is the memory soak test: the headless cabinet in
// chaos play (polaris-devkit headless -chaos SEED -fast) against a separate
// polaris-central serve on loopback, or with the central system embedded
// (-embedded, the devkit), for a number of rounds or a duration. Every
// -every it samples both processes: resident memory (/proc), the Go heap in
// use and goroutines (their -debug-addr endpoint, after a forced GC, so the
// heap is what is live), open file descriptors and SQLite connections
// (descriptors on a *.db file, one per connection), and the rounds the
// central store holds. It writes soak.csv and soak.png (one panel a series)
// into -out, heap profiles at the end of the warm-up and at the end
// (go tool pprof -top -diff_base heap-cabinet-warm.pb.gz heap-cabinet-end.pb.gz),
// and ends with one verdict line a series: flat or growing, by a slope test
// after the warm-up (see flat.go for the thresholds).
package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/cmd/internal/rtdebug"
)

type options struct {
	bin      string
	out      string
	data     string
	rounds   int64
	duration time.Duration
	every    time.Duration
	warmup   float64
	seed     uint64
	market   string
	embedded bool
	profRate int // GODEBUG=memprofilerate for both processes; 0: the runtime's default
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin", "directory of the polaris and polaris-central binaries")
	flag.StringVar(&o.out, "out", "soak", "directory for soak.csv, soak.png, the heap profiles and the processes' logs")
	flag.StringVar(&o.data, "data", "", "data directory (default: a new one under -out, removed at the end)")
	flag.Int64Var(&o.rounds, "rounds", 0, "stop after this many rounds (0: -duration)")
	flag.DurationVar(&o.duration, "duration", 10*time.Minute, "stop after this long (when -rounds is 0)")
	flag.DurationVar(&o.every, "every", 5*time.Second, "sampling interval")
	flag.Float64Var(&o.warmup, "warmup", 0.25, "share of the run (by rounds) that is warm-up, left out of the slope test")
	flag.Uint64Var(&o.seed, "seed", 1, "chaos seed")
	flag.StringVar(&o.market, "market", "demo", "market profile of the cabinet")
	again := flag.String("replot", "", "judge and plot this soak.csv again (a soak still running or interrupted) and exit")
	flag.IntVar(&o.profRate, "profile-rate", 0, "heap profile sampling, bytes a sample, for both processes (GODEBUG=memprofilerate); 0: the runtime's 512 KiB. A low rate resolves small leaks in the profiles but its records grow the resident memory")
	flag.BoolVar(&o.embedded, "embedded", false, "the central system embedded in the cabinet's process (the devkit), not a separate polaris-central")
	flag.Parse()
	var growing int
	var err error
	if *again != "" {
		growing, err = replot(*again, o.warmup)
	} else {
		growing, err = soak(o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris-soak:", err)
		os.Exit(2)
	}
	if growing > 0 {
		os.Exit(1)
	}
}

// proc is one measured child process.
type proc struct {
	name  string
	cmd   *exec.Cmd
	debug string // host:port of its rtdebug endpoint
	ready chan struct{}
	exit  chan error
	done  chan struct{} // closed once it was waited for
}

var debugLine = regexp.MustCompile(`debug endpoint on http://([^/]+)/debug/`)

// start runs the command with its stdout and stderr into log, and waits
// for its debug endpoint line (and, when readyWord is set, for that line on
// stdout).
func start(ctx context.Context, name, logPath, readyWord string, env []string, args ...string) (*proc, error) {
	lf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), env...)
	stderr, _ := cmd.StderrPipe()
	stdout, _ := cmd.StdoutPipe()
	// childproc: a soak killed or crashed (or stopped by a signal before
	// its own handler is set) does not leave its children playing; the
	// kernel sends them SIGTERM.
	if err := childproc.Start(cmd, syscall.SIGTERM); err != nil {
		lf.Close()
		return nil, err
	}
	p := &proc{name: name, cmd: cmd, ready: make(chan struct{}), exit: make(chan error, 1), done: make(chan struct{})}
	addr := make(chan string, 1)
	scan := func(r io.Reader, f func(string)) {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			fmt.Fprintln(lf, sc.Text())
			f(sc.Text())
		}
	}
	go scan(stderr, func(l string) {
		if m := debugLine.FindStringSubmatch(l); m != nil {
			addr <- m[1]
		}
	})
	readyOnce := false
	go scan(stdout, func(l string) {
		if !readyOnce && strings.TrimSpace(l) == readyWord {
			readyOnce = true
			close(p.ready)
		}
	})
	if readyWord == "" {
		close(p.ready)
	}
	go func() { p.exit <- cmd.Wait(); lf.Close(); close(p.done) }()
	select {
	case p.debug = <-addr:
	case err := <-p.exit:
		return nil, fmt.Errorf("%s exited before its debug endpoint opened (%v); see %s", name, err, logPath)
	case <-time.After(60 * time.Second):
		p.stop()
		return nil, fmt.Errorf("%s: no debug endpoint after a minute; see %s", name, logPath)
	case <-ctx.Done():
		p.stop()
		return nil, fmt.Errorf("%s: stopped while starting: %w", name, ctx.Err())
	}
	select {
	case <-p.ready:
	case err := <-p.exit:
		return nil, fmt.Errorf("%s exited before it was ready (%v); see %s", name, err, logPath)
	case <-time.After(2 * time.Minute):
		p.stop()
		return nil, fmt.Errorf("%s: not ready after two minutes; see %s", name, logPath)
	case <-ctx.Done():
		p.stop()
		return nil, fmt.Errorf("%s: stopped while starting: %w", name, ctx.Err())
	}
	return p, nil
}

func (p *proc) stop() {
	childproc.Stop(p.cmd, p.done, syscall.SIGTERM, 15*time.Second)
}

// procSample is one row's numbers for one process: the judged series
// first, then the memory classes that tell where RSS and the heap in use
// went (runtime/metrics and /proc; see rtdebug.Stats).
type procSample struct {
	RSS, Heap                uint64 // bytes
	Goroutines, FDs, SQLites int
	Live                     uint64 // the heap the GC marked live, bytes
	Mem                      memClasses
}

// memClasses are the runtime's memory classes and the resident memory's
// two halves, in bytes (objects in NObjects).
type memClasses struct {
	Objects, Unused, Free, Released, NObjects, Stacks, Other, Metadata, Profile, Goal, Total uint64
	RSSAnon, RSSFile                                                                         uint64 // RssAnon, RssFile in /proc/PID/status
}

// memColumns name memClasses' fields in the CSV, in order.
var memColumns = []string{"objects_bytes", "unused_bytes", "free_bytes", "released_bytes", "objects", "stacks_bytes",
	"other_bytes", "metadata_bytes", "profile_bytes", "gc_goal_bytes", "go_total_bytes", "rss_anon_bytes", "rss_file_bytes"}

func (m *memClasses) fields() []*uint64 {
	return []*uint64{&m.Objects, &m.Unused, &m.Free, &m.Released, &m.NObjects, &m.Stacks,
		&m.Other, &m.Metadata, &m.Profile, &m.Goal, &m.Total, &m.RSSAnon, &m.RSSFile}
}

// anonNotGo is the anonymous resident memory beyond what the Go runtime
// has mapped and not released: C-style allocations, such as modernc
// SQLite's libc heap (its page caches). It counts Go's mapped memory as
// all resident, so it errs low. The binary's resident pages are RSSFile.
func (s procSample) anonNotGo() float64 {
	return float64(s.Mem.RSSAnon) - float64(s.Mem.Total) + float64(s.Mem.Released)
}

var client = &http.Client{Timeout: 30 * time.Second}

// runtimeNumbers reads the process's heap in use (after a GC) and
// goroutines.
func (p *proc) runtimeNumbers() (rtdebug.Stats, error) {
	var rs rtdebug.Stats
	resp, err := client.Get("http://" + p.debug + "/debug/runtime?gc=1")
	if err != nil {
		return rs, fmt.Errorf("%s: %w", p.name, err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&rs); err != nil {
		return rs, fmt.Errorf("%s: runtime numbers: %w", p.name, err)
	}
	return rs, nil
}

// sample reads one row's numbers of the process. The heap and the
// goroutines are the lower of two readings 200 ms apart: what is live for
// a moment (a verification holding the ledger's image, a request in
// flight) rarely spans both, and it is what stays that a soak is after.
func (p *proc) sample() (procSample, error) {
	var s procSample
	rs, err := p.runtimeNumbers()
	if err != nil {
		return s, err
	}
	time.Sleep(200 * time.Millisecond)
	rs2, err := p.runtimeNumbers()
	if err != nil {
		return s, err
	}
	s.Heap, s.Goroutines, s.Live = min(rs.HeapInuse, rs2.HeapInuse), min(rs.Goroutines, rs2.Goroutines), min(rs.Live, rs2.Live)
	if rs2.HeapInuse < rs.HeapInuse {
		rs = rs2 // the classes of the reading the heap comes from
	}
	s.Mem = memClasses{Objects: rs.Objects, Unused: rs.Unused, Free: rs.Free, Released: rs.Released, NObjects: rs.NObjects,
		Stacks: rs.Stacks, Other: rs.Other, Metadata: rs.Metadata, Profile: rs.Profile, Goal: rs.Goal, Total: rs.Total}
	pid := p.cmd.Process.Pid
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	for _, l := range strings.Split(string(st), "\n") {
		if f := strings.Fields(l); len(f) >= 2 {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			switch f[0] {
			case "VmRSS:":
				s.RSS = kb * 1024
			case "RssAnon:":
				s.Mem.RSSAnon = kb * 1024
			case "RssFile:":
				s.Mem.RSSFile = kb * 1024
			}
		}
	}
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		return s, err
	}
	for _, fd := range fds {
		s.FDs++
		if t, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && strings.HasSuffix(t, ".db") {
			s.SQLites++
		}
	}
	return s, nil
}

// profile saves the process's heap profile (after a GC: live objects).
func (p *proc) profile(path string) error {
	resp, err := client.Get("http://" + p.debug + "/debug/pprof/heap?gc=1")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// roundCounter reads the rounds the central store holds for the cabinet.
type roundCounter struct{ db *sql.DB }

func (r *roundCounter) rounds() (int64, error) {
	var n sql.NullInt64
	err := r.db.QueryRow(`SELECT MAX(round) FROM rounds WHERE cabinet = 'dev-1'`).Scan(&n)
	return n.Int64, err
}

// soak runs the soak and returns how many series grew (its processes
// stopped and its data directory removed).
func soak(o options) (growing int, err error) {
	// SIGINT and SIGTERM from the start: a soak stopped while its
	// processes start stops them too (and ends the run when they play).
	ctx, stopSig := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSig()
	for _, b := range []string{"polaris-devkit", "polaris-central"} {
		if _, err := os.Stat(filepath.Join(o.bin, b)); err != nil {
			return 0, fmt.Errorf("%w (make build first)", err)
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return 0, err
	}
	if o.data == "" {
		d, err := os.MkdirTemp(o.out, "data-")
		if err != nil {
			return 0, err
		}
		defer os.RemoveAll(d)
		o.data = d
	}
	o.data, _ = filepath.Abs(o.data)
	bin := func(n string) string { b, _ := filepath.Abs(filepath.Join(o.bin, n)); return b }
	cabArgs := []string{bin("polaris-devkit"), "headless", "-data", filepath.Join(o.data, "cabinet"), "-market", o.market,
		"-fast", "-chaos", fmt.Sprint(o.seed), "-debug-addr", "127.0.0.1:0"}
	centralDB := filepath.Join(o.data, "cabinet", "central", "central.db")
	var env []string
	if o.profRate > 0 {
		env = append(env, "GODEBUG=memprofilerate="+strconv.Itoa(o.profRate))
	}
	var cen *proc
	if !o.embedded {
		// The CA stays offline (pkiDir, the cabinet's); the server gets
		// its export, without the CA key, or refuses to start.
		pkiDir, serverPKI := filepath.Join(o.data, "pki"), filepath.Join(o.data, "central-pki")
		for _, args := range [][]string{{"cabinet", "-dir", pkiDir, "-id", "dev-1"}, {"export", "-dir", pkiDir, "-to", serverPKI}} {
			if out, err := exec.Command(bin("polaris-central"), append([]string{"pki"}, args...)...).CombinedOutput(); err != nil {
				return 0, fmt.Errorf("pki %s: %v: %s", args[0], err, out)
			}
		}
		listen, err := freePort()
		if err != nil {
			return 0, err
		}
		cen, err = start(ctx, "central", filepath.Join(o.out, "central.log"), "", env, bin("polaris-central"), "serve",
			"-data", filepath.Join(o.data, "central"), "-pki", serverPKI, "-listen", listen, "-allow-unknown", "-debug-addr", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		defer cen.stop()
		cabArgs = append(cabArgs, "-central", listen, "-pki", pkiDir, "-id", "dev-1")
		centralDB = filepath.Join(o.data, "central", "central.db")
	}
	cab, err := start(ctx, "cabinet", filepath.Join(o.out, "cabinet.log"), "ready", env, cabArgs...)
	if err != nil {
		return 0, err
	}
	defer cab.stop()
	db, err := sql.Open("sqlite", "file:"+centralDB+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	rc := &roundCounter{db: db}

	csvPath := filepath.Join(o.out, "soak.csv")
	csv, err := os.Create(csvPath)
	if err != nil {
		return 0, err
	}
	defer csv.Close()
	fmt.Fprintln(csv, strings.Join(header, ","))
	mode := "separate central"
	if o.embedded {
		mode = "embedded central"
	}
	fmt.Fprintf(os.Stderr, "polaris-soak: %s, chaos seed %d, sampling every %v into %s\n", mode, o.seed, o.every, o.out)

	var rows []row
	begin := time.Now()
	warmTaken := false
	tick := time.NewTicker(o.every)
	defer tick.Stop()
	for {
		r := row{T: time.Since(begin).Seconds()}
		if r.Rounds, err = rc.rounds(); err != nil && !strings.Contains(err.Error(), "no such table") {
			return 0, fmt.Errorf("counting rounds: %w", err)
		}
		if r.Cab, err = cab.sample(); err != nil {
			return 0, err
		}
		if cen != nil {
			if r.Cen, err = cen.sample(); err != nil {
				return 0, err
			}
		}
		if n := len(rows); n > 0 && r.T > rows[n-1].T {
			r.Rate = float64(r.Rounds-rows[n-1].Rounds) / (r.T - rows[n-1].T)
		}
		rows = append(rows, r)
		fmt.Fprintln(csv, r.csv(cen != nil))
		if len(rows)%30 == 1 {
			fmt.Fprintf(os.Stderr, "polaris-soak: %s  %d rounds (%.1f/s)  cabinet %.1f MB RSS, heap %.1f MB, %d goroutines, %d fds   central %.1f MB RSS, heap %.1f MB, %d goroutines, %d fds\n",
				time.Duration(r.T*float64(time.Second)).Round(time.Second), r.Rounds, r.Rate,
				mb(r.Cab.RSS), mb(r.Cab.Heap), r.Cab.Goroutines, r.Cab.FDs, mb(r.Cen.RSS), mb(r.Cen.Heap), r.Cen.Goroutines, r.Cen.FDs)
		}
		progress := time.Since(begin).Seconds() / o.duration.Seconds()
		if o.rounds > 0 {
			progress = float64(r.Rounds) / float64(o.rounds)
		}
		if !warmTaken && progress >= o.warmup {
			warmTaken = true
			if err := profiles(o.out, "warm", cab, cen); err != nil {
				return 0, err
			}
		}
		if progress >= 1 {
			break
		}
		select {
		case <-ctx.Done():
			fmt.Fprintln(os.Stderr, "polaris-soak: interrupted; judging what was sampled")
		case err := <-cab.exit:
			cab.exit <- err
			return 0, fmt.Errorf("the cabinet exited (%v); see %s", err, filepath.Join(o.out, "cabinet.log"))
		case <-tick.C:
			continue
		}
		break
	}
	if err := profiles(o.out, "end", cab, cen); err != nil {
		return 0, err
	}
	csv.Close()
	pngPath := filepath.Join(o.out, "soak.png")
	warmAt := warmupIndex(rows, o.warmup)
	verdicts := judge(rows, warmAt, cen != nil)
	if err := plot(pngPath, rows, warmAt, verdicts, mode); err != nil {
		return 0, err
	}
	last := rows[len(rows)-1]
	fmt.Printf("soak: %s, %d rounds in %v (%.1f rounds/s), %d samples, warm-up the first %d rounds; %s, %s\n",
		mode, last.Rounds, time.Duration(last.T*float64(time.Second)).Round(time.Second), float64(last.Rounds)/last.T,
		len(rows), rows[warmAt].Rounds, csvPath, pngPath)
	return report(verdicts), nil
}

func profiles(out, when string, cab, cen *proc) error {
	if err := cab.profile(filepath.Join(out, "heap-cabinet-"+when+".pb.gz")); err != nil {
		return err
	}
	if cen != nil {
		return cen.profile(filepath.Join(out, "heap-central-"+when+".pb.gz"))
	}
	return nil
}

// warmupIndex is the first sample after the warm-up share of the rounds.
func warmupIndex(rows []row, share float64) int {
	last := rows[len(rows)-1].Rounds
	for i, r := range rows {
		if float64(r.Rounds) >= share*float64(last) {
			return i
		}
	}
	return 0
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

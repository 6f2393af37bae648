package crashtest

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// Config sets up a crash test.
type Config struct {
	Kills int
	Dir   string // work directory; a temporary one if empty
	Seed  int64  // 0: from the clock
	// One kill in StartShare (default 1/5) comes 0..StartWindow after the
	// child starts (during its open and repairs); the others come
	// 0..MaxDelay after it reported ready (during transactions).
	StartShare  float64
	StartWindow time.Duration
	MaxDelay    time.Duration
	// Child makes the command that runs RunChild with args (ParseChildArgs
	// reads them back).
	Child    func(args []string) *exec.Cmd
	Log      io.Writer // progress and every discrepancy
	Parallel bool      // the ledger's Parallel option
}

// Result counts what happened.
type Result struct {
	Kills         int
	Discrepancies int
	Acked         int64 // acknowledged transactions
	InFlight      int   // kills with a transaction in flight
	Applied       int   // … of which the ledger had applied
	Replays       int   // keyed transactions repeated by the next child
	Findings      map[string]int
	HarnessOpens  int           // restarts checked by a full Open+Verify in the harness
	ChildTime     time.Duration // wall time children ran
	CheckTime     time.Duration // wall time of the harness's checks
}

// ChildArgs renders a child's configuration as arguments.
func ChildArgs(c ChildConfig) []string {
	args := []string{"-a", c.DirA, "-b", c.DirB, "-seed", strconv.FormatInt(c.Seed, 10), "-first", strconv.FormatInt(c.FirstN, 10)}
	if c.Replay != nil {
		b, _ := json.Marshal(c.Replay)
		args = append(args, "-replay", string(b))
	}
	if c.Parallel {
		args = append(args, "-parallel")
	}
	return args
}

// ParseChildArgs reads ChildArgs back.
func ParseChildArgs(args []string) (ChildConfig, error) {
	var c ChildConfig
	fs := flag.NewFlagSet("crash-child", flag.ContinueOnError)
	fs.StringVar(&c.DirA, "a", "", "copy A directory")
	fs.StringVar(&c.DirB, "b", "", "copy B directory")
	fs.Int64Var(&c.Seed, "seed", 1, "random seed")
	fs.Int64Var(&c.FirstN, "first", 1, "first op number")
	fs.BoolVar(&c.Parallel, "parallel", false, "commit both copies at once")
	replay := fs.String("replay", "", "op to repeat first (JSON)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if *replay != "" {
		c.Replay = new(Op)
		if err := json.Unmarshal([]byte(*replay), c.Replay); err != nil {
			return c, err
		}
	}
	if c.DirA == "" || c.DirB == "" {
		return c, errors.New("crash-child: -a and -b are required")
	}
	return c, nil
}

// Run performs cfg.Kills kill-and-restart cycles.
func Run(cfg Config) (Result, error) {
	res := Result{Findings: map[string]int{}}
	if cfg.Child == nil {
		return res, errors.New("crashtest: no child command")
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.MaxDelay == 0 {
		cfg.MaxDelay = 100 * time.Millisecond
	}
	if cfg.StartWindow == 0 {
		cfg.StartWindow = 120 * time.Millisecond
	}
	if cfg.StartShare == 0 {
		cfg.StartShare = 0.2
	}
	if cfg.Seed == 0 {
		cfg.Seed = time.Now().UnixNano()
	}
	if cfg.Dir == "" {
		d, err := os.MkdirTemp("", "polaris-crash-ledger-")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(d)
		cfg.Dir = d
	}
	fmt.Fprintf(cfg.Log, "crash test: seed %d, dir %s\n", cfg.Seed, cfg.Dir)
	rng := rand.New(rand.NewSource(cfg.Seed))
	opts := ledger.Options{DirA: filepath.Join(cfg.Dir, "a"), DirB: filepath.Join(cfg.Dir, "b"), Parallel: cfg.Parallel}
	l, err := ledger.Create(opts, "crashtest")
	if err != nil {
		return res, err
	}
	l.Close()

	m := newModel()
	nextN := int64(1)
	var replay *Op
	replayApplied := false
	discrepancy := func(format string, a ...any) {
		res.Discrepancies++
		fmt.Fprintf(cfg.Log, "DISCREPANCY after kill %d: %s\n", res.Kills, fmt.Sprintf(format, a...))
	}
	for res.Kills < cfg.Kills {
		cc := ChildConfig{DirA: opts.DirA, DirB: opts.DirB, Seed: rng.Int63(), FirstN: nextN, Replay: replay, Parallel: cfg.Parallel}
		atStart := rng.Float64() < cfg.StartShare
		delay := time.Duration(rng.Int63n(int64(cfg.MaxDelay)))
		if atStart {
			delay = time.Duration(rng.Int63n(int64(cfg.StartWindow)))
		}
		t0 := time.Now()
		lines, childErr, err := runAndKill(cfg.Child(ChildArgs(cc)), atStart, delay)
		if err != nil {
			return res, err
		}
		res.Kills++
		t1 := time.Now()
		res.ChildTime += t1.Sub(t0)
		if childErr != "" {
			discrepancy("child stopped by itself: %s", childErr)
		}
		var inflight *Op
		for _, ln := range lines {
			switch {
			case strings.HasPrefix(ln, "B "):
				var o Op
				if err := json.Unmarshal([]byte(ln[2:]), &o); err != nil {
					if inflight == nil {
						discrepancy("bad line %q", ln)
					}
					continue // the kill cut the line: the call never started
				}
				inflight = &o
				if o.N >= nextN {
					nextN = o.N + 1
				}
			case strings.HasPrefix(ln, "A "):
				n, _ := strconv.ParseInt(ln[2:], 10, 64)
				if inflight == nil || inflight.N != n {
					discrepancy("ack %d without its op", n)
					continue
				}
				if !(inflight.Replay && replayApplied) {
					m.apply(*inflight)
				}
				if inflight.Replay {
					res.Replays++
				}
				res.Acked++
				inflight = nil
			case strings.HasPrefix(ln, "E "), strings.HasPrefix(ln, "X "):
				discrepancy("child: %s", ln)
				inflight = nil
			}
		}

		// After the restart: read both copies without touching them, and
		// every other time also open, repair and verify like a cabinet.
		var view string
		in, err := ledger.Inspect(opts.DirA, opts.DirB)
		if err != nil {
			return res, err
		}
		for _, c := range in.Copies {
			if !c.Valid {
				res.Findings["copy "+c.Name+" not valid on its own (kill during a repair)"]++
			}
		}
		if in.Copies[0].Valid && in.Copies[1].Valid && in.Copies[0].Seq != in.Copies[1].Seq {
			res.Findings[fmt.Sprintf("copies %d transaction(s) apart", int64(in.Copies[0].Seq)-int64(in.Copies[1].Seq))]++
		}
		if _, suspect := in.Credit(); suspect {
			discrepancy("inspection: no good copy: %s", in.Verdict)
			break
		}
		view, err = ledgerView(in.Ledger)
		if err != nil {
			return res, err
		}
		if rng.Intn(2) == 0 {
			res.HarnessOpens++
			l, err := ledger.Open(opts)
			if err != nil {
				return res, err
			}
			if e := l.RAMError(); e != nil {
				discrepancy("open: %v", e)
				l.Close()
				break
			}
			for _, f := range l.Findings() {
				res.Findings[strings.SplitN(f, ":", 2)[0]]++
			}
			if rep, err := l.Verify("crash test"); err != nil || len(rep.Rebuilt) > 0 {
				discrepancy("verify after open: %v %v", err, rep.Rebuilt)
			}
			v2, err := ledgerView(l)
			l.Close()
			if err != nil {
				return res, err
			}
			if v2 != view {
				discrepancy("open and inspection disagree:\n%s", diff(view, v2))
			}
		}

		res.CheckTime += time.Since(t1)
		want := m.view()
		replay = nil
		if inflight != nil {
			res.InFlight++
			with := m
			if !(inflight.Replay && replayApplied) {
				with = m.clone()
				with.apply(*inflight)
			}
			switch {
			case view == want:
			case view == with.view():
				res.Applied++
				m = with
				if inflight.Replay {
					replayApplied = true
				}
			default:
				discrepancy("in-flight %s neither absent nor complete:\n%s", inflight.Kind, diff(want, view))
			}
			if inflight.replayable() {
				if !inflight.Replay {
					replayApplied = view != want
				}
				o := *inflight
				replay = &o
			}
		} else if view != want {
			discrepancy("state differs from the acknowledged transactions:\n%s", diff(want, view))
		}
		if res.Discrepancies > 0 && view != m.view() {
			break // the model no longer follows the ledger
		}
		if res.Kills%100 == 0 {
			fmt.Fprintf(cfg.Log, "%d kills, %d acknowledged transactions, %d discrepancies\n", res.Kills, res.Acked, res.Discrepancies)
		}
	}
	return res, nil
}

// runAndKill starts cmd, SIGKILLs it delay after the start (atStart) or
// after it reported ready, and returns the lines it wrote to stdout.
func runAndKill(cmd *exec.Cmd, atStart bool, delay time.Duration) (lines []string, childErr string, err error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	var stderr strings.Builder
	cmd.Stderr = &limited{w: &stderr, n: 4096}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	done := make(chan []string)
	ready := make(chan struct{}, 1)
	go func() {
		var ls []string
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if sc.Text() == "R" {
				ready <- struct{}{}
			}
			ls = append(ls, sc.Text())
		}
		done <- ls
	}()
	var mu sync.Mutex
	exited := false
	kill := func() {
		mu.Lock()
		defer mu.Unlock()
		if !exited {
			cmd.Process.Signal(syscall.SIGKILL)
		}
	}
	var timer *time.Timer
	gone := make(chan struct{})
	if atStart {
		timer = time.AfterFunc(delay, kill)
	} else {
		go func() {
			select {
			case <-ready:
				select {
				case <-time.After(delay):
					kill()
				case <-gone:
				}
			case <-time.After(30 * time.Second):
				kill() // never got ready
			case <-gone:
			}
		}()
	}
	lines = <-done
	close(gone)
	mu.Lock()
	werr := cmd.Wait()
	exited = true
	mu.Unlock()
	if timer != nil {
		timer.Stop()
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return lines, "", nil
		}
	}
	return lines, fmt.Sprintf("%v: %s", werr, stderr.String()), nil
}

type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		q := p
		if len(q) > l.n {
			q = q[:l.n]
		}
		l.w.Write(q)
		l.n -= len(q)
	}
	return len(p), nil
}

// diff lists the lines only in a or only in b.
func diff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for l := range ma {
		if !mb[l] {
			out = append(out, "  want "+l)
		}
	}
	for l := range mb {
		if !ma[l] {
			out = append(out, "  got  "+l)
		}
	}
	return strings.Join(out, "\n")
}

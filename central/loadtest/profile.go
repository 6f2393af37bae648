package loadtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// What limits a run: each process's CPU over the measured part (from
// /proc, so the load generator, every node process and PostgreSQL's
// backends are told apart), the whole machine's busy share (it is shared),
// and on PostgreSQL what its client backends are doing, sampled from
// pg_stat_activity and pg_locks: whether one holds the nodes' batch lock,
// how many wait for it, and what the holder waits on.

// clkTck is USER_HZ, the unit of /proc/<pid>/stat's times (100 on Linux
// everywhere this runs).
const clkTck = 100

// serverBatchLock is central/server's batchLock key ("polb"): below 2³²,
// so pg_locks shows it as classid 0, objid the key.
const serverBatchLock = 0x706f6c62

// procGroup is a set of processes whose CPU is summed under one name.
type procGroup struct {
	name string
	pids func() []int
}

type profiler struct {
	groups []procGroup
	t0     time.Time
	cpu0   map[int]int64 // pid -> ticks at the start
	mach0  [2]int64      // machine busy, total jiffies

	pgURL    string
	interval time.Duration
	stop     chan struct{}
	done     chan struct{}
	mu       sync.Mutex
	samples  int
	states   map[string]int // backend state -> backend-samples
	held     int            // samples in which a backend held the batch lock
	waiting  int            // backend-samples waiting for the batch lock
	backends int            // backend-samples in all
	pgErr    error
}

// Profile is what the profiler measured.
type Profile struct {
	Elapsed time.Duration
	// CPU per group: cores used on average (1.0 = one core all the time).
	Groups  []GroupCPU
	Machine float64 // the machine's busy share of all its cores, 0..1

	Samples  int            // pg_stat_activity samples
	Backends float64        // client backends on average
	States   map[string]int // "<state> <wait_event_type>:<wait_event>" (or "batch lock: …") -> backend-samples
	Held     float64        // share of samples in which the batch lock was held
	Waiting  float64        // backends waiting for the batch lock, on average
	PGErr    error
}

// GroupCPU is one group's CPU over the run.
type GroupCPU struct {
	Name  string
	Procs int
	Cores float64
}

func newProfiler(groups []procGroup, pgURL string) *profiler {
	return &profiler{groups: groups, pgURL: pgURL, interval: 50 * time.Millisecond, states: map[string]int{}}
}

func (p *profiler) start() {
	p.t0 = time.Now()
	p.cpu0 = map[int]int64{}
	for _, g := range p.groups {
		for _, pid := range g.pids() {
			if t, ok := procTicks(pid); ok {
				p.cpu0[pid] = t
			}
		}
	}
	p.mach0 = machineTicks()
	if p.pgURL == "" {
		return
	}
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go p.sample()
}

// sample reads, every interval, what each client backend of the database
// is doing and whether it holds or waits for the batch lock.
func (p *profiler) sample() {
	defer close(p.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-p.stop; cancel() }()
	conn, err := pgx.Connect(ctx, p.pgURL)
	if err != nil {
		p.pgErr = err
		return
	}
	defer conn.Close(context.Background())
	const q = `SELECT coalesce(a.state, ''), coalesce(a.wait_event_type, ''), coalesce(a.wait_event, ''),
		l.pid IS NOT NULL, coalesce(l.granted, false)
	FROM pg_stat_activity a
	LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.classid = 0 AND l.objid = $1
	WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend'`
	tick := time.NewTicker(p.interval)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		rows, err := conn.Query(ctx, q, int64(serverBatchLock))
		if err != nil {
			if ctx.Err() == nil {
				p.pgErr = err
			}
			return
		}
		var n, waiting int
		held := false
		st := map[string]int{}
		for rows.Next() {
			var state, wt, we string
			var inLock, granted bool
			if err := rows.Scan(&state, &wt, &we, &inLock, &granted); err != nil {
				p.pgErr = err
				rows.Close()
				return
			}
			n++
			what := state
			// An idle backend waits for its client to send: ClientRead
			// says nothing more.
			if wt != "" && !(strings.HasPrefix(state, "idle") && we == "ClientRead") {
				what += " " + wt + ":" + we
			}
			switch {
			case inLock && granted:
				held = true
				st["holds the batch lock: "+what]++
			case inLock:
				waiting++
				st["waits for the batch lock"]++
			default:
				st[what]++
			}
		}
		rows.Close()
		p.mu.Lock()
		p.samples++
		p.backends += n
		p.waiting += waiting
		if held {
			p.held++
		}
		for k, v := range st {
			p.states[k] += v
		}
		p.mu.Unlock()
	}
}

// end stops the sampling and returns the profile of the run since start.
func (p *profiler) end() *Profile {
	el := time.Since(p.t0)
	if p.stop != nil {
		close(p.stop)
		<-p.done
	}
	m1 := machineTicks()
	pr := &Profile{Elapsed: el, States: map[string]int{}}
	if tot := m1[1] - p.mach0[1]; tot > 0 {
		pr.Machine = float64(m1[0]-p.mach0[0]) / float64(tot)
	}
	for _, g := range p.groups {
		gc := GroupCPU{Name: g.name}
		for _, pid := range g.pids() {
			t, ok := procTicks(pid)
			if !ok {
				continue
			}
			gc.Procs++
			// A process started during the run counts from 0.
			gc.Cores += float64(t-p.cpu0[pid]) / clkTck / el.Seconds()
		}
		pr.Groups = append(pr.Groups, gc)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pr.Samples, pr.PGErr = p.samples, p.pgErr
	if p.samples > 0 {
		pr.Backends = float64(p.backends) / float64(p.samples)
		pr.Held = float64(p.held) / float64(p.samples)
		pr.Waiting = float64(p.waiting) / float64(p.samples)
	}
	for k, v := range p.states {
		pr.States[k] = v
	}
	return pr
}

// Report is the profile in lines.
func (pr *Profile) Report() string {
	if pr == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CPU over the %.1f s run (cores, of the machine's 2; the machine %.0f%% busy in all):", pr.Elapsed.Seconds(), 100*pr.Machine)
	for _, g := range pr.Groups {
		fmt.Fprintf(&b, " %s %.2f (%d proc)", g.Name, g.Cores, g.Procs)
		if g != pr.Groups[len(pr.Groups)-1] {
			b.WriteString(";")
		}
	}
	b.WriteString("\n")
	if pr.PGErr != nil {
		fmt.Fprintf(&b, "pg_stat_activity sampling failed: %v\n", pr.PGErr)
	}
	if pr.Samples == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "PostgreSQL, %d samples of pg_stat_activity: %.1f client backends; the batch lock held in %.0f%% of samples, %.2f backends waiting for it on average\n",
		pr.Samples, pr.Backends, 100*pr.Held, pr.Waiting)
	keys := make([]string, 0, len(pr.States))
	for k := range pr.States {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return pr.States[keys[i]] > pr.States[keys[j]] })
	for _, k := range keys {
		fmt.Fprintf(&b, "  %5.2f backends %s\n", float64(pr.States[k])/float64(pr.Samples), k)
	}
	return b.String()
}

// procTicks is a process's user+system time in clock ticks.
func procTicks(pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields count from after its closing one.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	sy, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return u + sy, true
}

// procParent is a process's parent pid (0 if it is gone).
func procParent(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}

// machineTicks is the machine's busy and total jiffies from /proc/stat.
func machineTicks() [2]int64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return [2]int64{}
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var tot, idle int64
	for i, v := range f[1:] {
		n, _ := strconv.ParseInt(v, 10, 64)
		if i >= 8 { // guest times are already in user and nice
			break
		}
		tot += n
		if i == 3 || i == 4 { // idle, iowait
			idle += n
		}
	}
	return [2]int64{tot - idle, tot}
}

// postgresPids are the postmaster of the cluster in dir and its children,
// split into the client backends (cmdline "postgres: <user> <db> …") and
// the rest (WAL writer, checkpointer, …).
func postgresPids(dir string, backends bool) func() []int {
	return func() []int {
		b, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid"))
		if err != nil {
			return nil
		}
		line, _, _ := strings.Cut(string(b), "\n")
		pm, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil {
			return nil
		}
		var out []int
		if !backends {
			out = append(out, pm)
		}
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || procParent(pid) != pm {
				continue
			}
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			isBackend := strings.Contains(string(cmd), " loadtest ")
			if isBackend == backends {
				out = append(out, pid)
			}
		}
		return out
	}
}

// raisePostgres gives the cluster's processes the CPU weight the load
// test runs at under make's PRIO=1 (autogroup nice -15, nice -15): every
// PostgreSQL child calls setsid, so each backend is its own session and
// autogroup at nice 0, and would otherwise get one session's fair share
// of the loaded machine while the nodes and the SQLite store (inside its
// node) run at the raised weight. Needs root; returns how many it raised.
func raisePostgres(dir string) (int, error) {
	n := 0
	var first error
	for _, pids := range []func() []int{postgresPids(dir, false), postgresPids(dir, true)} {
		for _, pid := range pids() {
			err := os.WriteFile(fmt.Sprintf("/proc/%d/autogroup", pid), []byte("-15"), 0)
			if err == nil {
				err = syscall.Setpriority(syscall.PRIO_PROCESS, pid, -15)
			}
			if err != nil {
				if first == nil {
					first = fmt.Errorf("raise postgres pid %d: %w", pid, err)
				}
				continue
			}
			n++
		}
	}
	return n, first
}

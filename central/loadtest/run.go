// Package loadtest drives the reference central system with n virtual
// cabinets on loopback and measures outcomes per second and latency, then
// audits the Magic Stars jackpot books.
//
// It starts polaris-central's server in-process (a generated development
// PKI, a fresh SQLite store with synchronous=FULL, jackpot pools of a
// generated configuration), gives each virtual cabinet its own certificate
// and its own real link client (mutual TLS, Ed25519-verified bodies), and
// lets every cabinet play Magic Stars rounds back to back: RequestOutcome,
// then CommitOutcome, each answered only once durable.
//
// On PostgreSQL it runs several nodes, in-process or (Options.NodeCommand)
// as polaris-central processes (the SQLite single node too), and reports
// each process's CPU and what PostgreSQL's backends did (profile.go); it
// can fail them under load: a node
// SIGKILLed and started again (FailNode), the primary killed and its
// synchronous replica promoted (FailDB); with Mix the cabinets also send
// outbox events and vouchers. The audit then checks every round, voucher
// and event against what the cabinets were answered (audit.go), and the
// failover report says per phase what the cabinets saw (failover.go).
package loadtest

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/jackpot/jpserver"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// Options bound and shape a run. Either Duration or Rounds must be set.
type Options struct {
	Cabinets int
	Duration time.Duration // how long the cabinets play; 0 = until Rounds
	Rounds   int           // rounds per cabinet; 0 = until Duration
	Halls    int           // halls the cabinets stand in (default 4)
	// Rate > 0 paces the cabinets: together they start Rate rounds per
	// second, each cabinet one every Cabinets/Rate seconds (a real cabinet
	// spends seconds presenting each round). 0: back to back, which
	// measures capacity; latency is then Cabinets / throughput by Little's
	// law.
	Rate float64
	// Every > 0 paces each cabinet to one round per Every (Rate =
	// Cabinets/Every): real cabinets spend seconds presenting a round.
	Every  time.Duration
	Mirror bool // replay each outcome with engine.Mirror on the cabinet side
	// SeparateCommits sends each round's commit as its own CommitOutcome
	// call (the protocol's first form) instead of carrying it in the next
	// RequestOutcome (OutcomeRequest.settled).
	SeparateCommits bool
	// Journal makes each virtual cabinet durable too, as its ledger would
	// be: WAGER before the request, OUTCOME (body and signature) after the
	// reply, SETTLE (with its outbox commit) after it, each fsynced, in one
	// group-committed file all cabinets share. Off, a cabinet keeps its
	// outbox in memory and the durability measured is the central
	// system's (a real cabinet's ledger runs on the cabinet's own disk).
	Journal     bool
	NoJackpot   bool          // run the server without the jackpot engine
	Dir         string        // data directory; "" = a temporary one, removed afterwards
	HitGap      int64         // > 0: every pool must be hit by seed + HitGap CZK, to force hits
	CallTimeout time.Duration // deadline of each call (default 10 s)
	Log         io.Writer     // setup steps; nil = quiet
	// Started, if set, is called when the clock starts (for profiling).
	Started func()
	// Postgres is the URL of an empty PostgreSQL database, or "auto" for a
	// throwaway cluster started in the data directory (as make
	// load-central-pg does; internal/pgcluster): the store is
	// there instead of a SQLite file, served by Nodes central nodes (default
	// 1); cabinet i prefers node i mod Nodes and fails over to the others.
	Postgres string
	Nodes    int
	// FailDB > 0 (with Postgres "auto"): the cluster gets a synchronous
	// streaming replica, and this long into the run the primary is killed
	// (immediate shutdown: a crash) and the replica promoted; the nodes
	// reconnect through the URL naming both. The result says how long no
	// outcome was answered.
	FailDB time.Duration
	// Retries per call (link.Config.Retries); default the link's.
	Retries int
	// NodeCommand, if set (with Postgres), runs each node as its own
	// polaris-central process instead of in this one: the command and the
	// arguments before "-config <file>", e.g. {"bin/polaris-central",
	// "serve"}; NodeEnv is added to its environment. A node can then be
	// SIGKILLed (FailNode).
	NodeCommand []string
	NodeEnv     []string
	// FailNode > 0 (with NodeCommand and Nodes ≥ 2): this long into the
	// run node 2 is SIGKILLed, and NodeDown (default 3 s) later started
	// again; FailDB, if set, then counts from the start of the run but
	// waits for node 2 to serve again.
	FailNode, NodeDown time.Duration
	// HomeProbe is how often a cabinet away from its first node asks that
	// node's health to go back (link.Config.HomeProbe; 0 the link's 30 s,
	// negative never).
	HomeProbe time.Duration
	// Mix adds to the rounds what else a cabinet sends: every 4th round
	// an event batch through the outbox, every 10th a voucher issued,
	// redeemed and confirmed; the audit then checks vouchers, the credit
	// mirror and events against what the cabinets were answered.
	Mix bool
	// RaisePostgres (root; with Postgres "auto"): the cluster's processes
	// get the CPU weight make's PRIO=1 gives the load test and its node
	// processes (each PostgreSQL backend is a session of its own).
	RaisePostgres bool
}

// Result is what a run measured.
type Result struct {
	Cabinets int
	Rate     float64 // the pacing asked for; 0 = back to back
	Outcomes int64
	Elapsed  time.Duration
	Outcome  []time.Duration // RequestOutcome latencies, sorted
	Commit   []time.Duration // CommitOutcome latencies, sorted
	// Commits is how rounds were committed: "carried" (in the next
	// RequestOutcome; Commit then holds only each cabinet's last, drained
	// alone), "separate" (a CommitOutcome each).
	Commits  string
	Journal  bool // the cabinets kept a durable journal (Options.Journal)
	Errors   int64
	FirstErr error
	LoadAvg  [2]string // /proc/loadavg before and after: the machine is shared
	// CPU is the process's user+system time during the measured part
	// (server and cabinets together): with the machine shared, outcomes
	// per CPU-second says what both cores would carry.
	CPU time.Duration

	// The database failover (Options.FailDB): when the primary was
	// killed (into the run), how long the promotion took, and the longest
	// time in which no outcome was answered (the time without service).
	FailedAt, Promoted, MaxGap time.Duration
	lastDone                   time.Time
	Nodes                      int    // central nodes
	Store                      string // "sqlite" or "postgres"
	// Profile is the per-process CPU and PostgreSQL's sampled backend
	// states over the measured part: what limits the run.
	Profile *Profile
	Procs   bool // the nodes ran as processes of their own
	Audit   []jackpot.AuditLine
	Checks  []string // every cross-check's failure; empty = all passed
	stakes  map[string]int64
	hits    map[string]int64
	hitN    map[string]int64
	halls   map[string]string
	jackpot *jackpot.Jackpot

	// A failover run (Options.FailNode, FailDB with NodeCommand): what was
	// done when, the nodes' own lines about it, what the cabinets saw per
	// phase.
	timeline *timeline
	NodeLog  []string
	Phases   []Phase
	// What the cabinets were answered, for the audit (Options.Mix).
	Vouchers, Redeemed int64
	Events             int64
	bodies             map[string][][32]byte // cabinet -> SHA-256 of round n's body at n-1
	vouchers           map[string][]issuedVoucher
	events             map[string]int64
	calls              []call
	outcomesAt         []time.Duration
	t0                 time.Time
	nodeIndex          map[string]int32
	downs              []linkDown
}

type issuedVoucher struct {
	number string
	seq    uint64
	amount int64
}

// PerSecond is the outcomes per second.
func (r *Result) PerSecond() float64 { return float64(r.Outcomes) / r.Elapsed.Seconds() }

// Pct returns the p-th percentile of sorted latencies.
func Pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(float64(len(d))*p/100+0.5) - 1
	return d[max(0, min(i, len(d)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// Line is the one-line report.
func (r *Result) Line() string {
	paced := ""
	if r.Rate > 0 {
		paced = fmt.Sprintf(" paced at %.0f/s", r.Rate)
	}
	if r.Journal {
		paced += " with cabinet journals"
	}
	commits := "no commits"
	switch r.Commits {
	case "carried":
		commits = fmt.Sprintf("commits carried by the next request, last one alone: p50 %.1f ms, p99 %.1f ms", ms(Pct(r.Commit, 50)), ms(Pct(r.Commit, 99)))
	case "separate":
		commits = fmt.Sprintf("CommitOutcome p50 %.1f ms, p99 %.1f ms", ms(Pct(r.Commit, 50)), ms(Pct(r.Commit, 99)))
	}
	store := "SQLite, 1 node"
	if r.Store == "postgres" {
		store = fmt.Sprintf("PostgreSQL, %d nodes", r.Nodes)
	}
	if r.Procs {
		store += " (node processes)"
	}
	if r.FailedAt > 0 {
		store += fmt.Sprintf(", primary killed at %.1f s and the replica promoted in %.0f ms: longest time without an answered outcome %.0f ms", r.FailedAt.Seconds(), ms(r.Promoted), ms(r.MaxGap))
	}
	return fmt.Sprintf("%s: %d cabinets%s: %.0f outcomes/s, p50 %.1f ms, p99 %.1f ms (%d outcomes in %.1f s; p99.9 %.1f ms, max %.1f ms; %s; %d errors; CPU of this process %.2f ms/outcome = %.0f%% of %d cores; loadavg %s → %s)",
		store, r.Cabinets, paced, r.PerSecond(), ms(Pct(r.Outcome, 50)), ms(Pct(r.Outcome, 99)), r.Outcomes, r.Elapsed.Seconds(),
		ms(Pct(r.Outcome, 99.9)), ms(Pct(r.Outcome, 100)), commits,
		r.Errors, r.CPUPerOutcome(), 100*r.CPU.Seconds()/r.Elapsed.Seconds()/float64(runtime.GOMAXPROCS(0)), runtime.GOMAXPROCS(0),
		r.LoadAvg[0], r.LoadAvg[1])
}

// CPUPerOutcome is the process's CPU milliseconds per outcome (with its
// commit), server and cabinets together.
func (r *Result) CPUPerOutcome() float64 {
	if r.Outcomes == 0 {
		return 0
	}
	return ms(r.CPU) / float64(r.Outcomes)
}

// OK reports whether the run had no errors and every check passed.
func (r *Result) OK() bool { return r.Errors == 0 && len(r.Checks) == 0 }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// Run sets up the server and the cabinets, plays, and audits.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Cabinets < 1 || (o.Duration <= 0 && o.Rounds <= 0) {
		return nil, errors.New("loadtest: need Cabinets ≥ 1 and a Duration or Rounds bound")
	}
	if o.Halls < 1 {
		o.Halls = 4
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.Every > 0 {
		o.Rate = float64(o.Cabinets) / o.Every.Seconds()
	}
	logf := func(format string, a ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", a...)
		}
	}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "polaris-loadtest-")
		if err != nil {
			return nil, err
		}
		dir = d
		defer os.RemoveAll(dir)
	}

	// PKI: CA, server certificate, signing key; one certificate per cabinet.
	pkiDir := filepath.Join(dir, "pki")
	now := time.Now()
	if err := mint.Init(pkiDir, []string{"localhost", "127.0.0.1"}, now); err != nil {
		return nil, err
	}
	ids := make([]string, o.Cabinets)
	for i := range ids {
		ids[i] = fmt.Sprintf("load-%05d", i+1)
	}
	if err := parallelN(ids, 2*runtime.GOMAXPROCS(0), func(id string) error {
		_, _, err := mint.IssueCabinet(pkiDir, id, now)
		return err
	}); err != nil {
		return nil, err
	}
	logf("pki: %d cabinet certificates in %s", len(ids), pkiDir)

	j, err := jackpot.New(Pools(o.Halls, o.HitGap), time.Now)
	if err != nil {
		return nil, err
	}
	halls := map[string]string{}
	for i, id := range ids {
		halls[id] = fmt.Sprintf("hall-%d", i%o.Halls+1)
	}
	tlsSrv, err := pki.ServerTLSDir(pkiDir)
	if err != nil {
		return nil, err
	}
	key, err := pki.LoadSigningKey(filepath.Join(pkiDir, pki.SigningKey))
	if err != nil {
		return nil, err
	}
	dbPath := filepath.Join(dir, "central.db")
	var failAt *time.Timer
	var failMu sync.Mutex
	var failRes [2]time.Duration
	defer func() {
		if failAt != nil {
			failAt.Stop()
		}
	}()
	var primary, replica *pgcluster.Cluster
	procs := len(o.NodeCommand) > 0
	if o.Postgres == "auto" {
		// In the system temporary directory: the postgres user cannot
		// enter ours (0700, root's).
		cl, err := pgcluster.Start("")
		if err != nil {
			return nil, err
		}
		defer cl.Stop()
		primary = cl
		if o.Postgres, err = cl.CreateDatabase("loadtest"); err != nil {
			return nil, err
		}
		logf("PostgreSQL on 127.0.0.1:%d (%s)", cl.Port, cl.Dir)
		if o.FailDB > 0 {
			if replica, err = cl.StartReplica(); err != nil {
				return nil, err
			}
			defer replica.Stop()
			o.Postgres = pgcluster.FailoverURL("loadtest", cl, replica)
			logf("synchronous replica on 127.0.0.1:%d", replica.Port)
		}
		if o.FailDB > 0 && !procs {
			started := o.Started
			o.Started = func() {
				if started != nil {
					started()
				}
				t0 := time.Now()
				failAt = time.AfterFunc(o.FailDB, func() {
					failedAt := time.Since(t0)
					p0 := time.Now()
					if err := cl.Kill(); err != nil {
						logf("kill the primary: %v", err)
					}
					if err := replica.Promote(); err != nil {
						logf("promote the replica: %v", err)
					}
					failMu.Lock()
					failRes = [2]time.Duration{failedAt, time.Since(p0)}
					failMu.Unlock()
					logf("primary killed at %v, replica promoted in %v", failedAt, failRes[1])
				})
			}
		}
	}
	if o.Postgres != "" {
		dbPath = o.Postgres
	}
	if o.Nodes < 1 || o.Postgres == "" {
		o.Nodes = 1
	}
	if procs && o.Postgres == "" && (o.FailNode > 0 || o.FailDB > 0) {
		return nil, errors.New("loadtest: failing nodes or the database needs a PostgreSQL store")
	}
	if o.NodeDown <= 0 {
		o.NodeDown = 3 * time.Second
	}
	var srvs []*server.Server
	var nodes []*node
	var addrs []string
	closed := false
	defer func() {
		if !closed {
			for _, s := range srvs {
				s.Close()
			}
			for _, nd := range nodes {
				nd.stop()
			}
		}
	}()
	if procs {
		// The probe cabinet only says Hello, to tell when a restarted
		// node serves again; it plays no round.
		if _, _, err := mint.IssueCabinet(pkiDir, probeCabinet, now); err != nil {
			return nil, err
		}
		nh := map[string]string{probeCabinet: "hall-1"}
		for cab, h := range halls {
			nh[cab] = h
		}
		nodeDB := o.Postgres // "": SQLite, the node's own data_dir/central.db
		if nodes, err = setupNodes(o, dir, pkiDir, nodeDB, nh); err != nil {
			return nil, err
		}
		// A start that fails half-way, or any error return below, stops
		// the nodes started (stop does nothing for a node stopped).
		defer func() {
			for _, nd := range nodes {
				nd.stop()
			}
		}()
		if nodeDB == "" {
			dbPath = filepath.Join(nodes[0].dir, "central.db")
		}
		// One after another: the first migrates the database and writes
		// the store marker the others then check.
		for _, nd := range nodes {
			if err := nd.start(60 * time.Second); err != nil {
				return nil, err
			}
			addrs = append(addrs, nd.addr)
			logf("node %d: polaris-central pid %d on %s (log %s)", nd.k, nd.pid(), nd.addr, nd.log)
		}
	}
	for k := 0; k < o.Nodes && !procs; k++ {
		scfg := server.Config{DBPath: dbPath, TLS: tlsSrv, SigningKey: key, Halls: halls, Now: time.Now}
		if !o.NoJackpot {
			// Each node its own engine on the shared pools.
			jk := j
			if k > 0 {
				if jk, err = jackpot.New(Pools(o.Halls, o.HitGap), time.Now); err != nil {
					return nil, err
				}
			}
			scfg.Jackpots = jpserver.New(jk)
		}
		srv, err := server.New(scfg)
		if err != nil {
			return nil, err
		}
		srvs = append(srvs, srv)
		addr, err := srv.Listen("127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		addrs = append(addrs, addr.String())
		logf("node %d on %s", k+1, addr)
	}
	logf("store %s", redact(dbPath))

	g, err := engine.Lookup(engine.MagicStars)
	if err != nil {
		return nil, err
	}
	pub := key.Public().(ed25519.PublicKey)
	clients := make([]*link.Client, len(ids))
	outboxes := make([]*link.MemOutbox, len(ids))
	for i, id := range ids {
		tc, err := pki.CabinetTLSDir(pkiDir, id, "localhost")
		if err != nil {
			return nil, err
		}
		outboxes[i] = &link.MemOutbox{}
		// Cabinet i's list starts at node i mod Nodes.
		var list []string
		for k := range addrs {
			list = append(list, addrs[(i+k)%len(addrs)])
		}
		lc := link.Config{Addr: strings.Join(list, ","), TLS: tc, Cabinet: id, SigningKey: pub,
			Games: []engine.Game{g}, CallTimeout: o.CallTimeout, Retries: o.Retries, Outbox: outboxes[i], CarryCommits: true,
			HomeProbe: o.HomeProbe}
		if o.Mix {
			lc.Credit = mixCredit
		}
		c, err := link.Dial(lc)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		clients[i] = c
	}
	var probe func(addr string) error
	if procs {
		tc, err := pki.CabinetTLSDir(pkiDir, probeCabinet, "localhost")
		if err != nil {
			return nil, err
		}
		probe = func(addr string) error {
			c, err := link.Dial(link.Config{Addr: addr, TLS: tc, Cabinet: probeCabinet, SigningKey: pub,
				Games: []engine.Game{g}, CallTimeout: 2 * time.Second, Retries: 1})
			if err != nil {
				return err
			}
			defer c.Close()
			ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			_, err = c.Hello(ctx)
			return err
		}
	}
	// Hello from every cabinet before the clock starts: TLS handshakes and
	// cabinet registration are not part of the measured rounds.
	if err := parallelN(clients, 64, func(c *link.Client) error {
		_, err := c.Hello(ctx)
		return err
	}); err != nil {
		return nil, fmt.Errorf("loadtest: hello: %w", err)
	}
	logf("%d cabinets connected", len(clients))

	res := &Result{Cabinets: o.Cabinets, Rate: o.Rate, halls: halls, jackpot: j, Commits: "carried", Journal: o.Journal, Nodes: o.Nodes, Store: "sqlite", Procs: procs}
	if o.Postgres != "" {
		res.Store = "postgres"
	}
	if o.SeparateCommits {
		res.Commits = "separate"
	}
	res.LoadAvg[0] = loadavg()
	if procs && (o.FailNode > 0 || o.FailDB > 0) {
		res.timeline = newTimeline(logf)
	}
	res.nodeIndex = map[string]int32{}
	for k, a := range addrs {
		res.nodeIndex[a] = int32(k)
	}
	quit := make(chan struct{})
	var scenarioDone chan struct{}
	res.t0 = time.Now()
	if res.timeline != nil {
		res.timeline.t0 = res.t0
		res.timeline.mark("", "%d cabinets start playing on %d nodes (pids %s)", len(clients), len(nodes), pids(nodes))
		scenarioDone = scenario(o, res.timeline, nodes, primary, replica, probe, quit)
	}
	if o.Started != nil {
		o.Started()
	}
	var jr *journal
	if o.Journal {
		if jr, err = openJournal(filepath.Join(dir, "cabinets.journal")); err != nil {
			return nil, err
		}
		defer jr.close()
	}
	if o.RaisePostgres && primary != nil {
		// After the cabinets' Hello: the nodes' pools are connected, so
		// the backends that will serve the run exist.
		for _, cl := range []*pgcluster.Cluster{primary, replica} {
			if cl == nil {
				continue
			}
			n, err := raisePostgres(cl.Dir)
			if err != nil {
				return nil, err
			}
			logf("PostgreSQL on port %d: %d processes raised to nice -15", cl.Port, n)
		}
	}
	prof := newProfiler(profileGroups(nodes, primary), o.Postgres)
	prof.start()
	cpu0 := cpuTime()
	play(ctx, o, clients, outboxes, jr, g, res)
	res.CPU = cpuTime() - cpu0
	res.Profile = prof.end()
	close(quit)
	if scenarioDone != nil {
		<-scenarioDone
		res.timeline.mark("", "%d cabinets done: %d outcomes, %d errors", len(clients), res.Outcomes, res.Errors)
		// Every node must serve at the end: one the cabinets all left
		// (they move on only when a call fails) is asked directly.
		for _, nd := range nodes {
			var err error
			for end := time.Now().Add(10 * time.Second); ; {
				if err = probe(nd.addr); err == nil || time.Now().After(end) {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if err != nil {
				res.timeline.mark("", "node %d does not answer a Hello at the end: %v", nd.k, err)
				res.Checks = append(res.Checks, fmt.Sprintf("node %d does not serve at the end: %v", nd.k, err))
			} else {
				res.timeline.mark("", "node %d answers a Hello at the end", nd.k)
			}
		}
		if d, ok := res.timeline.at(markDBKilled); ok {
			res.FailedAt = d
			if p, ok := res.timeline.at(markDBPromoted); ok {
				res.Promoted = p - d
			}
		}
		res.Phases = phases(res.timeline, res.calls, res.outcomesAt, res.downs, res.Elapsed, len(addrs))
		// A failure asked for and not done within the run (a node slow
		// to come back, the run too short) is a failed run, not a pass.
		for _, want := range []struct {
			asked bool
			mark  string
			what  string
		}{{o.FailNode > 0 && len(nodes) > 1, markNodeKilled, "node 2 was not killed"},
			{o.FailNode > 0 && len(nodes) > 1, markNodeServing, "node 2 did not serve again"},
			{o.FailDB > 0, markDBPromoted, "the database did not fail over"}} {
			if _, ok := res.timeline.at(want.mark); want.asked && !ok {
				res.Checks = append(res.Checks, want.what+" while the cabinets played (make the run longer)")
			}
		}
	}
	failMu.Lock()
	if failRes[0] > 0 {
		res.FailedAt, res.Promoted = failRes[0], failRes[1]
	}
	failMu.Unlock()
	res.LoadAvg[1] = loadavg()
	closed = true
	for _, srv := range srvs {
		if err := srv.Close(); err != nil {
			logf("server close: %v", err)
		}
	}
	for _, nd := range nodes {
		nd.stop()
		if res.timeline != nil {
			res.NodeLog = append(res.NodeLog, nd.databaseLines()...)
		}
	}
	if !o.NoJackpot {
		if err := res.audit(dbPath); err != nil {
			return res, err
		}
	}
	return res, nil
}

// probeCabinet is the extra cabinet certificate that asks a restarted
// node for a Hello.
const probeCabinet = "load-probe"

// mixCredit is every virtual cabinet's credit meters in a Mix run: enough
// bills in for every voucher it issues.
func mixCredit() (link.CreditMeters, error) {
	return link.CreditMeters{BillsIn: 100_000_000, Credit: 100_000_000}, nil
}

// profileGroups are the processes whose CPU the profile tells apart:
// this one (the cabinets, and the nodes when they run in it), each node
// process, PostgreSQL's client backends and its other processes.
func profileGroups(nodes []*node, pg *pgcluster.Cluster) []procGroup {
	self := os.Getpid()
	name := "load generator"
	if len(nodes) == 0 {
		name = "load generator with the nodes in it"
	}
	gs := []procGroup{{name: name, pids: func() []int { return []int{self} }}}
	for _, nd := range nodes {
		gs = append(gs, procGroup{name: fmt.Sprintf("node %d", nd.k), pids: func() []int {
			if p := nd.pid(); p != 0 {
				return []int{p}
			}
			return nil
		}})
	}
	if pg != nil {
		gs = append(gs, procGroup{name: "PostgreSQL backends", pids: postgresPids(pg.Dir, true)},
			procGroup{name: "PostgreSQL other", pids: postgresPids(pg.Dir, false)})
	}
	return gs
}

func pids(nodes []*node) string {
	var s []string
	for _, nd := range nodes {
		s = append(s, fmt.Sprint(nd.pid()))
	}
	return strings.Join(s, ", ")
}

// redact hides a URL's password in the log.
func redact(loc string) string {
	if u, err := url.Parse(loc); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxx")
			return u.String()
		}
	}
	return loc
}

// Pools is the generated jackpot configuration: hall-1 has its own pool,
// hall-2 and hall-3 share a group pool, the other halls feed the system
// pool. gap > 0 puts every ceiling gap CZK above its seed.
func Pools(halls int, gap int64) *jackpot.Config {
	cfg := &jackpot.Config{CZKPerEUR: 2500}
	for i := 1; i <= halls; i++ {
		cfg.Halls = append(cfg.Halls, jackpot.HallConfig{ID: fmt.Sprintf("hall-%d", i), Name: fmt.Sprintf("Hall %d", i)})
	}
	cfg.Pools = append(cfg.Pools,
		jackpot.PoolConfig{ID: "system", Name: "Magic Stars Jackpot", Scope: jackpot.ScopeSystem, Seed: 20000, MustHitBy: 100000, RateBP: 100},
		jackpot.PoolConfig{ID: "hall-1", Name: "Hall 1 Jackpot", Scope: jackpot.ScopeHall, Halls: []string{"hall-1"}, Seed: 5000, MustHitBy: 25000, RateBP: 50})
	if halls >= 3 {
		cfg.Pools = append(cfg.Pools, jackpot.PoolConfig{ID: "group-2-3", Name: "Group Jackpot", Scope: jackpot.ScopeGroup,
			Halls: []string{"hall-2", "hall-3"}, Seed: 10000, MustHitBy: 50000, RateBP: 75})
	}
	if gap > 0 {
		for i := range cfg.Pools {
			cfg.Pools[i].MustHitBy = cfg.Pools[i].Seed + gap
		}
	}
	return cfg
}

func play(ctx context.Context, o Options, clients []*link.Client, outboxes []*link.MemOutbox, jr *journal, g engine.Game, res *Result) {
	stakes := g.Stakes()
	if o.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Duration)
		defer cancel()
	}
	res.stakes, res.hits, res.hitN = map[string]int64{}, map[string]int64{}, map[string]int64{}
	res.bodies, res.vouchers, res.events = map[string][][32]byte{}, map[string][]issuedVoucher{}, map[string]int64{}
	var errs atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := res.t0
	if start.IsZero() {
		start = time.Now()
	}
	var period time.Duration
	if o.Rate > 0 {
		period = time.Duration(float64(len(clients)) / o.Rate * float64(time.Second))
	}
	// Why the cabinets' links went down: each Up→Down change and its
	// error, for the failover report.
	stopStates := make(chan struct{})
	var swg sync.WaitGroup
	for _, c := range clients {
		swg.Add(1)
		go func() {
			defer swg.Done()
			for {
				select {
				case ev := <-c.States():
					if ev.State == link.Down && ev.Err != nil {
						mu.Lock()
						res.downs = append(res.downs, linkDown{at: time.Since(start), cause: downCause(ev.Err)})
						mu.Unlock()
					}
				case <-stopStates:
					return
				}
			}
		}()
	}
	defer func() { close(stopStates); swg.Wait() }()
	// The cabinets' way back to their first node after it failed (the
	// harness makes its calls without link.Client.Run, which runs it).
	hctx, stopHome := context.WithCancel(ctx)
	for _, c := range clients {
		swg.Add(1)
		go func() { defer swg.Done(); c.ReturnHome(hctx) }()
	}
	defer stopHome()
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 1024)
			com := make([]time.Duration, 0, 1024)
			var calls []call
			var at []time.Duration
			var bodies [][32]byte
			var vouchers []issuedVoucher
			var events, vseq int64
			var staked int64
			hits, nh := map[string]int64{}, map[string]int64{}
			fail := func(err error) {
				errs.Add(1)
				mu.Lock()
				if res.FirstErr == nil {
					res.FirstErr = fmt.Errorf("%s: %w", c.Cabinet(), err)
				}
				mu.Unlock()
			}
			// answered records a call asked at t0 and answered now, by
			// the node the cabinet is on.
			nodeOf := func() int32 {
				if k, ok := res.nodeIndex[c.Endpoint()]; ok {
					return k
				}
				return -1
			}
			on := nodeOf()
			answered := func(kind byte, t0 time.Time) time.Duration {
				now := time.Now()
				node := nodeOf()
				calls = append(calls, call{kind: kind, start: t0.Sub(start), took: now.Sub(t0), node: node, from: on})
				on = node
				return now.Sub(t0)
			}
		rounds:
			for n := uint64(1); o.Rounds == 0 || n <= uint64(o.Rounds); n++ {
				if period > 0 {
					// Cabinet i's k-th round is due at start + i/Rate + (k−1)·period.
					due := start.Add(time.Duration(float64(i)/o.Rate*float64(time.Second)) + time.Duration(n-1)*period)
					if d := time.Until(due); d > 0 {
						select {
						case <-time.After(d):
						case <-ctx.Done():
						}
					}
				}
				if ctx.Err() != nil {
					break
				}
				stake := stakes[(int(n)+i)%len(stakes)]
				if jr != nil {
					if err := jr.append('W', i, n); err != nil {
						fail(err)
						break
					}
				}
				// Each call runs on its own deadline: a round begun is
				// finished even when the run's time is up.
				t0 := time.Now()
				out, err := c.RequestOutcome(context.Background(), n, g.ID(), g.ModelID(), stake)
				if err != nil {
					fail(err)
					break
				}
				lat = append(lat, answered('o', t0))
				bodies = append(bodies, sha256.Sum256(out.Body))
				mu.Lock()
				done := time.Now()
				if !res.lastDone.IsZero() && done.Sub(res.lastDone) > res.MaxGap {
					res.MaxGap = done.Sub(res.lastDone)
				}
				res.lastDone = done
				mu.Unlock()
				at = append(at, done.Sub(start))
				if jr != nil {
					if err := jr.append('O', i, n, out.Body, out.Signature); err != nil {
						fail(err)
						break
					}
				}
				staked += int64(stake)
				if out.Jackpot != nil {
					hits[out.Jackpot.Pool] += int64(out.Jackpot.Amount)
					nh[out.Jackpot.Pool]++
				}
				if o.Mirror {
					if err := out.Mirror(); err != nil {
						fail(err)
						break
					}
				}
				if jr != nil {
					if err := jr.append('S', i, n); err != nil {
						fail(err)
						break
					}
				}
				if o.Mix && n%4 == 0 {
					// An event batch through the outbox, as the ledger
					// queues it, sent before the round's commit is queued.
					evs := []link.Event{{Seq: events + 1, At: time.Now(), Kind: "round_played", Text: fmt.Sprint(n)},
						{Seq: events + 2, At: time.Now(), Kind: "meters", Text: fmt.Sprint(staked)}}
					if _, err := link.EnqueueEvents(outboxes[i], evs); err != nil {
						fail(err)
						break
					}
					events += 2
					t1 := time.Now()
					if err := c.DrainOutbox(context.Background()); err != nil {
						fail(err)
						break
					}
					answered('e', t1)
				}
				if o.Mix && n%10 == 0 {
					// A ticket printed, then put into (this) cabinet's
					// acceptor: issued, held, confirmed.
					vseq++
					amount := int64(100 + vseq)
					t1 := time.Now()
					v, err := c.IssueVoucher(context.Background(), engine.Money(amount), uint64(vseq))
					if err != nil {
						fail(fmt.Errorf("issue voucher %d: %w", vseq, err))
						break
					}
					answered('v', t1)
					vouchers = append(vouchers, issuedVoucher{number: v.Number, seq: uint64(vseq), amount: amount})
					t1 = time.Now()
					h, err := c.RedeemVoucher(context.Background(), v.Number)
					if err != nil {
						fail(fmt.Errorf("redeem voucher %d: %w", vseq, err))
						break
					}
					answered('r', t1)
					t1 = time.Now()
					if err := c.ConfirmRedeem(context.Background(), v.Number, h.Hold, h.Amount); err != nil {
						fail(fmt.Errorf("confirm voucher %d: %w", vseq, err))
						break
					}
					answered('c', t1)
				}
				switch {
				case o.SeparateCommits:
					t1 := time.Now()
					if err := c.CommitOutcome(context.Background(), n); err != nil {
						fail(err)
						break rounds
					}
					com = append(com, time.Since(t1))
				default:
					// Settled: the next RequestOutcome carries the commit.
					if _, err := link.EnqueueCommit(outboxes[i], n); err != nil {
						fail(err)
						break rounds
					}
				}
			}
			// The last round's commit goes alone, as the outbox drain
			// would send it.
			t1 := time.Now()
			if err := c.DrainOutbox(context.Background()); err != nil {
				fail(err)
			} else if k := outboxes[i].Len(); k != 0 {
				fail(fmt.Errorf("%d commits left in the outbox", k))
			}
			answered('d', t1)
			if !o.SeparateCommits {
				com = append(com, time.Since(t1))
			}
			mu.Lock()
			res.Outcome = append(res.Outcome, lat...)
			res.Commit = append(res.Commit, com...)
			res.calls = append(res.calls, calls...)
			res.outcomesAt = append(res.outcomesAt, at...)
			res.stakes[c.Cabinet()] = staked
			res.bodies[c.Cabinet()] = bodies
			res.vouchers[c.Cabinet()] = vouchers
			res.events[c.Cabinet()] = events
			res.Events += events
			res.Vouchers += int64(len(vouchers))
			for p, a := range hits {
				res.hits[p] += a
				res.hitN[p] += nh[p]
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.Outcomes = int64(len(res.Outcome))
	res.Errors = errs.Load()
	slices.Sort(res.Outcome)
	slices.Sort(res.Commit)
	slices.Sort(res.outcomesAt)
}

func parallelN[T any](items []T, n int, fn func(T) error) error {
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for _, it := range items {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := fn(it); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

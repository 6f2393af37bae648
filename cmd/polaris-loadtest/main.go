// Command polaris-loadtest runs n virtual cabinets against an in-process
// polaris-central on loopback (central/loadtest), prints
//
//	<n> cabinets: <x> outcomes/s, p50 <a> ms, p99 <b> ms (...)
//
// and then the jackpot audit. It stops by itself after -duration or
// -rounds; a failed check exits with status 1.
//
//	polaris-loadtest -cabinets 1000 -duration 20s
//
// With -postgres auto -nodes 3 -node-bin bin/polaris-central -fail-node 15s
// -fail-db 35s -mix (make failover-central-pg-full) the nodes are processes,
// one is SIGKILLed and restarted, then the database fails over, and the
// timeline and per-phase report come before the audit.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/central/loadtest"
	_ "github.com/polaris-vlt/polaris/engine/games"
)

func main() {
	var o loadtest.Options
	flag.IntVar(&o.Cabinets, "cabinets", 10, "virtual cabinets")
	flag.DurationVar(&o.Duration, "duration", 0, "how long the cabinets play (default 15s when -rounds is not set)")
	flag.IntVar(&o.Rounds, "rounds", 0, "rounds per cabinet (0 = until -duration)")
	flag.Float64Var(&o.Rate, "rate", 0, "pace the cabinets to start this many rounds per second in all (0 = back to back: capacity)")
	flag.IntVar(&o.Halls, "halls", 4, "halls the cabinets stand in (a hall pool, a group pool, the system pool)")
	flag.BoolVar(&o.Mirror, "mirror", false, "replay each outcome with engine.Mirror on the cabinet side (on the same cores)")
	flag.DurationVar(&o.Every, "every", 0, "pace each cabinet to one round per this interval, e.g. 2.5s (sets -rate to cabinets/every)")
	flag.BoolVar(&o.SeparateCommits, "separate-commits", false, "commit each round with its own CommitOutcome call instead of carrying it in the next RequestOutcome")
	flag.BoolVar(&o.Journal, "cabinet-journal", false, "make every virtual cabinet durable too: WAGER, OUTCOME and SETTLE fsynced (group-committed) in a journal, as its ledger would")
	flag.BoolVar(&o.NoJackpot, "no-jackpot", false, "run the server without the jackpot engine (to measure its cost)")
	flag.StringVar(&o.Dir, "dir", "", "data directory to keep (default: a temporary one, removed)")
	flag.Int64Var(&o.HitGap, "hit-gap", 0, "make every pool must-hit-by seed + this many CZK, to force many hits")
	flag.DurationVar(&o.CallTimeout, "call-timeout", 0, "deadline of each call (default 10s)")
	flag.StringVar(&o.Postgres, "postgres", "", `store on PostgreSQL: a database URL, or "auto" for a throwaway cluster (initdb as the postgres user); default SQLite`)
	flag.IntVar(&o.Nodes, "nodes", 1, "central nodes on the PostgreSQL store (-postgres)")
	flag.DurationVar(&o.FailDB, "fail-db", 0, "with -postgres auto: a synchronous replica, and this long into the run the primary killed and the replica promoted")
	flag.IntVar(&o.Retries, "retries", 0, "retries per call (default the link's 4)")
	nodeBin := flag.String("node-bin", "", "run each node as its own process of this polaris-central binary (`serve -config`); without -postgres (and with -beside-sqlite) the SQLite single node too")
	flag.DurationVar(&o.FailNode, "fail-node", 0, "with -node-bin and -nodes ≥ 2: this long into the run SIGKILL node 2, then start it again after -node-down")
	flag.DurationVar(&o.NodeDown, "node-down", 3e9, "how long node 2 stays killed (-fail-node)")
	flag.DurationVar(&o.HomeProbe, "home-probe", 0, "how often a cabinet away from its first node asks it to go back (default the link's 30s; negative: never)")
	flag.BoolVar(&o.Mix, "mix", false, "cabinets also send event batches through their outbox (every 4th round) and issue, redeem and confirm a voucher (every 10th); the audit checks both")
	flag.BoolVar(&o.RaisePostgres, "raise-postgres", false, "with -postgres auto (root): give the cluster's processes autogroup nice -15 and nice -15, the weight make's PRIO=1 gives this process and its children")
	beside := flag.Bool("beside-sqlite", false, "first run the same load against the SQLite single node, then the -postgres one: both lines in one run")
	cpu := flag.String("cpuprofile", "", "write a CPU profile of the measured part here")
	verbose := flag.Bool("v", false, "print setup steps")
	flag.Parse()
	if o.Duration == 0 && o.Rounds == 0 {
		o.Duration = 15e9
	}
	if *nodeBin != "" {
		o.NodeCommand = []string{*nodeBin, "serve"}
	}
	if *verbose {
		o.Log = os.Stderr
	}
	if *cpu != "" {
		f, err := os.Create(*cpu)
		if err != nil {
			fmt.Fprintln(os.Stderr, "polaris-loadtest:", err)
			os.Exit(1)
		}
		o.Started = func() { pprof.StartCPUProfile(f) }
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	if path := os.Getenv("POLARIS_LOADTEST_GOROUTINES"); path != "" && o.Duration > 0 {
		// Where every goroutine waits, half-way through: the profiling aid
		// that found where the time goes (README-load.md).
		started := o.Started
		o.Started = func() {
			if started != nil {
				started()
			}
			time.AfterFunc(o.Duration/2, func() {
				if f, err := os.Create(path); err == nil {
					pprof.Lookup("goroutine").WriteTo(f, 1)
					f.Close()
				}
			})
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *beside && o.Postgres != "" {
		so := o
		so.Postgres, so.Nodes, so.Started = "", 1, nil
		res, err := loadtest.Run(ctx, so)
		if err != nil {
			fmt.Fprintln(os.Stderr, "polaris-loadtest:", err)
			os.Exit(1)
		}
		report(res)
	}
	res, err := loadtest.Run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris-loadtest:", err)
		os.Exit(1)
	}
	pprof.StopCPUProfile()
	report(res)
}

func report(res *loadtest.Result) {
	fmt.Println(res.Line())
	fmt.Print(res.Profile.Report())
	if res.FirstErr != nil {
		fmt.Println("first error:", res.FirstErr)
	}
	fmt.Print(res.FailoverReport())
	fmt.Print(res.AuditReport())
	fmt.Print(res.MixReport())
	if !res.OK() {
		fmt.Println("FAILED")
		os.Exit(1)
	}
}

// Command polaris-loadtest drives the reference central system with n
// virtual cabinets on loopback and reports throughput and latency, then
// audits the Magic Stars jackpot books.
//
// It starts polaris-central's server in-process (a generated development
// PKI, a fresh SQLite store with synchronous=FULL, the jackpot pools of a
// generated configuration), gives each virtual cabinet its own certificate
// and its own real link client (mutual TLS, Ed25519-verified bodies), and
// lets every cabinet play Magic Stars rounds back to back: RequestOutcome,
// then CommitOutcome, each answered only once durable. It stops by itself
// after -duration or -rounds, prints
//
//	<x> outcomes/s, p50 <a> ms, p99 <b> ms (...)
//
// and checks seed + contributions − hits = pool for every pool, plus the
// contributions the cabinets' stakes imply and the hits the signed bodies
// carried. A failed check exits with status 1.
//
//	polaris-loadtest -cabinets 1000 -duration 20s
package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/jackpot/jpserver"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "polaris-loadtest:", err)
		os.Exit(1)
	}
}

type options struct {
	cabinets int
	duration time.Duration
	rounds   int
	halls    int
	mirror   bool
	commit   bool
	dir      string
	keep     bool
	cpuprof  string
	ceiling  int64
	timeout  time.Duration
	verbose  bool
}

func run() error {
	var o options
	flag.IntVar(&o.cabinets, "cabinets", 10, "virtual cabinets")
	flag.DurationVar(&o.duration, "duration", 15*time.Second, "how long the cabinets play (0 = until -rounds)")
	flag.IntVar(&o.rounds, "rounds", 0, "rounds per cabinet (0 = until -duration)")
	flag.IntVar(&o.halls, "halls", 4, "halls the cabinets stand in (hall pools, a group pool, the system pool)")
	flag.BoolVar(&o.mirror, "mirror", false, "replay each outcome with engine.Mirror on the cabinet side (costs the same 2 cores)")
	flag.BoolVar(&o.commit, "commit", true, "send CommitOutcome after each round")
	flag.StringVar(&o.dir, "dir", "", "data directory (default: a temporary one, removed afterwards)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary data directory")
	flag.StringVar(&o.cpuprof, "cpuprofile", "", "write a CPU profile of the run here")
	flag.Int64Var(&o.ceiling, "must-hit-by", 0, "override every pool's must-hit-by (CZK), to force many hits")
	flag.DurationVar(&o.timeout, "call-timeout", 10*time.Second, "deadline of each call")
	flag.BoolVar(&o.verbose, "v", false, "print setup steps")
	flag.Parse()
	if o.cabinets < 1 || (o.duration <= 0 && o.rounds <= 0) {
		return errors.New("need -cabinets ≥ 1 and a -duration or -rounds bound")
	}
	if o.halls < 1 {
		o.halls = 1
	}

	dir := o.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "polaris-loadtest-")
		if err != nil {
			return err
		}
		dir = d
		if !o.keep {
			defer os.RemoveAll(dir)
		}
	}
	logf := func(format string, a ...any) {
		if o.verbose {
			fmt.Fprintf(os.Stderr, format+"\n", a...)
		}
	}

	// PKI: CA, server certificate, signing key; one certificate per cabinet.
	pkiDir := filepath.Join(dir, "pki")
	now := time.Now()
	if err := pki.Init(pkiDir, []string{"localhost", "127.0.0.1"}, now); err != nil {
		return err
	}
	ids := make([]string, o.cabinets)
	for i := range ids {
		ids[i] = fmt.Sprintf("load-%05d", i+1)
	}
	if err := parallel(ids, func(id string) error { _, _, err := pki.IssueCabinet(pkiDir, id, now); return err }); err != nil {
		return err
	}
	logf("pki: %d cabinet certificates in %s", len(ids), pkiDir)

	// Jackpot pools: hall 1 has its own pool, halls 2 and 3 share a group
	// pool, the rest feed the system pool.
	cfg := loadConfig(o)
	j, err := jackpot.New(cfg, time.Now)
	if err != nil {
		return err
	}
	adapter := jpserver.New(j)
	halls := map[string]string{}
	for i, id := range ids {
		halls[id] = fmt.Sprintf("hall-%d", i%o.halls+1)
	}

	tlsSrv, err := pki.ServerTLSDir(pkiDir)
	if err != nil {
		return err
	}
	key, err := pki.LoadSigningKey(filepath.Join(pkiDir, pki.SigningKey))
	if err != nil {
		return err
	}
	srv, err := server.New(server.Config{
		DBPath: filepath.Join(dir, "central.db"), TLS: tlsSrv, SigningKey: key,
		Jackpots: adapter, Halls: halls, Now: time.Now,
	})
	if err != nil {
		return err
	}
	addr, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		srv.Close()
		return err
	}
	logf("server on %s, store %s", addr, filepath.Join(dir, "central.db"))

	g, err := engine.Lookup(engine.MagicStars)
	if err != nil {
		return err
	}
	pub := key.Public().(ed25519.PublicKey)
	clients := make([]*link.Client, len(ids))
	for i, id := range ids {
		tc, err := pki.CabinetTLSDir(pkiDir, id, "localhost")
		if err != nil {
			return err
		}
		c, err := link.Dial(link.Config{Addr: addr.String(), TLS: tc, Cabinet: id, SigningKey: pub,
			Games: []engine.Game{g}, CallTimeout: o.timeout})
		if err != nil {
			return err
		}
		defer c.Close()
		clients[i] = c
	}
	// Hello from every cabinet before the clock starts: TLS handshakes and
	// cabinet registration are not part of the measured rounds.
	if err := parallelN(clients, 64, func(c *link.Client) error {
		_, err := c.Hello(context.Background())
		return err
	}); err != nil {
		return fmt.Errorf("hello: %w", err)
	}
	logf("%d cabinets connected", len(clients))

	if o.cpuprof != "" {
		f, err := os.Create(o.cpuprof)
		if err != nil {
			return err
		}
		pprof.StartCPUProfile(f)
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}

	res := play(o, clients, g)
	srv.Close() // waits for the store; the audit reads the closed file below

	fmt.Printf("%d cabinets, %d outcomes in %.2f s: %.0f outcomes/s, p50 %.2f ms, p99 %.2f ms (p99.9 %.2f ms, max %.2f ms; commit p50 %.2f ms, p99 %.2f ms; %d errors; GOMAXPROCS %d)\n",
		o.cabinets, res.n, res.elapsed.Seconds(), float64(res.n)/res.elapsed.Seconds(),
		ms(res.pct(res.lat, 50)), ms(res.pct(res.lat, 99)), ms(res.pct(res.lat, 99.9)), ms(res.pct(res.lat, 100)),
		ms(res.pct(res.commit, 50)), ms(res.pct(res.commit, 99)), res.errors.Load(), runtime.GOMAXPROCS(0))
	if res.firstErr != nil {
		fmt.Fprintln(os.Stderr, "first error:", res.firstErr)
	}
	ok, err := audit(filepath.Join(dir, "central.db"), j, halls, res)
	if err != nil {
		return err
	}
	if !ok || res.errors.Load() != 0 {
		return errors.New("FAILED")
	}
	return nil
}

func loadConfig(o options) *jackpot.Config {
	ceil := func(def int64) int64 {
		if o.ceiling > 0 {
			return o.ceiling
		}
		return def
	}
	cfg := &jackpot.Config{CZKPerEUR: 2500}
	for i := 1; i <= o.halls; i++ {
		cfg.Halls = append(cfg.Halls, jackpot.HallConfig{ID: fmt.Sprintf("hall-%d", i), Name: fmt.Sprintf("Hall %d", i)})
	}
	cfg.Pools = append(cfg.Pools, jackpot.PoolConfig{ID: "system", Name: "Magic Stars Jackpot", Scope: jackpot.ScopeSystem,
		Seed: 20000, MustHitBy: ceil(100000), RateBP: 100})
	if o.halls >= 1 {
		cfg.Pools = append(cfg.Pools, jackpot.PoolConfig{ID: "hall-1", Name: "Hall 1 Jackpot", Scope: jackpot.ScopeHall,
			Halls: []string{"hall-1"}, Seed: 5000, MustHitBy: ceil(25000), RateBP: 50})
	}
	if o.halls >= 3 {
		cfg.Pools = append(cfg.Pools, jackpot.PoolConfig{ID: "group-2-3", Name: "Group Jackpot", Scope: jackpot.ScopeGroup,
			Halls: []string{"hall-2", "hall-3"}, Seed: 10000, MustHitBy: ceil(50000), RateBP: 75})
	}
	for i := range cfg.Pools {
		if cfg.Pools[i].MustHitBy <= cfg.Pools[i].Seed {
			cfg.Pools[i].MustHitBy = cfg.Pools[i].Seed + 1
		}
	}
	return cfg
}

type result struct {
	n        int64
	elapsed  time.Duration
	lat      []time.Duration // RequestOutcome, sorted
	commit   []time.Duration // CommitOutcome, sorted
	errors   atomic.Int64
	firstErr error
	stakes   map[string]int64 // cabinet → Σ stake (CZK) of its rounds
	hits     map[string]int64 // pool → Σ paid CZK from the signed bodies
	hitCount map[string]int64
}

func (r *result) pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(float64(len(d))*p/100+0.5) - 1
	return d[max(0, min(i, len(d)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func play(o options, clients []*link.Client, g engine.Game) *result {
	stakes := g.Stakes()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if o.duration > 0 {
		ctx, cancel = context.WithTimeout(ctx, o.duration)
		defer cancel()
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		select {
		case <-sig:
			cancel()
		case <-ctx.Done():
		}
	}()

	res := &result{stakes: map[string]int64{}, hits: map[string]int64{}, hitCount: map[string]int64{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 1024)
			com := make([]time.Duration, 0, 1024)
			var staked int64
			hits := map[string]int64{}
			nh := map[string]int64{}
			fail := func(err error) {
				res.errors.Add(1)
				mu.Lock()
				if res.firstErr == nil {
					res.firstErr = fmt.Errorf("%s: %w", c.Cabinet(), err)
				}
				mu.Unlock()
			}
			for n := uint64(1); o.rounds == 0 || n <= uint64(o.rounds); n++ {
				if ctx.Err() != nil {
					break
				}
				stake := stakes[(int(n)+i)%len(stakes)]
				// Calls run on their own deadline: a round begun is finished
				// even when the run's time is up.
				t0 := time.Now()
				out, err := c.RequestOutcome(context.Background(), n, g.ID(), g.ModelID(), stake)
				if err != nil {
					fail(err)
					break
				}
				lat = append(lat, time.Since(t0))
				staked += int64(stake)
				if out.Jackpot != nil {
					hits[out.Jackpot.Pool] += int64(out.Jackpot.Amount)
					nh[out.Jackpot.Pool]++
				}
				if o.mirror {
					if err := out.Mirror(); err != nil {
						fail(err)
						break
					}
				}
				if o.commit {
					t1 := time.Now()
					if err := c.CommitOutcome(context.Background(), n); err != nil {
						fail(err)
						break
					}
					com = append(com, time.Since(t1))
				}
			}
			mu.Lock()
			res.lat = append(res.lat, lat...)
			res.commit = append(res.commit, com...)
			res.stakes[c.Cabinet()] = staked
			for p, a := range hits {
				res.hits[p] += a
				res.hitCount[p] += nh[p]
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	res.n = int64(len(res.lat))
	slices.Sort(res.lat)
	slices.Sort(res.commit)
	return res
}

func parallel(ids []string, fn func(string) error) error {
	return parallelN(ids, runtime.GOMAXPROCS(0)*2, fn)
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

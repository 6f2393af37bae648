// Package sim runs the production Game.Play path in parallel on seeded
// streams and compares the result with a game's exact return: N, the sum of
// the round totals and of their squares (exact integer accumulators, in
// minor units), the z-score against theory, the 99 % interval, and a
// batch-group check (slotmath §2.2). It prints a progress bar when asked.
package sim

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/bits"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// Z99 is the two-sided 99 % normal quantile.
const Z99 = 2.5758293035489

// Config says what to simulate.
type Config struct {
	Game    engine.Game
	Stake   engine.Money
	N       int64  // rounds
	Workers int    // goroutines; <= 0 means 1
	Seed    uint64 // group g plays GroupSource(Seed, g): results do not depend on Workers
	Groups  int    // batch groups; <= 0 means 100 (fewer if N is small)
	// Theory is the exact RTP and sigma per unit stake at Stake; zero
	// values skip the comparison.
	TheoryRTP, TheorySigma float64
	// Progress, if set, receives a redrawn bar (\r) about every Tick.
	Progress io.Writer
	Tick     time.Duration
	Now      func() time.Time // clock for the progress rate; nil means no rate
}

// Group is one batch's accumulators.
type Group struct {
	N      int64  `json:"n"`
	Sum    int64  `json:"sum"`    // sum of totals, minor units
	SumSqH uint64 `json:"sumSqH"` // sum of squared totals, 128 bits
	SumSqL uint64 `json:"sumSqL"`
}

// GroupSource is group g's stream: a PCG whose two seed words are the
// first 16 bytes of SHA-256(seed, g) (big-endian words). Hashing keeps the
// streams of neighbouring seeds and groups unrelated, so runs with
// different seeds are independent samples that Pool may add up.
func GroupSource(seed uint64, g int) *draw.Seeded {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], seed)
	binary.BigEndian.PutUint64(b[8:], uint64(g))
	h := sha256.Sum256(b[:])
	return draw.NewSeeded(binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:16]))
}

func (g *Group) add(x int64) {
	g.N++
	g.Sum += x
	hi, lo := bits.Mul64(uint64(x), uint64(x))
	var c uint64
	g.SumSqL, c = bits.Add64(g.SumSqL, lo, 0)
	g.SumSqH += hi + c
}

// Result is a finished simulation. Its JSON (WriteJSON) is what Pool reads.
type Result struct {
	Game    engine.GameID `json:"game"`
	ModelID string        `json:"modelId"`
	Stake   engine.Money  `json:"stake"`
	// Seeds of the runs in it: one for a run, several for a pool.
	Seeds  []uint64 `json:"seeds"`
	N      int64    `json:"n"`
	Sum    *big.Int `json:"sum"` // sum of round totals, minor units
	SumSq  *big.Int `json:"sumSq"`
	Groups []Group  `json:"groups"`

	RTP   float64 `json:"rtp"` // sample mean and sd per unit stake
	Sigma float64 `json:"sigma"`
	// Against theory (when given).
	TheoryRTP      float64 `json:"theoryRtp"`
	TheorySigma    float64 `json:"theorySigma"`
	Z              float64 `json:"z"` // (RTP - TheoryRTP) / (TheorySigma / sqrt N)
	Lo99           float64 `json:"lo99"`
	Hi99           float64 `json:"hi99"` // TheoryRTP -+ Z99 * TheorySigma / sqrt N
	Within99       bool    `json:"within99"`
	GroupsOutside  int     `json:"groupsOutside"`  // groups whose mean lies outside their own 99 % interval
	GroupsExpected float64 `json:"groupsExpected"` // 1 % of the groups
	GroupsOK       bool    `json:"groupsOk"`       // GroupsOutside within the binomial 99.9 % bound
}

// Seed is the seed of a single run (the first of a pool).
func (res *Result) Seed() uint64 {
	if len(res.Seeds) == 0 {
		return 0
	}
	return res.Seeds[0]
}

// WriteJSON writes the result (accumulators included) for a later Pool.
func (res *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(res)
}

// ReadResult reads a result written by WriteJSON and checks that its
// groups add up to its totals.
func ReadResult(r io.Reader) (*Result, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	res := new(Result)
	if err := dec.Decode(res); err != nil {
		return nil, fmt.Errorf("sim: result file: %w", err)
	}
	sum, sq, n := res.Sum, res.SumSq, res.N
	if sum == nil || sq == nil || len(res.Groups) == 0 || len(res.Seeds) == 0 {
		return nil, errors.New("sim: result file lacks its sums, groups or seeds")
	}
	res.finish()
	if res.Sum.Cmp(sum) != 0 || res.SumSq.Cmp(sq) != 0 || res.N != n {
		return nil, fmt.Errorf("sim: result file: groups add up to N %d, sum %s, squares %s; the file says %d, %s, %s", res.N, res.Sum, res.SumSq, n, sum, sq)
	}
	return res, nil
}

// PoolError refuses results that cannot be added up.
type PoolError struct{ Reason string }

func (e *PoolError) Error() string { return "sim: cannot pool: " + e.Reason }

// Pool adds up independent runs of the same game, model and stake (their
// seeds must differ, or the samples would repeat) and compares the pooled
// sample with theory.
func Pool(runs []*Result, theoryRTP, theorySigma float64) (*Result, error) {
	if len(runs) == 0 {
		return nil, &PoolError{Reason: "no runs"}
	}
	first := runs[0]
	out := &Result{Game: first.Game, ModelID: first.ModelID, Stake: first.Stake, TheoryRTP: theoryRTP, TheorySigma: theorySigma}
	seen := map[uint64]bool{}
	for i, r := range runs {
		if r.Game != first.Game || r.ModelID != first.ModelID || r.Stake != first.Stake {
			return nil, &PoolError{Reason: fmt.Sprintf("run %d is %s model %s stake %d, run 0 is %s model %s stake %d",
				i, r.Game, r.ModelID, r.Stake, first.Game, first.ModelID, first.Stake)}
		}
		for _, s := range r.Seeds {
			if seen[s] {
				return nil, &PoolError{Reason: fmt.Sprintf("seed %d appears twice (run %d): the same rounds would count twice", s, i)}
			}
			seen[s] = true
		}
		out.Seeds = append(out.Seeds, r.Seeds...)
		out.Groups = append(out.Groups, r.Groups...)
	}
	out.finish()
	return out, nil
}

// Run plays cfg.N rounds and returns the statistics. It stops early with
// ctx's error if ctx ends.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.N <= 0 {
		return nil, fmt.Errorf("sim: N = %d", cfg.N)
	}
	if err := engine.CheckStake(cfg.Game, cfg.Stake); err != nil {
		return nil, err
	}
	workers := max(cfg.Workers, 1)
	groups := cfg.Groups
	if groups <= 0 {
		groups = 100
	}
	groups = int(min(int64(groups), cfg.N))
	res := &Result{Game: cfg.Game.ID(), ModelID: cfg.Game.ModelID(), Stake: cfg.Stake, Seeds: []uint64{cfg.Seed}, N: cfg.N,
		Groups: make([]Group, groups), TheoryRTP: cfg.TheoryRTP, TheorySigma: cfg.TheorySigma}
	var next atomic.Int64
	var done atomic.Int64
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var barDone chan struct{}
	if cfg.Progress != nil {
		barDone = make(chan struct{})
		go bar(cfg, &done, stop, barDone)
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r engine.Round
			for {
				gi := int(next.Add(1) - 1)
				if gi >= groups {
					return
				}
				n := cfg.N / int64(groups)
				if int64(gi) < cfg.N%int64(groups) {
					n++
				}
				src := GroupSource(cfg.Seed, gi).Words() // read inline by engine.Intn
				g := &res.Groups[gi]
				for i := int64(0); i < n; i++ {
					if err := cfg.Game.Play(src, cfg.Stake, &r); err != nil {
						mu.Lock()
						firstErr = err
						mu.Unlock()
						return
					}
					g.add(int64(r.Total))
					if i&0xffff == 0xffff {
						done.Add(0x10000)
						if ctx.Err() != nil {
							return
						}
					}
				}
				done.Add(n & 0xffff)
			}
		}()
	}
	wg.Wait()
	close(stop)
	if barDone != nil {
		<-barDone
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.finish()
	return res, nil
}

func (res *Result) finish() {
	res.Sum, res.SumSq = new(big.Int), new(big.Int)
	res.N, res.GroupsOutside = 0, 0
	for _, g := range res.Groups {
		res.N += g.N
		res.Sum.Add(res.Sum, big.NewInt(g.Sum))
		sq := new(big.Int).Lsh(new(big.Int).SetUint64(g.SumSqH), 64)
		res.SumSq.Add(res.SumSq, sq.Or(sq, new(big.Int).SetUint64(g.SumSqL)))
	}
	st := float64(res.Stake)
	n := float64(res.N)
	mean, _ := new(big.Rat).SetFrac(res.Sum, big.NewInt(res.N*int64(res.Stake))).Float64()
	ex2, _ := new(big.Rat).SetFrac(res.SumSq, new(big.Int).Mul(big.NewInt(res.N), big.NewInt(int64(res.Stake)*int64(res.Stake)))).Float64()
	res.RTP = mean
	res.Sigma = math.Sqrt(max(ex2-mean*mean, 0) * n / max(n-1, 1))
	if res.TheorySigma > 0 {
		se := res.TheorySigma / math.Sqrt(n)
		res.Z = (res.RTP - res.TheoryRTP) / se
		res.Lo99, res.Hi99 = res.TheoryRTP-Z99*se, res.TheoryRTP+Z99*se
		res.Within99 = math.Abs(res.Z) <= Z99
		for _, g := range res.Groups {
			gm := float64(g.Sum) / (float64(g.N) * st)
			if math.Abs(gm-res.TheoryRTP) > Z99*res.TheorySigma/math.Sqrt(float64(g.N)) {
				res.GroupsOutside++
			}
		}
		k := float64(len(res.Groups))
		res.GroupsExpected = 0.01 * k
		// Binomial(k, 0.01): mean + 3.09 sd covers 99.9 %, plus one for small k.
		res.GroupsOK = float64(res.GroupsOutside) <= res.GroupsExpected+3.09*math.Sqrt(k*0.01*0.99)+1
	}
}

// Report writes the result as text.
func (res *Result) Report(w io.Writer) {
	fmt.Fprintf(w, "game %s  model %s\n", res.Game, res.ModelID)
	if len(res.Seeds) == 1 {
		fmt.Fprintf(w, "stake %d  rounds %d  seed %d  groups %d (group g plays GroupSource(seed, g))\n", res.Stake, res.N, res.Seeds[0], len(res.Groups))
	} else {
		fmt.Fprintf(w, "stake %d  rounds %d  pooled from %d runs, seeds %v  groups %d\n", res.Stake, res.N, len(res.Seeds), res.Seeds, len(res.Groups))
	}
	fmt.Fprintf(w, "sum of totals %s  sum of squares %s (minor units)\n", res.Sum, res.SumSq)
	fmt.Fprintf(w, "simulated RTP %.6f  sigma %.4f\n", res.RTP, res.Sigma)
	if res.TheorySigma > 0 {
		fmt.Fprintf(w, "exact RTP     %.6f  sigma %.4f\n", res.TheoryRTP, res.TheorySigma)
		fmt.Fprintf(w, "z = %+.3f  99 %% interval [%.6f, %.6f]  %s\n", res.Z, res.Lo99, res.Hi99, verdict(res.Within99))
		fmt.Fprintf(w, "batch groups outside their 99 %% interval: %d of %d (expected %.1f)  %s\n",
			res.GroupsOutside, len(res.Groups), res.GroupsExpected, verdict(res.GroupsOK))
	}
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func bar(cfg Config, done *atomic.Int64, stop, finished chan struct{}) {
	defer close(finished)
	tick := cfg.Tick
	if tick <= 0 {
		tick = 200 * time.Millisecond
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	var start time.Time
	if cfg.Now != nil {
		start = cfg.Now()
	}
	draw := func() {
		d := min(done.Load(), cfg.N)
		f := float64(d) / float64(cfg.N)
		const width = 40
		filled := int(f * width)
		rate := ""
		if cfg.Now != nil {
			if s := cfg.Now().Sub(start).Seconds(); s > 0 {
				rate = fmt.Sprintf("  %.1f M rounds/s", float64(d)/s/1e6)
			}
		}
		fmt.Fprintf(cfg.Progress, "\r[%s%s] %5.1f%%  %d/%d%s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), 100*f, d, cfg.N, rate)
	}
	for {
		select {
		case <-stop:
			draw()
			fmt.Fprintln(cfg.Progress)
			return
		case <-t.C:
			draw()
		}
	}
}

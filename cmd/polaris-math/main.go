// Command polaris-math is the math tool for labs and operators: PAR sheets
// from the exact calculation, simulation of the production Play, and
// forced-screen evaluation. Pure Go.
//
//	polaris-math par <game> [--json] [--jackpot central/jackpot/jackpot.example.toml]
//	polaris-math simulate <game> [-n N] [-workers W] [-seed S] [-stake MINOR] [-out FILE]
//	polaris-math pool [-out FILE] FILE...
//	polaris-math eval < {"game":...,"stake":...,"screen":[[...]],"freeSpin":false}
package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
	"github.com/polaris-vlt/polaris/engine/par"
	"github.com/polaris-vlt/polaris/engine/sim"
)

const usage = `usage:
  polaris-math par <game> [--json] [--jackpot FILE]   (FILE: the central jackpot configuration, Magic Stars)
  polaris-math simulate <game> [-n N] [-workers W] [-seed S] [-stake MINOR] [-out FILE]
  polaris-math pool [-out FILE] FILE...   (add up simulate -out files of one game, model and stake; distinct seeds)
  polaris-math eval   (one JSON object on stdin, one on stdout)
games: wishstar, magicstars
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, isTerminal(os.Stdout)))
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// run is the whole command; exit status 2 for bad usage or input.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, tty bool) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "par":
		return cmdPar(args[1:], stdout, stderr)
	case "simulate":
		return cmdSimulate(ctx, args[1:], stdout, stderr, tty)
	case "pool":
		return cmdPool(args[1:], stdout, stderr)
	case "eval":
		return cmdEval(stdin, stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "polaris-math: unknown command %q\n%s", args[0], usage)
	return 2
}

func lookup(name string, stderr io.Writer) (engine.Game, bool) {
	g, err := engine.Lookup(engine.GameID(name))
	if err != nil {
		fmt.Fprintf(stderr, "polaris-math: %v\n", err)
		return nil, false
	}
	return g, true
}

// JackpotFile is the central jackpot configuration the committed Magic
// Stars sheet is built with (make par passes it).
const JackpotFile = "central/jackpot/jackpot.example.toml"

// jackpotConfig reads the central system's jackpot configuration into the
// numbers the engine's PAR needs (the engine never imports central).
func jackpotConfig(path string) (*par.JackpotConfig, error) {
	c, err := jackpot.LoadConfig(path)
	if err != nil {
		return nil, err
	}
	out := &par.JackpotConfig{Source: "central jackpot configuration " + filepath.Base(path), CZKPerEURCenti: c.CZKPerEUR}
	for _, p := range c.Pools {
		out.Pools = append(out.Pools, par.JackpotPool{ID: p.ID, Name: p.Name, Scope: string(p.Scope), Seed: p.Seed, MustHitBy: p.MustHitBy, RateBP: p.RateBP})
	}
	return out, nil
}

func cmdPar(args []string, stdout, stderr io.Writer) int {
	var game, jpFile string
	asJSON := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--jackpot" || a == "-jackpot":
			if i+1 >= len(args) {
				fmt.Fprintf(stderr, "polaris-math par: --jackpot needs a file\n")
				return 2
			}
			i++
			jpFile = args[i]
		case a == "--json" || a == "-json":
			asJSON = true
		case game == "" && len(a) > 0 && a[0] != '-':
			game = a
		default:
			fmt.Fprintf(stderr, "polaris-math par: unexpected argument %q\n", a)
			return 2
		}
	}
	g, ok := lookup(game, stderr)
	if !ok {
		return 2
	}
	opt := par.DefaultOptions
	if jpFile != "" {
		jc, err := jackpotConfig(jpFile)
		if err != nil {
			fmt.Fprintf(stderr, "polaris-math par: %v\n", err)
			return 2
		}
		opt.Jackpot = jc
	}
	s, err := par.Build(g.ID(), opt)
	if err != nil {
		fmt.Fprintf(stderr, "polaris-math par: %v\n", err)
		return 1
	}
	if asJSON {
		if err := s.JSON(stdout); err != nil {
			fmt.Fprintf(stderr, "polaris-math par: %v\n", err)
			return 1
		}
		return 0
	}
	s.Text(stdout)
	return 0
}

func cmdSimulate(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		fmt.Fprintf(stderr, "polaris-math simulate: name a game\n")
		return 2
	}
	g, ok := lookup(args[0], stderr)
	if !ok {
		return 2
	}
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int64("n", 100_000_000, "rounds")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	seed := fs.Uint64("seed", 0, "seed; group g plays sim.GroupSource(seed, g); 0 draws a random seed (printed), so runs to pool are independent")
	out := fs.String("out", "", "write the result with its accumulators to this file (for pool)")
	stake := fs.Int64("stake", int64(g.Stakes()[0]), "stake in minor units")
	groups := fs.Int("groups", 100, "batch groups")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "polaris-math simulate: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	rtp, sigma, err := par.Theory(g.ID(), engine.Money(*stake))
	if err != nil {
		fmt.Fprintf(stderr, "polaris-math simulate: %v\n", err)
		return 2
	}
	for *seed == 0 {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			fmt.Fprintf(stderr, "polaris-math simulate: %v\n", err)
			return 1
		}
		*seed = binary.BigEndian.Uint64(b[:])
	}
	cfg := sim.Config{Game: g, Stake: engine.Money(*stake), N: *n, Workers: *workers, Seed: *seed, Groups: *groups,
		TheoryRTP: rtp, TheorySigma: sigma}
	if tty {
		cfg.Progress, cfg.Now = stdout, time.Now
	}
	start := time.Now()
	res, err := sim.Run(ctx, cfg)
	elapsed := time.Since(start)
	if err != nil {
		fmt.Fprintf(stderr, "polaris-math simulate: %v\n", err)
		var se *engine.StakeError
		if errors.As(err, &se) {
			return 2
		}
		return 1
	}
	res.Report(stdout)
	fmt.Fprintf(stdout, "elapsed %.2f s, %.2f M rounds/s on %d workers\n", elapsed.Seconds(), float64(res.N)/elapsed.Seconds()/1e6, cfg.Workers)
	if *out != "" {
		if err := writeResult(*out, res); err != nil {
			fmt.Fprintf(stderr, "polaris-math simulate: %v\n", err)
			return 1
		}
	}
	if !res.Within99 || !res.GroupsOK {
		return 1
	}
	return 0
}

// writeResult writes a run through a temporary file, so a crash never
// leaves half a result for pool to read.
func writeResult(path string, res *sim.Result) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".sim-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes it 0600
		f.Close()
		return err
	}
	if err := res.WriteJSON(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// cmdPool adds up simulate -out files and judges the pooled sample
// against the exact figures: exit 0 within the 99 % interval with sane
// groups, 1 outside, 2 for bad usage or files that cannot be pooled.
func cmdPool(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pool", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write the pooled result to this file (it pools again like a run)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "polaris-math pool: name result files (simulate -out)\n")
		return 2
	}
	var runs []*sim.Result
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "polaris-math pool: %v\n", err)
			return 2
		}
		r, err := sim.ReadResult(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "polaris-math pool: %s: %v\n", name, err)
			return 2
		}
		runs = append(runs, r)
	}
	rtp, sigma, err := par.Theory(runs[0].Game, runs[0].Stake)
	if err != nil {
		fmt.Fprintf(stderr, "polaris-math pool: %v\n", err)
		return 2
	}
	g, err := engine.Lookup(runs[0].Game)
	if err != nil || g.ModelID() != runs[0].ModelID {
		fmt.Fprintf(stderr, "polaris-math pool: the runs are of model %s, this tool's exact figures are of another\n", runs[0].ModelID)
		return 2
	}
	res, err := sim.Pool(runs, rtp, sigma)
	if err != nil {
		fmt.Fprintf(stderr, "polaris-math pool: %v\n", err)
		return 2
	}
	res.Report(stdout)
	if *out != "" {
		if err := writeResult(*out, res); err != nil {
			fmt.Fprintf(stderr, "polaris-math pool: %v\n", err)
			return 1
		}
	}
	if !res.Within99 || !res.GroupsOK {
		return 1
	}
	return 0
}

// Command polaris-math is the math tool for labs and operators: PAR sheets
// from the exact calculation, simulation of the production Play, and
// forced-screen evaluation. Pure Go.
//
//	polaris-math par <game> [--json]
//	polaris-math simulate <game> [-n N] [-workers W] [-seed S] [-stake MINOR]
//	polaris-math eval < {"game":...,"stake":...,"screen":[[...]],"freeSpin":false}
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
	"github.com/polaris-vlt/polaris/engine/par"
	"github.com/polaris-vlt/polaris/engine/sim"
)

const usage = `usage:
  polaris-math par <game> [--json]
  polaris-math simulate <game> [-n N] [-workers W] [-seed S] [-stake MINOR]
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

func cmdPar(args []string, stdout, stderr io.Writer) int {
	var game string
	asJSON := false
	for _, a := range args {
		switch {
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
	s, err := par.Build(g.ID(), par.DefaultOptions)
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
	seed := fs.Uint64("seed", 1, "seed; group g plays draw.Seeded(seed, g)")
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
	if !res.Within99 || !res.GroupsOK {
		return 1
	}
	return 0
}

// Command polaris is the cabinet.
//
//	polaris run [-market demo|FILE] [-board devkit|FILE] [-data DIR] [-ledger-a DIR] [-ledger-b DIR]
//	             [-central HOST:PORT -pki DIR -id ID] [-fullscreen]
//
// opens the cabinet with its display (display/): on the devkit board a
// window whose keyboard drives buttons, keys, doors, acceptor and printer.
//
//	polaris headless [the same profile and data flags] [-script FILE] [-fast] [-chaos SEED]
//
// runs the cabinet without a display: the devkit board's emulated acceptor
// and printer over pseudo-terminals, the embedded central system, the
// ledger in the data directory. With -script it plays a scenario (see
// firmware/scenario) and exits 0 when every step held, 1 otherwise.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/cmd/internal/rtdebug"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/scenario"
)

func usage() {
	fmt.Fprintln(os.Stderr, `usage: polaris <command> [flags]

commands:
  headless   run the cabinet without a display (devkit board, embedded central system)
  run        run the cabinet with its display (a window with the devkit board; H lists the keys)`)
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "headless":
		os.Exit(headless(os.Args[2:]))
	case "verify":
		os.Exit(verifyCmd(os.Args[2:]))
	case "run":
		os.Exit(run(os.Args[2:]))
	default:
		usage()
	}
}

func headless(args []string) int {
	fs := flag.NewFlagSet("headless", flag.ExitOnError)
	var o app.Options
	cabinetFlags(fs, &o)
	script := fs.String("script", "", "scenario script to play; exits when it ends")
	fast := fs.Bool("fast", false, "present rounds instantly (no spin or win animation time)")
	verbose := fs.Bool("v", false, "log tilts and device refusals")
	chaos := fs.Uint64("chaos", 0, "play at random with this seed until killed (the crash harness)")
	fs.Parse(args)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.Timing = cabinet.DefaultTiming
	if *fast {
		o.Timing = cabinet.Timing{}
	}
	if *verbose {
		o.Logf = log.Printf
	}
	ready := gate(ctx, &o)
	h, err := scenario.StartHeadless(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris:", err)
		return 1
	}
	defer h.Close()
	ready()
	if *chaos != 0 {
		fmt.Println("ready")
		scenario.Chaos(ctx, h, *chaos)
		return 0
	}
	if *script == "" {
		fmt.Fprintf(os.Stderr, "polaris: headless cabinet running (market %s, data %s); Ctrl-C stops it\n", o.Market, o.DataDir)
		<-ctx.Done()
		return 0
	}
	f, err := os.Open(*script)
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris:", err)
		return 1
	}
	steps, err := scenario.Parse(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris:", err)
		return 2
	}
	start := time.Now()
	if err := scenario.Run(ctx, h, steps); err != nil {
		fmt.Fprintln(os.Stderr, "polaris:", err)
		return 1
	}
	fmt.Printf("scenario %s: %d steps held in %v\n", strings.TrimSuffix(*script, ".scn"), len(steps), time.Since(start).Round(time.Millisecond))
	return 0
}

// cabinetFlags are the flags run and headless share: which profiles, and
// where the data and the ledger's two copies live.
func cabinetFlags(fs *flag.FlagSet, o *app.Options) {
	fs.StringVar(&o.Market, "market", "demo", "market profile: at, cz, demo, or a .toml file (/etc/polaris/market/at.toml)")
	fs.StringVar(&o.Board, "board", "devkit", "board profile: devkit, rpi-cabinet, or a .toml file (/etc/polaris/board/rpi-cabinet.toml)")
	fs.StringVar(&o.DataDir, "data", "data", "data directory (ledger copies unless -ledger-a/-ledger-b, embedded central system, its PKI)")
	fs.StringVar(&o.LedgerA, "ledger-a", "", "directory of the ledger's first copy (default DATA/ledger-a)")
	fs.StringVar(&o.Central, "central", "", "host:port of the operator's central system (default: one embedded in the process)")
	fs.StringVar(&o.PKIDir, "pki", "/etc/polaris/pki", "with -central: ca.pem, cabinets/ID.pem and .key, signing.pub")
	fs.StringVar(&o.CabinetID, "id", "dev-1", "this cabinet's id (the name in its certificate)")
	fs.StringVar(&o.LedgerB, "ledger-b", "", "directory of the ledger's second copy, on a second medium (default DATA/ledger-b)")
	fs.Func("debug-addr", "loopback address of a pprof and runtime-numbers endpoint (soak tests; off unless given)", rtdebug.Flag("polaris"))
}

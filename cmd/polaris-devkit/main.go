// Command polaris-devkit is the cabinet as a developer runs it: the
// devkit board's emulated acceptor and printer over pseudo-terminals and a
// central system embedded in the process (firmware/devkit). The cabinet
// binary, cmd/polaris, links none of that.
//
//	polaris-devkit run [-market demo|FILE] [-board devkit|FILE] [-data DIR] [-ledger-a DIR] [-ledger-b DIR]
//	                   [-central HOST:PORT -pki DIR -id ID] [-fullscreen]
//
// opens the cabinet with its display (display/): on the devkit board a
// window whose keyboard drives buttons, keys, doors, acceptor and printer.
//
//	polaris-devkit headless [the same profile and data flags] [-script FILE] [-fast] [-chaos SEED] [-cards]
//
// runs the cabinet without a display. With -script it plays a scenario
// (see firmware/scenario) and exits 0 when every step held, 1 otherwise;
// with -chaos it plays at random until killed (the crash harness); with
// -cards it has the player card reader run has.
//
// The card reader is a pcscd of the devkit's own (firmware/devkit.Cards):
// it ends with the devkit, stopped on a normal exit, on SIGINT or SIGTERM
// and on a failed start, and ended by the kernel when the devkit is
// killed (childproc; TestChildrenEndWithDevkit).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/cmd/internal/boot"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/devkit"
	"github.com/polaris-vlt/polaris/firmware/scenario"
)

func usage() {
	fmt.Fprintln(os.Stderr, `usage: polaris-devkit <command> [flags]

commands:
  headless   run the cabinet without a display (devkit board, embedded central system)
  run        run the cabinet with its display (a window with the devkit board; H lists the keys)`)
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var code int
	switch os.Args[1] {
	case "headless":
		code = headless(os.Args[2:])
	case "run":
		code = run(os.Args[2:])
	default:
		usage()
	}
	// After the commands' deferred stops (the cabinet, its pcscd): a
	// signal, a window closed or a failed start all come by here.
	fmt.Fprintln(os.Stderr, "polaris-devkit: stopped")
	os.Exit(code)
}

func headless(args []string) int {
	fs := flag.NewFlagSet("headless", flag.ExitOnError)
	var o app.Options
	boot.Flags(fs, &o, "devkit")
	script := fs.String("script", "", "scenario script to play; exits when it ends")
	fast := fs.Bool("fast", false, "present rounds instantly (no spin or win animation time)")
	chaos := fs.Uint64("chaos", 0, "play at random with this seed until killed (the crash harness)")
	withCards := fs.Bool("cards", false, "the player card reader as run has it: the devkit's own pcscd with vpcd (its data in DATA/pcsc)")
	fs.Parse(args)

	ctx, stop := boot.Signals()
	defer stop()
	if *fast {
		o.Timing = cabinet.Timing{}
	}
	ready := boot.Gate(ctx, &o)
	if *withCards {
		var cards *devkit.Cards
		o, cards = devkit.WithCards(o)
		defer cards.Close()
		if err := cards.Err(); err != nil {
			fmt.Fprintln(os.Stderr, "polaris-devkit: no card reader:", err)
		}
	}
	h, err := devkit.StartHeadless(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris-devkit:", err)
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
		fmt.Fprintf(os.Stderr, "polaris-devkit: headless cabinet running (market %s, data %s); Ctrl-C stops it\n", o.Market, o.DataDir)
		<-ctx.Done()
		return 0
	}
	f, err := os.Open(*script)
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris-devkit:", err)
		return 1
	}
	steps, err := scenario.Parse(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris-devkit:", err)
		return 2
	}
	start := time.Now()
	if err := scenario.Run(ctx, h, steps); err != nil {
		fmt.Fprintln(os.Stderr, "polaris-devkit:", err)
		return 1
	}
	fmt.Printf("scenario %s: %d steps held in %v\n", strings.TrimSuffix(*script, ".scn"), len(steps), time.Since(start).Round(time.Millisecond))
	return 0
}

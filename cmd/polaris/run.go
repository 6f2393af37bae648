//go:build display

package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/polaris-vlt/polaris/cmd/internal/boot"
	"github.com/polaris-vlt/polaris/display"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// run opens the cabinet with its display, full screen on a cabinet.
func run(args []string) int {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	var o app.Options
	boot.Flags(fs, &o, "rpi-cabinet")
	full := fs.Bool("fullscreen", false, "full screen (a cabinet), not a window")
	fs.Parse(args)

	ctx, stop := boot.Signals()
	defer stop()
	ready := boot.Gate(ctx, &o)
	a, err := app.Start(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris:", err)
		return 1
	}
	defer a.Close()
	// A signal or the window closed: the cabinet loop ends before a.Close
	// closes the ledger under it (boot.Window returns then; it once exited
	// the process there). A loop not ended in 10 s is left to the exit,
	// as a power cut leaves it.
	runDone := make(chan struct{})
	go func() { a.Run(ctx); close(runDone) }()
	defer func() {
		stop()
		select {
		case <-runDone:
		case <-time.After(10 * time.Second):
			fmt.Fprintln(os.Stderr, "polaris: the cabinet loop did not end 10 s after the stop; exiting without closing")
			os.Exit(1)
		}
	}()
	fmt.Fprintf(os.Stderr, "polaris: cabinet running (market %s, board %s, data %s)\n", o.Market, o.Board, o.DataDir)
	if err := boot.Window(ctx, o, display.Options{Source: a.Cabinet.View, Clock: time.Now, Fullscreen: *full,
		Touch: a.Touch, Press: func(b view.Button) { a.Cabinet.Post(cabinet.Press{Button: b}) }}, ready); err != nil {
		fmt.Fprintln(os.Stderr, "polaris:", err)
		return 1
	}
	return 0
}

//go:build display

package boot

import (
	"context"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/polaris-vlt/polaris/display"
	"github.com/polaris-vlt/polaris/firmware/app"
)

// stuckExit bounds the wait for the render loop after a signal.
const stuckExit = 10 * time.Second

// Window runs the display of a started cabinet on the main goroutine until
// the window closes or ctx ends: then it returns, and the caller's deferred
// stops run (the cabinet's close, the devkit's pcscd). Should the render
// loop not end within stuckExit of ctx's end, the process exits
// (the kernel then ends the children childproc started). The render loop
// is watched too: a frozen screen stops the watchdog like a stalled
// cabinet loop does, and ready (Gate's) goes with the first beat: the
// window is up and drawing.
func Window(ctx context.Context, o app.Options, opt display.Options, ready func()) error {
	returned := make(chan struct{})
	defer close(returned)
	go func() {
		select {
		case <-ctx.Done():
		case <-returned:
			return
		}
		t := time.NewTimer(stuckExit)
		select {
		case <-t.C:
			log.Printf("%s: the window did not close %v after the signal; exiting", filepath.Base(os.Args[0]), stuckExit)
			os.Exit(1)
		case <-returned:
			t.Stop()
		}
	}()
	opt.Done = ctx.Done()
	render := o.Health.Register("render", app.RenderWindow)
	opt.Title, opt.Logf = "Polaris — "+o.Market, log.Printf
	opt.Heartbeat = func() { render.Beat(); ready() }
	return display.Run(opt)
}

//go:build display

package boot

import (
	"context"
	"log"
	"os"

	"github.com/polaris-vlt/polaris/display"
	"github.com/polaris-vlt/polaris/firmware/app"
)

// Window runs the display of a started cabinet on the main goroutine until
// the window closes or ctx ends (which ends the process: ebiten's loop has
// no context). The render loop is watched too: a frozen screen stops the
// watchdog like a stalled cabinet loop does, and ready (Gate's) goes with
// the first beat: the window is up and drawing.
func Window(ctx context.Context, o app.Options, opt display.Options, ready func()) error {
	go func() {
		<-ctx.Done()
		os.Exit(0)
	}()
	render := o.Health.Register("render", app.RenderWindow)
	opt.Title, opt.Logf = "Polaris — "+o.Market, log.Printf
	opt.Heartbeat = func() { render.Beat(); ready() }
	return display.Run(opt)
}

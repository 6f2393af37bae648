//go:build display

package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/display"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	id003emu "github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/printer/escposemu"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/scenario"
)

// run opens the cabinet with its display: on the devkit board a window
// whose keyboard drives the emulated buttons, keys, doors and devices.
func run(args []string) int {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	var o app.Options
	cabinetFlags(fs, &o)
	full := fs.Bool("fullscreen", false, "full screen (a cabinet), not a window")
	verbose := fs.Bool("v", false, "log tilts and device refusals")
	fs.Parse(args)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.Timing = cabinet.DefaultTiming
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
	go func() {
		<-ctx.Done()
		os.Exit(0) // ebiten's loop has no context; a signal ends the process after the deferred close
	}()
	fmt.Fprintf(os.Stderr, "polaris: cabinet running (market %s, data %s); H shows the keys\n", o.Market, o.DataDir)
	opt := display.Options{Source: h.App.Cabinet.View, Clock: time.Now, Fullscreen: *full}
	if h.App.Board != nil { // none when software verification failed
		opt.Devkit = &devkit{h: h, status: "acceptor ready · printer ready"}
	}
	// The render loop is watched too (headless has none): a frozen screen
	// stops the watchdog like a stalled cabinet loop does.
	// READY=1 goes with the first beat: the window is up and drawing.
	render := o.Health.Register("render", app.RenderWindow)
	opt.Title, opt.Logf = "Polaris — "+o.Market, log.Printf
	opt.Heartbeat = func() { render.Beat(); ready() }
	err = display.Run(opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris:", err)
		return 1
	}
	return 0
}

// devkit drives the headless cabinet's devkit board for the display.
type devkit struct {
	h      *scenario.Headless
	mu     sync.Mutex
	keys   []string
	status string
	jam    bool
	paper  bool
}

func (d *devkit) SetInput(in gpio.Input, on bool) error { return d.h.App.Board.SetInput(in, on) }

func (d *devkit) Toggle(in gpio.Input) (bool, error) {
	on, err := d.h.App.Board.Toggle(in)
	if err == nil && (in == gpio.KeyAttendant || in == gpio.KeyTechnician) {
		name := map[gpio.Input]string{gpio.KeyAttendant: "attendant key", gpio.KeyTechnician: "technician key"}[in]
		d.mu.Lock()
		keys := []string{}
		for _, k := range d.keys {
			if k != name {
				keys = append(keys, k)
			}
		}
		if on {
			keys = append(keys, name)
		}
		d.keys = keys
		d.mu.Unlock()
	}
	return on, err
}

func (d *devkit) InsertNote(code byte) error {
	if d.h.App.Board.AcceptorEmulator == nil {
		return fmt.Errorf("no emulated acceptor")
	}
	return d.h.App.Board.AcceptorEmulator.InsertNote(code)
}

func (d *devkit) InsertLastTicket() error {
	n := d.h.LastVoucher()
	if n == "" {
		return fmt.Errorf("no voucher printed yet")
	}
	return d.h.App.Board.AcceptorEmulator.InsertTicket(n)
}

func (d *devkit) AcceptorJam(on bool) error {
	a := d.h.App.Board.AcceptorEmulator
	if a == nil {
		return fmt.Errorf("no emulated acceptor")
	}
	d.set(func() { d.jam = on })
	if on {
		return a.SetFault(id003emu.AcceptorJam)
	}
	a.ClearFault()
	return nil
}

func (d *devkit) PrinterPaperOut(on bool) {
	b := d.h.App.Board
	switch {
	case b.TCLEmulator != nil:
		b.TCLEmulator.SetPaperOut(on)
	case b.ESCPOSEmulator != nil:
		b.ESCPOSEmulator.SetPaperEnd(on)
	}
	d.set(func() { d.paper = on })
}

func (d *devkit) PrinterJamNext() {
	b := d.h.App.Board
	switch {
	case b.TCLEmulator != nil:
		b.TCLEmulator.FailNextPrint(tclemu.Jam, tclemu.AfterValidation)
	case b.ESCPOSEmulator != nil:
		b.ESCPOSEmulator.FailNextPrint(escposemu.CutterJam, escposemu.AfterBarcode)
	}
}

func (d *devkit) NextGame() {
	s := d.h.App.Cabinet.View()
	if s == nil || len(s.Games) == 0 {
		return
	}
	next := s.Games[0]
	for i, g := range s.Games {
		if g == s.Game {
			next = s.Games[(i+1)%len(s.Games)]
		}
	}
	d.h.App.Cabinet.Post(cabinet.SelectGame{Game: engine.GameID(next)})
}

func (d *devkit) set(f func()) {
	d.mu.Lock()
	f()
	parts := []string{"acceptor ready", "printer ready"}
	if d.jam {
		parts[0] = "ACCEPTOR JAMMED (F9)"
	}
	if d.paper {
		parts[1] = "PRINTER PAPER OUT (F10)"
	}
	d.status = strings.Join(parts, " · ")
	d.mu.Unlock()
}

func (d *devkit) Keys() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.keys
}

func (d *devkit) Status() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.status
}

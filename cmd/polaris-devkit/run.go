//go:build display

package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/cmd/internal/boot"
	"github.com/polaris-vlt/polaris/display"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	id003emu "github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/printer/escposemu"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/devkit"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// run opens the cabinet with its display: on the devkit board a window
// whose keyboard drives the emulated buttons, keys, doors and devices.
func run(args []string) int {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	var o app.Options
	boot.Flags(fs, &o, "devkit")
	full := fs.Bool("fullscreen", false, "full screen (a cabinet), not a window")
	fs.Parse(args)

	ctx, stop := boot.Signals()
	defer stop()
	ready := boot.Gate(ctx, &o)
	// The player cards: the devkit's own pcscd and the demo players in the
	// embedded central system (a cabinet plays on without them where the
	// market needs no card).
	o, cards := devkit.WithCards(o)
	defer cards.Close()
	if err := cards.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "polaris-devkit: the card keys do nothing:", err)
	}
	h, err := devkit.StartHeadless(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris-devkit:", err)
		return 1
	}
	defer h.Close()
	fmt.Fprintf(os.Stderr, "polaris-devkit: cabinet running (market %s, data %s); H shows the keys\n", o.Market, o.DataDir)
	opt := display.Options{Source: h.App.Cabinet.View, Clock: time.Now, Fullscreen: *full,
		Touch: h.App.Touch, Press: func(b view.Button) { h.App.Cabinet.Post(cabinet.Press{Button: b}) }}
	if h.Devices() { // none when software verification failed
		kb := &keyboard{h: h, cards: cards}
		kb.set(func() {})
		opt.Devkit = kb
		opt.Keys, opt.NoteKeys = keyLayout(), board.DevkitNoteKeys
	}
	if err := boot.Window(ctx, o, opt, ready); err != nil {
		fmt.Fprintln(os.Stderr, "polaris-devkit:", err)
		return 1
	}
	return 0
}

// keyLayout is the devkit board's keyboard layout as the display takes it.
func keyLayout() []display.KeyBinding {
	var ks []display.KeyBinding
	for _, b := range board.DevkitKeys {
		ks = append(ks, display.KeyBinding{Key: b.Key, Input: int(b.Input), Toggle: b.Toggle})
	}
	return ks
}

// keyboard drives the headless cabinet's devkit board for the display.
type keyboard struct {
	h      *devkit.Headless
	cards  *devkit.Cards
	mu     sync.Mutex
	keys   []string
	status string
	jam    bool
	paper  bool
}

func (d *keyboard) SetInput(input int, on bool) error {
	return d.h.App.Board.SetInput(gpio.Input(input), on)
}

func (d *keyboard) Toggle(input int) (bool, error) {
	in := gpio.Input(input)
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

// acceptor is the emulated acceptor, nil when there is none.
func (d *keyboard) acceptor() *id003emu.Acceptor {
	if e := d.h.Emulated(); e != nil {
		return e.Acceptor
	}
	return nil
}

func (d *keyboard) InsertNote(code byte) error {
	a := d.acceptor()
	if a == nil {
		return fmt.Errorf("no emulated acceptor")
	}
	return a.InsertNote(code)
}

func (d *keyboard) InsertLastTicket() error {
	if d.acceptor() == nil {
		return fmt.Errorf("no emulated acceptor")
	}
	return d.h.InsertLastTicket()
}

func (d *keyboard) TakeTicket() error {
	if !d.h.TakeTicket() {
		return fmt.Errorf("the printer has no chute to take a ticket from")
	}
	return nil
}

func (d *keyboard) AcceptorJam(on bool) error {
	a := d.acceptor()
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

func (d *keyboard) PrinterPaperOut(on bool) {
	e := d.h.Emulated()
	switch {
	case e == nil:
	case e.TCL != nil:
		e.TCL.SetPaperOut(on)
	case e.ESCPOS != nil:
		e.ESCPOS.SetPaperEnd(on)
	}
	d.set(func() { d.paper = on })
}

func (d *keyboard) PrinterJamNext() {
	e := d.h.Emulated()
	switch {
	case e == nil:
	case e.TCL != nil:
		e.TCL.FailNextPrint(tclemu.Jam, tclemu.AfterValidation)
	case e.ESCPOS != nil:
		e.ESCPOS.FailNextPrint(escposemu.CutterJam, escposemu.AfterBarcode)
	}
}

func (d *keyboard) NextGame() {
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

func (d *keyboard) set(f func()) {
	d.mu.Lock()
	f()
	parts := []string{"acceptor ready", "printer ready"}
	if d.jam {
		parts[0] = "ACCEPTOR JAMMED (F9)"
	}
	if d.paper {
		parts[1] = "PRINTER PAPER OUT (F10)"
	}
	switch n := d.cards.In(); {
	case d.cards.Err() != nil:
		parts = append(parts, "no card reader")
	case n == 0:
		parts = append(parts, "no card (F2–F4)")
	default:
		parts = append(parts, fmt.Sprintf("card %d in: %s (K out)", n, devkit.DemoPlayers[n-1].Name))
	}
	d.status = strings.Join(parts, " · ")
	d.mu.Unlock()
}

// InsertCard puts demo card n in the reader; a card swapped takes about a
// second (the reader must see the first go), so it runs beside the frame.
func (d *keyboard) InsertCard(n int) error {
	if err := d.cards.Err(); err != nil {
		return err
	}
	go func() {
		if err := d.cards.Insert(n); err != nil {
			fmt.Fprintln(os.Stderr, "polaris-devkit: card:", err)
		}
		d.set(func() {})
	}()
	return nil
}

// RemoveCard takes the card out of the reader.
func (d *keyboard) RemoveCard() error {
	err := d.cards.Remove()
	d.set(func() {})
	return err
}

func (d *keyboard) Keys() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.keys
}

func (d *keyboard) Status() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.status
}

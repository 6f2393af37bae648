// Package devkit is the cabinet as a developer runs it: the app (firmware/app)
// with the devkit board's emulated devices (board/emulated) over
// pseudo-terminals and the central system embedded in the process
// (central/embedded), and Headless, the cabinet without a display that
// scenario scripts, chaos play, the crash harness and the display tests
// drive; Reconciler checks its data directory after a crash. The
// polaris-devkit binary is built on it; the cabinet binary (cmd/polaris)
// links none of it.
package devkit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/polaris-vlt/polaris/board/emulated"
	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/scenario"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// Headless is a cabinet without a display: the devkit board's emulated
// devices over pseudo-terminals, the embedded central system, the ledger in
// Options.DataDir. A "power cut" stops it between two events and starts a
// new one on the same data directory.
type Headless struct {
	Opt  app.Options
	App  *app.App
	kit  *Kit
	stop context.CancelFunc
	done chan error
}

// StartHeadless starts a headless cabinet with the devkit's parts (With).
// When the data directory has a DocumentDir, the emulators keep their
// document logs there.
func StartHeadless(ctx context.Context, o app.Options) (*Headless, error) {
	h := &Headless{}
	h.Opt, h.kit = With(o)
	return h, h.boot(ctx)
}

// Emulated are the emulated devices of the running cabinet; nil when it
// opened none (software verification failed).
func (h *Headless) Emulated() *emulated.Devices {
	if h.App == nil || h.App.Board == nil {
		return nil
	}
	return h.kit.Devices()
}

func (h *Headless) boot(ctx context.Context) error {
	a, err := app.Start(ctx, h.Opt)
	if err != nil {
		return err
	}
	h.App = a
	rctx, cancel := context.WithCancel(ctx)
	h.stop = cancel
	h.done = make(chan error, 1)
	go func() { h.done <- a.Run(rctx) }()
	return nil
}

// PowerCut stops the cabinet as a power cut does and boots it again.
func (h *Headless) PowerCut(ctx context.Context) error {
	h.App.Cabinet.Post(cabinet.PowerOff{})
	<-h.done
	h.stop()
	h.App.Close()
	return h.boot(ctx)
}

// Close stops the cabinet; closing again does nothing.
func (h *Headless) Close() error {
	if h.stop == nil {
		return nil
	}
	h.stop()
	<-h.done
	h.stop = nil
	return h.App.Close()
}

// scriptNames are the scripts' other names for deck buttons: the Risk
// card's colours are the bet buttons (MS-10), and bet+/bet- read better.
var scriptNames = map[string]string{
	"bet+": string(deck.BetPlus), "bet-": string(deck.BetMinus),
	"red": string(deck.BetMinus), "black": string(deck.BetPlus),
}

// inputNamed is the input a script names: a deck button, key switch or
// door by its deck name ("start", "attendant", "main"), or a script name.
func inputNamed(name string) (gpio.Input, bool) {
	if n, ok := scriptNames[name]; ok {
		name = n
	}
	return gpio.InputOf(name)
}

// debounceWait outlasts the devkit's debounce windows.
const debounceWait = 80 * time.Millisecond

func (h *Headless) set(name string, active bool) error {
	in, ok := inputNamed(name)
	if !ok {
		return fmt.Errorf("no input %q", name)
	}
	if err := h.App.Board.SetInput(in, active); err != nil {
		return err
	}
	time.Sleep(debounceWait)
	// On a loaded machine the debouncer may not have sampled yet: a press
	// released before it did would be lost. Wait until it took the level.
	for deadline := time.Now().Add(10 * time.Second); h.App.Board.GPIO != nil && h.App.Board.GPIO.Inputs()[in] != active; {
		if time.Now().After(deadline) {
			return fmt.Errorf("input %q still not %v after debouncing", name, active)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// handled waits until the cabinet's loop has handled the input set: the
// debounced change was posted before set returned (the controller's
// events go out before its next sample), and the loop publishes after
// each event, so the next step sees the snapshot after the input.
func (h *Headless) handled(err error) error {
	if err == nil {
		h.App.Cabinet.Sync()
	}
	return err
}

// errNoDevices: the cabinet failed software verification and opened none.
var errNoDevices = errors.New("the cabinet opened no devices (software verification failed)")

// Do runs one step.
func (h *Headless) Do(ctx context.Context, s scenario.Step) error {
	a := s.Args
	switch s.Verb {
	case "press", "hold", "door", "key", "note", "ticket", "printer":
		if h.App.Board == nil {
			return errNoDevices
		}
	}
	switch s.Verb {
	case "press":
		if err := h.set(a[0], true); err != nil {
			return err
		}
		return h.handled(h.set(a[0], false))
	case "hold":
		d, _ := time.ParseDuration(a[1])
		if err := h.set(a[0], true); err != nil {
			return err
		}
		time.Sleep(d)
		return h.handled(h.set(a[0], false))
	case "door":
		return h.handled(h.set(a[0], a[1] == "open"))
	case "key":
		return h.handled(h.set(a[0], a[1] == "on"))
	case "game":
		h.App.Cabinet.Post(cabinet.SelectGame{Game: engine.GameID(a[0])})
		return nil
	case "note":
		v, _ := strconv.ParseInt(a[0], 10, 64)
		return h.insertNote(ctx, engine.Money(v))
	case "ticket":
		if a[0] == "last" {
			return h.InsertLastTicket()
		}
		return h.Emulated().Acceptor.InsertTicket(a[0])
	case "wait":
		d := 20 * time.Second
		if len(a) == 2 {
			d, _ = time.ParseDuration(a[1])
		}
		return h.wait(ctx, a[0], d)
	case "sleep":
		d, _ := time.ParseDuration(a[0])
		time.Sleep(d)
		return nil
	case "expect":
		return h.expect(a)
	case "power":
		return h.PowerCut(ctx)
	case "printer":
		if e := h.Emulated(); e == nil || e.TCL == nil {
			return errors.New("no emulated TCL printer")
		}
		h.Emulated().TCL.TakeTicket()
		return nil
	}
	return fmt.Errorf("unknown command %q", s.Verb)
}

// insertNote finds the note's escrow code in the emulator's currency
// table and inserts it once the acceptor takes documents.
func (h *Headless) insertNote(ctx context.Context, v engine.Money) error {
	code, err := h.noteCode(v)
	if err != nil {
		return err
	}
	before := h.credit()
	if err := h.offerNote(code); err != nil {
		return err
	}
	return h.until(ctx, 15*time.Second, func(*view.Snapshot) bool { return h.credit() == before+v }, "note credited")
}

// What chaos play drives beyond a script's steps (scenario.Player).

// Devices says the cabinet opened its devices.
func (h *Headless) Devices() bool { return h.Emulated() != nil }

// OfferNote puts a note of value v into the acceptor's slot once, taken or
// refused; only a value the acceptor's currency table lacks is an error.
func (h *Headless) OfferNote(v engine.Money) error {
	code, err := h.noteCode(v)
	if err != nil {
		return err
	}
	h.Emulated().Acceptor.InsertNote(code)
	return nil
}

// TakeTicket takes the ticket from the printer's chute; false when the
// printer is not one with a chute (ESC/POS).
func (h *Headless) TakeTicket() bool {
	e := h.Emulated()
	if e == nil || e.TCL == nil {
		return false
	}
	e.TCL.TakeTicket()
	return true
}

// InsertLastTicket is the player taking the last voucher from the chute
// (a ticket cannot be both there and in the acceptor) and inserting it.
// Left in the chute it would refuse every later print.
func (h *Headless) InsertLastTicket() error {
	number := h.LastVoucher()
	if number == "" {
		return errors.New("no voucher printed yet")
	}
	h.TakeTicket()
	return h.Emulated().Acceptor.InsertTicket(number)
}

// InsertTicket puts a voucher into the acceptor's slot.
func (h *Headless) InsertTicket(number string) error {
	return h.Emulated().Acceptor.InsertTicket(number)
}

// offerNote puts a note into the acceptor's slot once it takes documents.
func (h *Headless) offerNote(code byte) error {
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err = h.Emulated().Acceptor.InsertNote(code); err == nil {
			return nil
		}
	}
	return fmt.Errorf("the acceptor takes no note: %w", err)
}

// ToMenuPage pages the menu a key opened forward (Bet+) to the page titled
// title. When no menu opens (a key refused mid-round) it presses nothing.
func (h *Headless) ToMenuPage(ctx context.Context, title string) error {
	if err := h.until(ctx, time.Second, func(s *view.Snapshot) bool { return s.Menu != nil }, "a menu"); err != nil {
		return err
	}
	for i := 0; i < 16; i++ {
		m := h.App.Cabinet.View().Menu
		if m == nil {
			return errors.New("the menu closed")
		}
		if m.Title == title {
			return nil
		}
		if err := h.Do(ctx, scenario.Step{Verb: "press", Args: []string{"bet+"}}); err != nil {
			return err
		}
	}
	return fmt.Errorf("no menu page %q", title)
}

func (h *Headless) noteCode(v engine.Money) (byte, error) {
	code := byte(0)
	for _, d := range noteTable(h.App.Market) {
		val := int64(d.Base)
		for i := byte(0); i < d.Exponent; i++ {
			val *= 10
		}
		for i := 0; i < h.App.Market.Currency.MinorUnits; i++ {
			val *= 10
		}
		if engine.Money(val) == v {
			code = d.Code
		}
	}
	if code == 0 {
		return 0, fmt.Errorf("no note of %d in the acceptor's currency table", v)
	}
	return code, nil
}

func (h *Headless) credit() engine.Money {
	c, _ := h.App.Ledger.Credit()
	return engine.Money(c)
}

// Wallet lists, oldest first, the vouchers the player holds: presented by
// the printer and not (or no longer) in the acceptor's cash box. With
// document logs it outlives power cuts, as the paper does.
func (h *Headless) Wallet() []string {
	e := h.Emulated()
	if e == nil || e.TCL == nil || e.Acceptor == nil {
		return nil
	}
	inBox := map[string]int{}
	for _, d := range e.Acceptor.StackedDocs() {
		if d.Ticket != "" {
			inBox[d.Ticket]++
		}
	}
	var out []string
	for _, po := range e.TCL.Printouts() {
		if !po.Complete || !po.ValidationPrinted || len(po.Barcodes) == 0 {
			continue
		}
		if n := po.Barcodes[0]; inBox[n] > 0 {
			inBox[n]--
		} else {
			out = append(out, n)
		}
	}
	return out
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// LastVoucher is the validation number of the last voucher out: the last
// one the printer presented, or else the last one the ledger debited.
func (h *Headless) LastVoucher() string {
	if e := h.Emulated(); e != nil && e.TCL != nil {
		pos := e.TCL.Printouts()
		for i := len(pos) - 1; i >= 0; i-- {
			if po := pos[i]; po.Complete && po.ValidationPrinted && len(po.Barcodes) > 0 {
				return po.Barcodes[0]
			}
		}
	}
	out := h.App.Ledger.DocsOut()
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Kind == ledger.DocVoucher && out[i].Result == ledger.DocPrinted {
			return out[i].Number
		}
	}
	return ""
}

func (h *Headless) until(ctx context.Context, d time.Duration, ok func(*view.Snapshot) bool, what string) error {
	deadline := time.Now().Add(d)
	for {
		s := h.App.Cabinet.View()
		if s != nil && ok(s) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waited %v in vain for %s (mode %s, credit %d, tilts %v)", d, what, s.Mode, s.Credit, s.Tilts)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func (h *Headless) wait(ctx context.Context, what string, d time.Duration) error {
	if what == "ready" {
		return h.until(ctx, d, func(s *view.Snapshot) bool {
			return s.Mode == view.ModeIdle && !s.CountUp.Running(time.Now()) && h.App.Cabinet.Blocked() == ""
		}, "a Start to play (idle, nothing blocking)")
	}
	if what == "round" {
		return h.until(ctx, d, func(s *view.Snapshot) bool {
			return s.Round != nil && (s.RiskOffer || s.Mode != view.ModeWagering && s.Mode != view.ModePresenting)
		}, "the round to end")
	}
	// Idle is where a press starts a game: not while a win still counts
	// up (Start then only ends the count-up).
	return h.until(ctx, d, func(s *view.Snapshot) bool {
		return string(s.Mode) == what && (s.Mode != view.ModeIdle || !s.CountUp.Running(time.Now()))
	}, "mode "+what)
}

func (h *Headless) expect(a []string) error {
	s := h.App.Cabinet.View()
	want := func(got int64) error {
		w, _ := strconv.ParseInt(a[len(a)-1], 10, 64)
		if got != w {
			return fmt.Errorf("%s is %d, expected %d", a[0], got, w)
		}
		return nil
	}
	switch a[0] {
	case "mode":
		if string(s.Mode) != a[1] {
			return fmt.Errorf("mode is %s, expected %s", s.Mode, a[1])
		}
		return nil
	case "credit":
		return want(int64(h.credit()))
	case "win":
		return want(int64(s.Win))
	case "bet":
		return want(int64(s.Bet))
	case "meter":
		ms, _ := h.App.Ledger.Meters(ledger.ScopeCabinet)
		return want(ms[ledger.Meter(a[1])])
	}
	return fmt.Errorf("cannot expect %q", a[0])
}

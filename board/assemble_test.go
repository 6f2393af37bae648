package board_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/board/emulated"
	"github.com/polaris-vlt/polaris/drivers/acceptor"
	"github.com/polaris-vlt/polaris/drivers/cardreader"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/gpiotest"
	"github.com/polaris-vlt/polaris/drivers/gpio/periphgpio"
	"github.com/polaris-vlt/polaris/drivers/id003"
	id003emu "github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/printer/escpos"
	"github.com/polaris-vlt/polaris/drivers/printer/tcl"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// assemble runs Assemble with a deadline, so a device that never answers
// fails the test instead of hanging the whole run.
func assemble(t *testing.T, p *board.Profile, opt board.Options) (*board.Cabinet, error) {
	t.Helper()
	type res struct {
		c   *board.Cabinet
		err error
	}
	ch := make(chan res, 1)
	go func() { c, err := board.Assemble(p, opt); ch <- res{c, err} }()
	select {
	case r := <-ch:
		if r.c != nil {
			t.Cleanup(func() {
				done := make(chan struct{})
				go func() { r.c.Close(); close(done) }()
				select {
				case <-done:
				case <-poll.After(30 * time.Second):
					t.Error("Cabinet.Close hung")
				}
			})
		}
		return r.c, r.err
	case <-poll.After(30 * time.Second):
		t.Fatal("Assemble hung")
		return nil, nil
	}
}

func waitFor[T any](t *testing.T, ch <-chan T, what string, ok func(T) bool) T {
	t.Helper()
	// Generous: the devices answer in milliseconds, but make test starts
	// with every package compiling on two cores (a voucher took over 10 s);
	// POLARIS_TEST_TIMEOUT_FACTOR stretches it further.
	deadline := poll.After(30 * time.Second)
	for {
		select {
		case e := <-ch:
			if ok(e) {
				return e
			}
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// devkit assembles from its profile and every device answers: buttons reach
// the GPIO events, lamps and meters drive their lines (the emulated meter
// confirms on the sense line), and the emulated acceptor, over a
// pseudo-terminal through the real serial code, starts up, takes a note and
// stacks it.
func TestDevkitAssemblesAndAnswers(t *testing.T) {
	p, err := board.Load("devkit")
	if err != nil {
		t.Fatal(err)
	}
	store := gpiotest.NewMeterStore()
	gev := make(chan gpio.Event, 64)
	emu := emulated.New()
	cab, err := assemble(t, p, board.Options{Meters: store, GPIOEvents: func(e gpio.Event) { gev <- e }, Emulators: emu})
	if err != nil {
		t.Fatal(err)
	}
	if cab.FakeGPIO == nil || emu.Acceptor == nil {
		t.Fatal("devkit without fake GPIO or acceptor emulator")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cab.Run(ctx) }()

	// GPIO: doors start shut, so the first event is the button.
	if err := cab.SetInput(gpio.BtnCollect, true); err != nil {
		t.Fatal(err)
	}
	ic := waitFor(t, gev, "collect press", func(e gpio.Event) bool { _, ok := e.(gpio.InputChanged); return ok }).(gpio.InputChanged)
	if ic.Input != gpio.BtnCollect || !ic.Active {
		t.Fatalf("first GPIO event %v, want collect pressed", ic)
	}
	if open, err := cab.Toggle(gpio.DoorMain); !open || err != nil {
		t.Fatalf("Toggle(main door) = %v, %v", open, err)
	}
	waitFor(t, gev, "main door open", func(e gpio.Event) bool {
		ic, ok := e.(gpio.InputChanged)
		return ok && ic.Input == gpio.DoorMain && ic.Active
	})
	if err := cab.GPIO.SetLamp(gpio.BtnStart, gpio.On); err != nil {
		t.Fatal(err)
	}
	store.Commit(gpio.MeterGames, 2)
	cab.GPIO.Kick(gpio.MeterGames)
	for n := 0; n < 2; {
		e := waitFor(t, gev, "meter pulses", func(e gpio.Event) bool {
			switch e.(type) {
			case gpio.MeterPulsed, gpio.MeterFailed:
				return true
			}
			return false
		})
		if f, bad := e.(gpio.MeterFailed); bad {
			t.Fatalf("devkit meter failed: %v", f)
		}
		n++
	}
	if on, _ := cab.FakeGPIO.Output("LAMP_START"); !on {
		t.Error("start lamp line not driven")
	}

	// Acceptor: the driver finishes start-up against the emulator, then a
	// 10 € note goes to escrow and is stacked on command.
	ev := cab.Acceptor.Events()
	waitFor(t, ev, "acceptor ready", func(e acceptor.Event) bool { _, ok := e.(acceptor.Ready); return ok })
	waitFor(t, ev, "acceptor enabled", func(e acceptor.Event) bool { _, ok := e.(acceptor.Enabled); return ok })
	if err := emu.Acceptor.InsertNote(0x63); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ev, "escrow", func(e acceptor.Event) bool { _, ok := e.(acceptor.Escrow); return ok })
	sctx, scancel := context.WithTimeout(ctx, poll.Scaled(5*time.Second))
	defer scancel()
	if err := cab.Acceptor.Stack(sctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ev, "stacked", func(e acceptor.Event) bool { _, ok := e.(acceptor.Stacked); return ok })

	// Printer: the TCL driver (opened at Assemble against the emulator)
	// prints a voucher; it is issued when its validation number is printed.
	if cab.Printer == nil || emu.TCL == nil {
		t.Fatal("devkit without printer or TCL emulator")
	}
	printVoucher(t, cab.Printer)
	if n := len(emu.TCL.Printouts()); n != 1 {
		t.Errorf("emulator printed %d documents", n)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-poll.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
	if err := cab.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if on, _ := cab.FakeGPIO.Output("LAMP_START"); on {
		t.Error("lamp left on after Close")
	}
	if err := emu.Err(); err != nil {
		t.Errorf("emulator: %v", err)
	}
}

// rpi-cabinet on a machine without its lines refuses to start, naming each
// pin, and leaves nothing open.
func TestRPiCabinetRefusesWithoutItsPins(t *testing.T) {
	if _, err := os.Stat("/dev/gpiochip0"); err == nil {
		t.Skip("this machine has GPIO chips; the refusal is tested where it has none")
	}
	p, err := board.Load("rpi-cabinet")
	if err != nil {
		t.Fatal(err)
	}
	_, err = assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore()})
	var miss *periphgpio.MissingLinesError
	if !errors.As(err, &miss) {
		t.Fatalf("Assemble: %v, want MissingLinesError", err)
	}
	for _, want := range []string{`pin "GPIO5" (button start)`, `pin "GPIO23" (door_acceptor)`, `pin "LAMP_COLLECT" (lamp collect)`, `pin "GPIO24" (meter sense)`, "no GPIO chips"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if len(miss.Missing) != 29 {
		t.Errorf("%d pins reported missing, want all 29", len(miss.Missing))
	}
}

func TestAssembleNeedsMeterStore(t *testing.T) {
	p, _ := board.Load("devkit")
	if _, err := assemble(t, p, board.Options{}); err == nil {
		t.Fatal("assembled without a MeterStore")
	}
}

// A configured serial port that does not exist refuses to start, naming it.
func TestMissingPortRefuses(t *testing.T) {
	text := strings.Replace(devkitText(t), "protocol = \"id003\"\nemulated = true", "protocol = \"id003\"\nport = \"/dev/polaris-no-such-acceptor\"", 1)
	p, err := board.Parse("bench.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, err = assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore(), Emulators: emulated.New()})
	if err == nil || !strings.Contains(err.Error(), "acceptor port /dev/polaris-no-such-acceptor") {
		t.Fatalf("Assemble: %v", err)
	}
}

func printVoucher(t *testing.T, p board.Printer) {
	t.Helper()
	at := time.Date(2026, 11, 29, 18, 7, 5, 0, time.UTC)
	job, err := p.Print(document.Voucher{Lang: document.English, Site: "Polaris devkit", SiteID: "DEV-1",
		Machine: "0001", Issued: at, Amount: 2550, Currency: document.EUR, Sequence: 7,
		Validation: "001234567890123456", Type: document.Cashable, Expiry: at.Add(30 * 24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	pev := p.Events()
	vp := waitFor(t, pev, "validation printed", func(e printer.Event) bool { _, ok := e.(printer.ValidationPrinted); return ok }).(printer.ValidationPrinted)
	if vp.Job != job || vp.Validation != "001234567890123456" {
		t.Errorf("ValidationPrinted %+v for job %d", vp, job)
	}
	waitFor(t, pev, "print complete", func(e printer.Event) bool { _, ok := e.(printer.PrintComplete); return ok })
}

// The devkit's emulated TCL printer issues voucher after voucher: the
// driver does not wait out 9600-baud line time on a pseudo-terminal, so it
// sees each (fast, emulated) print start before it ends. Waiting it out,
// the second voucher failed "print stopped before the validation number".
func TestDevkitPrintsVouchersBackToBack(t *testing.T) {
	p, err := board.Load("devkit")
	if err != nil {
		t.Fatal(err)
	}
	emu := emulated.New()
	cab, err := assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore(), Emulators: emu})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		printVoucher(t, cab.Printer)
		emu.TCL.TakeTicket()
		waitFor(t, cab.Printer.Events(), "ticket taken", func(e printer.Event) bool { _, ok := e.(printer.TicketTaken); return ok })
	}
}

// The acceptor's currency variant: the emulated unit carries the CZK table
// and the driver checks its country code; the market's currency is the
// default when the profile names none.
func TestAcceptorCurrencyVariant(t *testing.T) {
	for _, c := range []struct {
		name, edit, market string
	}{
		{"profile", "protocol = \"id003\"\nemulated = true\ncurrency = \"CZK\"\nrecycler = true", ""},
		{"market", "protocol = \"id003\"\nemulated = true\nrecycler = true", "CZK"},
	} {
		text := strings.Replace(devkitText(t), "protocol = \"id003\"\nemulated = true", c.edit, 1)
		p, err := board.Parse("czk.toml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		var got id003.Config
		emu := emulated.New()
		_, err = assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore(), AcceptorCurrency: c.market, Emulators: emu,
			AcceptorConfig: func(cfg *id003.Config) { got = *cfg }})
		if err != nil {
			t.Fatal(err)
		}
		if got.Country != id003emu.CountryCZK || !got.Recycler {
			t.Fatalf("%s: driver country %02X recycler %v", c.name, got.Country, got.Recycler)
		}
		if emu.Acceptor == nil {
			t.Fatal("no emulated acceptor")
		}
	}
}

// A TCL printer model in the profile sets the driver's status mode,
// time-outs and f4 layout; the profile's *_ms keys override the model.
func TestTCLPrinterModelFromProfile(t *testing.T) {
	text := strings.Replace(devkitText(t), "protocol = \"tcl\"", "protocol = \"tcl\"\nmodel = \"paycheck4\"\nprint_timeout_ms = 90000", 1)
	p, err := board.Parse("paycheck4.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var got tcl.Config
	cab, err := assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore(), Emulators: emulated.New(), TCLConfig: func(c *tcl.Config) {
		got = *c
		// the devkit's emulator answers ENQ and keeps Monaco's f4 bits
		c.Broadcast, c.F4 = 0, tcl.F4Monaco
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Broadcast != 2*time.Second || got.StartTimeout != 8*time.Second || got.PrintTimeout != 90*time.Second ||
		got.F4 != tcl.F4Paycheck4 || got.Pacing != 100*time.Millisecond {
		t.Fatalf("driver config %+v", got)
	}
	printVoucher(t, cab.Printer)
}

// A devkit variant with an ESC/POS printer at 19200 baud: the driver asks
// for 19200 8N1 (recorded, since a pseudo-terminal keeps no mode) and
// prints a voucher on the emulator.
func TestESCPOSPrinterAssembles(t *testing.T) {
	text := strings.Replace(devkitText(t), "protocol = \"tcl\"", "protocol = \"escpos\"\nbaud = 19200", 1)
	p, err := board.Parse("escpos.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var modes []serialport.Mode
	var mu sync.Mutex
	emu := emulated.New()
	cab, err := assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore(), Emulators: emu, ESCPOSConfig: func(c *escpos.Config) {
		c.Open = func(path string, m serialport.Mode) (serialport.Port, error) {
			mu.Lock()
			modes = append(modes, m)
			mu.Unlock()
			return serialport.Open(path, m)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if emu.ESCPOS == nil || emu.TCL != nil {
		t.Fatal("wrong printer emulator")
	}
	mu.Lock()
	if len(modes) == 0 || modes[0] != (serialport.Mode{Baud: 19200, DataBits: 8, Parity: serialport.ParityNone, StopBits: 1}) {
		t.Errorf("driver asked for %v", modes)
	}
	mu.Unlock()
	printVoucher(t, cab.Printer)
}

// A board without emulators (the cabinet binary) refuses a profile with
// emulated devices, in-memory GPIO included, saying where they are.
func TestEmulatedDeviceNeedsEmulators(t *testing.T) {
	p, err := board.Load("devkit")
	if err != nil {
		t.Fatal(err)
	}
	_, err = assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore()})
	if err == nil || !strings.Contains(err.Error(), "GPIO is emulated") || !strings.Contains(err.Error(), "polaris-devkit") {
		t.Fatalf("Assemble: %v", err)
	}
}

// An emulated acceptor of a currency the devkit's emulator has no table
// for is refused when the board is assembled, naming the tables it has
// (the cabinet's own board links no emulator, so the profile cannot check).
func TestEmulatedAcceptorUnknownCurrencyRefused(t *testing.T) {
	text := strings.Replace(devkitText(t), "protocol = \"id003\"\nemulated = true", "protocol = \"id003\"\nemulated = true\ncurrency = \"XYZ\"", 1)
	p, err := board.Parse("xyz.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, err = assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore(), Emulators: emulated.New()})
	if err == nil || !strings.Contains(err.Error(), "no XYZ table (the emulator has CZK, EUR)") {
		t.Fatalf("assemble: %v", err)
	}
}

// The profile's card reader is opened at Assemble; pcscd missing does not
// refuse the cabinet: the reader reports itself lost, and Close stops it.
func TestCardReaderAssemblesWithoutPCSCD(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "no-pcscd.comm")
	text := strings.Replace(devkitText(t), `reader = "Virtual PCD 00 00"`, `reader = "Virtual PCD 00 00"`+"\nsocket = \""+sock+"\"", 1)
	p, err := board.Parse("card.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	cab, err := assemble(t, p, board.Options{Meters: gpiotest.NewMeterStore(), Emulators: emulated.New()})
	if err != nil {
		t.Fatal(err)
	}
	if cab.CardReader == nil {
		t.Fatal("no card reader assembled")
	}
	select {
	case e := <-cab.CardReader.Events():
		if l, ok := e.(cardreader.ReaderLost); !ok || l.Reader != "Virtual PCD 00 00" || !strings.Contains(l.Err.Error(), sock) {
			t.Fatalf("event %#v", e)
		}
	case <-poll.After(10 * time.Second):
		t.Fatal("no ReaderLost")
	}
}

// devkitText is the devkit profile as shipped (the package embeds this
// file; an external test reads it from the folder).
func devkitText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("profiles/devkit.toml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

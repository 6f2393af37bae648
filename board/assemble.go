package board

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/clock"

	"github.com/polaris-vlt/polaris/drivers/acceptor"
	"github.com/polaris-vlt/polaris/drivers/cardreader"
	"github.com/polaris-vlt/polaris/drivers/cardreader/pcsc"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/periphgpio"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/escpos"
	"github.com/polaris-vlt/polaris/drivers/printer/tcl"
	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// Acceptor is the firmware's port to the bill/ticket acceptor
// (drivers/acceptor); id003.Acceptor is one.
type Acceptor = acceptor.Device

// Printer is the firmware's port to the ticket printer (drivers/printer).
type Printer = printer.Printer

// Emulators start the device emulators of a profile's emulated devices,
// each on the far end of a pseudo-terminal whose host end the driver opens
// through serialport, the same code path as a real port, and the in-memory
// lines of its "fake" GPIO backend. The devkit passes board/emulated's; the
// cabinet binary passes none and links no emulator and no test double.
type Emulators interface {
	// StartGPIO makes the in-memory GPIO lines (drivers/gpio/gpiotest)
	// on clk, which the devkit's keyboard and the tests drive.
	StartGPIO(clk clock.Clock, inputs, outputs []gpio.LineSpec) (MemoryGPIO, error)
	// StartAcceptor starts an emulated ID-003 acceptor with the note table
	// of currency (ISO 4217), a bill recycler if asked, and returns the
	// path of the port its driver opens and the country byte its table
	// carries. log, when not "", is its document log.
	StartAcceptor(log, currency string, recycler bool) (path string, country byte, err error)
	// StartPrinter starts an emulated printer speaking protocol ("tcl",
	// "escpos"), likewise.
	StartPrinter(protocol, log string) (path string, err error)
	// Close stops the emulators; the board calls it after closing the
	// drivers.
	Close() error
}

// MemoryGPIO are in-memory GPIO lines: what the board needs of them to
// wire a profile (switches at rest, the meter sense following the coils)
// and what the devkit drives (SetInput, Toggle, its lamp view).
// drivers/gpio/gpiotest's Board is one.
type MemoryGPIO interface {
	Inputs() gpio.InputBank
	Outputs() gpio.OutputBank
	Set(line string, high bool) error
	Input(line string) (bool, error)
	Output(line string) (bool, error)
	Follow(in string, invert bool, outs ...string) error
}

// Options are what the cabinet program supplies to Assemble.
type Options struct {
	// Clock times the GPIO (debounce, patterns, meter pulses); nil is the
	// system clock.
	Clock clock.Clock
	// Meters is the durable count of units owed to the hard meters: the
	// ledger. Required.
	Meters gpio.MeterStore
	// GPIOEvents receives button, key, door and meter events from the GPIO
	// goroutine. nil drops them.
	GPIOEvents func(gpio.Event)
	// BeforeAck is the acceptor's hook when a document is in the stacker,
	// before the driver acknowledges it: the place to journal the credit
	// (acceptor.Hooks).
	BeforeAck func(acceptor.Stacked) error
	// BeforeReset is the acceptor's hook at a power-up with a document
	// inside, before the reset (acceptor.Hooks).
	BeforeReset func(acceptor.PowerUpWithBill) error
	// AcceptorCurrency is the market's currency (ISO 4217): the acceptor's
	// currency variant when the profile names none (the emulated unit's
	// table, the country code the driver checks). Empty: EUR.
	AcceptorCurrency string
	// AcceptorConfig, when set, adjusts the acceptor driver's configuration
	// (tests scale timings down, or wrap Open). Path is the assembly's, and
	// so are the hooks: BeforeAck and BeforeReset replace the Config's.
	AcceptorConfig func(*id003.Config)
	// TCLConfig, when set, adjusts the TCL printer driver's configuration
	// (timings; Open, to wrap the port in tests). Path is the assembly's.
	TCLConfig func(*tcl.Config)
	// ESCPOSConfig, when set, adjusts the ESC/POS printer driver's
	// configuration (timings; Open, to record the mode). Path and Mode are
	// the assembly's: the profile's port and baud rate, 8N1.
	ESCPOSConfig func(*escpos.Config)
	// AcceptorHeartbeat, PrinterHeartbeat and GPIOHeartbeat are called once
	// per completed cycle of that device's loop (the drivers' Heartbeat
	// fields): the watchdog's evidence that the loop is not hung. nil: none.
	// They are set before the *Config hooks run, which may wrap them.
	AcceptorHeartbeat, PrinterHeartbeat, GPIOHeartbeat func()
	// DocumentLogDir, when set, gives the emulated devices a physical
	// record that outlives the process: acceptor.jsonl and printer.jsonl
	// there log every document stacked, returned or printed (fsynced as it
	// moves) and are replayed when the emulators start again. Real devices
	// ignore it.
	DocumentLogDir string
	// Emulators start the profile's emulated devices; nil refuses a
	// profile that has any.
	Emulators Emulators
	// CardReaderSocket, when set, is pcscd's socket in place of the
	// profile's: the devkit's own pcscd with the virtual reader.
	CardReaderSocket string
}

// Document log files in Options.DocumentLogDir.
const (
	AcceptorLogFile = "acceptor.jsonl"
	PrinterLogFile  = "printer.jsonl"
)

// docLog is the path of a document log, "" when there is none.
func (o Options) docLog(name string) string {
	if o.DocumentLogDir == "" {
		return ""
	}
	return filepath.Join(o.DocumentLogDir, name)
}

// Cabinet is the hardware of one cabinet, assembled from a profile.
type Cabinet struct {
	Profile  *Profile
	GPIO     *gpio.Controller
	Acceptor Acceptor
	Printer  Printer // nil until a printer driver for the profile's protocol is wired
	// CardReader is the player card reader; nil when the profile has none.
	CardReader cardreader.Reader

	// Devkit only: the in-memory GPIO lines the keyboard drives (the
	// device emulators are Options.Emulators').
	FakeGPIO MemoryGPIO

	inputs map[gpio.Input]gpio.InputWiring

	emulators Emulators // set once an emulated device started
	closers   []func() error
	closeOnce sync.Once
	closeErr  error
}

// Assemble opens everything a profile names: the GPIO banks (refusing to
// start when a pin does not resolve), the acceptor and the printer. For
// emulated devices it starts Options.Emulators, and the drivers open the
// host ends of their pseudo-terminals. On error everything opened so far is
// closed again.
func Assemble(p *Profile, opt Options) (c *Cabinet, err error) {
	if opt.Meters == nil {
		return nil, errors.New("board: Assemble needs a MeterStore (the ledger)")
	}
	c = &Cabinet{Profile: p, inputs: map[gpio.Input]gpio.InputWiring{}}
	defer func() {
		if err != nil {
			c.Close()
			c = nil
		}
	}()

	if err := c.assembleGPIO(p, opt); err != nil {
		return c, err
	}
	if err := c.assembleAcceptor(p, opt); err != nil {
		return c, err
	}
	if err := c.assemblePrinter(p, opt); err != nil {
		return c, err
	}
	if cr := p.CardReader; cr != nil {
		// pcscd or the reader missing is not a refusal to start: the
		// reader reports ReaderLost and is used when it comes.
		sock := cr.Socket
		if opt.CardReaderSocket != "" {
			sock = opt.CardReaderSocket
		}
		r, err := pcsc.Open(pcsc.Config{Socket: sock, Reader: cr.Reader})
		if err != nil {
			return c, fmt.Errorf("board: %s: card reader: %w", p.Name, err)
		}
		c.CardReader = r
		c.closers = append(c.closers, r.Close)
	}
	return c, nil
}

func (c *Cabinet) assembleGPIO(p *Profile, opt Options) error {
	cfg := p.GPIOConfig()
	cfg.Clock, cfg.Store, cfg.Sink = opt.Clock, opt.Meters, opt.GPIOEvents
	cfg.Heartbeat = opt.GPIOHeartbeat
	for _, w := range cfg.Inputs {
		c.inputs[w.Input] = w
	}
	var in gpio.InputBank
	var out gpio.OutputBank
	switch p.GPIO.Backend {
	case BackendFake:
		if opt.Emulators == nil {
			return noEmulators(p, "GPIO")
		}
		c.emulators = opt.Emulators
		b, err := opt.Emulators.StartGPIO(opt.Clock, cfg.InputLines(), cfg.OutputLines())
		if err != nil {
			return fmt.Errorf("board: %s: GPIO emulator: %w", p.Name, err)
		}
		// Start with every switch at rest (doors shut, keys off) and the
		// meters connected, as on a healthy cabinet.
		for _, w := range cfg.Inputs {
			b.Set(w.Line, w.ActiveLow)
		}
		if s := cfg.MeterSense; s != nil && allActiveHigh(cfg.Meters) {
			var coils []string
			for _, m := range cfg.Meters {
				coils = append(coils, m.Line)
			}
			if err := b.Follow(s.Line, s.ActiveLow, coils...); err != nil {
				return fmt.Errorf("board: %s: %w", p.Name, err)
			}
		}
		c.FakeGPIO = b
		in, out = b.Inputs(), b.Outputs()
	case BackendPeriph:
		var err error
		in, out, err = periphgpio.Open(cfg.InputLines(), cfg.OutputLines())
		if err != nil {
			return fmt.Errorf("board: %s: %w", p.Name, err)
		}
	default:
		return fmt.Errorf("board: %s: unknown GPIO backend %q", p.Name, p.GPIO.Backend)
	}
	ctl, err := gpio.New(cfg, in, out)
	if err != nil {
		in.Close()
		out.Close()
		return fmt.Errorf("board: %s: %w", p.Name, err)
	}
	c.GPIO = ctl
	c.closers = append(c.closers, ctl.Close)
	return nil
}

func allActiveHigh(ms []gpio.MeterWiring) bool {
	for _, m := range ms {
		if m.ActiveLow {
			return false
		}
	}
	return true
}

func noEmulators(p *Profile, what string) error {
	return fmt.Errorf("board: %s: the %s is emulated, and this build has no emulators (the devkit build has: cmd/polaris-devkit)", p.Name, what)
}

// emulate starts one emulated device through opt.Emulators and returns
// the port its driver opens.
func (c *Cabinet) emulate(p *Profile, opt Options, what string, start func(Emulators) (string, error)) (string, error) {
	if opt.Emulators == nil {
		return "", noEmulators(p, what)
	}
	c.emulators = opt.Emulators
	path, err := start(opt.Emulators)
	if err != nil {
		return "", fmt.Errorf("board: %s: %s emulator: %w", p.Name, what, err)
	}
	return path, nil
}

func (c *Cabinet) assembleAcceptor(p *Profile, opt Options) error {
	a := p.Acceptor
	if a.Protocol != "id003" {
		return fmt.Errorf("board: %s: no driver for acceptor protocol %q", p.Name, a.Protocol)
	}
	path := a.Port
	if !a.Emulated {
		if err := portExists(p.Name, "acceptor", path); err != nil {
			return err
		}
	}
	currency := a.Currency
	if currency == "" {
		currency = opt.AcceptorCurrency
	}
	if currency == "" {
		currency = "EUR"
	}
	country, sourced := acceptorCountries[currency]
	if a.Emulated {
		// The emulator says which country byte its table of currency carries.
		var err error
		path, err = c.emulate(p, opt, "acceptor", func(e Emulators) (string, error) {
			var p string
			var err error
			p, country, err = e.StartAcceptor(opt.docLog(AcceptorLogFile), currency, a.Recycler)
			return p, err
		})
		if err != nil {
			return err
		}
		sourced = true
	}
	if a.CountryCode != 0 {
		country = byte(a.CountryCode)
	} else if !sourced {
		return fmt.Errorf("board: %s: acceptor: no public country code for %s: set acceptor.country_code to the byte the unit's currency table (8A) carries", p.Name, currency)
	}
	cfg := id003.DefaultConfig(path)
	cfg.Country, cfg.Recycler = country, a.Recycler
	cfg.Heartbeat = opt.AcceptorHeartbeat
	if opt.AcceptorConfig != nil {
		opt.AcceptorConfig(&cfg)
	}
	cfg.Path = path
	c.Acceptor = id003.NewAcceptor(cfg, acceptor.Hooks{BeforeAck: opt.BeforeAck, BeforeReset: opt.BeforeReset})
	return nil
}

// acceptorCountries are the 8A country bytes a public source gives
// (EUR E0: TerminalClient's CurrencySpecification.h; drivers/id003/README.md).
// No public source gives the Czech unit's byte: a real CZK acceptor needs
// acceptor.country_code in its profile.
var acceptorCountries = map[string]byte{"EUR": 0xE0}

// portExists refuses to start when a configured serial port is missing
// (adapter unplugged, udev rule not installed): a clear error beats a
// driver retrying a path that will never appear.
func portExists(profile, what, path string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("board: %s: %s port %s: %w (is the USB-serial adapter plugged in and the udev rule installed?)", profile, what, path, err)
	}
	return nil
}

func (c *Cabinet) assemblePrinter(p *Profile, opt Options) error {
	pr := p.Printer
	path := pr.Port
	if !pr.Emulated {
		if err := portExists(p.Name, "printer", path); err != nil {
			return err
		}
	}
	if pr.Emulated && (pr.Protocol == "tcl" || pr.Protocol == "escpos") {
		var err error
		path, err = c.emulate(p, opt, "printer", func(e Emulators) (string, error) { return e.StartPrinter(pr.Protocol, opt.docLog(PrinterLogFile)) })
		if err != nil {
			return err
		}
	}
	switch pr.Protocol {
	case "tcl":
		cfg := tcl.Config{Path: path, Download: pr.DownloadTemplates, Transliterate: pr.Transliterate,
			Heartbeat: opt.PrinterHeartbeat}
		if err := tcl.ApplyModel(&cfg, pr.Model); err != nil {
			return fmt.Errorf("board: %s: printer: %w", p.Name, err)
		}
		for _, o := range []struct {
			ms int
			to *time.Duration
		}{{pr.StartTimeoutMS, &cfg.StartTimeout}, {pr.PrintTimeoutMS, &cfg.PrintTimeout},
			{pr.BroadcastMS, &cfg.Broadcast}, {pr.PacingMS, &cfg.Pacing}} {
			if o.ms > 0 {
				*o.to = ms(o.ms)
			}
		}
		if pr.Emulated {
			// A pseudo-terminal has no baud rate: the emulator has a whole
			// message at once and prints at its own (fast) pace, so waiting
			// out 9600-baud line time would miss its prints.
			cfg.ByteTime = -1
		}
		if opt.TCLConfig != nil {
			opt.TCLConfig(&cfg)
		}
		cfg.Path = path
		d, err := tcl.Open(cfg)
		if err != nil {
			return fmt.Errorf("board: %s: printer: %w", p.Name, err)
		}
		c.closers = append(c.closers, d.Close)
		c.Printer = d
		return nil
	case "escpos":
		mode := serialport.ModeESCPOSDefault
		if pr.Baud != 0 {
			mode.Baud = pr.Baud
		}
		cfg := escpos.Config{Path: path, Heartbeat: opt.PrinterHeartbeat}
		if opt.ESCPOSConfig != nil {
			opt.ESCPOSConfig(&cfg)
		}
		cfg.Path, cfg.Mode = path, mode
		d, err := escpos.Open(cfg)
		if err != nil {
			return fmt.Errorf("board: %s: printer: %w", p.Name, err)
		}
		c.closers = append(c.closers, d.Close)
		c.Printer = d
		return nil
	default:
		return fmt.Errorf("board: %s: no driver wired for printer protocol %q", p.Name, pr.Protocol)
	}
}

var (
	_ Printer  = (*tcl.Driver)(nil)
	_ Printer  = (*escpos.Driver)(nil)
	_ Acceptor = (*id003.Acceptor)(nil)
)

// Run drives the GPIO and the serial devices until ctx ends (nil) or the
// GPIO fails (its error: the firmware must tilt).
func (c *Cabinet) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	if c.Acceptor != nil {
		wg.Add(1)
		go func() { defer wg.Done(); c.Acceptor.Run(ctx) }()
	}
	err := c.GPIO.Run(ctx)
	cancel()
	wg.Wait()
	return err
}

// SetInput drives a devkit input: active means pressed, turned or open.
// It fails on a cabinet with real GPIO.
func (c *Cabinet) SetInput(in gpio.Input, active bool) error {
	if c.FakeGPIO == nil {
		return fmt.Errorf("board: %s has real GPIO; inputs come from the switches", c.Profile.Name)
	}
	w, ok := c.inputs[in]
	if !ok {
		return fmt.Errorf("board: no input %s", in)
	}
	return c.FakeGPIO.Set(w.Line, active != w.ActiveLow)
}

// Close turns the outputs off, closes every device and then stops the
// emulators.
func (c *Cabinet) Close() error {
	c.closeOnce.Do(func() {
		var errs []error
		for i := len(c.closers) - 1; i >= 0; i-- {
			errs = append(errs, c.closers[i]())
		}
		if c.emulators != nil {
			errs = append(errs, c.emulators.Close())
		}
		c.closeErr = errors.Join(errs...)
	})
	return c.closeErr
}

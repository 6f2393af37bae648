// Package app assembles a whole cabinet from its configuration: the ledger
// in the data directory, the board (drivers, or the emulators the caller
// passes in Options.BoardOptions), the central link (or the central system
// Options.LocalCentral starts on loopback), and the cabinet loop; then it
// pumps every device and link event into the loop and the loop's lamps out
// to the board. cmd/polaris and the devkit (firmware/devkit) both start
// cabinets through it; it imports no central system and no emulator.
package app

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/drivers/acceptor"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/health"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/outbox"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// Options configure a cabinet.
type Options struct {
	DataDir string // holds ledger-a, ledger-b and the embedded central system
	// LedgerA and LedgerB override the two ledger copies' directories (on a
	// cabinet: two media).
	LedgerA, LedgerB string
	// Market and Board name a built-in profile (at, cz, demo; devkit,
	// rpi-cabinet) or, when they end in ".toml", a profile file: on a
	// cabinet the signed copies in /etc/polaris, so the verified files are
	// the ones in use.
	Market string
	Board  string
	// Central is host:port of the operator's central system; empty starts
	// LocalCentral in the process (the devkit). PKIDir then holds the CA (ca.pem),
	// this cabinet's certificate (cabinets/<CabinetID>.pem and .key) and the
	// central system's outcome-signing key (signing.pub), as
	// `polaris-central pki` lays them out.
	Central      string
	PKIDir       string
	LocalCentral LocalCentral // nil in the cabinet binary: it links no central system
	CabinetID    string
	Site, SiteID string
	Timing       cabinet.Timing
	// Tick is how often the loop runs its timers.
	Tick time.Duration
	// SoftwareError is why software verification failed (firmware/verify):
	// the cabinet then opens no device and no network connection, shows
	// the reason and refuses play and money (check 8).
	SoftwareError string
	// SoftwareID is the verified manifest's digest: a different one than
	// at the last start locks the cabinet until a technician accepts it
	// (check 9). Empty (a development build) checks nothing, so a rebuilt
	// devkit is not locked. SoftwareVersion is shown on the audit page.
	SoftwareID, SoftwareVersion string
	// SoftwareSeeded computes the seeded digest over the verified manifest
	// for the technician's software page with the seed entered, or a fresh
	// one it draws when seed is nil (cabinet.Software.Seeded).
	SoftwareSeeded func(seed []byte) (used []byte, digest [32]byte, err error)
	// Health, when set, is the watchdog monitor: the cabinet loop beats
	// its "cabinet" heart on every tick, and each device loop of the board
	// ("acceptor", "printer", "gpio") on every completed cycle. The render
	// loop is not the app's: cmd/polaris registers "render".
	Health *health.Monitor
	// SelfTests run with the cabinet's own at start-up and every 24 h
	// (check 10): the start-up gate adds the software digests.
	SelfTests []health.SelfTest
	// AcceptorConfig adjusts the acceptor's timings (tests).
	AcceptorConfig func(*id003.Config)
	// BoardOptions, when set, adjusts what is passed to board.Assemble after
	// the app filled it in (tests: printer timings, port wrappers).
	BoardOptions func(*board.Options)
	Logf         func(format string, args ...any)
}

// App is a running cabinet.
type App struct {
	Opt    Options
	Ledger *ledger.Ledger
	Board  *board.Cabinet
	// Link is the cabinet's connection to the central system; Central
	// stops the one Options.LocalCentral started, nil with a remote one.
	Link    *link.Client
	Central io.Closer
	Cabinet *cabinet.Cabinet
	Market  *market.Profile
	// Touch: the board profile says the screen has touch ([display]).
	Touch bool
	// Clock is the cabinet's time (ledger stamps, vouchers, recall,
	// events): the system clock following the central system's (check 38).
	Clock *clock.Disciplined

	cab *cabinet.Cabinet // set before any device event can arrive
	// metersDue: the cabinet committed a ledger write since the hard
	// meters last re-read what they are owed (kickMeters, lampLoop).
	metersDue chan struct{}

	signingKey ed25519.PublicKey
	remote     *link.Client // a remote central system's link, owned here
	remoteStop func()
	remoteDone chan struct{}
	hearts     []*health.Heart
	mu         sync.Mutex
	cancel     context.CancelFunc
	wg         sync.WaitGroup
}

// Start opens the ledger, assembles the board, connects the central
// system and builds the cabinet. Run starts it.
func Start(ctx context.Context, o Options) (a *App, err error) {
	if o.DataDir == "" {
		return nil, errors.New("app: no data directory")
	}
	if o.Market == "" {
		o.Market = "demo"
	}
	if o.Board == "" {
		o.Board = "devkit"
	}
	if o.CabinetID == "" {
		o.CabinetID = "dev-1"
	}
	if o.Site == "" {
		o.Site, o.SiteID = "Polaris devkit", "DEV-1"
	}
	if o.Tick == 0 {
		o.Tick = 5 * time.Millisecond
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.LedgerA == "" {
		o.LedgerA = filepath.Join(o.DataDir, "ledger-a")
	}
	if o.LedgerB == "" {
		o.LedgerB = filepath.Join(o.DataDir, "ledger-b")
	}
	// Both profiles are read first: a broken one changes nothing on disk.
	prof, err := market.Load(o.Market)
	if err != nil {
		return nil, err
	}
	bp, err := loadBoard(o.Board)
	if err != nil {
		return nil, err
	}
	started := &App{Opt: o, Market: prof, Touch: bp.Display.Touch, metersDue: make(chan struct{}, 1), Clock: clock.NewDisciplined(clock.System{}, clock.DefaultTolerance)}
	a = started
	defer func() {
		if err != nil { // `return nil, err` has already set a to nil
			started.Close()
			a = nil
		}
	}()
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return nil, err
	}
	lo := ledger.Options{DirA: o.LedgerA, DirB: o.LedgerB, EventMessage: outbox.EventMessage, Clock: a.Clock}
	// A ledger is created only where neither copy exists: one missing copy
	// is rebuilt by Open from the other.
	if exists(filepath.Join(o.LedgerA, "ledger.db")) || exists(filepath.Join(o.LedgerB, "ledger.db")) {
		a.Ledger, err = ledger.Open(lo)
	} else {
		a.Ledger, err = ledger.Create(lo, "first start")
	}
	if err != nil {
		return nil, fmt.Errorf("app: ledger: %w", err)
	}
	beat := a.register("cabinet", CabinetWindow)
	if o.SoftwareError != "" {
		// Before any device or network traffic: nothing is opened.
		a.Cabinet, err = cabinet.New(cabinet.Config{ID: o.CabinetID, Market: prof, Ledger: a.Ledger, Clock: a.Clock,
			Central: refused{}, Timing: o.Timing, Software: cabinet.Software{Error: o.SoftwareError, Version: o.SoftwareVersion},
			Hooks: cabinet.Hooks{Logf: o.Logf, Heartbeat: beat}})
		if err != nil {
			return nil, err
		}
		a.cab = a.Cabinet
		return a, nil
	}
	unit := fmt.Sprintf("%s %d", prof.Currency.Code, prof.Currency.MinorUnits)
	if err := a.Ledger.SetConfig(ledger.ConfigCurrency, unit, "market "+prof.ID); err != nil {
		// A ledger in RAM error refuses writes: the cabinet shows that
		// itself (check 4); only the dump's formatting is lost.
		o.Logf("app: ledger: recording the currency: %v", err)
	}
	a.Link, a.signingKey, err = a.connectCentral(ctx)
	if err != nil {
		return nil, err
	}
	bo := board.Options{
		Meters:         &hardMeters{led: a.Ledger, unit: prof.Currency.Unit()},
		GPIOEvents:     a.gpioEvent,
		BeforeAck:      a.beforeAck,
		BeforeReset:    a.beforeReset,
		AcceptorConfig: o.AcceptorConfig,
		GPIOHeartbeat:  a.register("gpio", GPIOWindow),
		// The market's currency is the acceptor's unless the board names one.
		AcceptorCurrency: prof.Currency.Code,
	}
	if bp.Acceptor != nil {
		bo.AcceptorHeartbeat = a.register("acceptor", AcceptorWindow)
	}
	if bp.Printer != nil {
		bo.PrinterHeartbeat = a.register("printer", PrinterWindow)
	}
	if o.BoardOptions != nil {
		o.BoardOptions(&bo)
	}
	a.Board, err = board.Assemble(bp, bo)
	if err != nil {
		return nil, err
	}
	// A device the board did not assemble has no loop to wait for.
	if a.Board.Acceptor == nil {
		a.unregister("acceptor")
	}
	if a.Board.Printer == nil {
		a.unregister("printer")
	}
	cfg := cabinet.Config{
		ID: o.CabinetID, Site: cabinet.Site{Name: o.Site, ID: o.SiteID}, Market: prof, Ledger: a.Ledger,
		Central: a.Link, Printer: a.Board.Printer, Timing: o.Timing, Clock: a.Clock,
		SigningKey: a.signingKey, LinkUp: a.Link.State() == link.Up,
		Software: cabinet.Software{ID: o.SoftwareID, Version: o.SoftwareVersion, SelfTests: o.SelfTests, Seeded: o.SoftwareSeeded},
		Hooks:    cabinet.Hooks{Logf: o.Logf, Heartbeat: beat, MetersChanged: a.kickMeters},
	}
	if a.Board.Acceptor != nil {
		cfg.Acceptor = a.Board.Acceptor
	}
	if a.Cabinet, err = cabinet.New(cfg); err != nil {
		return nil, err
	}
	if a.Board.GPIO != nil {
		a.Cabinet.SetTestOutputs(gpioOutputs{a.Board.GPIO})
	}
	if a.Board.CardReader != nil {
		a.Cabinet.SetCardReader(a.Board.CardReader)
	}
	a.mu.Lock()
	a.cab = a.Cabinet
	a.mu.Unlock()
	return a, nil
}

func isFile(name string) bool { return strings.HasSuffix(name, ".toml") }

func loadBoard(name string) (*board.Profile, error) {
	if isFile(name) {
		return board.LoadFile(name)
	}
	return board.Load(name)
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// Watchdog windows: how long each loop may go without a beat before the
// watchdog is no longer fed. Each is several cycles of its loop and above
// the slowest cycle a healthy loop can take.
const (
	CabinetWindow = 2 * time.Second // a tick every Options.Tick (5 ms)
	// The acceptor polls every 150 ms and beats after every request; one
	// request to a silent acceptor takes up to 2 s (4 × 500 ms at start-up).
	AcceptorWindow = 5 * time.Second
	// TCL reads every 10 ms; ESC/POS reads a status round every 500 ms and
	// beats between reads while printing.
	PrinterWindow = 5 * time.Second
	// The GPIO loop steps at least every 50 ms; a step may wait on the
	// ledger for the hard meters.
	GPIOWindow = 3 * time.Second
	// RenderWindow is for cmd/polaris's "render" heart: the display runs
	// frames on demand, at least one a second (display/pace.go).
	RenderWindow = 3 * time.Second
)

// register adds a heart to the watchdog monitor and returns its Beat; nil
// without a monitor.
func (a *App) register(name string, window time.Duration) func() {
	if a.Opt.Health == nil {
		return nil
	}
	h := a.Opt.Health.Register(name, window)
	a.hearts = append(a.hearts, h)
	return h.Beat
}

func (a *App) unregister(name string) {
	for i, h := range a.hearts {
		if h.Name() == name {
			a.Opt.Health.Unregister(h)
			a.hearts = append(a.hearts[:i], a.hearts[i+1:]...)
			return
		}
	}
}

// Run runs the cabinet, its devices and the event pumps until ctx ends or
// the cabinet stops (a PowerOff).
func (a *App) Run(ctx context.Context) error {
	ctx, a.cancel = context.WithCancel(ctx)
	defer a.cancel()
	cab := a.Cabinet
	if a.Board == nil { // software verification failed: the cabinet alone shows it
		return cab.Run(ctx, a.Opt.Tick)
	}
	a.goRun(func() { a.Board.Run(ctx) })
	if acc := a.Board.Acceptor; acc != nil {
		a.pump(ctx, func() (cabinet.Event, bool) {
			select {
			case e := <-acc.Events():
				return cabinet.AcceptorEvent{E: e}, true
			case <-ctx.Done():
				return nil, false
			}
		})
	}
	if p := a.Board.Printer; p != nil {
		a.pump(ctx, func() (cabinet.Event, bool) {
			select {
			case e := <-p.Events():
				return cabinet.PrinterEvent{E: e}, true
			case <-ctx.Done():
				return nil, false
			}
		})
	}
	if cr := a.Board.CardReader; cr != nil {
		a.pump(ctx, func() (cabinet.Event, bool) {
			select {
			case e, ok := <-cr.Events():
				return cabinet.CardEvent{E: e}, ok
			case <-ctx.Done():
				return nil, false
			}
		})
	}
	cl := a.Link
	a.pump(ctx, func() (cabinet.Event, bool) {
		select {
		case s := <-cl.States():
			if s.Refused != nil {
				a.Opt.Logf("app: the central system refused outbox message %d (%s)", s.Refused.ID, s.Refused.Kind)
				return nil, true
			}
			return cabinet.LinkState{Up: s.State == link.Up}, true
		case n := <-cl.Notices():
			if e := followCentralTime(a.Clock, n); e != nil {
				a.Cabinet.Post(e) // logged before what the notice brings
			}
			return noticeEvent(n), true
		case <-ctx.Done():
			return nil, false
		}
	})
	a.goRun(func() { a.lampLoop(ctx) })
	a.goRun(func() { a.watchStorage(ctx) })
	err := cab.Run(ctx, a.Opt.Tick)
	a.cancel()
	a.wg.Wait()
	return err
}

func (a *App) goRun(fn func()) {
	a.wg.Add(1)
	go func() { defer a.wg.Done(); fn() }()
}

// pump moves events from a device or the link into the cabinet loop.
func (a *App) pump(ctx context.Context, next func() (cabinet.Event, bool)) {
	a.goRun(func() {
		for {
			e, ok := next()
			if !ok {
				return
			}
			if e != nil {
				a.Cabinet.Post(e)
			}
		}
	})
}

// followCentralTime steps c to the central time a notice brings, measured
// against the link's clock (the system clock beneath c), and returns the
// event of the step, or nil.
func followCentralTime(c *clock.Disciplined, n link.Notice) cabinet.Event {
	if off, ok := link.CentralOffset(n, c.Raw()); ok {
		if s, ok := c.Follow(off); ok {
			return cabinet.TimeChanged{Step: s}
		}
	}
	return nil
}

func noticeEvent(n link.Notice) cabinet.Event {
	if n.Hello != nil {
		// The reconciliation at Hello: a central credit mirror that differs
		// from the meters is logged on the cabinet too (an alarm on both sides).
		if n.Hello.MirrorDiffers {
			return cabinet.CentralCommand{Command: "mirror_differs", Reason: fmt.Sprintf("central credit mirror %d", n.Hello.MirrorCredit)}
		}
		return nil
	}
	if n.Command != nil {
		switch n.Command.Kind {
		case link.CmdDisable:
			return cabinet.CentralCommand{Command: "disable", Reason: n.Command.Reason}
		case link.CmdEnable:
			return cabinet.CentralCommand{Command: "enable", Reason: n.Command.Reason}
		}
		return nil
	}
	var vs []view.Jackpot
	for _, j := range n.Jackpots {
		name := j.Name
		if j.Tier != "" {
			name = j.Tier
		}
		vs = append(vs, view.Jackpot{Name: name, Game: j.Game, Amount: j.Amount, Stake: j.Stake})
	}
	return cabinet.JackpotValues{Values: vs}
}

// started is the cabinet, for the acceptor's hooks, which may run before
// it exists: an error then makes the driver ask again.
func (a *App) started() (*cabinet.Cabinet, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cab == nil {
		return nil, errors.New("app: cabinet not started")
	}
	return a.cab, nil
}

func (a *App) beforeAck(s acceptor.Stacked) error {
	cab, err := a.started()
	if err != nil {
		return err
	}
	return cab.BeforeAck(s)
}

func (a *App) beforeReset(e acceptor.PowerUpWithBill) error {
	cab, err := a.started()
	if err != nil {
		return err
	}
	return cab.BeforeReset(e)
}

// gpioEvent turns debounced GPIO changes into cabinet events.
func (a *App) gpioEvent(e gpio.Event) {
	a.mu.Lock()
	cab := a.cab
	a.mu.Unlock()
	if cab == nil {
		return
	}
	switch e := e.(type) {
	case gpio.InputChanged:
		if b, ok := e.Input.Button(); ok {
			if e.Active {
				cab.Post(cabinet.Press{Button: b})
			}
		} else if d, ok := e.Input.Door(); ok {
			cab.Post(cabinet.Door{Name: d, Open: e.Active})
		} else if k, ok := e.Input.Key(); ok {
			cab.Post(cabinet.Key{Name: k, On: e.Active})
		}
	case gpio.MeterFailed:
		a.Opt.Logf("app: %s", e)
	case gpio.BankFailed:
		a.Opt.Logf("app: %s", e)
	}
}

// lampLoop shows the snapshot's lamps and tower on the board, once per
// published snapshot (the cabinet publishes only what changed), and kicks
// the hard meters when the cabinet says the ledger moved (kickMeters).
func (a *App) lampLoop(ctx context.Context) {
	var last map[view.Button]view.Lamp
	lastTower := ""
	for {
		changed := a.Cabinet.Changed() // before View: no publication is missed
		if s := a.Cabinet.View(); s != nil && a.Board.GPIO != nil {
			for _, in := range gpio.Buttons() {
				b, _ := in.Button()
				if last != nil && last[b] == s.Lamps[b] {
					continue
				}
				p := gpio.Off
				switch s.Lamps[b] {
				case view.LampOn:
					p = gpio.On
				case view.LampBlink:
					p = gpio.BlinkSlow
				}
				a.Board.GPIO.SetLamp(in, p)
			}
			last = s.Lamps
			if s.Tower != lastTower {
				lastTower = s.Tower
				a.setTower(s.Tower)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-a.metersDue:
			if a.Board.GPIO != nil {
				// The count is re-read from the ledger, never passed here.
				for _, m := range []gpio.Meter{gpio.MeterIn, gpio.MeterOut, gpio.MeterDrop, gpio.MeterJackpot, gpio.MeterGames} {
					a.Board.GPIO.Kick(m)
				}
			}
		}
	}
}

// kickMeters is the cabinet's MetersChanged: a ledger write committed, so
// the hard meters must re-read what they are owed. It runs on the
// cabinet's loop, which must never wait for the GPIO bank (a wedged bank
// holds the controller's lock): it only marks them due for lampLoop.
func (a *App) kickMeters() {
	select {
	case a.metersDue <- struct{}{}:
	default: // already due
	}
}

func (a *App) setTower(state string) {
	off := func(c gpio.Colour) { a.Board.GPIO.SetTower(c, gpio.Off) }
	for _, c := range []gpio.Colour{gpio.Red, gpio.Yellow, gpio.White, gpio.Amber, gpio.Green, gpio.Blue} {
		off(c)
	}
	switch state {
	case "call":
		a.Board.GPIO.SetTower(gpio.White, gpio.DoubleFlash)
	case "tilt":
		a.Board.GPIO.SetTower(gpio.Red, gpio.BlinkFast)
	case "door":
		a.Board.GPIO.SetTower(gpio.Yellow, gpio.BlinkSlow)
	default:
		if c := testTier(state); c != "" {
			a.Board.GPIO.SetTower(c, gpio.On) // test mode's tower test
		}
	}
}

// Close stops everything and closes the ledger last.
func (a *App) Close() error {
	if a.cancel != nil {
		a.cancel()
	}
	var errs []error
	for _, h := range a.hearts {
		a.Opt.Health.Unregister(h) // a restart (power cut) registers again
	}
	a.hearts = nil
	if a.Board != nil {
		errs = append(errs, a.Board.Close())
	}
	if a.Central != nil {
		errs = append(errs, a.Central.Close())
	}
	if a.remote != nil {
		a.remoteStop()
		errs = append(errs, a.remote.Close())
	}
	if a.Ledger != nil {
		errs = append(errs, a.Ledger.Close())
	}
	return errors.Join(errs...)
}

// refused is the central system of a cabinet that failed software
// verification: it never connects, so every call is refused.
type refused struct{}

var errRefused = errors.New("app: software verification failed: no central link")

func (refused) RequestOutcome(context.Context, uint64, engine.GameID, string, engine.Money) (*link.Outcome, error) {
	return nil, errRefused
}
func (refused) RequestRiskStep(context.Context, uint64, int, engine.Colour) (*link.RiskCard, error) {
	return nil, errRefused
}
func (refused) IssueVoucher(context.Context, engine.Money, uint64) (*link.Voucher, error) {
	return nil, errRefused
}
func (refused) RedeemVoucher(context.Context, string) (*link.Hold, error) { return nil, errRefused }
func (refused) ConfirmRedeem(context.Context, string, string, engine.Money) error {
	return errRefused
}
func (refused) CancelRedeem(context.Context, string, string) error { return errRefused }

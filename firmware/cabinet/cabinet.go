// Package cabinet is the cabinet's state machine: one goroutine owns every
// piece of cabinet state and handles events one at a time — buttons, keys,
// doors, device events, central replies and timer ticks. Each money or game
// step is journaled in the ledger before its effect (house rule 2); calls
// to the central system and to devices run off the loop and come back as
// events. After an event that changed what the screen shows the loop
// publishes an immutable view snapshot with the next sequence number.
package cabinet

import (
	"context"
	"crypto/ed25519"
	"errors"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/clock"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/health"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// Config is what a cabinet is built from.
type Config struct {
	ID     string // cabinet id, as in its certificate
	Site   Site   // printed on vouchers
	Market *market.Profile
	Ledger *ledger.Ledger
	// Central is the central system; its link state and notices arrive as
	// LinkState, JackpotValues and CentralCommand events.
	Central Central
	// Acceptor and Printer may be nil: money then cannot go in or out that way.
	Acceptor Acceptor
	Printer  printer.Printer
	Clock    clock.Clock
	Timing   Timing
	// CallTimeout bounds each call to the central system and to devices.
	CallTimeout time.Duration
	Software    Software
	// SigningKey verifies outcomes again when a round is recovered.
	SigningKey ed25519.PublicKey
	// LinkUp is the link state at start; afterwards LinkState events.
	LinkUp bool
	// StorageLow is the free space under which the ledger's storage tilts
	// (check 27); 0 means DefaultStorageLow.
	StorageLow int64
	Hooks      Hooks
}

// Site is the hall the cabinet stands in.
type Site struct {
	Name string
	ID   string
}

// Software is what runs and whether it was verified.
type Software struct {
	// Error, when set, is why software verification failed at start: the
	// cabinet shows it and refuses play and money (check 8).
	Error string
	// ID names the running software: the verified manifest's digest, or in
	// a development build the binary's build id. A change since the last
	// start locks the cabinet until a technician accepts it (check 9).
	// Empty: not checked.
	ID string
	// Version is shown on the audit page (check 29).
	Version string
	// SelfTests run with the cabinet's own at start-up and every 24 h, off
	// the loop (check 10, selftest.go).
	SelfTests []health.SelfTest
	// Seeded is the on-demand verification: HMAC-SHA256 keyed with the
	// seed over every component of the verified manifest as installed now
	// (verify.Manifest.Seeded), returned with the seed. The seed is the
	// one the technician entered (a lab's or the type report's start
	// value, standards.md §1.12), or nil: it picks a new one from the clock (the
	// cabinet links no random source, check 30). Nil: no manifest (a
	// development build). Called off the loop.
	Seeded func(seed []byte) (used []byte, digest [32]byte, err error)
}

// Hooks are the cabinet's calls out, all made on its loop; each may be nil.
type Hooks struct {
	// Heartbeat is called on every timer tick of the loop: the watchdog
	// (firmware/health) is fed only while the loop runs.
	Heartbeat func()
	// MetersChanged is called after an event whose handling committed a
	// ledger write: the board's hard meters re-read what they are owed
	// instead of polling. It must not block.
	MetersChanged func()
	// Logf receives a line for every tilt and refusal.
	Logf func(format string, args ...any)
}

// Cabinet is the state machine. Create with New, run with Run; everything
// else goes through Post. Its state is in parts, all on the loop's
// goroutine, each a type whose methods keep its rules and whose fields
// only its own files write (structure_test.go lists them): play (the round
// and its presentation, Auto, the status line), cond (what stops play,
// read only through the priority table in priority.go), handpay, moneyIn,
// cashOut, menus, player and the smaller ones below, and pub (the
// snapshot, a pure function of the others). The Cabinet's own methods
// compose them: an event goes to the parts it concerns, and what one part
// needs of another it is handed as an argument.
type Cabinet struct {
	cfg  Config
	led  *ledger.Ledger
	loop loop
	pub  publisher

	poweredOff bool

	play     playState
	cond     condState
	moneyIn  moneyInState
	cashOut  cashOutState
	menus    menuState
	player   playerState  // the player card and its session (player.go)
	paper    paper        // what every printed document says of the cabinet (paper.go)
	outcomes outcomes     // verifies the outcomes the ledger keeps again (recovery.go)
	handpay  handpayState // the attendant's side of the lockups: who, the PIN, the paper (handpay.go)

	test     *testState // test mode (check 28), nil outside it (testmode.go, testlights.go)
	info     *infoState // the player's information pages (info.go), nil outside them
	sound    soundState // the volume and the sound test (info.go)
	tech     techState  // the technician's actions' results (techpages.go)
	gameMenu playerMenu // the player's game menu and language (gamemenu.go)

	selfTest selfTestState // check 10
}

// New builds a cabinet. It does not touch devices or the network until Run.
func New(cfg Config) (*Cabinet, error) {
	if cfg.Market == nil || cfg.Ledger == nil || cfg.Central == nil {
		return nil, errors.New("cabinet: market, ledger and central are required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.StorageLow == 0 {
		cfg.StorageLow = DefaultStorageLow
	}
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = 10 * time.Second
	}
	if cfg.Hooks.Logf == nil {
		cfg.Hooks.Logf = func(string, ...any) {}
	}
	c := &Cabinet{
		cfg:      cfg,
		led:      cfg.Ledger,
		play:     newPlayState(cfg.Market),
		cond:     newCondState(cfg.LinkUp),
		cashOut:  cashOutState{printerFaults: printer.Faults{}},
		player:   newPlayerState(cfg.Central, cfg.Market.CardRequired),
		sound:    soundState{market: cfg.Market, config: cfg.Ledger},
		paper:    paper{market: cfg.Market, site: cfg.Site, id: cfg.ID},
		outcomes: outcomes{key: cfg.SigningKey, cabinet: cfg.ID},
	}
	c.loop.init(cfg.CallTimeout)
	c.pub.init()
	c.publish()
	return c, nil
}

// Post hands an event to the loop. It never blocks the caller for long:
// device and network goroutines post their events here.
func (c *Cabinet) Post(e Event) { c.loop.post(e) }

// Sync returns once the loop has handled every event posted before it
// (it takes its events in order) and published what they changed: whoever
// posted an input (the scenario runner, a test) then sees its effect.
func (c *Cabinet) Sync() { c.loop.do(func() {}) }

// Blocked says why a Start would not play now (view.BlockReasons; ""
// none), asked of the loop: for the scenario runner and diagnostics.
func (c *Cabinet) Blocked() string {
	var why string
	c.loop.do(func() { why = c.blocked() })
	return why
}

// Run is the cabinet loop. It recovers the state of the last power-down,
// then handles events until ctx ends or a PowerOff arrives.
func (c *Cabinet) Run(ctx context.Context, tick time.Duration) error {
	defer func() {
		c.loop.stop() // calls in flight end now; their replies are dropped
	}()
	c.powerUp()
	c.tickSelfTest()
	c.cond.start()
	c.publish()
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e := <-c.loop.events:
			c.handle(e)
		case <-t.C:
			c.handle(Tick{})
		}
		if c.poweredOff {
			return nil
		}
		c.pub.tellMeters(c.led.Seq(), c.cfg.Hooks.MetersChanged)
		c.publish()
	}
}

// now is the time of the cabinet's timers and of the presentation
// timeline the display animates against its own clock: the local clock,
// which a time change (check 38) does not move. wall is the time printed
// and logged: the clock following the central system's.
func (c *Cabinet) now() time.Time  { return clock.Raw(c.cfg.Clock).Now() }
func (c *Cabinet) wall() time.Time { return c.cfg.Clock.Now() }

func (c *Cabinet) handle(e Event) {
	switch e := e.(type) {
	case call:
		e.fn()
		close(e.done)
	case PowerOff:
		c.poweredOff = true
	case Tick:
		c.tick()
	case Press:
		c.press(e.Button)
	case SelectGame:
		c.selectGame(e.Game)
	case Key:
		c.key(string(e.Name), e.On)
	case Door:
		c.door(string(e.Name), e.Open)
	case DoorWhileOff:
		if c.cond.off != nil {
			kind, what := e.logged()
			c.logDoorWhileOff(e.Name, kind, what)
		}
	case LinkState:
		c.linkState(e.Up)
	case JackpotValues:
		c.play.setJackpots(e.Values)
	case StorageHealth:
		c.storageHealth(e)
	case CentralCommand:
		c.centralCommand(e)
	case TimeChanged:
		c.logTimeStep("central", e.Step)
	case selfTestReply:
		c.selfTestDone(e)
	case outcomeReply:
		c.outcomeArrived(e)
	case riskReply:
		c.riskArrived(e)
	case AcceptorEvent:
		c.acceptorEvent(e.E)
	case hookCall:
		e.done <- e.fn()
	case redeemReply:
		c.redeemArrived(e)
	case redeemDone:
		c.redeemSettled(e)
	case voucherReply:
		c.voucherArrived(e)
	case printReply:
		c.printStarted(e)
	case testPrinted:
		if c.test != nil {
			c.test.printedReply(e.err)
			c.showTest()
		}
	case PrinterEvent:
		c.printerEvent(e.E)
	case handpayPrinted:
		c.handpayPrintReply(e)
	case CardEvent:
		c.cardEvent(e.E)
	case loginReply:
		c.loginArrived(e)
	case playerStateReply:
		c.stateArrived(e)
	case logoutReply:
		c.logoutArrived(e)
	case techReply:
		e.apply(c)
	case deviceDone:
		if e.err != nil {
			c.cfg.Hooks.Logf("cabinet: %s: %v", e.what, e.err)
		}
	}
	c.updateAcceptor()
}

// verify checks both ledger copies (check 2): before and after every game
// and after every money transaction. One bad copy is repaired by the
// ledger itself; none good is a RAM error.
func (c *Cabinet) verify(reason string) bool {
	if _, err := c.led.Verify(reason); err != nil {
		c.ledgerFailed("the check "+reason, err)
		return false
	}
	return true
}

func (c *Cabinet) logEvent(kind, source, text string, amount engine.Money) {
	c.refused("the event "+kind, c.led.LogEvent(kind, source, text, int64(amount), nil), recordWrite)
}

// say sets the status line (view.Msg*), with the amount it names or 0.

func (c *Cabinet) setTilt(key, reason string, manual bool) {
	if !c.cond.setTilt(key, tilt{reason: reason, source: key, manual: manual}) {
		return
	}
	c.cfg.Hooks.Logf("cabinet: tilt %s: %s", key, reason)
	c.refused("the tilt "+key, c.led.SetTilt(key, reason, manual), recordWrite)
	c.play.stopAuto("tilt: " + key)
}

func (c *Cabinet) clearTilt(key string) {
	if _, ok := c.cond.clearTilt(key); ok {
		c.refused("the tilt cleared "+key, c.led.ClearTilt(key, key, ""), recordWrite)
	}
}

// credit reads the credit meter.
func (c *Cabinet) credit() engine.Money {
	cr, _ := c.led.Credit()
	return engine.Money(cr)
}

// BeforeAck is the acceptor driver's hook at VEND VALID: it journals the
// credit on the loop and returns only when it is committed, so the
// acceptor is told ACK only after the ledger holds the credit (check 19).
func (c *Cabinet) BeforeAck(s id003.Stacked) error {
	return c.loop.hook(func() error { return c.journalStack(s) })
}

// BeforeReset is the acceptor driver's hook at a power-up with a document
// inside: what became of the document is journaled before the RESET after
// which the acceptor no longer says (a kill between the two lost a note).
func (c *Cabinet) BeforeReset(e id003.PowerUpWithBill) error {
	return c.loop.hook(func() error { return c.powerUpWithBill(e) })
}

// jackpotsFor are the meters a player of game at stake can win: its
// progressive pools and its fixed jackpots at that stake. A fixed amount
// of another stake is never shown (WS-10 pays multiples of the stake).
// They are appended to out.
func jackpotsFor(out, all []view.Jackpot, game engine.GameID, stake engine.Money) []view.Jackpot {
	for _, j := range all {
		if (j.Game == "" || j.Game == game) && (j.Stake == 0 || j.Stake == stake) {
			out = append(out, j)
		}
	}
	return out
}

// loop is the cabinet loop's plumbing: the events it takes one at a time,
// and the calls it makes off the loop, whose replies come back as events.
type loop struct {
	events  chan Event
	ctx     context.Context // ends when the loop stops: calls in flight end
	cancel  context.CancelFunc
	wg      sync.WaitGroup // the calls in flight
	timeout time.Duration  // bounds each call
}

func (l *loop) init(timeout time.Duration) {
	l.events = make(chan Event, 256)
	l.ctx, l.cancel = context.WithCancel(context.Background())
	l.timeout = timeout
}

// stop ends the calls in flight and waits for them; their replies are dropped.
func (l *loop) stop() {
	l.cancel()
	l.wg.Wait()
}

// post hands an event to the loop; it never blocks the caller for long.
func (l *loop) post(e Event) {
	select {
	case l.events <- e:
	case <-l.ctx.Done():
	}
}

// do runs fn on the loop and waits: a question asked of the loop's state
// (Blocked, SetVolume) is answered between two events.
func (l *loop) do(fn func()) {
	done := make(chan struct{})
	l.post(call{fn: fn, done: done})
	select {
	case <-done:
	case <-l.ctx.Done():
	}
}

// async runs fn off the loop with a deadline and posts what it returns;
// a nil fn is a part that had nothing to ask.
func (l *loop) async(fn func(ctx context.Context) Event) {
	if fn == nil {
		return
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		ctx, cancel := context.WithTimeout(l.ctx, l.timeout)
		defer cancel()
		if e := fn(ctx); e != nil {
			l.post(e)
		}
	}()
}

// background runs fn off the loop without a deadline (until the loop
// stops) and posts what it returns.
func (l *loop) background(fn func(ctx context.Context) Event) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		l.post(fn(l.ctx))
	}()
}

// hook runs fn on the loop for a driver and returns its error once done.
func (l *loop) hook(fn func() error) error {
	done := make(chan error, 1)
	select {
	case l.events <- hookCall{fn: fn, done: done}:
	case <-l.ctx.Done():
		return errors.New("cabinet: stopped")
	}
	select {
	case err := <-done:
		return err
	case <-l.ctx.Done():
		return errors.New("cabinet: stopped")
	}
}

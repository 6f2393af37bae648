package id003

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/clock"

	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// Accept says which documents the acceptor takes when enabled.
type Accept struct {
	Notes   DenomSet
	Tickets bool
}

// Config of a Driver. Start from DefaultConfig: its timings are the ones
// protocols.md §1.7 recommends; tests scale them down.
type Config struct {
	Path string
	// Open opens the line; nil means serialport.Open. The driver always asks
	// for serialport.ModeID003 (9600 8E1).
	Open  serialport.Opener
	Clock clock.Clock

	PollInterval     time.Duration // between status requests when idle
	BusyPollInterval time.Duration // while a document is in the path
	ResponseTimeout  time.Duration // per request
	StartupTimeout   time.Duration // per request until the first valid reply
	Retries          int           // re-sends after silence
	CommLostAfter    time.Duration // no valid frame for this long → CommLost
	ResetTimeout     time.Duration // RESET → INITIALIZE/DISABLE, else RESET again
	HoldInterval     time.Duration // HOLD is re-sent this often while holding
	ReopenInterval   time.Duration // after the port failed

	Accept        Accept   // what is enabled at start-up and by Enable's default
	HighSecurity  DenomSet // C1
	StartDisabled bool     // finish start-up inhibited (C3 01)
	// Stack1 sends STACK-1 instead of STACK-2. STACK-2 (the default) makes
	// VEND VALID mean "fully in the stacker".
	Stack1 bool
	// BeforeAck, when set, runs at VEND VALID before the ACK is sent: the
	// place to journal the credit. An error withholds the ACK; the acceptor
	// repeats VEND VALID and the hook runs again on the next poll.
	BeforeAck func(Stacked) error
	// BeforeReset, when set, runs at a power-up with a document inside,
	// before the RESET after which the acceptor no longer says so: the
	// place to journal what became of the document (in the stacker: the
	// credit). An error withholds the RESET; the status repeats and the
	// hook runs again on the next poll.
	BeforeReset func(PowerUpWithBill) error
	// EventBuffer is the capacity of the Events channel.
	EventBuffer int
	// Heartbeat, when set, is called by the Run goroutine each time it
	// finishes an exchange (answered, or its time-out handled) or a failed
	// reopen: proof for the watchdog that the poll loop is not hung. A Read
	// that never returns stops the beats. Keep it cheap and non-blocking.
	Heartbeat func()
	// Recycler declares a unit with JCM's bill recycler (a board-profile
	// option). Its extension frames (F0 20 …) and the data byte it adds to
	// STACKED are reported as RecyclerStatus either way; from a unit
	// declared without one they are also flagged once as an Anomaly.
	Recycler bool
	// Country, when non-zero, is the country code the currency table must
	// carry (EUR E0; see CountryCodes). Rows of another country are left out
	// of the table — such notes are worth nothing to the firmware and are
	// returned — and an Anomaly names them, so a unit with the wrong
	// currency variant never credits its note codes as local money.
	Country byte
}

// DefaultConfig is the configuration for a real acceptor on path.
func DefaultConfig(path string) Config {
	return Config{
		Path:             path,
		PollInterval:     150 * time.Millisecond,
		BusyPollInterval: 50 * time.Millisecond,
		ResponseTimeout:  100 * time.Millisecond,
		StartupTimeout:   500 * time.Millisecond,
		Retries:          3,
		CommLostAfter:    1500 * time.Millisecond,
		ResetTimeout:     10 * time.Second,
		HoldInterval:     2 * time.Second,
		ReopenInterval:   time.Second,
		Accept:           Accept{Notes: AllDenoms, Tickets: true},
		EventBuffer:      64,
	}
}

// Errors of the driver's commands.
var (
	ErrNoEscrow = errors.New("id003: no document in escrow")
	ErrDecided  = errors.New("id003: the document in escrow was already stacked or returned")
	ErrOffline  = errors.New("id003: acceptor is offline")
)

type phase int

const (
	phaseNeedReset  phase = iota // next suitable status → RESET
	phaseResetting               // RESET acknowledged, waiting for INITIALIZE / DISABLE
	phaseConfigured              // settings sent, waiting for DISABLE to enable
	phaseRunning
)

// flight is the document between ESCROW and its outcome.
type flight struct {
	doc        Document
	closed     bool
	stackSent  bool
	returnSent bool
	stacked    bool // Stacked was reported
	silent     bool // auto-returned because acceptance was disabled: no Escrow was reported
	recovered  bool
}

type request struct {
	kind   int
	accept Accept
	reply  chan error
}

const (
	reqStack = iota
	reqReturn
	reqHold
	reqEnable
	reqDisable
)

// Driver is the host side of one ID-003 acceptor. Create it with New, run it
// with Run, read Events, and call Stack, Return, Hold, Enable and Disable
// from any goroutine.
type Driver struct {
	cfg    Config
	events chan Event
	reqs   chan request

	// owned by the Run goroutine
	port       Port
	sess       *Session
	phase      phase
	last       byte // last status code
	lastGood   time.Time
	commLost   bool
	resetAt    time.Time
	faults     map[uint16]Fault
	fl         *flight
	holding    bool
	heldUp     *PowerUpWithBill // reported; its BeforeReset hook not yet through
	lastHold   time.Time
	wantEnable bool
	appliedAt  time.Time
	accept     Accept
	currency   CurrencyTable
	lastExt    string // the last recycler report, to report changes only
	extFlagged bool   // Anomaly sent for recycler frames from a unit without one
	version    string
	boot       string
	ctx        context.Context
}

// New makes a driver; nothing is opened until Run.
func New(cfg Config) *Driver {
	if cfg.Open == nil {
		cfg.Open = serialport.Open
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.EventBuffer <= 0 {
		cfg.EventBuffer = 64
	}
	return &Driver{
		cfg:        cfg,
		events:     make(chan Event, cfg.EventBuffer),
		reqs:       make(chan request),
		faults:     map[uint16]Fault{},
		wantEnable: !cfg.StartDisabled,
		accept:     cfg.Accept,
	}
}

// Events delivers what the acceptor did, in order. The driver blocks when
// the channel is full rather than drop a money event.
func (d *Driver) Events() <-chan Event { return d.events }

// Stack sends the document in escrow to the stacker (STACK-2 unless
// Config.Stack1). The credit comes with the Stacked event, not here.
func (d *Driver) Stack(ctx context.Context) error { return d.do(ctx, request{kind: reqStack}) }

// Return gives the document in escrow back to the customer.
func (d *Driver) Return(ctx context.Context) error { return d.do(ctx, request{kind: reqReturn}) }

// Hold keeps the document in escrow (a ticket waiting for the central
// system). The driver re-sends HOLD every Config.HoldInterval until Stack or
// Return, so the acceptor's escrow time-out never returns it.
func (d *Driver) Hold(ctx context.Context) error { return d.do(ctx, request{kind: reqHold}) }

// Enable switches acceptance on for the given notes and tickets.
func (d *Driver) Enable(ctx context.Context, a Accept) error {
	return d.do(ctx, request{kind: reqEnable, accept: a})
}

// Disable switches acceptance off. A document reaching escrow afterwards is
// returned by the driver.
func (d *Driver) Disable(ctx context.Context) error { return d.do(ctx, request{kind: reqDisable}) }

func (d *Driver) do(ctx context.Context, r request) error {
	r.reply = make(chan error, 1)
	select {
	case d.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run opens the port and drives the acceptor until ctx ends; it returns
// ctx.Err(). A port that fails is closed and reopened.
func (d *Driver) Run(ctx context.Context) error {
	d.ctx = ctx
	d.lastGood = d.cfg.Clock.Now()
	defer func() {
		if d.port != nil {
			d.port.Close()
		}
	}()
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		wait := d.cfg.PollInterval
		if d.port == nil {
			if err := d.open(); err != nil {
				d.silence(err)
				d.beat()
				wait = d.cfg.ReopenInterval
			}
		}
		if d.port != nil {
			d.step()
			if d.busy() {
				wait = d.cfg.BusyPollInterval
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		d.idle(ctx, wait)
	}
}

func (d *Driver) open() error {
	p, err := d.cfg.Open(d.cfg.Path, serialport.ModeID003)
	if err != nil {
		return err
	}
	d.port = p
	d.sess = NewSession(p, d.cfg.Clock, d.cfg.Retries)
	return nil
}

// idle waits for the next poll, serving commands meanwhile.
func (d *Driver) idle(ctx context.Context, wait time.Duration) {
	timer := d.cfg.Clock.After(wait)
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer:
			return
		case r := <-d.reqs:
			r.reply <- d.serve(r)
		}
	}
}

func (d *Driver) busy() bool {
	switch d.last {
	case StAccepting, StEscrow, StStacking, StVendValid, StStacked, StRejecting, StReturning, StHolding:
		return true
	}
	return false
}

func (d *Driver) timeout() time.Duration {
	if d.phase == phaseRunning && !d.commLost {
		return d.cfg.ResponseTimeout
	}
	return d.cfg.StartupTimeout
}

// exchange is Transact with the driver's bookkeeping: a valid reply (even
// INVALID COMMAND) proves the line is up; a port error closes the port.
func (d *Driver) exchange(req Frame, accept func(Frame) bool) (Frame, error) {
	f, err := d.sess.Transact(req, d.timeout(), accept)
	switch {
	case err == nil || errors.Is(err, ErrInvalidCommand):
		d.alive()
	case errors.Is(err, ErrNoReply):
		d.silence(err)
	default:
		d.port.Close()
		d.port, d.sess = nil, nil
		d.silence(err)
	}
	d.beat()
	return f, err
}

func (d *Driver) beat() {
	if d.cfg.Heartbeat != nil {
		d.cfg.Heartbeat()
	}
}

func (d *Driver) alive() {
	d.lastGood = d.cfg.Clock.Now()
	if d.commLost {
		d.commLost = false
		d.phase = phaseNeedReset
		d.emit(CommRestored{})
	}
}

func (d *Driver) silence(err error) {
	if !d.commLost && d.cfg.Clock.Now().Sub(d.lastGood) >= d.cfg.CommLostAfter {
		d.commLost = true // holding survives: HOLD resumes with the line
		d.emit(CommLost{Err: err})
	}
}

func (d *Driver) emit(e Event) {
	select {
	case d.events <- e:
	case <-d.ctx.Done():
	}
}

// step polls once and acts on the status.
func (d *Driver) step() {
	f, err := d.exchange(Command(CmdStatusRequest), IsStatus)
	if err != nil {
		return
	}
	st, _ := ParseStatus(f) // IsStatus accepted it
	d.handle(st)
	if d.port != nil && d.holding && d.fl != nil && !d.fl.closed &&
		d.cfg.Clock.Now().Sub(d.lastHold) >= d.cfg.HoldInterval {
		if _, err := d.exchange(Command(CmdHold), IsAck); err == nil {
			d.lastHold = d.cfg.Clock.Now()
		}
	}
}

func (d *Driver) handle(st Status) {
	prev := d.last
	d.last = st.Code
	if st.IsPowerUp() {
		if prev == st.Code {
			// Already reported: the hook refused, or the last RESET
			// was not acknowledged.
			if h := d.heldUp; h != nil && !d.beforeReset(*h) {
				return
			}
			d.reset()
			return
		}
		d.powerUp(st)
		return
	}
	if st.IsFault() {
		d.fault(st)
	}
	switch st.Code {
	case StIdling, StDisable, StInitialize:
		if st.Code != StInitialize {
			d.clearFaults()
			d.gone("no document in the acceptor")
			d.fl = nil
		}
		wasRunning := d.phase == phaseRunning
		d.advance(st.Code)
		if wasRunning && (st.Code == StIdling && !d.wantEnable || st.Code == StDisable && d.wantEnable) &&
			d.cfg.Clock.Now().Sub(d.appliedAt) >= d.cfg.CommLostAfter {
			// A wish that arrived mid-transaction; rate-limited in case
			// the acceptor keeps ignoring it.
			d.appliedAt = d.cfg.Clock.Now()
			_ = d.apply()
		}
	case StAccepting:
		if d.fl != nil && (d.fl.closed || d.fl.stacked) {
			d.fl = nil // the last document is done (STACKED or IDLING was missed)
		}
		if prev != StAccepting {
			d.emit(Accepting{})
		}
	case StEscrow:
		d.escrow(st.Doc)
	case StVendValid:
		d.vendValid()
	case StExtension:
		d.recycler(st)
	case StStacked:
		if len(st.StackedData) > 0 {
			d.recycler(st)
		}
		if d.fl != nil && !d.fl.closed && !d.fl.stacked {
			doc := d.fl.doc
			d.fl.closed = true
			d.emit(Anomaly{Doc: &doc, Detail: "STACKED without VEND VALID for " + doc.String()})
		}
		d.fl = nil
	case StRejecting:
		if prev != StRejecting {
			ev := Rejected{Code: st.Reject}
			if d.fl != nil && !d.fl.closed && !d.fl.stacked {
				doc := d.fl.doc
				ev.Doc = &doc
				d.fl.closed = true
			}
			d.holding = false
			d.emit(ev)
		}
	case StReturning:
		d.gone("returning")
	}
	if d.phase == phaseResetting && !st.IsFault() && d.cfg.Clock.Now().Sub(d.resetAt) > d.cfg.ResetTimeout {
		d.phase = phaseNeedReset
	}
	if d.phase == phaseNeedReset && (st.Code == StIdling || st.Code == StDisable || st.Code == StInitialize || st.IsFault() && !d.inPath()) {
		d.reset()
	}
}

// inPath reports a document the acceptor still holds for the host.
func (d *Driver) inPath() bool { return d.fl != nil && !d.fl.closed }

// gone closes the flight of a document that left without VEND VALID.
func (d *Driver) gone(reason string) {
	d.holding = false
	if d.fl == nil || d.fl.closed {
		return
	}
	d.fl.closed = true
	if d.fl.stacked {
		return
	}
	d.emit(Returned{Doc: d.fl.doc, ByHost: d.fl.returnSent, Reason: reason})
}

func (d *Driver) powerUp(st Status) {
	doc := Document{}
	had := d.fl != nil && !d.fl.closed && !d.fl.stacked
	if had {
		doc = d.fl.doc
		d.fl.closed = true
	}
	d.holding = false
	switch st.Code {
	case StPowerUpBillInStacker, StPowerUpBillInAcceptor:
		ev := PowerUpWithBill{Where: InStacker, Doc: doc}
		if st.Code == StPowerUpBillInAcceptor {
			ev.Where = InAcceptor
		}
		d.emit(ev)
		if !d.beforeReset(ev) {
			return
		}
	default:
		if had {
			d.emit(Returned{Doc: doc, ByHost: d.fl.returnSent, Reason: "power-up without a document"})
		}
	}
	d.reset()
}

// beforeReset runs the BeforeReset hook; false withholds the RESET.
func (d *Driver) beforeReset(ev PowerUpWithBill) bool {
	if d.cfg.BeforeReset == nil {
		return true
	}
	if err := d.cfg.BeforeReset(ev); err != nil {
		d.heldUp = &ev
		return false
	}
	d.heldUp = nil
	return true
}

func (d *Driver) reset() {
	if _, err := d.exchange(Command(CmdReset), IsAck); err != nil {
		return
	}
	d.phase = phaseResetting
	d.resetAt = d.cfg.Clock.Now()
}

// advance moves the start-up sequence on at INITIALIZE, DISABLE and IDLING.
func (d *Driver) advance(code byte) {
	switch d.phase {
	case phaseResetting:
		if err := d.configure(); err != nil {
			if d.cfg.Clock.Now().Sub(d.resetAt) > d.cfg.ResetTimeout {
				d.phase = phaseNeedReset
			}
			return
		}
		d.phase = phaseConfigured
		d.emit(Ready{Currency: d.currency, Version: d.version, BootVersion: d.boot})
		if code == StInitialize {
			return
		}
		fallthrough
	case phaseConfigured:
		if code == StInitialize {
			return
		}
		if d.wantEnable {
			if err := d.setInhibit(false); err != nil {
				return
			}
		} else if code == StIdling {
			if err := d.setInhibit(true); err != nil {
				return
			}
		}
		d.phase = phaseRunning
	}
}

func (d *Driver) setting(f Frame) error {
	_, err := d.exchange(f, IsEcho(f))
	return err
}

// configure sends the settings of start-up step 3 and reads the currency
// table (step 4); acceptance stays inhibited until advance enables it.
func (d *Driver) configure() error {
	frames := []Frame{
		Inhibit(true),
		EnableDenominations(d.accept.Notes),
		Security(d.cfg.HighSecurity),
		CommunicationMode(0),
		Direction(0),
		OptionalFunction(0, 0),
		BarcodeFunction(BarcodeInterleaved2of5, BarcodeLength18),
		BarInhibit(false, !d.accept.Tickets),
	}
	for _, f := range frames {
		err := d.setting(f)
		if errors.Is(err, ErrInvalidCommand) && (f.Code == CmdDirection || f.Code == CmdOptionalFunction) {
			continue // not every host sends these (Monaco does not); a unit may refuse them
		}
		if err != nil {
			return err
		}
	}
	f, err := d.exchange(Command(CmdCurrencyAssignRequest), IsCode(CmdCurrencyAssignRequest))
	if err != nil {
		return err
	}
	t, err := ParseCurrencyTable(f.Data)
	if err != nil {
		return err
	}
	d.currency = d.ownCountry(t)
	if f, err := d.exchange(Command(CmdVersionRequest), IsCode(CmdVersionRequest)); err == nil {
		d.version = string(f.Data)
	}
	if f, err := d.exchange(Command(CmdBootVersionRequest), IsCode(CmdBootVersionRequest)); err == nil {
		d.boot = string(f.Data)
	}
	return nil
}

func (d *Driver) setInhibit(on bool) error {
	if err := d.setting(Inhibit(on)); err != nil {
		return err
	}
	if on {
		d.emit(Disabled{})
	} else {
		d.emit(Enabled{Accept: d.accept})
	}
	return nil
}

func (d *Driver) escrow(doc Document) {
	if doc.Kind == DocNote {
		doc.Denom = d.currency[doc.Code]
	}
	if d.fl != nil && !d.fl.closed && !d.fl.stacked {
		if d.fl.doc.same(doc) {
			return // the same document, polled again
		}
		old := d.fl.doc
		d.fl.closed = true
		d.emit(Anomaly{Doc: &old, Detail: fmt.Sprintf("ESCROW changed from %s to %s", old, doc)})
	}
	d.fl = &flight{doc: doc}
	d.holding = false
	if !d.wantEnable || d.phase != phaseRunning {
		// Acceptance was switched off: give it back (as Monaco does).
		d.fl.silent = true
		if _, err := d.exchange(Command(CmdReturn), IsAck); err == nil {
			d.fl.returnSent = true
		}
		return
	}
	d.emit(Escrow{Doc: doc})
}

func (d *Driver) vendValid() {
	if d.fl == nil || d.fl.closed && !d.fl.stacked {
		d.fl = &flight{recovered: true}
	}
	if !d.fl.stacked {
		ev := Stacked{Doc: d.fl.doc, Recovered: d.fl.recovered}
		if d.cfg.BeforeAck != nil {
			if err := d.cfg.BeforeAck(ev); err != nil {
				return // no ACK: VEND VALID comes again
			}
		}
		d.fl.stacked = true
		d.holding = false
		d.emit(ev)
	}
	if err := d.sess.Send(Command(CmdAck)); err != nil {
		d.port.Close()
		d.port, d.sess = nil, nil
		d.silence(err)
	}
}

func faultKey(st Status) uint16 { return uint16(st.Code)<<8 | uint16(st.Failure) }

func (d *Driver) fault(st Status) {
	k := faultKey(st)
	if _, ok := d.faults[k]; ok {
		return
	}
	f := Fault{Kind: faultKind(st.Code), Failure: st.Failure}
	d.faults[k] = f
	d.emit(f)
}

func (d *Driver) clearFaults() {
	for k, f := range d.faults {
		delete(d.faults, k)
		d.emit(FaultCleared(f))
	}
}

// ownCountry keeps the rows of the configured country.
func (d *Driver) ownCountry(t CurrencyTable) CurrencyTable {
	if d.cfg.Country == 0 {
		return t
	}
	var foreign []string
	for code, den := range t {
		if den.Country != d.cfg.Country {
			foreign = append(foreign, fmt.Sprintf("%02X (%s)", code, den))
			delete(t, code)
		}
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		d.emit(Anomaly{Detail: fmt.Sprintf("currency table: codes %s are not of country %02X; not credited",
			strings.Join(foreign, ", "), d.cfg.Country)})
	}
	return t
}

// recycler reports a recycler unit's extension frame or STACKED data when
// it differs from the last report.
func (d *Driver) recycler(st Status) {
	r := RecyclerStatus{Ext: st.Ext, StackedData: st.StackedData, Expected: d.cfg.Recycler}
	if key := r.String(); key != d.lastExt {
		d.lastExt = key
		d.emit(r)
	}
	if !d.cfg.Recycler && !d.extFlagged {
		d.extFlagged = true
		d.emit(Anomaly{Detail: "recycler frames (" + st.String() + ") from a unit configured without a recycler"})
	}
}

// apply sends the wanted acceptance state.
func (d *Driver) apply() error {
	if !d.wantEnable {
		return d.setInhibit(true)
	}
	for _, f := range []Frame{EnableDenominations(d.accept.Notes), BarInhibit(false, !d.accept.Tickets)} {
		if err := d.setting(f); err != nil {
			return err
		}
	}
	return d.setInhibit(false)
}

// tookEffect polls once after a failed operation command and reports
// whether the acceptor's state shows that it was carried out.
func (d *Driver) tookEffect(kind int) bool {
	f, err := d.exchange(Command(CmdStatusRequest), IsStatus)
	if err != nil {
		return false
	}
	st, _ := ParseStatus(f)
	var ok bool
	switch kind {
	case reqStack:
		ok = st.Code == StStacking || st.Code == StVendValid || st.Code == StStacked
	case reqReturn:
		ok = st.Code == StReturning
	case reqHold:
		ok = st.Code == StHolding
	}
	if ok {
		switch kind {
		case reqStack:
			d.fl.stackSent = true
		case reqReturn:
			d.fl.returnSent = true
		}
	}
	d.handle(st)
	return ok
}

// serve runs a firmware command between polls.
func (d *Driver) serve(r request) error {
	if r.kind == reqEnable || r.kind == reqDisable {
		d.wantEnable = r.kind == reqEnable
		if r.kind == reqEnable {
			d.accept = r.accept
		}
		if d.phase != phaseRunning || d.port == nil || d.commLost {
			return nil // applied by the start-up sequence
		}
		err := d.apply()
		if errors.Is(err, ErrInvalidCommand) {
			return nil // mid-transaction: applied at the next IDLING or DISABLE
		}
		return err
	}
	if d.port == nil || d.commLost {
		return ErrOffline
	}
	if d.fl == nil || d.fl.silent {
		return ErrNoEscrow
	}
	if d.fl.closed || d.fl.stacked || d.fl.stackSent || d.fl.returnSent {
		return ErrDecided
	}
	var cmd byte
	switch r.kind {
	case reqStack:
		cmd = CmdStack2
		if d.cfg.Stack1 {
			cmd = CmdStack1
		}
	case reqReturn:
		cmd = CmdReturn
	case reqHold:
		cmd = CmdHold
	}
	if _, err := d.exchange(Command(cmd), IsAck); err != nil {
		// The ACK may have been lost and the retry refused (the acceptor
		// had already moved on): the status tells.
		if d.port == nil || !d.tookEffect(r.kind) {
			return err
		}
	}
	switch r.kind {
	case reqStack:
		d.fl.stackSent, d.holding = true, false
	case reqReturn:
		d.fl.returnSent, d.holding = true, false
	case reqHold:
		d.holding, d.lastHold = true, d.cfg.Clock.Now()
	}
	return nil
}

package emulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Statuses the emulator sends (protocols.md §1.4).
const (
	stIdling      = 0x11
	stAccepting   = 0x12
	stEscrow      = 0x13
	stStacking    = 0x14
	stVendValid   = 0x15
	stStacked     = 0x16
	stRejecting   = 0x17
	stReturning   = 0x18
	stHolding     = 0x19
	stDisable     = 0x1A
	stInitialize  = 0x1B
	stPowerUp     = 0x40
	stPowerUpAcc  = 0x41
	stPowerUpStk  = 0x42
	stFailure     = 0x49
	stCommError   = 0x4A
	stInvalid     = 0x4B
	stAck         = 0x50
	ticketEscrow  = 0x6F
	rejInhibited  = 0x79
	rejAssessing  = 0x76
	rejBarcodeSet = 0x91
	rejCharCount  = 0x93
)

// Fault statuses a scenario can raise.
const (
	StackerFull = 0x43
	StackerOpen = 0x44
	AcceptorJam = 0x45
	StackerJam  = 0x46
	Pause       = 0x47
	Cheated     = 0x48
	Failure     = 0x49
)

// Denom is one row of the currency assignment table (reply to 8A).
type Denom struct{ Code, Country, Base, Exponent byte }

// EUR is the EBA-40 euro table of protocols.md §1.5 (country code E0).
var EUR = []Denom{
	{0x62, 0xE0, 5, 0}, {0x63, 0xE0, 10, 0}, {0x64, 0xE0, 20, 0},
	{0x65, 0xE0, 50, 0}, {0x66, 0xE0, 100, 0}, {0x67, 0xE0, 200, 0},
}

// CountryCZK is the country byte of the emulator's CZK table. No public
// source gives JCM's byte for the Czech variant (TerminalClient's
// CurrencySpecification.h lists RUB 27, EUR E0, USD 01, CAD 08, UAH 5C,
// KZT 51, UZS 86, MDL 7E, HUF 30, CHF 16, CNY 2D, INR 63, IRR 78 — no
// CZK), so this is a stand-in: read a real unit's 8A reply on the bench and
// put its byte in the board profile (acceptor.country_code).
const CountryCZK = 0xCB

// CZK is the Czech koruna table: the six notes in circulation (ČNB: 100,
// 200, 500, 1000, 2000 and 5000 Kč), escrow codes 61–66 in ascending value
// as JCM numbers denominations 1–8 (protocols.md §1.5). The codes of a real
// CZK unit come from its 8A reply; this table is the emulator's.
var CZK = []Denom{
	{0x61, CountryCZK, 1, 2}, {0x62, CountryCZK, 2, 2}, {0x63, CountryCZK, 5, 2},
	{0x64, CountryCZK, 1, 3}, {0x65, CountryCZK, 2, 3}, {0x66, CountryCZK, 5, 3},
}

// Table is a currency variant of the emulated acceptor: its 8A table and
// the version string its firmware reports.
type Table struct {
	Currency string // ISO 4217
	Country  byte
	Sourced  bool // a public source gives Country (else it is the emulator's stand-in)
	Denoms   []Denom
	Version  string
}

// Tables are the emulator's currency variants by ISO code.
var Tables = map[string]Table{
	"EUR": {Currency: "EUR", Country: 0xE0, Sourced: true, Denoms: EUR, Version: "i(EUR)100-SS ID003-05V280-42 01AUG17 964D"},
	"CZK": {Currency: "CZK", Country: CountryCZK, Denoms: CZK, Version: "i(CZK)100-SS ID003-05V280-42 01AUG17 964D"},
}

// Config of the emulated acceptor. Zero durations take the defaults below,
// close to a real unit; tests scale them down.
type Config struct {
	Now      func() time.Time
	Tick     time.Duration // how often timed transitions are checked (2 ms)
	InitTime time.Duration // INITIALIZE after RESET (1 s)
	// AcceptTime: ACCEPTING before ESCROW or REJECTING (300 ms), and not
	// before a poll has reported it: a loaded host that polled past it
	// would see a document go from idle to escrow, which a real unit's
	// second of transport never shows its host.
	AcceptTime time.Duration
	StackTime  time.Duration // STACKING before VEND VALID (500 ms)
	// ReturnTime and RejectTime: RETURNING until the customer takes the
	// document, REJECTING until it is out (500 ms each), and in both cases
	// not before a status poll has reported the state once. A real unit's
	// return lasts a second or more, many polls, so its host always sees
	// it; a loaded test machine can stall the host for longer than the
	// few hundred milliseconds a test gives it, and a reject or return
	// that ended unseen is no state a real host meets.
	ReturnTime    time.Duration
	RejectTime    time.Duration
	EscrowTimeout time.Duration // auto-return from escrow, restarted by HOLD (10 s)
	// UnpolledTimeout returns an escrowed document when the host stops
	// polling (3 s).
	UnpolledTimeout time.Duration
	Currency        []Denom // default EUR
	Version         string
	BootVersion     string
	// Recycler makes the unit one with JCM's bill recycler: STACKED carries
	// a data byte (StackedData, where the note went; 00 here, the meaning
	// of real values is the unit's) and RecyclerReport can put extension
	// frames (F0 20 …) in its status replies.
	Recycler    bool
	StackedData byte
	// CommErrorOnBadCRC answers a damaged frame with COMMUNICATION ERROR
	// instead of silence (real units: unknown, protocols.md §6).
	CommErrorOnBadCRC bool
	// Log, when set, is the document log (see ReadLog): every document
	// movement is appended and fsynced there, and an existing log is
	// replayed at New, so the cash box and a document caught by a power
	// cut outlive the process. Check LogError after New.
	Log string
}

func (c *Config) defaults() {
	if c.Now == nil {
		c.Now = time.Now
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.Tick, 2*time.Millisecond)
	def(&c.InitTime, time.Second)
	def(&c.AcceptTime, 300*time.Millisecond)
	def(&c.StackTime, 500*time.Millisecond)
	def(&c.ReturnTime, 500*time.Millisecond)
	def(&c.RejectTime, 500*time.Millisecond)
	def(&c.EscrowTimeout, 10*time.Second)
	def(&c.UnpolledTimeout, 3*time.Second)
	if c.Currency == nil {
		c.Currency = EUR
	}
	if c.Version == "" {
		c.Version = "i(EUR)100-SS ID003-05V280-42 01AUG17 964D"
	}
	if c.BootVersion == "" {
		c.BootVersion = "B05 "
	}
}

// Doc is a document inserted into the emulator.
type Doc struct {
	Code   byte   // note escrow code, or 0x6F for a ticket
	Ticket string // ticket digits
}

func (d Doc) String() string {
	switch {
	case d.Code == ticketEscrow:
		return "ticket " + d.Ticket
	case d.Code == 0:
		return "unknown document"
	}
	return fmt.Sprintf("note %02X", d.Code)
}

// Outcome of a document.
type Outcome string

const (
	Stacked  Outcome = "stacked"  // in the stacker (VEND VALID, or power-up in stacker)
	Returned Outcome = "returned" // back with the customer
	Rejected Outcome = "rejected"
	Removed  Outcome = "removed" // taken out by a technician clearing a jam
)

// Entry records what became of one document.
type Entry struct {
	Doc     Doc
	Outcome Outcome
	Detail  string
	// VendValid is true when the host was told (VEND VALID); Acked when it
	// acknowledged.
	VendValid, Acked bool
}

// Where a document is at power-up.
type Where int

const (
	Nowhere Where = iota
	InAcceptor
	InStacker
)

type state int

const (
	sOff state = iota
	sPowerUp
	sInitialize
	sIdle
	sAccepting
	sEscrow
	sHolding
	sStacking
	sVendValid
	sStacked
	sRejecting
	sReturning
)

// Errors of the scenario commands.
var (
	ErrNotAccepting = errors.New("emulator: acceptor is not taking documents")
	ErrNoDocument   = errors.New("emulator: no document in the acceptor")
	ErrBadTicket    = errors.New("emulator: ticket must be 6–24 ASCII digits")
)

// Acceptor is the emulated device.
type Acceptor struct {
	cfg Config
	dev io.ReadWriter

	mu         sync.Mutex
	st         state
	until      time.Time // end of a timed state
	powerUp    byte      // 40, 41 or 42 while in sPowerUp
	doc        *Doc      // document in the path
	pending    byte      // reject code forced for the next document
	rejectCode byte
	unseen     bool // ACCEPTING, REJECTING or RETURNING not yet reported to a poll
	consumed   int64
	escrowEnd  time.Time
	lastPoll   time.Time
	fault      byte
	failure    byte
	jammed     *Doc
	settings   map[byte][]byte
	silent     bool
	dropAcks   int
	extReports [][]byte // recycler-extension replies queued for the next polls
	delay      time.Duration
	split      int
	cuts       uint32 // pseudo-random state for split points
	noise      []byte
	corrupt    int
	record     []Entry
	openVend   int // index in record of the VEND VALID entry waiting for ACK
	received   []byte
	log        *docLog
	logErr     error
	wmu        sync.Mutex // one reply on the line at a time
}

// New makes an acceptor on dev, powered on and showing POWER UP.
func New(dev io.ReadWriter, cfg Config) *Acceptor {
	cfg.defaults()
	a := &Acceptor{cfg: cfg, dev: dev, openVend: -1}
	where := Nowhere
	if cfg.Log != "" {
		var entries []LogEntry
		a.log, entries, a.logErr = openLog(cfg.Log)
		where = a.restore(entries)
	}
	a.powerOn(where)
	return a
}

func defaultSettings() map[byte][]byte {
	return map[byte][]byte{
		0xC0: {0x00, 0x00}, 0xC1: {0x00, 0x00}, 0xC2: {0x00}, 0xC3: {0x01},
		0xC4: {0x00}, 0xC5: {0x00, 0x00}, 0xC6: {0x00, 0x00}, 0xC7: {0x00},
	}
}

var settingLen = map[byte]int{0xC0: 2, 0xC1: 2, 0xC2: 1, 0xC3: 1, 0xC4: 1, 0xC5: 2, 0xC6: 2, 0xC7: 1}

// Run answers the host until ctx ends or the line fails.
func (a *Acceptor) Run(ctx context.Context) error {
	in := make(chan []byte, 16)
	rerr := make(chan error, 1)
	go func() {
		buf := make([]byte, 512)
		for {
			n, err := a.dev.Read(buf)
			if n > 0 {
				select {
				case in <- append([]byte(nil), buf[:n]...):
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				rerr <- err
				return
			}
		}
	}()
	tick := time.NewTicker(a.cfg.Tick)
	defer tick.Stop()
	var r reader
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-rerr:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("emulator: read: %w", err)
		case p := <-in:
			for _, req := range r.feed(p) {
				if reply := a.answer(req); reply != nil {
					if err := a.send(reply); err != nil {
						return err
					}
				}
			}
			a.mu.Lock()
			a.consumed += int64(len(p))
			a.mu.Unlock()
		case <-tick.C:
			a.mu.Lock()
			a.step()
			a.mu.Unlock()
		}
	}
}

// send writes a reply, applying the line scenarios (delay, noise, split,
// corruption).
func (a *Acceptor) send(reply []byte) error {
	a.mu.Lock()
	delay, split := a.delay, a.split
	out := append(append([]byte(nil), a.noise...), reply...)
	if a.corrupt > 0 {
		a.corrupt--
		out[len(out)-1] ^= 0xFF
	}
	a.mu.Unlock()
	if delay > 0 {
		time.Sleep(delay)
	}
	return a.write(out, split)
}

func (a *Acceptor) write(b []byte, pieces int) error {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	if pieces <= 1 || len(b) < 2 {
		_, err := a.dev.Write(b)
		return err
	}
	for pieces > 1 && len(b) > 1 {
		n := 1
		if pieces < len(b) {
			a.cuts = a.cuts*1664525 + 1013904223
			n = 1 + int(a.cuts>>8)%(len(b)-1)
		}
		if _, err := a.dev.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
		pieces--
		time.Sleep(time.Millisecond)
	}
	_, err := a.dev.Write(b)
	return err
}

// answer handles one request under the lock and returns the reply (nil: none).
func (a *Acceptor) answer(req request) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st == sOff || a.silent {
		return nil
	}
	if req.err != nil {
		if a.cfg.CommErrorOnBadCRC {
			return frame(stCommError)
		}
		return nil
	}
	a.received = append(a.received, req.code)
	now := a.cfg.Now()
	a.step()
	switch c := req.code; {
	case c == 0x11:
		a.lastPoll = now
		if len(a.extReports) > 0 {
			r := a.extReports[0]
			a.extReports = a.extReports[1:]
			return frame(0xF0, r...)
		}
		if a.st == sAccepting || a.st == sRejecting || a.st == sReturning {
			a.unseen = false
		}
		return a.status()
	case c == 0x50: // ACK: never answered
		if a.st == sVendValid {
			if a.dropAcks > 0 {
				a.dropAcks--
				return nil
			}
			if a.openVend >= 0 {
				a.record[a.openVend].Acked = true
				a.openVend = -1
			}
			a.st = sStacked
			a.logDoc(LogHostAck, Doc{}, "ACK")
		}
		return nil
	case c == 0x40:
		a.reset()
		return frame(stAck)
	case c == 0x41 || c == 0x42:
		if !a.inEscrow() {
			return frame(stInvalid)
		}
		a.st, a.until = sStacking, now.Add(a.cfg.StackTime)
		a.logDoc(LogStacking, *a.doc, "")
		return frame(stAck)
	case c == 0x43:
		if !a.inEscrow() {
			return frame(stInvalid)
		}
		a.st, a.until, a.unseen = sReturning, now.Add(a.cfg.ReturnTime), true
		a.finish(Returned, "RETURN")
		return frame(stAck)
	case c == 0x44:
		if !a.inEscrow() {
			return frame(stInvalid)
		}
		a.st, a.escrowEnd = sHolding, now.Add(a.cfg.EscrowTimeout)
		return frame(stAck)
	case c == 0x45: // WAIT: acknowledged, no effect (semantics unverified)
		if !a.inEscrow() {
			return frame(stInvalid)
		}
		return frame(stAck)
	case c == 0xDC: // PROGRAM SIGNATURE: acknowledged only
		return frame(stAck)
	case c >= 0xC0 && c <= 0xC7:
		if len(req.data) != settingLen[c] || !a.settable() {
			return frame(stInvalid)
		}
		a.settings[c] = req.data
		return frame(c, req.data...)
	case c >= 0x80 && c <= 0x87:
		return frame(c, a.settings[c-0x80+0xC0]...)
	case c == 0x88:
		return frame(c, []byte(a.cfg.Version)...)
	case c == 0x89:
		return frame(c, []byte(a.cfg.BootVersion)...)
	case c == 0x8A:
		var d []byte
		for _, x := range a.cfg.Currency {
			d = append(d, x.Code, x.Country, x.Base, x.Exponent)
		}
		return frame(c, d...)
	}
	return frame(stInvalid)
}

func (a *Acceptor) inEscrow() bool {
	return a.fault == 0 && (a.st == sEscrow || a.st == sHolding)
}

func (a *Acceptor) settable() bool {
	switch a.st {
	case sPowerUp, sInitialize, sIdle:
		return true
	}
	return false
}

func (a *Acceptor) inhibited() bool { return a.settings[0xC3][0] != 0 }

// status is the reply to STATUS REQUEST in the current state.
func (a *Acceptor) status() []byte {
	switch a.st {
	case sPowerUp:
		return frame(a.powerUp)
	case sInitialize:
		return frame(stInitialize)
	}
	if a.fault == Failure {
		return frame(stFailure, a.failure)
	}
	if a.fault != 0 {
		return frame(a.fault)
	}
	switch a.st {
	case sIdle:
		if a.inhibited() {
			return frame(stDisable)
		}
		return frame(stIdling)
	case sAccepting:
		return frame(stAccepting)
	case sEscrow:
		if a.doc.Code == ticketEscrow {
			return frame(stEscrow, append([]byte{ticketEscrow}, a.doc.Ticket...)...)
		}
		return frame(stEscrow, a.doc.Code)
	case sHolding:
		return frame(stHolding)
	case sStacking:
		return frame(stStacking)
	case sVendValid:
		return frame(stVendValid)
	case sStacked:
		a.st = sIdle // STACKED is shown once
		if a.cfg.Recycler {
			return frame(stStacked, a.cfg.StackedData)
		}
		return frame(stStacked)
	case sRejecting:
		return frame(stRejecting, a.rejectCode)
	case sReturning:
		return frame(stReturning)
	}
	return frame(stInvalid)
}

// step makes the timed transitions.
func (a *Acceptor) step() {
	now := a.cfg.Now()
	if a.fault != 0 {
		return
	}
	switch a.st {
	case sInitialize:
		if !now.Before(a.until) {
			a.st = sIdle
		}
	case sAccepting:
		if now.Before(a.until) || a.unseen {
			return
		}
		if code := a.validate(); code != 0 {
			a.st, a.until, a.rejectCode, a.unseen = sRejecting, now.Add(a.cfg.RejectTime), code, true
			a.finish(Rejected, fmt.Sprintf("reject code %02X", code))
			return
		}
		a.st, a.escrowEnd, a.lastPoll = sEscrow, now.Add(a.cfg.EscrowTimeout), now
	case sEscrow, sHolding:
		if !now.Before(a.escrowEnd) || now.Sub(a.lastPoll) >= a.cfg.UnpolledTimeout {
			a.st, a.until, a.unseen = sReturning, now.Add(a.cfg.ReturnTime), true
			a.finish(Returned, "escrow time-out")
		}
	case sStacking:
		if !now.Before(a.until) {
			a.st = sVendValid
			a.addRecord(Entry{Doc: *a.doc, Outcome: Stacked, Detail: "VEND VALID", VendValid: true})
			a.openVend = len(a.record) - 1
			a.doc = nil
		}
	case sRejecting, sReturning:
		if !now.Before(a.until) && !a.unseen {
			a.st = sIdle
		}
	}
}

// validate applies the settings to the document being accepted: C0 and C7
// for notes, C6 and C7 for tickets (protocols.md §1.8 "Settings").
func (a *Acceptor) validate() byte {
	if a.pending != 0 {
		c := a.pending
		a.pending = 0
		return c
	}
	bar := a.settings[0xC7][0]
	if a.doc.Code == ticketEscrow {
		bf := a.settings[0xC6]
		switch {
		case bf[0] != 0x01:
			return rejBarcodeSet
		case bar&0x02 != 0:
			return rejInhibited
		case bf[1] != 0xFF && int(bf[1]) != len(a.doc.Ticket):
			return rejCharCount
		}
		return 0
	}
	if bar&0x01 != 0 {
		return rejInhibited
	}
	i := a.doc.Code - 0x61
	mask := uint16(a.settings[0xC0][0]) | uint16(a.settings[0xC0][1])<<8
	if mask&(1<<i) != 0 {
		return rejInhibited
	}
	for _, d := range a.cfg.Currency {
		if d.Code == a.doc.Code {
			return 0
		}
	}
	return rejAssessing
}

// finish records the outcome of the document in the path.
func (a *Acceptor) finish(o Outcome, detail string) {
	if a.doc == nil {
		return
	}
	a.addRecord(Entry{Doc: *a.doc, Outcome: o, Detail: detail})
	a.doc = nil
}

// reset is RESET: re-initialise. A document still in the path goes back to
// the customer; faults stay until a scenario clears them.
func (a *Acceptor) reset() {
	if a.st == sPowerUp && a.powerUp == stPowerUpStk {
		a.logDoc(LogHostAck, Doc{}, "RESET after power-up with bill in stacker")
	}
	if a.st == sVendValid && a.openVend >= 0 {
		a.openVend = -1 // VEND VALID never acknowledged; it stays in the stacker
		a.logDoc(LogHostAck, Doc{}, "RESET after VEND VALID")
	}
	if a.doc != nil {
		if a.st == sStacking {
			a.finish(Stacked, "RESET while stacking")
		} else {
			a.finish(Returned, "returned at RESET")
		}
	}
	a.st, a.until = sInitialize, a.cfg.Now().Add(a.cfg.InitTime)
}

func (a *Acceptor) powerOn(w Where) {
	a.settings = defaultSettings()
	a.st = sPowerUp
	a.powerUp = stPowerUp
	switch w {
	case InAcceptor:
		if a.doc == nil {
			a.doc = &Doc{}
		}
		a.powerUp = stPowerUpAcc
	case InStacker:
		if a.doc == nil && a.openVend < 0 {
			a.doc = &Doc{} // unknown; a VEND VALID document is already recorded
		}
		a.finish(Stacked, "power-up with bill in stacker")
		a.powerUp = stPowerUpStk
	default:
		a.finish(Returned, "power lost with the document in the path")
	}
	a.openVend = -1
	a.lastPoll = a.cfg.Now()
}

package escpos

import (
	"fmt"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// Config of an ESC/POS printer driver. Zero values take the defaults noted.
type Config struct {
	Path string
	// Mode of the line; zero means serialport.ModeESCPOSDefault (115200 8N1).
	// ESC/POS printers are configurable: set what the printer's DIP
	// switches or memory switches say.
	Mode serialport.Mode
	Open serialport.Opener // nil means serialport.Open
	Now  func() time.Time  // nil means time.Now
	Job  JobOptions

	PollIdle     time.Duration // 500 ms between status rounds (DLE EOT 1–4)
	PollPrinting time.Duration // 100 ms between DLE EOT 1 while printing
	ReplyTimeout time.Duration // 300 ms for one status byte
	PrintTimeout time.Duration // 20 s from sending a job to its confirmation
	ReadTick     time.Duration // 10 ms
	MissLimit    int           // 2 unanswered rounds → CommLost
	EventBuffer  int           // 256
	// Heartbeat, when set, is called by the status loop after every status
	// round (answered or not) and every read while a job prints: proof for
	// the watchdog that the loop is not hung; a Read that never returns
	// stops the beats. It comes at least every PollIdle. Keep it cheap.
	Heartbeat func()
	// Confirm is how a job is known to be on paper (ConfirmAuto: the
	// process ID response if the printer answers it at Open, else the
	// fenced paper-sensor reply).
	Confirm ConfirmMode
	// Logf, when set, receives the bytes nothing asked for (line noise, a
	// second byte for one request) and what the driver did about a
	// suspect reply. nil: not logged (Unexpected still counts them).
	Logf func(format string, args ...any)
}

// ConfirmMode selects the confirmation that makes a voucher issued.
type ConfirmMode int

const (
	// ConfirmAuto probes GS ( H at Open and uses it if the printer answers.
	ConfirmAuto ConfirmMode = iota
	// ConfirmProcessID follows each job with GS ( H and takes only the
	// framed echo of that job's ID (Epson; Rongta and others copy it).
	// Open fails if the printer does not echo.
	ConfirmProcessID
	// ConfirmPaperSensor follows each job with GS r 1 for printers without
	// GS ( H. Its reply is one bare byte, so a candidate is fenced: a
	// second GS r 1 must be answered within ReplyTimeout, which a printer
	// still working through the job cannot do.
	ConfirmPaperSensor
)

func (m ConfirmMode) String() string {
	switch m {
	case ConfirmProcessID:
		return "process ID"
	case ConfirmPaperSensor:
		return "paper sensor"
	}
	return "auto"
}

func (c *Config) defaults() {
	d := func(p *time.Duration, v time.Duration) {
		if *p <= 0 {
			*p = v
		}
	}
	d(&c.PollIdle, 500*time.Millisecond)
	d(&c.PollPrinting, 100*time.Millisecond)
	d(&c.ReplyTimeout, 300*time.Millisecond)
	d(&c.PrintTimeout, 20*time.Second)
	d(&c.ReadTick, 10*time.Millisecond)
	if c.MissLimit <= 0 {
		c.MissLimit = 2
	}
	if c.EventBuffer <= 0 {
		c.EventBuffer = 256
	}
	if c.Mode == (serialport.Mode{}) {
		c.Mode = serialport.ModeESCPOSDefault
	}
	if c.Open == nil {
		c.Open = serialport.Open
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

type job struct {
	id         printer.JobID
	validation string
	payload    []byte
	pid        [4]byte
	sensorSeen bool // a paper-sensor reply came (ConfirmPaperSensor)
}

// Driver is an ESC/POS printer on a serial line. It implements printer.Printer.
// One goroutine owns the line: ESC/POS replies are bare bytes, so requests
// go one at a time.
type Driver struct {
	cfg    Config
	port   serialport.Port
	jobs   chan *job
	mu     sync.Mutex
	st     Status
	online bool
	misses int
	active *job
	lastID printer.JobID
	faults printer.Faults
	events chan printer.Event
	done   chan struct{}
	wg     sync.WaitGroup
	closed bool
	// requests are the DLE EOT n the printer answered at Open (1 and 2 at
	// least; cheap printers may lack 3 and 4).
	requests []byte
	confirm  ConfirmMode // resolved at Open: never ConfirmAuto
	salt     uint32      // makes this session's process IDs its own
	// The line is read only by the goroutine that owns it (Open, then the
	// loop): sc, buf, replies and the reply memory below need no lock.
	sc         Scanner
	buf        []byte
	replies    []Reply
	echoes     [][4]byte // process IDs received and not yet matched
	sensors    int       // paper-sensor replies received and not yet used
	unexpected int       // guarded by mu
}

var _ printer.Printer = (*Driver)(nil)

// Open opens the line in cfg.Mode, turns automatic status back off, and
// reads the printer's status; it fails if the printer does not answer.
func Open(cfg Config) (*Driver, error) {
	cfg.defaults()
	if _, err := Job(probeDoc{}, cfg.Job); err != nil {
		return nil, fmt.Errorf("escpos: config: %w", err)
	}
	port, err := cfg.Open(cfg.Path, cfg.Mode)
	if err != nil {
		return nil, err
	}
	if err := port.SetReadTimeout(cfg.ReadTick); err != nil {
		port.Close()
		return nil, fmt.Errorf("escpos: %s: %w", cfg.Path, err)
	}
	d := &Driver{cfg: cfg, port: port, jobs: make(chan *job, 1), faults: printer.Faults{},
		events: make(chan printer.Event, cfg.EventBuffer), done: make(chan struct{}),
		buf: make([]byte, 64), salt: uint32(cfg.Now().UnixNano())}
	if _, err := port.Write(AutoStatusBack(0)); err != nil {
		port.Close()
		return nil, fmt.Errorf("escpos: %s: %w", cfg.Path, err)
	}
	// Probe which status requests the printer answers.
	for n := byte(1); n <= 4; n++ {
		if _, ok := d.query(n); ok {
			d.requests = append(d.requests, n)
		} else if n <= 2 {
			port.Close()
			return nil, fmt.Errorf("escpos: %s: no answer to DLE EOT %d: %w", cfg.Path, n, printer.ErrOffline)
		}
	}
	st, ok := d.cleanStatus()
	if !ok {
		port.Close()
		return nil, fmt.Errorf("escpos: %s: %w", cfg.Path, printer.ErrOffline)
	}
	d.update(st, true)
	d.confirm = cfg.Confirm
	if d.confirm != ConfirmPaperSensor {
		echo := d.probeProcessID()
		switch {
		case echo:
			d.confirm = ConfirmProcessID
		case d.confirm == ConfirmProcessID:
			port.Close()
			return nil, fmt.Errorf("escpos: %s: no process ID response to GS ( H (set Confirm to ConfirmPaperSensor for this printer)", cfg.Path)
		default:
			d.confirm = ConfirmPaperSensor
		}
	}
	d.logf("escpos: %s: jobs confirmed by %s", cfg.Path, d.confirm)
	d.wg.Add(1)
	go d.loop()
	return d, nil
}

// probeProcessID sends GS ( H to the idle printer: one that knows it
// echoes at once.
func (d *Driver) probeProcessID() bool {
	id := jobProcessID(d.salt, 0)
	req, _ := ProcessIDRequest(id)
	if _, err := d.port.Write(req); err != nil {
		return false
	}
	deadline := d.cfg.Now().Add(d.cfg.ReplyTimeout)
	for d.cfg.Now().Before(deadline) {
		d.read()
		if d.takeEcho(id) {
			return true
		}
	}
	return false
}

// probeDoc checks the job options once at Open.
type probeDoc struct{}

func (probeDoc) Kind() document.Kind      { return "probe" }
func (probeDoc) Validate() error          { return nil }
func (probeDoc) Fields() []document.Field { return nil }
func (probeDoc) ValidationNumber() string { return "" }
func (probeDoc) Layout() []document.Block {
	return []document.Block{{Kind: document.BlockBarcode, Text: "00"}}
}

func (d *Driver) Events() <-chan printer.Event { return d.events }

// StatusRequests lists the DLE EOT requests the printer answered at Open.
// Without 4 there is no paper-end or near-end report; without 3 no error cause.
func (d *Driver) StatusRequests() []byte { return append([]byte(nil), d.requests...) }

// Status returns the last real-time status read.
func (d *Driver) Status() Status {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.st
}

// Print validates doc, encodes it and queues it; refused — nothing sent —
// while offline, busy or faulted.
func (d *Driver) Print(doc document.Document) (printer.JobID, error) {
	if err := doc.Validate(); err != nil {
		return 0, err
	}
	payload, err := Job(doc, d.cfg.Job)
	if err != nil {
		return 0, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		return 0, printer.ErrClosed
	case !d.online:
		return 0, printer.ErrOffline
	case d.active != nil:
		return 0, printer.ErrBusy
	}
	if fs := blocking(d.st); len(fs) > 0 {
		return 0, &printer.FaultError{Faults: fs}
	}
	d.lastID++
	j := &job{id: d.lastID, validation: doc.ValidationNumber(), payload: payload,
		pid: jobProcessID(d.salt, uint32(d.lastID))}
	d.active = j
	d.jobs <- j
	return j.id, nil
}

// ClearErrors sends DLE ENQ 2 (Epson: recover from a recoverable error and
// clear the buffers).
func (d *Driver) ClearErrors() error { return d.command([]byte{DLE, 0x05, 2}) }

// FormFeed feeds and cuts a blank ticket.
func (d *Driver) FormFeed() error {
	d.mu.Lock()
	busy := d.active != nil
	d.mu.Unlock()
	if busy {
		return printer.ErrBusy
	}
	return d.command(FeedCutPartial(6))
}

func (d *Driver) command(b []byte) error {
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return printer.ErrClosed
	}
	// the loop may be mid-request; a write of whole commands is atomic on the line
	if _, err := d.port.Write(b); err != nil {
		return fmt.Errorf("escpos: write: %w", err)
	}
	return nil
}

func (d *Driver) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	close(d.done)
	d.wg.Wait()
	err := d.port.Close()
	close(d.events)
	return err
}

func (d *Driver) emit(evs ...printer.Event) {
	for _, e := range evs {
		select {
		case d.events <- e:
		case <-d.done:
			return
		}
	}
}

func (d *Driver) at() printer.At { return printer.At{Time: d.cfg.Now()} }

func (d *Driver) loop() {
	defer d.wg.Done()
	t := time.NewTicker(d.cfg.PollIdle)
	defer t.Stop()
	for {
		select {
		case <-d.done:
			return
		case j := <-d.jobs:
			d.run(j)
		case <-t.C:
			d.poll()
		}
		d.beat()
	}
}

func (d *Driver) beat() {
	if d.cfg.Heartbeat != nil {
		d.cfg.Heartbeat()
	}
}

func (d *Driver) logf(format string, args ...any) {
	if d.cfg.Logf != nil {
		d.cfg.Logf(format, args...)
	}
}

// Unexpected counts the bytes from the printer that nothing asked for.
func (d *Driver) Unexpected() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.unexpected
}

// Confirmation is how this printer's jobs are confirmed (resolved at Open).
func (d *Driver) Confirmation() ConfirmMode { return d.confirm }

// read reads what the line has within one ReadTick and parses it in
// context. Process ID echoes and paper-sensor replies are kept for the job
// that waits for them; unexpected bytes are counted and logged.
func (d *Driver) read() []Reply {
	n, _ := d.port.Read(d.buf)
	d.replies = d.sc.Feed(d.buf[:n], d.replies[:0])
	bad := 0
	for _, r := range d.replies {
		switch r.Kind {
		case ReplyProcessID:
			d.echoes = append(d.echoes, r.ID)
		case ReplySensor:
			d.sensors++
		case ReplyUnexpected:
			bad++
			d.logf("escpos: %s: unexpected byte %#02x from the printer", d.cfg.Path, r.Byte)
		}
	}
	if bad > 0 {
		d.mu.Lock()
		d.unexpected += bad
		d.mu.Unlock()
	}
	return d.replies
}

// takeEcho reports (and forgets) whether id's process ID response came.
// Echoes of other IDs are stale and dropped.
func (d *Driver) takeEcho(id [4]byte) bool {
	found := false
	for _, e := range d.echoes {
		if e == id {
			found = true
		} else {
			d.logf("escpos: %s: process ID %q answers no job here", d.cfg.Path, e[:])
		}
	}
	d.echoes = d.echoes[:0]
	return found
}

// query sends DLE EOT n and takes the first byte with the real-time
// pattern that arrives while it is outstanding.
func (d *Driver) query(n byte) (byte, bool) {
	req, _ := StatusRequest(n)
	d.sc.ExpectStatus = true
	defer func() { d.sc.ExpectStatus = false }()
	if _, err := d.port.Write(req); err != nil {
		return 0, false
	}
	deadline := d.cfg.Now().Add(d.cfg.ReplyTimeout)
	for d.cfg.Now().Before(deadline) {
		for _, r := range d.read() {
			if r.Kind == ReplyStatus {
				return r.Byte, true
			}
		}
	}
	return 0, false
}

// queryAll reads DLE EOT 1–4. The four answers are read one after another,
// so a change in between can give "offline" with no cause; such a round is
// read again once.
func (d *Driver) queryAll() (Status, bool) {
	s, ok := d.queryRound()
	if ok && s.Offline && len(blockingOf(namedFaults(s))) == 0 {
		s, ok = d.queryRound()
	}
	return s, ok
}

func (d *Driver) queryRound() (Status, bool) {
	var s Status
	for _, n := range d.requests {
		b, ok := d.query(n)
		if !ok {
			return s, false
		}
		if ParseStatus(n, b, &s) != nil {
			return s, false
		}
	}
	return s, true
}

// cleanRounds is how many rounds cleanStatus tries.
const cleanRounds = 4

// cleanStatus reads rounds until one is clean: every request answered by
// exactly one byte and nothing unexpected from the first request until a
// settle time after the last answer. Line noise that looks like a status
// byte is taken for the answer, but then the real answer comes too and
// shows up as unexpected, so a clean round is one noise did not touch.
// A fault is set or cleared only on a clean round.
func (d *Driver) cleanStatus() (Status, bool) {
	answered := false
	d.read() // what waited on the line before the round answers nothing
	for i := 0; i < cleanRounds; i++ {
		d.mu.Lock()
		before := d.unexpected
		d.mu.Unlock()
		s, ok := d.queryAll()
		if !ok {
			continue
		}
		answered = true
		for end := d.cfg.Now().Add(2 * d.cfg.ReadTick); d.cfg.Now().Before(end); {
			d.read()
		}
		d.mu.Lock()
		clean := d.unexpected == before
		d.mu.Unlock()
		if clean {
			return s, true
		}
		d.logf("escpos: %s: status round disturbed by line noise, read again", d.cfg.Path)
	}
	if answered {
		d.logf("escpos: %s: no undisturbed status in %d rounds", d.cfg.Path, cleanRounds)
	}
	return Status{}, false
}

// poll is one idle status round. A round that changes the faults is
// confirmed by a clean one before anything is reported.
func (d *Driver) poll() {
	st, ok := d.queryAll()
	if !ok {
		d.update(st, false)
		return
	}
	d.mu.Lock()
	same := sameFaults(Faults(st), d.faults)
	d.mu.Unlock()
	if same {
		d.update(st, true)
		return
	}
	if cst, cok := d.cleanStatus(); cok {
		d.update(cst, true)
		return
	}
	d.mu.Lock()
	d.misses = 0 // the printer answers; what it says is in doubt
	d.mu.Unlock()
}

func sameFaults(a, b printer.Faults) bool {
	for _, f := range faultOrder {
		if a[f] != b[f] {
			return false
		}
	}
	return true
}

// Faults maps a status to printer faults.
func Faults(s Status) printer.Faults {
	fs := namedFaults(s)
	if s.Offline && len(blockingOf(fs)) == 0 {
		fs[printer.Offline] = true // offline for a cause the status does not name
	}
	return fs
}

func namedFaults(s Status) printer.Faults {
	fs := printer.Faults{}
	set := func(on bool, f printer.Fault) {
		if on {
			fs[f] = true
		}
	}
	set(s.PaperNearEnd, printer.PaperLow)
	set(s.PaperEnd || s.PaperEndStop, printer.PaperOut)
	set(s.CoverOpen, printer.HeadUp)
	set(s.CutterError, printer.CutterError)
	set(s.AutoRecoverableError, printer.Temperature)
	set(s.UnrecoverableError, printer.SystemError)
	return fs
}

func blockingOf(fs printer.Faults) printer.Faults {
	out := printer.Faults{}
	for f, on := range fs {
		if on && f.Blocking() {
			out[f] = true
		}
	}
	return out
}

func blocking(s Status) printer.Faults {
	fs := blockingOf(Faults(s))
	if len(fs) == 0 {
		return nil
	}
	return fs
}

var faultOrder = []printer.Fault{printer.PaperLow, printer.PaperOut, printer.PaperJam, printer.HeadUp,
	printer.ChassisOpen, printer.Temperature, printer.HeadError, printer.VoltageError, printer.CutterError,
	printer.SystemError, printer.TemplateError, printer.Offline}

// update records a status round and reports what changed.
func (d *Driver) update(st Status, ok bool) {
	at := d.at()
	var evs []printer.Event
	d.mu.Lock()
	if !ok {
		d.misses++
		if d.online && d.misses >= d.cfg.MissLimit {
			d.online = false
			evs = append(evs, printer.CommLost{At: at})
		}
		d.mu.Unlock()
		d.emit(evs...)
		return
	}
	d.misses = 0
	if !d.online {
		d.online = true
		evs = append(evs, printer.Online{At: at})
	}
	d.st = st
	cur := Faults(st)
	for _, f := range faultOrder {
		switch {
		case cur[f] && !d.faults[f]:
			evs = append(evs, printer.FaultSet{At: at, Fault: f})
		case !cur[f] && d.faults[f]:
			evs = append(evs, printer.FaultCleared{At: at, Fault: f})
		}
	}
	d.faults = cur
	d.mu.Unlock()
	d.emit(evs...)
}

// run prints one job: the document and its confirmation request (GS ( H
// with the job's ID, or GS r 1). Only the confirmation, after the printer
// has worked through the whole document, and a clean status after it make
// the voucher issued. A status byte saying the printer stopped counts only
// once a clean round confirms it.
func (d *Driver) run(j *job) {
	// sent: bytes of the job may have reached the printer. The validation
	// number is confirmed only with the whole job (finish), so any failure
	// after that cannot rule out that it is on paper: PrintFailed.Unsure, and
	// the cabinet reprints the same number as a duplicate instead of voiding.
	sent := false
	fail := func(f printer.Fault, reason string) {
		d.port.Write([]byte{DLE, 0x05, 2}) // drop the rest of the job from the printer's buffer
		d.mu.Lock()
		d.active = nil
		d.mu.Unlock()
		d.emit(printer.PrintFailed{At: d.at(), Job: j.id, Unsure: sent && j.validation != "", Fault: f, Reason: reason})
	}
	defer func() { d.sc.ExpectStatus = false }()
	var tail []byte
	if d.confirm == ConfirmProcessID {
		tail, _ = ProcessIDRequest(j.pid)
	} else {
		tail = PaperSensorRequest()
		d.sensors = 0
		d.sc.ExpectSensor = 1
		defer func() { d.sc.ExpectSensor = 0 }()
	}
	d.echoes = d.echoes[:0]
	n, err := d.port.Write(append(append([]byte{}, j.payload...), tail...))
	sent = n > 0
	if err != nil {
		fail(0, "write: "+err.Error())
		return
	}
	d.emit(printer.PrintStarted{At: d.at(), Job: j.id})
	deadline := d.cfg.Now().Add(d.cfg.PrintTimeout)
	nextPoll := d.cfg.Now().Add(d.cfg.PollPrinting)
	var asked time.Time
	for {
		select {
		case <-d.done:
			return
		default:
		}
		stopped := false
		for _, r := range d.read() {
			if r.Kind == ReplyStatus {
				var s Status
				ParseStatus(StatusPrinter, r.Byte, &s)
				stopped = stopped || s.Offline
			}
		}
		d.beat()
		if d.confirmed(j) {
			d.finish(j, fail)
			return
		}
		if stopped { // the printer says it stopped mid-job: believe a clean round only
			st, ok := d.cleanStatus()
			if ok && (st.Offline || len(blocking(st)) > 0) {
				d.update(st, true)
				fail(firstBlocking(Faults(st)), "printer went offline while printing")
				return
			}
			d.logf("escpos: %s: an offline status while printing was not confirmed", d.cfg.Path)
			if d.confirmed(j) { // the echo may have come while the round was read
				d.finish(j, fail)
				return
			}
		}
		now := d.cfg.Now()
		if now.After(deadline) {
			st, ok := d.cleanStatus()
			if ok {
				d.update(st, true)
			}
			fail(firstBlocking(Faults(st)), "print not confirmed in time")
			return
		}
		if d.sc.ExpectStatus && now.Sub(asked) > d.cfg.ReplyTimeout {
			d.sc.ExpectStatus = false
		}
		if !d.sc.ExpectStatus && now.After(nextPoll) {
			req, _ := StatusRequest(StatusPrinter)
			d.port.Write(req)
			d.sc.ExpectStatus, asked, nextPoll = true, now, now.Add(d.cfg.PollPrinting)
		}
	}
}

// confirmed reports whether the printer has confirmed the whole job: its
// own process ID echoed, or — once a paper-sensor reply has come — a fence
// answered on a quiet line.
func (d *Driver) confirmed(j *job) bool {
	if d.confirm == ConfirmProcessID {
		return d.takeEcho(j.pid)
	}
	if d.sensors > 0 {
		d.sensors = 0
		j.sensorSeen = true
	}
	if !j.sensorSeen {
		return false
	}
	if d.fence() {
		return true
	}
	d.logf("escpos: %s: a paper-sensor reply was not confirmed by a fence", d.cfg.Path)
	return false
}

// fenceRequests is how many GS r 1 a fence sends at once.
const fenceRequests = 3

// fence sends GS r 1 three times: a printer answers them within
// ReplyTimeout only with nothing left before it. A noise byte can look like
// an answer, so the fence holds only if exactly three equal answers came
// and nothing else — from the request until a settle time after the last
// answer. (Answers to earlier fences that arrive late spoil one fence; the
// next one holds.)
func (d *Driver) fence() bool {
	d.mu.Lock()
	before := d.unexpected
	d.mu.Unlock()
	var got []byte
	collect := func() {
		for _, r := range d.read() {
			if r.Kind == ReplySensor {
				got = append(got, r.Byte)
			}
		}
		d.sensors = 0
	}
	req := PaperSensorRequest()
	d.sc.ExpectSensor += fenceRequests
	if _, err := d.port.Write(append(append(append([]byte{}, req...), req...), req...)); err != nil {
		return false
	}
	for end := d.cfg.Now().Add(d.cfg.ReplyTimeout); d.cfg.Now().Before(end) && len(got) < fenceRequests; {
		collect()
	}
	if len(got) < fenceRequests {
		return false
	}
	for end := d.cfg.Now().Add(2 * d.cfg.ReadTick); d.cfg.Now().Before(end); {
		collect()
	}
	d.mu.Lock()
	quiet := d.unexpected == before
	d.mu.Unlock()
	if !quiet || len(got) != fenceRequests {
		return false
	}
	return got[0] == got[1] && got[1] == got[2]
}

// finish closes a confirmed job: issued unless a clean status shows a
// blocking fault or an error.
func (d *Driver) finish(j *job, fail func(printer.Fault, string)) {
	d.sc.ExpectSensor = 0
	st, ok := d.cleanStatus()
	if !ok {
		fail(0, "no undisturbed status after the print")
		return
	}
	d.update(st, true)
	if fs := blocking(st); len(fs) > 0 || st.ErrorOccurred {
		fail(firstBlocking(Faults(st)), "fault at the end of the print")
		return
	}
	d.mu.Lock()
	d.active = nil
	d.mu.Unlock()
	at := d.at()
	if j.validation != "" {
		d.emit(printer.ValidationPrinted{At: at, Job: j.id, Validation: j.validation})
	}
	d.emit(printer.PrintComplete{At: at, Job: j.id})
}

func firstBlocking(fs printer.Faults) printer.Fault {
	for _, f := range faultOrder {
		if fs[f] && f.Blocking() {
			return f
		}
	}
	return 0
}

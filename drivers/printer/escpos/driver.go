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
		events: make(chan printer.Event, cfg.EventBuffer), done: make(chan struct{})}
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
	if st, ok := d.queryAll(); !ok {
		port.Close()
		return nil, fmt.Errorf("escpos: %s: %w", cfg.Path, printer.ErrOffline)
	} else {
		d.update(st, true)
	}
	d.wg.Add(1)
	go d.loop()
	return d, nil
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
	j := &job{id: d.lastID, validation: doc.ValidationNumber(), payload: payload}
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
			st, ok := d.queryAll()
			d.update(st, ok)
		}
		d.beat()
	}
}

func (d *Driver) beat() {
	if d.cfg.Heartbeat != nil {
		d.cfg.Heartbeat()
	}
}

// query sends DLE EOT n and waits for a byte with the real-time pattern;
// other bytes are noise and dropped.
func (d *Driver) query(n byte) (byte, bool) {
	req, _ := StatusRequest(n)
	d.port.ResetInputBuffer()
	if _, err := d.port.Write(req); err != nil {
		return 0, false
	}
	deadline := d.cfg.Now().Add(d.cfg.ReplyTimeout)
	buf := make([]byte, 16)
	for d.cfg.Now().Before(deadline) {
		k, _ := d.port.Read(buf)
		for _, b := range buf[:k] {
			if IsRealtimeReply(b) {
				return b, true
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

// validSensor accepts only the four GS r 1 replies a printer can give
// (near-end and end bits come in pairs), so line noise is unlikely to pass.
func validSensor(b byte) bool { return b == 0x00 || b == 0x03 || b == 0x0c || b == 0x0f }

// run prints one job: the document and GS r 1; the sensor reply means the
// printer has worked through the whole document, and a clean DLE EOT 1–4
// after it confirms the print.
func (d *Driver) run(j *job) {
	fail := func(f printer.Fault, reason string) {
		d.port.Write([]byte{DLE, 0x05, 2}) // drop the rest of the job from the printer's buffer
		d.mu.Lock()
		d.active = nil
		d.mu.Unlock()
		d.emit(printer.PrintFailed{At: d.at(), Job: j.id, Fault: f, Reason: reason})
	}
	d.port.ResetInputBuffer()
	if _, err := d.port.Write(append(append([]byte{}, j.payload...), PaperSensorRequest()...)); err != nil {
		fail(0, "write: "+err.Error())
		return
	}
	d.emit(printer.PrintStarted{At: d.at(), Job: j.id})
	deadline := d.cfg.Now().Add(d.cfg.PrintTimeout)
	nextPoll := d.cfg.Now().Add(d.cfg.PollPrinting)
	var asked time.Time
	outstanding := false
	buf := make([]byte, 64)
	for {
		select {
		case <-d.done:
			return
		default:
		}
		n, _ := d.port.Read(buf)
		d.beat()
		for _, b := range buf[:n] {
			switch {
			case outstanding && IsRealtimeReply(b):
				outstanding = false
				var s Status
				ParseStatus(StatusPrinter, b, &s)
				if s.Offline { // the printer stopped mid-job
					st, ok := d.queryAll()
					d.update(st, ok)
					fail(firstBlocking(Faults(st)), "printer went offline while printing")
					return
				}
			case validSensor(b):
				d.confirm(j, fail)
				return
			}
		}
		now := d.cfg.Now()
		if now.After(deadline) {
			st, ok := d.queryAll()
			d.update(st, ok)
			fail(firstBlocking(Faults(st)), "print not confirmed in time")
			return
		}
		if outstanding && now.Sub(asked) > d.cfg.ReplyTimeout {
			outstanding = false
		}
		if !outstanding && now.After(nextPoll) {
			req, _ := StatusRequest(StatusPrinter)
			d.port.Write(req)
			outstanding, asked, nextPoll = true, now, now.Add(d.cfg.PollPrinting)
		}
	}
}

func (d *Driver) confirm(j *job, fail func(printer.Fault, string)) {
	st, ok := d.queryAll()
	d.update(st, ok)
	if !ok {
		fail(0, "no status after the print")
		return
	}
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

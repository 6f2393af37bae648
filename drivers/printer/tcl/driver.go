package tcl

import (
	"fmt"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// Config of a TCL printer driver. Zero durations take the defaults noted.
type Config struct {
	Path string
	// Open opens the line; nil means serialport.Open. The driver always asks
	// for serialport.ModeTCL (9600 8N1).
	Open   serialport.Opener
	Now    func() time.Time // nil means time.Now
	F4     F4Layout
	Routes map[document.Kind]Route // nil means DefaultRoutes()
	// Download replaces the printer's regions with Polaris's own templates
	// at start-up (OwnDownload) and routes vouchers and handpays to them.
	Download      bool
	Transliterate bool // fold č, ř, ü, ß … to ASCII for printers without those glyphs

	PollIdle     time.Duration // 500 ms (Monaco)
	PollPrinting time.Duration // 100 ms
	ReadTick     time.Duration // 10 ms: read time-out, the loop's resolution
	CommTimeout  time.Duration // 2 s without a valid status → CommLost
	StartTimeout time.Duration // 5 s from sending a job to seeing it start
	PrintTimeout time.Duration // 30 s from start to the end of the print
	OpenTimeout  time.Duration // 3 s for the first status at Open
	EventBuffer  int           // 256
	// Heartbeat, when set, is called by the status loop after every read
	// (data or read time-out) and poll: proof for the watchdog that the loop
	// is not hung. A Read that never returns stops the beats. Keep it cheap.
	Heartbeat func()
	// Pacing is the quiet time after a message's last byte is on the line
	// (its length at 9600 baud) before the next message is written: one
	// command per write, never two in one printer read. Paycheck4-style
	// firmware discards a read holding bytes after the closing caret and
	// joins segments only within 20 ms; Monaco sends each region and
	// template alone and reads a status after it. 0 means 100 ms.
	Pacing time.Duration
	// Broadcast, when non-zero, is the period of a printer that broadcasts
	// its status instead of answering ENQ (Paycheck4: 2 s). The driver then
	// sends no ENQ, and its time-outs follow the period: CommTimeout is at
	// least 3 periods, StartTimeout and PrintTimeout grow by 2 periods and
	// OpenTimeout is at least 3 periods.
	Broadcast time.Duration
	// ByteTime is one byte's time on the line (0: 9600 8N1, ~1.04 ms;
	// negative: none, for a USB printer whose line has no baud rate).
	ByteTime time.Duration
	// Sleep waits between messages (nil: time.Sleep); a fake clock's
	// advance in tests.
	Sleep func(time.Duration)
}

// ByteTime9600 is how long one byte takes on the line at 9600 8N1 (10 bits).
const ByteTime9600 = time.Second * 10 / 9600

func (c *Config) defaults() {
	d := func(p *time.Duration, v time.Duration) {
		if *p <= 0 {
			*p = v
		}
	}
	d(&c.PollIdle, 500*time.Millisecond)
	d(&c.PollPrinting, 100*time.Millisecond)
	d(&c.ReadTick, 10*time.Millisecond)
	d(&c.CommTimeout, 2*time.Second)
	d(&c.StartTimeout, 5*time.Second)
	d(&c.PrintTimeout, 30*time.Second)
	d(&c.OpenTimeout, 3*time.Second)
	d(&c.Pacing, 100*time.Millisecond)
	if c.ByteTime == 0 {
		c.ByteTime = ByteTime9600
	} else if c.ByteTime < 0 {
		c.ByteTime = 0
	}
	if p := c.Broadcast; p > 0 {
		c.CommTimeout = max(c.CommTimeout, 3*p)
		c.StartTimeout += 2 * p
		c.PrintTimeout += 2 * p
		c.OpenTimeout = max(c.OpenTimeout, 3*p)
	}
	if c.Sleep == nil {
		c.Sleep = time.Sleep
	}
	if c.EventBuffer <= 0 {
		c.EventBuffer = 256
	}
	if c.Open == nil {
		c.Open = serialport.Open
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Routes == nil {
		c.Routes = DefaultRoutes()
	}
}

type job struct {
	id         printer.JobID
	validation string
	line       bool
	sent       time.Time
	started    time.Time
	isStarted  bool
	valArmed   bool // the validation flag was seen clear since the job was sent
	validated  bool
}

// Driver is a TCL printer on a serial line. It implements printer.Printer.
type Driver struct {
	cfg      Config
	port     serialport.Port
	wmu      sync.Mutex
	mu       sync.Mutex
	split    Splitter
	st       Status
	have     bool
	online   bool
	lastRx   time.Time
	enqSent  time.Time // the last ENQ written (see enq)
	frames   int
	poll     time.Time
	job      *job
	lastID   printer.JobID
	chute    bool          // TicketInChute reported and not yet taken
	chuteJob printer.JobID // the job whose ticket is in the chute (0: a form feed)
	faults   printer.Faults
	events   chan printer.Event
	done     chan struct{}
	wg       sync.WaitGroup
	closed   bool
	// downloadCmds are sent again when the printer reports a power-up
	// (RAM regions and templates are gone).
	downloadCmds [][]byte
	redownload   bool
	nextWrite    time.Time // guarded by wmu: the line is free for the next message
}

var _ printer.Printer = (*Driver)(nil)

// Open opens the line, waits for the printer's first status, downloads
// Polaris's templates if configured, and starts polling.
func Open(cfg Config) (*Driver, error) {
	cfg.defaults()
	if err := checkRoutes(cfg.Routes); err != nil {
		return nil, err
	}
	var download [][]byte
	if cfg.Download {
		cmds, routes, err := OwnDownload()
		if err != nil {
			return nil, err
		}
		download = cmds
		for k, r := range routes {
			if k != document.KindJackpotForm || cfg.Routes[k].Template == 0 {
				cfg.Routes[k] = r
			}
		}
	}
	port, err := cfg.Open(cfg.Path, serialport.ModeTCL)
	if err != nil {
		return nil, err
	}
	if err := port.SetReadTimeout(cfg.ReadTick); err != nil {
		port.Close()
		return nil, fmt.Errorf("tcl: %s: %w", cfg.Path, err)
	}
	d := &Driver{cfg: cfg, port: port, split: Splitter{Layout: cfg.F4}, faults: printer.Faults{},
		events: make(chan printer.Event, cfg.EventBuffer), done: make(chan struct{})}
	d.wg.Add(1)
	go d.loop()
	if err := d.waitStatus(cfg.OpenTimeout, func(Status) bool { return true }, 1); err != nil {
		d.Close()
		return nil, fmt.Errorf("tcl: %s: no status from printer: %w", cfg.Path, err)
	}
	if len(download) > 0 {
		if err := d.download(download); err != nil {
			d.Close()
			return nil, err
		}
		d.mu.Lock()
		d.downloadCmds = download
		d.mu.Unlock()
	}
	// Clear the power-up flag so that a later power cycle shows as its rise.
	if err := d.write(ClearErrors); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func (d *Driver) download(cmds [][]byte) error {
	for _, c := range cmds {
		if err := d.write(c); err != nil {
			return err
		}
	}
	// The printer flags a bad region or template in f2; a fresh status after
	// the last command tells.
	d.mu.Lock()
	since := d.frames
	d.mu.Unlock()
	var got Status
	// The second frame after the last command answers an ENQ sent after it.
	err := d.waitStatus(d.cfg.OpenTimeout, func(s Status) bool { got = s; return true }, since+2)
	if err != nil {
		return fmt.Errorf("tcl: template download: %w", err)
	}
	if bad := got.Cond & (RegionDataError | LibraryRefError | CommandError | JobMemoryOverflow); bad != 0 {
		return fmt.Errorf("tcl: template download refused by printer: %v", bad)
	}
	return nil
}

// waitStatus waits for frame number minFrames (counted from Open) if ok
// accepts it. It runs only in Open, on wall time, before the driver is in use.
func (d *Driver) waitStatus(timeout time.Duration, ok func(Status) bool, minFrames int) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		d.mu.Lock()
		have, st, n := d.have, d.st, d.frames
		d.mu.Unlock()
		if have && n >= minFrames && ok(st) {
			return nil
		}
		if d.cfg.Broadcast == 0 {
			d.enq()
		}
		time.Sleep(d.cfg.PollPrinting)
	}
	return printer.ErrOffline
}

// write sends each message in its own write, paced: a message goes out
// only once the previous one has had its bytes' time on the line plus
// Pacing, so a printer never reads two messages at once.
func (d *Driver) write(msgs ...[]byte) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	for _, m := range msgs {
		if wait := d.nextWrite.Sub(d.cfg.Now()); wait > 0 {
			d.cfg.Sleep(wait)
		}
		if err := d.writeNow(m); err != nil {
			return err
		}
	}
	return nil
}

// tryWrite sends m only if the line is free now (polls: a later poll
// does as well, and the status loop must not wait behind a long message).
// enqPatience is how long an ENQ may go unanswered before the next: a
// printer that takes one message per read discards a read holding two
// ENQs, which a second ENQ behind an unanswered one risks when the printer
// reads late.
const enqPatience = time.Second

// enq polls the status unless an ENQ is still unanswered (then it reports
// true: there is nothing to retry yet); false means the line was busy.
func (d *Driver) enq() bool {
	now := d.cfg.Now()
	d.mu.Lock()
	waiting := d.enqSent.After(d.lastRx) && now.Sub(d.enqSent) < enqPatience
	d.mu.Unlock()
	if waiting {
		return true
	}
	if !d.tryWrite([]byte{ENQ}) {
		return false
	}
	d.mu.Lock()
	d.enqSent = now
	d.mu.Unlock()
	return true
}

func (d *Driver) tryWrite(m []byte) bool {
	if !d.wmu.TryLock() {
		return false
	}
	defer d.wmu.Unlock()
	if d.cfg.Now().Before(d.nextWrite) {
		return false
	}
	return d.writeNow(m) == nil
}

func (d *Driver) writeNow(m []byte) error {
	_, err := d.port.Write(m)
	d.nextWrite = d.cfg.Now().Add(time.Duration(len(m))*d.cfg.ByteTime + d.cfg.Pacing)
	if err != nil {
		return fmt.Errorf("tcl: write: %w", err)
	}
	return nil
}

// Events delivers the driver's events; it is closed by Close.
func (d *Driver) Events() <-chan printer.Event { return d.events }

// Status returns the last status frame and whether one was received.
func (d *Driver) Status() (Status, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.st, d.have
}

// Print validates doc and sends it through its route. Refused — with
// nothing sent — while offline, while a job runs, while the last ticket sits
// in the chute, or with a blocking fault.
func (d *Driver) Print(doc document.Document) (printer.JobID, error) {
	if err := doc.Validate(); err != nil {
		return 0, err
	}
	route, ok := d.cfg.Routes[doc.Kind()]
	if !ok {
		return 0, fmt.Errorf("%w: %s", printer.ErrNoTemplate, doc.Kind())
	}
	var payload []byte
	var err error
	if route.LineMode {
		if doc.ValidationNumber() != "" {
			return 0, fmt.Errorf("tcl: %s carries a validation number and cannot print in line mode", doc.Kind())
		}
		payload, err = LineModeJob(doc, d.cfg.Transliterate)
	} else {
		payload, err = Print(route.Template, 1, fieldValues(doc, route, d.cfg.Transliterate))
	}
	if err != nil {
		return 0, err
	}
	d.mu.Lock()
	switch {
	case d.closed:
		d.mu.Unlock()
		return 0, printer.ErrClosed
	case !d.online:
		d.mu.Unlock()
		return 0, printer.ErrOffline
	case d.job != nil || d.st.Cond&Busy != 0:
		d.mu.Unlock()
		return 0, printer.ErrBusy
	case d.st.Cond&PaperInChute != 0:
		d.mu.Unlock()
		return 0, printer.ErrTicketInChute
	}
	if fs := blocking(d.st.Cond); len(fs) > 0 {
		d.mu.Unlock()
		return 0, &printer.FaultError{Faults: fs}
	}
	d.lastID++
	j := &job{id: d.lastID, validation: doc.ValidationNumber(), line: route.LineMode, sent: d.cfg.Now(),
		valArmed: d.st.Cond&ValidationDone == 0}
	d.job = j
	lineMode := d.st.Cond&LineModeOn != 0
	d.poll = time.Time{} // poll at once, then at the printing rate
	d.mu.Unlock()

	msgs := [][]byte{ClearErrors}
	if lineMode && !route.LineMode {
		msgs = append(msgs, TemplateMode)
	}
	if route.LineMode {
		msgs = append(msgs, splitLineJob(payload)...)
	} else {
		msgs = append(msgs, payload)
	}
	if err := d.write(msgs...); err != nil {
		d.mu.Lock()
		if d.job == j {
			d.job = nil
		}
		d.mu.Unlock()
		return 0, err
	}
	// the start time-out counts from when the printer has the whole job
	d.mu.Lock()
	j.sent = d.cfg.Now().Add(time.Duration(len(msgs[len(msgs)-1])) * d.cfg.ByteTime)
	d.mu.Unlock()
	return j.id, nil
}

// ClearErrors sends ^C|^ (latched error flags).
func (d *Driver) ClearErrors() error { return d.command(ClearErrors) }

// ClearJam sends ^C|j|^, which also clears a paper jam once the paper path is free.
func (d *Driver) ClearJam() error { return d.command(ClearErrorsAndJam) }

// FormFeed ejects a blank ticket (refused during a job).
func (d *Driver) FormFeed() error {
	d.mu.Lock()
	busy := d.job != nil || d.st.Cond&Busy != 0
	if !busy {
		d.chuteJob = 0
	}
	d.mu.Unlock()
	if busy {
		return printer.ErrBusy
	}
	return d.command(FormFeed)
}

func (d *Driver) command(b []byte) error {
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return printer.ErrClosed
	}
	return d.write(b)
}

// Close stops polling, closes the line and then the events channel.
func (d *Driver) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	close(d.done)
	err := d.port.Close()
	d.wg.Wait()
	close(d.events)
	return err
}

func (d *Driver) loop() {
	defer d.wg.Done()
	buf := make([]byte, 256)
	for {
		select {
		case <-d.done:
			return
		default:
		}
		n, err := d.port.Read(buf)
		if err != nil {
			select {
			case <-d.done:
				return
			default:
			}
			time.Sleep(d.cfg.ReadTick) // a line error: keep polling, CommLost will tell
		}
		if n > 0 {
			frames := d.split.Feed(buf[:n])
			for _, s := range frames {
				d.onStatus(s)
			}
		}
		d.tick()
		if d.cfg.Heartbeat != nil {
			d.cfg.Heartbeat()
		}
	}
}

func (d *Driver) emit(evs []printer.Event) {
	for _, e := range evs {
		select {
		case d.events <- e:
		case <-d.done:
			return
		}
	}
}

// tick polls and checks time-outs.
func (d *Driver) tick() {
	now := d.cfg.Now()
	var evs []printer.Event
	d.mu.Lock()
	sendENQ := false
	if !now.Before(d.poll) {
		sendENQ = true
		iv := d.cfg.PollIdle
		if d.job != nil {
			iv = d.cfg.PollPrinting
		}
		d.poll = now.Add(iv)
	}
	at := printer.At{Time: now}
	if d.online && now.Sub(d.lastRx) > d.cfg.CommTimeout {
		d.online = false
		evs = append(evs, printer.CommLost{At: at})
	}
	if j := d.job; j != nil {
		switch {
		case !j.isStarted && now.Sub(j.sent) > d.cfg.StartTimeout:
			evs = append(evs, d.failJob(at, 0, "printer did not start the job", true))
		case j.isStarted && now.Sub(j.started) > d.cfg.PrintTimeout:
			evs = append(evs, d.failJob(at, 0, "print did not finish in time", true))
		}
	}
	var again [][]byte
	if d.redownload {
		d.redownload = false
		again = d.downloadCmds
	}
	d.mu.Unlock()
	if again != nil {
		d.write(append(append([][]byte{}, again...), ClearErrors)...)
	}
	if sendENQ && d.cfg.Broadcast == 0 && !d.enq() {
		d.mu.Lock()
		d.poll = time.Time{} // the line is busy with a message: poll as soon as it is free
		d.mu.Unlock()
	}
	d.emit(evs)
}

// splitLineJob cuts a LineModeJob into its messages: ^j|^, the text up to
// its form feed, and the switch back to template mode.
func splitLineJob(b []byte) [][]byte {
	n := len(LineMode)
	t := len(b) - len(TemplateMode)
	return [][]byte{b[:n], b[n:t], b[t:]}
}

// refused are the conditions by which a printer turns a job down.
const refused = RegionDataError | LibraryRefError | CommandError

// followJob advances the active job j on status s (under d.mu).
func (d *Driver) followJob(j *job, s, prev Status, had bool, at printer.At) []printer.Event {
	busy := s.Cond&Busy != 0
	val := s.Cond&ValidationDone != 0
	chuteRose := s.Cond&PaperInChute != 0 && (!had || prev.Cond&PaperInChute == 0)
	if !val {
		j.valArmed = true
	}
	if !j.isStarted && s.Cond&refused != 0 {
		// unknown template, bad fields: the printer will not print this job
		return []printer.Event{d.failJob(at, printer.TemplateError, "printer refused the job: "+(s.Cond&refused).String(), false)}
	}
	var evs []printer.Event
	if !j.isStarted && (busy || (val && j.valArmed) || chuteRose) {
		j.isStarted, j.started = true, at.Time
		evs = append(evs, printer.PrintStarted{At: at, Job: j.id})
	}
	if j.isStarted && j.validation != "" && !j.validated && val && j.valArmed {
		j.validated = true
		evs = append(evs, printer.ValidationPrinted{At: at, Job: j.id, Validation: j.validation})
	}
	if !j.isStarted || busy {
		return evs
	}
	fs := blocking(s.Cond)
	switch {
	case j.validation != "" && !j.validated:
		f := firstBlocking(fs)
		reason := "print stopped before the validation number"
		if f != 0 {
			reason = f.String()
		}
		// Unarmed, the flag was set when the job was sent and never seen
		// clear since: the printer may have cleared and set it again
		// between two polls, so the number may be on paper.
		evs = append(evs, d.failJob(at, f, reason, !j.valArmed))
	case len(fs) > 0: // stopped by a fault; a validated voucher still stands
		f := firstBlocking(fs)
		evs = append(evs, d.failJob(at, f, f.String(), false))
	default:
		d.job = nil
		d.chuteJob = j.id
		evs = append(evs, printer.PrintComplete{At: at, Job: j.id})
	}
	return evs
}

// failJob ends the active job; mayHavePrinted: the printer's state does not
// rule out that the job's validation number reached paper (PrintFailed.Unsure).
func (d *Driver) failJob(at printer.At, f printer.Fault, reason string, mayHavePrinted bool) printer.Event {
	j := d.job
	d.job = nil
	unsure := mayHavePrinted && j.validation != "" && !j.validated
	return printer.PrintFailed{At: at, Job: j.id, Issued: j.validated, Unsure: unsure, Fault: f, Reason: reason}
}

var faultMap = []struct {
	f printer.Fault
	c Cond
}{
	{printer.PaperLow, PaperLow},
	{printer.PaperOut, PaperOut},
	{printer.PaperJam, PaperJam},
	{printer.HeadUp, HeadUp},
	{printer.ChassisOpen, ChassisOpen},
	{printer.Temperature, TemperatureError},
	{printer.HeadError, HeadError},
	{printer.VoltageError, VoltageError},
	{printer.CutterError, CutterError},
	{printer.SystemError, SystemError | FlashProgramError | LibrariesCorrupt | MissingSupplyIndex | JobMemoryOverflow | BufferOverflow},
	{printer.TemplateError, RegionDataError | LibraryRefError | LibraryLoadError | CommandError},
	{printer.Offline, PrinterOffline},
}

// Faults maps status conditions to printer faults.
func Faults(c Cond) printer.Faults {
	fs := printer.Faults{}
	for _, m := range faultMap {
		if c&m.c != 0 {
			fs[m.f] = true
		}
	}
	return fs
}

func blocking(c Cond) printer.Faults {
	fs := Faults(c)
	delete(fs, printer.PaperLow)
	if len(fs) == 0 {
		return nil
	}
	return fs
}

func firstBlocking(fs printer.Faults) printer.Fault {
	for _, m := range faultMap {
		if fs[m.f] && m.f.Blocking() {
			return m.f
		}
	}
	return 0
}

func (d *Driver) onStatus(s Status) {
	now := d.cfg.Now()
	at := printer.At{Time: now}
	var evs []printer.Event
	d.mu.Lock()
	prev, had := d.st, d.have
	d.st, d.have, d.lastRx = s, true, now
	d.frames++
	if !d.online {
		d.online = true
		evs = append(evs, printer.Online{At: at, Firmware: s.Firmware})
	}

	// Faults. A chassis opened mid-print before the validation number is
	// reported once the print ends (Monaco), so a valid ticket does not
	// turn into a handpay; paper out counts only when not printing.
	cur := Faults(s.Cond)
	if j := d.job; j != nil && s.Cond&Busy != 0 {
		if !j.validated {
			cur[printer.ChassisOpen] = d.faults[printer.ChassisOpen]
		}
		cur[printer.PaperOut] = d.faults[printer.PaperOut]
	}
	for _, m := range faultMap {
		switch {
		case cur[m.f] && !d.faults[m.f]:
			evs = append(evs, printer.FaultSet{At: at, Fault: m.f})
		case !cur[m.f] && d.faults[m.f]:
			evs = append(evs, printer.FaultCleared{At: at, Fault: m.f})
		}
	}
	d.faults = cur

	if j := d.job; j != nil {
		evs = append(evs, d.followJob(j, s, prev, had, at)...)
	}
	if d.job == nil {
		inChute := s.Cond&PaperInChute != 0
		switch {
		case inChute && !d.chute:
			d.chute = true
			evs = append(evs, printer.TicketInChute{At: at, Job: d.chuteJob})
		case !inChute && d.chute:
			d.chute = false
			evs = append(evs, printer.TicketTaken{At: at, Job: d.chuteJob})
		}
	}
	if s.Cond&ResetPowerUp != 0 && had && prev.Cond&ResetPowerUp == 0 && d.downloadCmds != nil {
		d.redownload = true
	}
	if s.Cond&TopOfForm != 0 && (!had || prev.Cond&TopOfForm == 0) {
		evs = append(evs, printer.TopOfForm{At: at})
	}
	d.mu.Unlock()
	d.emit(evs)
}

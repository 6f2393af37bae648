// Package tclemu is a TCL ticket printer (FutureLogic/JCM GEN2U/GEN5,
// Nanoptix) emulated from reference/protocols.md §3.2 — not from the
// driver. It speaks bytes on the device end of a serial line, keeps the
// printer's state (five flag bytes, RAM regions and templates, resident
// templates, line mode), runs the print lifecycle with configurable timing,
// and takes scenario commands: paper low/out, jam or paper out or chassis
// open mid-print before or after the validation number, head up, chassis
// open, a ticket left in the chute, slow replies, silence, garbage,
// unsolicited status. Every document it prints is kept as a structured
// record that renders to PNG.
package tclemu

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options of the emulated printer. Zero values take the defaults noted.
type Options struct {
	Addr         byte          // '0'
	Firmware     string        // "GURSNGAA0" (9 characters)
	Paycheck4F4  bool          // f4 bit layout of the Paycheck4 emulator (jam 0x20, line mode 0x80) instead of Monaco's
	PrintTime    time.Duration // 300 ms per ticket
	ValidationAt float64       // 0.5: fraction of the print after which the validation region is done
	TOFDelay     time.Duration // 30 ms from the end of a print to top of form
	Unsolicited  time.Duration // 0: no unsolicited status (Paycheck4 sends one every 2 s)
	// SplitTimeout drops a partial message whose rest comes later than this
	// (Paycheck4: 20 ms); 0 waits for ever.
	SplitTimeout time.Duration
	// Line, when set, carries the host's write times beside the bytes. A
	// pseudo-terminal hands over whatever has piled up in one read, so an
	// emulator that a loaded machine runs late would join messages that a
	// real printer's UART received 100 ms apart, and time a message's rest
	// by its own lateness. With Line, a read is cut where the host's writes
	// were more than LineJoin apart, and each piece is timed by its write.
	Line *LineTiming
	// The strict behaviours of real units (each a scenario the driver is
	// tested against). OneMessagePerRead frames input as Paycheck4's
	// firmware does (kcondict/Paycheck4, TclProtocol.cs): a read must hold
	// one whole ^…^ message, or its first segment with the rest following
	// within SplitTimeout (20 ms if unset); a read with bytes after the
	// closing caret, or one not starting with '^', is discarded whole
	// (Discarded counts them). A lone ENQ and ESC [^] ESC are taken as
	// whole reads. Line-mode text is not framed.
	OneMessagePerRead bool
	// BroadcastOnly answers no status request (ENQ, ^S|^, ^Se|^) and
	// broadcasts every Unsolicited (2 s if unset), as Paycheck4 does.
	BroadcastOnly bool
	// StartDelay is the time from ^P to busy (Paycheck4: 3 s); the print
	// itself then takes PrintTime (Paycheck4: 18 s to the validation
	// number, 20 s more to the end).
	StartDelay time.Duration
	// NumericAttr refuses a region whose object attribute (obj_att) is not
	// a number, with region/data error.
	NumericAttr bool
	// Resident templates; nil means ResidentTemplates().
	Resident map[byte]Template
	// Log, when set, is the document log (see ReadLog): every movement of
	// paper is appended and fsynced there, and an existing log is replayed
	// at New, so printouts and a ticket left in the chute outlive the
	// process. Check LogError after New.
	Log string
}

// Fault is a condition a scenario injects mid-print.
type Fault int

const (
	Jam Fault = iota + 1
	PaperOut
	ChassisOpen
	HeadUp
)

func (f Fault) String() string {
	return map[Fault]string{Jam: "paper jam", PaperOut: "paper out", ChassisOpen: "chassis open", HeadUp: "head up"}[f]
}

// When a mid-print fault strikes.
type When int

const (
	BeforeValidation When = iota
	AfterValidation
)

// Region is a print region as ^R defines it.
type Region struct {
	ID, Mem      byte
	X, Y, DX, DY int
	Rot, Just    int
	Obj          string
	M1, M2       int
	Attr         string
	PrintAttr    byte
	Data         string
}

// Barcode reports whether the region prints Interleaved 2 of 5.
func (r Region) Barcode() bool { return r.Obj == "l" }

// Template is a page and its regions in print order.
type Template struct {
	ID            byte
	Width, Length int
	Regions       []Region
}

// Emulator is one printer on the device end of a line.
type Emulator struct {
	dev io.ReadWriter
	opt Options

	mu sync.Mutex
	// sensors and latched flags
	paperLow, paperOut, jam, headUp, chassis, temp, powerUp bool
	cmdErr, regionErr                                       bool
	busy, valDone, barcodeRead, chute, tof, lineMode        bool
	lastTemplate                                            byte
	regions                                                 map[byte]Region
	templates                                               map[byte]Template
	failNext                                                *armed
	gen                                                     int // bumps on each print start, flush and reset
	delay                                                   time.Duration
	silent                                                  bool
	enqs                                                    int
	printouts                                               []Printout
	dropped                                                 int // printouts dropped from the front of printouts (PrintoutsKeep)
	in                                                      []byte
	segs                                                    []byte // OneMessagePerRead: a message's first segments
	frameAt                                                 time.Time
	discarded                                               int
	discards                                                []string // what was discarded, for test failures
	starting                                                bool     // StartDelay running
	lastIn                                                  time.Time
	lineText                                                []string
	linePart                                                []byte
	log                                                     *docLog
	logErr                                                  error

	wmu   sync.Mutex
	done  chan struct{}
	wg    sync.WaitGroup
	close sync.Once
}

type armed struct {
	f Fault
	w When
}

// New starts an emulator on dev (e.g. a ptypair's Device).
func New(dev io.ReadWriter, opt Options) *Emulator {
	if opt.Addr == 0 {
		opt.Addr = '0'
	}
	if opt.Firmware == "" {
		opt.Firmware = "GURSNGAA0"
	}
	opt.Firmware = (opt.Firmware + "         ")[:9]
	if opt.PrintTime <= 0 {
		opt.PrintTime = 300 * time.Millisecond
	}
	if opt.ValidationAt <= 0 || opt.ValidationAt >= 1 {
		opt.ValidationAt = 0.5
	}
	if opt.TOFDelay <= 0 {
		opt.TOFDelay = 30 * time.Millisecond
	}
	if opt.Resident == nil {
		opt.Resident = ResidentTemplates()
	}
	if opt.BroadcastOnly && opt.Unsolicited <= 0 {
		opt.Unsolicited = 2 * time.Second
	}
	if opt.OneMessagePerRead && opt.SplitTimeout <= 0 {
		opt.SplitTimeout = 20 * time.Millisecond
	}
	e := &Emulator{dev: dev, opt: opt, regions: map[byte]Region{}, templates: map[byte]Template{},
		tof: true, powerUp: true, lastTemplate: '0', done: make(chan struct{})}
	if opt.Log != "" {
		var entries []LogEntry
		if e.log, entries, e.logErr = openLog(opt.Log); e.logErr == nil {
			e.restore(entries)
		}
	}
	go e.readLoop()
	if opt.Unsolicited > 0 {
		e.wg.Add(1)
		go e.broadcast()
	}
	return e
}

// Close stops the emulator: it answers nothing more. It does not close dev;
// a read blocked on a pseudo-terminal master ends when the pair is closed.
func (e *Emulator) Close() {
	e.close.Do(func() {
		close(e.done)
		if d, ok := e.dev.(interface{ SetReadDeadline(time.Time) error }); ok {
			d.SetReadDeadline(time.Now())
		}
		e.mu.Lock()
		if e.log != nil {
			e.log.Close() // a print still running is not finished by a dead printer
			e.log = nil
		}
		e.mu.Unlock()
	})
	e.wg.Wait()
}

func (e *Emulator) stopped() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

func (e *Emulator) readLoop() {
	buf := make([]byte, 4096) // a whole message per read, as a UART FIFO drained by a fast loop gives
	dl, _ := e.dev.(interface{ SetReadDeadline(time.Time) error })
	for {
		select {
		case <-e.done:
			return
		default:
		}
		if dl != nil {
			dl.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		}
		n, err := e.dev.Read(buf)
		if n > 0 && !e.stopped() {
			if e.opt.Line != nil {
				for _, c := range e.opt.Line.cut(buf[:n]) {
					e.feed(c.b, c.at)
				}
			} else {
				e.feed(buf[:n], time.Now())
			}
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				continue
			}
			return
		}
	}
}

func (e *Emulator) broadcast() {
	defer e.wg.Done()
	t := time.NewTicker(e.opt.Unsolicited)
	defer t.Stop()
	for {
		select {
		case <-e.done:
			return
		case <-t.C:
			e.SendStatus()
		}
	}
}

func (e *Emulator) send(b []byte) {
	if os.Getenv("TCLEMU_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "%s emu out %q\n", time.Now().Format("05.000"), b)
	}
	if e.stopped() {
		return
	}
	e.wmu.Lock()
	defer e.wmu.Unlock()
	e.dev.Write(b)
}

// ---- status ----

func bit(on bool, b byte) byte {
	if on {
		return b
	}
	return 0
}

// flags builds f1..f5 from the state; bit 6 is always set.
func (e *Emulator) flags() [5]byte {
	f1 := 0x40 | bit(e.paperOut, 0x04) | bit(e.headUp, 0x08) | bit(e.busy, 0x20)
	f2 := 0x40 | bit(e.regionErr, 0x08) | bit(e.temp, 0x20)
	f3 := 0x40 | bit(e.chute, 0x08) | bit(e.cmdErr, 0x20)
	var f4 byte = 0x40 | bit(e.paperLow, 0x01)
	if e.opt.Paycheck4F4 {
		f4 |= bit(e.jam, 0x20) | bit(e.lineMode, 0x80)
	} else {
		f4 |= bit(e.jam, 0x02) | bit(e.lineMode, 0x08)
	}
	f5 := 0x40 | bit(e.powerUp, 0x01) | bit(e.barcodeRead, 0x02) | bit(e.chassis, 0x04) | bit(e.tof, 0x10) | bit(e.valDone, 0x20)
	return [5]byte{f1, f2, f3, f4, f5}
}

// frame is *S|<addr>|<firmware 9>|f1|f2|f3|f4|f5|P<t>|* (29 bytes).
func (e *Emulator) frame() []byte {
	f := e.flags()
	b := []byte{'*', 'S', '|', e.opt.Addr, '|'}
	b = append(b, e.opt.Firmware...)
	for _, x := range f {
		b = append(b, '|', x)
	}
	return append(b, '|', 'P', e.lastTemplate, '|', '*')
}

// Flags returns the five flag bytes now.
func (e *Emulator) Flags() [5]byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.flags()
}

// replyStatus answers a status request, after the scripted delay.
func (e *Emulator) replyStatus() {
	e.mu.Lock()
	e.enqs++
	silent, delay := e.silent || e.opt.BroadcastOnly, e.delay
	e.mu.Unlock()
	if silent {
		return
	}
	if delay > 0 {
		time.Sleep(delay) // a slow printer holds up its own input too
	}
	e.mu.Lock()
	fr := e.frame()
	e.mu.Unlock()
	e.send(fr)
}

// ---- input ----

var templateMode = []byte{0x1b, '[', '^', ']', 0x1b}

func (e *Emulator) feed(p []byte, now time.Time) {
	if os.Getenv("TCLEMU_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "%s emu in %q\n", time.Now().Format("05.000"), p)
	}
	e.mu.Lock()
	framed := e.opt.OneMessagePerRead && !e.lineMode
	if framed {
		msg := e.oneMessage(p, now)
		if msg == nil {
			e.mu.Unlock()
			return
		}
		p = msg
		e.in = e.in[:0] // one read is one message: nothing before it is still open
	}
	if e.opt.SplitTimeout > 0 && len(e.in) > 0 && now.Sub(e.lastIn) > e.opt.SplitTimeout {
		e.in = e.in[:0] // the rest came too late: the partial message is dropped
	}
	e.lastIn = now
	e.in = append(e.in, p...)
	e.mu.Unlock()
	for {
		e.mu.Lock()
		act, n := e.next()
		if n > 0 {
			e.in = e.in[n:]
		} else if framed && !e.lineMode {
			e.in = e.in[:0] // a whole message the parser cannot finish (a short ^G) is dropped
		}
		e.mu.Unlock()
		if n == 0 {
			return
		}
		if act != nil {
			act()
		}
	}
}

// oneMessage frames one read as Paycheck4's firmware does and returns the
// whole message it completes, or nil (more to come, or discarded).
func (e *Emulator) oneMessage(p []byte, now time.Time) []byte {
	if len(e.segs) > 0 && now.Sub(e.frameAt) > e.opt.SplitTimeout {
		e.discards = append(e.discards, "late rest of "+string(e.segs))
		e.segs, e.discarded = nil, e.discarded+1 // the rest came too late
	}
	if len(e.segs) == 0 {
		if (len(p) == 1 && p[0] == ENQByte) || bytes.Equal(p, templateMode) {
			return p
		}
		if p[0] != '^' {
			e.discarded++
			e.discards = append(e.discards, string(p))
			return nil
		}
	}
	buf := append(e.segs, p...)
	end := bytes.IndexByte(buf[1:], '^')
	switch {
	case end < 0:
		e.segs, e.frameAt = buf, now
		return nil
	case end+2 != len(buf):
		e.segs = nil
		e.discarded++ // bytes after the closing caret: the whole read goes
		e.discards = append(e.discards, string(buf))
		if os.Getenv("TCLEMU_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "emu discards %q\n", buf)
		}
		return nil
	}
	e.segs = nil
	return buf
}

// ENQByte is the one-byte status request.
const ENQByte = 0x05

// next consumes one unit of input and returns what to do outside the lock;
// n == 0 means more bytes are needed.
func (e *Emulator) next() (func(), int) {
	in := e.in
	if len(in) == 0 {
		return nil, 0
	}
	if in[0] == 0x05 {
		return e.replyStatus, 1
	}
	if in[0] == 0x1b {
		k := len(in)
		if k > 5 {
			k = 5
		}
		if bytes.Equal(in[:k], templateMode[:k]) {
			if k < 5 {
				return nil, 0
			}
			e.lineMode = false
			e.linePart, e.lineText = nil, nil
			return nil, 5
		}
		if e.lineMode {
			if len(in) < 2 {
				return nil, 0
			}
			if in[1] == '@' {
				e.linePart, e.lineText = nil, nil
			}
			return nil, 2 // other ESC commands (units, fonts, spacing) only style the text
		}
		return nil, 1
	}
	if e.lineMode {
		switch c := in[0]; {
		case c == '\n':
			e.lineText = append(e.lineText, string(e.linePart))
			e.linePart = nil
		case c == 0x0c:
			if len(e.linePart) > 0 {
				e.lineText = append(e.lineText, string(e.linePart))
			}
			e.startLinePrint(e.lineText)
			e.lineText, e.linePart = nil, nil
		case c >= 0x20 && c != 0x7f:
			e.linePart = append(e.linePart, c)
		}
		return nil, 1
	}
	if in[0] != '^' {
		return nil, 1 // Paycheck4 discards what does not start with '^'
	}
	if bytes.HasPrefix(in, []byte("^G|")) || (len(in) < 3 && bytes.HasPrefix([]byte("^G|"), in)) {
		if len(in) < 11 {
			return nil, 0
		}
		return e.crcReply(in[3:9]), 11
	}
	end := bytes.IndexByte(in[1:], '^')
	if end < 0 {
		return nil, 0
	}
	msg := string(in[1 : end+1])
	return e.command(msg), end + 2
}

// crcReply answers ^G with 7 bytes, the CRC at offset 3 (JCM: low byte first).
func (e *Emulator) crcReply(arg []byte) func() {
	var crc uint16 = 0x1D0F
	for _, c := range append([]byte(e.opt.Firmware), arg...) {
		crc ^= uint16(c) << 8
		for i := 0; i < 8; i++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return func() { e.send([]byte{'*', 'G', '|', byte(crc), byte(crc >> 8), '|', '*'}) }
}

// command runs one ^…^ message (without its carets), under e.mu.
func (e *Emulator) command(msg string) func() {
	parts := strings.Split(msg, "|")
	if len(parts) < 2 || parts[len(parts)-1] != "" {
		e.cmdErr = true
		return nil
	}
	parts = parts[:len(parts)-1]
	switch parts[0] {
	case "S", "Se":
		return e.replyStatus
	case "P":
		e.print(parts[1:])
	case "R":
		e.defineRegion(parts[1:])
	case "T":
		e.defineTemplate(parts[1:])
	case "C":
		e.cmdErr, e.regionErr, e.powerUp = false, false, false
		if len(parts) == 2 && parts[1] == "j" {
			e.jam = false
		}
	case "F":
		if len(parts) == 2 && (parts[1] == "A" || parts[1] == "C") {
			e.abort("flushed")
		} else {
			e.cmdErr = true
		}
	case "f":
		if len(parts) == 2 && parts[1] == "I" {
			e.formFeed()
		} else {
			e.cmdErr = true
		}
	case "j":
		e.lineMode = true
		e.lineText, e.linePart = nil, nil
	case "r":
		e.abort("reset")
		e.regions, e.templates = map[byte]Region{}, map[byte]Template{}
		e.cmdErr, e.regionErr, e.lineMode, e.valDone, e.barcodeRead = false, false, false, false, false
		e.powerUp, e.tof = true, true
	default:
		e.cmdErr = true
	}
	return nil
}

func unescape(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+4 > len(s) {
			return "", false
		}
		n, err := strconv.Atoi(s[i+1 : i+4])
		if err != nil || n < 0 || n > 255 {
			return "", false
		}
		b.WriteByte(byte(n))
		i += 3
	}
	return b.String(), true
}

func validID(s string) bool {
	return len(s) == 1 && s[0] >= '0' && s[0] <= '}' && s[0] != '^' && s[0] != '|'
}

func (e *Emulator) defineRegion(p []string) {
	if len(p) == 2 && p[1] == "DR" {
		if p[0] == "$" {
			e.regions = map[byte]Region{}
			return
		}
		if !validID(p[0]) {
			e.regionErr = true
			return
		}
		delete(e.regions, p[0][0])
		return
	}
	// id mem x y dx dy "" rot just obj m1 m2 attr pattr data
	if len(p) != 15 || !validID(p[0]) || len(p[1]) != 1 || p[6] != "" || len(p[13]) != 1 {
		e.regionErr = true
		return
	}
	nums := make([]int, 0, 8)
	for _, i := range []int{2, 3, 4, 5, 7, 8, 10, 11} {
		v, err := strconv.Atoi(p[i])
		if err != nil || v < 0 {
			e.regionErr = true
			return
		}
		nums = append(nums, v)
	}
	data, ok := unescape(p[14])
	attr, ok2 := unescape(p[12])
	if _, err := strconv.Atoi(attr); e.opt.NumericAttr && err != nil {
		ok2 = false // real units take a number here
	}
	r := Region{ID: p[0][0], Mem: p[1][0], X: nums[0], Y: nums[1], DX: nums[2], DY: nums[3], Rot: nums[4], Just: nums[5],
		Obj: p[9], M1: nums[6], M2: nums[7], Attr: attr, PrintAttr: p[13][0], Data: data}
	if !ok || !ok2 || r.Rot > 3 || r.Just > 2 || r.DX == 0 || r.DY == 0 || r.Obj == "" {
		e.regionErr = true
		return
	}
	e.regions[r.ID] = r
}

func (e *Emulator) defineTemplate(p []string) {
	if len(p) == 2 && p[1] == "DR" {
		if !validID(p[0]) {
			e.regionErr = true
			return
		}
		delete(e.templates, p[0][0])
		return
	}
	if len(p) < 5 || !validID(p[0]) {
		e.regionErr = true
		return
	}
	w, err1 := strconv.Atoi(p[2])
	l, err2 := strconv.Atoi(p[3])
	if err1 != nil || err2 != nil || w <= 0 || l <= 0 {
		e.regionErr = true
		return
	}
	t := Template{ID: p[0][0], Width: w, Length: l}
	for _, id := range p[4:] {
		if !validID(id) {
			e.regionErr = true
			return
		}
		r, ok := e.regions[id[0]]
		if !ok {
			e.regionErr = true // a template may only name defined regions
			return
		}
		t.Regions = append(t.Regions, r)
	}
	e.templates[t.ID] = t
}

func (e *Emulator) template(id byte) (Template, bool) {
	if t, ok := e.templates[id]; ok {
		return t, true
	}
	t, ok := e.opt.Resident[id]
	return t, ok
}

func (e *Emulator) canPrint() bool {
	return !e.busy && !e.starting && !e.paperOut && !e.jam && !e.headUp && !e.chassis && !e.temp
}

func (e *Emulator) print(p []string) {
	if len(p) < 2 || !validID(p[0]) {
		e.cmdErr = true
		return
	}
	copies, err := strconv.Atoi(p[1])
	if err != nil || copies < 1 || copies > 9999 {
		e.cmdErr = true
		return
	}
	t, ok := e.template(p[0][0])
	if !ok {
		e.regionErr = true
		return
	}
	fields := make([]string, len(p)-2)
	for i, f := range p[2:] {
		v, ok := unescape(f)
		if !ok {
			e.regionErr = true
			return
		}
		fields[i] = v
	}
	po, ok := layout(t, fields)
	if !ok {
		e.regionErr = true // fewer fields than dynamic regions
		return
	}
	if !e.canPrint() {
		e.cmdErr = true
		return
	}
	po.Template = t.ID
	po.Width, po.Length = t.Width, t.Length
	e.lastTemplate = t.ID
	if e.opt.StartDelay <= 0 {
		e.start(po, copies)
		return
	}
	e.starting = true
	gen := e.gen
	time.AfterFunc(e.opt.StartDelay, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.gen == gen && e.starting {
			e.starting = false
			e.start(po, copies)
		}
	})
}

// start runs the print lifecycle of po: busy and not top of form; the
// validation region after ValidationAt of the print time; then busy clears,
// the ticket waits in the chute, and top of form follows.
func (e *Emulator) start(po Printout, copies int) {
	e.gen++
	gen := e.gen
	e.busy, e.tof, e.valDone, e.barcodeRead = true, false, false, false
	fail := e.failNext
	e.failNext = nil
	// Nothing is printing here (a print starts only when the last one
	// ended), so no timer holds an index into printouts: the oldest can go.
	po.Seq = e.dropped + len(e.printouts) + 1
	e.printouts = append(e.printouts, po)
	if len(e.printouts) >= 2*PrintoutsKeep {
		drop := len(e.printouts) - PrintoutsKeep
		e.printouts = append(e.printouts[:0:0], e.printouts[drop:]...)
		e.dropped += drop
	}
	idx := len(e.printouts) - 1
	e.logPaper(LogPrinting, idx, "")
	valAfter := time.Duration(float64(e.opt.PrintTime) * e.opt.ValidationAt)
	// Each stage schedules the next, so the stages keep their order however
	// late the timers fire.
	time.AfterFunc(valAfter, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.gen != gen {
			return
		}
		if fail != nil && fail.w == BeforeValidation {
			e.stop(idx, fail.f, false)
			return
		}
		if e.printouts[idx].hasBarcode() {
			e.valDone, e.barcodeRead = true, true
		}
		e.printouts[idx].ValidationPrinted = e.printouts[idx].hasBarcode()
		if e.printouts[idx].ValidationPrinted {
			e.logPaper(LogValidation, idx, "")
		}
		time.AfterFunc(e.opt.PrintTime-valAfter, func() { e.finish(idx, gen, fail, copies) })
	})
}

func (e *Emulator) finish(idx, gen int, fail *armed, copies int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.gen != gen {
		return
	}
	if fail != nil {
		e.stop(idx, fail.f, true)
		return
	}
	e.busy, e.chute = false, true
	e.printouts[idx].Complete = true
	e.logPaper(LogComplete, idx, "")
	e.printouts[idx].printedTo = -1
	if copies > 1 {
		next := e.printouts[idx]
		next.Complete, next.ValidationPrinted, next.printedTo = false, false, 0
		e.start(next, copies-1)
		return
	}
	time.AfterFunc(e.opt.TOFDelay, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.gen == gen && !e.busy {
			e.tof = true
		}
	})
}

// stop interrupts the print at idx with fault f.
func (e *Emulator) stop(idx int, f Fault, afterValidation bool) {
	e.busy = false
	e.gen++
	switch f {
	case Jam:
		e.jam = true
	case PaperOut:
		e.paperOut = true
	case ChassisOpen:
		e.chassis = true
	case HeadUp:
		e.headUp = true
	}
	po := &e.printouts[idx]
	po.Failed = f.String()
	e.logPaper(LogFailed, idx, po.Failed)
	if afterValidation {
		po.printedTo = po.barcodeBottom()
	} else {
		po.printedTo = po.barcodeTop()
	}
}

func (e *Emulator) abort(reason string) {
	if e.busy && len(e.printouts) > 0 {
		po := &e.printouts[len(e.printouts)-1]
		po.Failed = reason
		e.logPaper(LogFailed, len(e.printouts)-1, reason)
		if po.ValidationPrinted {
			po.printedTo = po.barcodeBottom()
		} else {
			po.printedTo = po.barcodeTop()
		}
	}
	e.gen++
	e.busy, e.starting = false, false
}

func (e *Emulator) formFeed() {
	if !e.canPrint() {
		e.cmdErr = true
		return
	}
	e.start(Printout{FormFeed: true}, 1)
}

func (e *Emulator) startLinePrint(lines []string) {
	if !e.canPrint() {
		e.cmdErr = true
		return
	}
	e.start(Printout{LineMode: true, Lines: append([]string(nil), lines...)}, 1)
}

// ---- scenarios ----

func (e *Emulator) set(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
}

// SetPaperLow, SetPaperOut, SetHeadUp, SetChassisOpen and SetTemperature
// change a sensor now.
func (e *Emulator) SetPaperLow(on bool)    { e.set(func() { e.paperLow = on }) }
func (e *Emulator) SetPaperOut(on bool)    { e.set(func() { e.paperOut = on }) }
func (e *Emulator) SetHeadUp(on bool)      { e.set(func() { e.headUp = on }) }
func (e *Emulator) SetChassisOpen(on bool) { e.set(func() { e.chassis = on }) }
func (e *Emulator) SetTemperature(on bool) { e.set(func() { e.temp = on }) }

// FailNextPrint makes the next print stop with f, before or after its
// validation number is printed.
func (e *Emulator) FailNextPrint(f Fault, w When) { e.set(func() { e.failNext = &armed{f, w} }) }

// TakeTicket empties the chute (the player took the ticket). Until then a
// printed ticket stays there.
func (e *Emulator) TakeTicket() {
	e.set(func() {
		if e.chute {
			e.logPaper(LogTaken, -1, "")
		}
		e.chute = false
	})
}

// SetReplyDelay delays every status reply by d (a slow printer).
func (e *Emulator) SetReplyDelay(d time.Duration) { e.set(func() { e.delay = d }) }

// SetSilent stops (or resumes) all replies: a cut cable or a dead printer.
func (e *Emulator) SetSilent(on bool) { e.set(func() { e.silent = on }) }

// PowerCycle loses RAM regions and templates and any job; the power-up flag sets.
func (e *Emulator) PowerCycle() {
	e.set(func() {
		e.abort("power cycle")
		e.regions, e.templates = map[byte]Region{}, map[byte]Template{}
		e.cmdErr, e.regionErr, e.lineMode, e.valDone, e.barcodeRead, e.jam = false, false, false, false, false, false
		e.powerUp, e.tof, e.in = true, true, nil
	})
}

// SendGarbage writes raw bytes to the host, as line noise would.
func (e *Emulator) SendGarbage(b []byte) { e.send(b) }

// SendStatus sends an unsolicited status frame now.
func (e *Emulator) SendStatus() {
	e.mu.Lock()
	silent := e.silent
	fr := e.frame()
	e.mu.Unlock()
	if !silent {
		e.send(fr)
	}
}

// SendSplitStatus sends a status frame in two pieces with a pause between.
func (e *Emulator) SendSplitStatus(at int, pause time.Duration) {
	e.mu.Lock()
	fr := e.frame()
	e.mu.Unlock()
	if at <= 0 || at >= len(fr) {
		at = len(fr) / 2
	}
	e.send(fr[:at])
	time.Sleep(pause)
	e.send(fr[at:])
}

// Discarded counts the reads thrown away by OneMessagePerRead framing.
func (e *Emulator) Discarded() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.discarded
}

// DiscardedReads lists what OneMessagePerRead framing threw away.
func (e *Emulator) DiscardedReads() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.discards...)
}

// StatusRequests counts status requests received (ENQ, ^S|^, ^Se|^).
func (e *Emulator) StatusRequests() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.enqs
}

// Templates lists the downloaded (RAM) template ids.
func (e *Emulator) Templates() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ids []byte
	for id := range e.templates {
		ids = append(ids, id)
	}
	return ids
}

// PrintoutsKeep is how many printouts Printouts keeps at least. A devkit
// cabinet prints for months; a record of every ticket would grow without
// end (the document log on disk keeps them all). The oldest are dropped
// in halves once there are twice as many, so memory stays under
// 2·PrintoutsKeep printouts.
const PrintoutsKeep = 64

// Printouts returns every document printed so far (complete or not), or
// the last PrintoutsKeep or more when there were more.
func (e *Emulator) Printouts() []Printout {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Printout, len(e.printouts))
	copy(out, e.printouts)
	return out
}

// String describes the state for test failures.
func (e *Emulator) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return fmt.Sprintf("tclemu{flags % x busy=%v val=%v chute=%v tof=%v printouts=%d}", e.flags(), e.busy, e.valDone, e.chute, e.tof, len(e.printouts))
}

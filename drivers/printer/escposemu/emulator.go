// Package escposemu is a generic ESC/POS thermal printer emulated from
// reference/protocols.md §3.6 — not from the driver. It speaks bytes on the
// device end of a serial line: real-time DLE EOT 1–4 requests are answered at
// once from the printer's state, everything else goes through a print
// buffer that an engine works through at paper speed. It keeps every ticket
// as a structured record (text lines with their style, barcodes, the cut)
// that renders to PNG, and takes scenario commands: paper near end / end,
// cover open, cutter jam, head temperature, faults mid-print before or after
// the barcode, slow replies, silence and garbage.
//
// Beyond protocols.md it follows Epson's definitions for GS r 1 (bits 0–1
// near end, 2–3 paper end, 4 and 7 zero) and DLE ENQ 2 (recover from a
// recoverable error and clear the buffers), and GS ( H fn 48 (the process
// ID response 37 22 d1–d4 00, sent once everything before it is printed;
// Options.NoProcessID for printers without it).
package escposemu

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/text/encoding/charmap"
)

// Options of the emulated printer.
type Options struct {
	LineTime time.Duration // paper time per printed line (4 ms)
	CutTime  time.Duration // 30 ms
	// Ratio of wide to narrow ITF elements (3).
	ITFRatio float64
	Width    int // printable dots (512: a 65 mm ticket; 576: 80 mm receipt paper)
	// Ticket is the paper: TicketPaper (65 × 156 mm tickets, the default)
	// or ReceiptPaper (a roll: each ticket as long as what is printed).
	Paper Paper
	// NoErrorPaperStatus makes the printer ignore DLE EOT 3 and 4, as some
	// cheap printers do.
	NoErrorPaperStatus bool
	// NoProcessID makes the printer ignore GS ( H (it still parses its
	// length), as printers without Epson's process ID response do.
	NoProcessID bool
	// Log, when set, is the document log (see ReadLog): each barcode on
	// paper, cut and failure is appended and fsynced there, and an
	// existing log is replayed at New, so printouts outlive the process.
	// Check LogError after New.
	Log string
}

// Fault is a condition a scenario injects mid-print.
type Fault int

const (
	PaperEnd  Fault = iota + 1
	CoverOpen       // head up
	CutterJam       // a recoverable error
	Overheat        // head temperature: auto-recoverable
)

func (f Fault) String() string {
	return map[Fault]string{PaperEnd: "paper end", CoverOpen: "cover open", CutterJam: "cutter jam", Overheat: "head temperature"}[f]
}

// When a mid-print fault strikes, relative to the barcode.
type When int

const (
	BeforeBarcode When = iota
	AfterBarcode
)

type armed struct {
	f Fault
	w When
}

// Emulator is one ESC/POS printer.
type Emulator struct {
	dev io.ReadWriter
	opt Options

	mu                                              sync.Mutex
	wake                                            *sync.Cond
	queue                                           []byte
	rt                                              []byte // partial real-time sequence
	nearEnd, paperEnd, cover, cutter, temp, unrecov bool
	feedButton                                      bool
	align                                           byte
	style                                           runStyle // the style of the next character
	lineSpacing                                     int      // ESC 3 n (dots; 0: the font's)
	barH, module, hri                               byte
	qr                                              qrState
	codepage                                        byte
	line                                            []Run // the line being built, one run per style
	cur                                             *Printout
	printouts                                       []Printout
	failNext                                        *armed
	delay                                           time.Duration
	silent                                          bool
	requests                                        int
	wmu                                             sync.Mutex
	done                                            chan struct{}
	once                                            sync.Once
	engineDone                                      chan struct{}
	log                                             *docLog
	logErr                                          error
}

// New starts an emulator on dev (e.g. a ptypair's Device).
func New(dev io.ReadWriter, opt Options) *Emulator {
	if opt.LineTime <= 0 {
		opt.LineTime = 4 * time.Millisecond
	}
	if opt.CutTime <= 0 {
		opt.CutTime = 30 * time.Millisecond
	}
	if opt.ITFRatio < 2 || opt.ITFRatio > 3 {
		opt.ITFRatio = 3
	}
	if opt.Width <= 0 {
		opt.Width = 512
		if opt.Paper == ReceiptPaper {
			opt.Width = 576
		}
	}
	e := &Emulator{dev: dev, opt: opt, done: make(chan struct{}), engineDone: make(chan struct{})}
	e.wake = sync.NewCond(&e.mu)
	e.reset()
	if opt.Log != "" {
		var entries []LogEntry
		if e.log, entries, e.logErr = openLog(opt.Log); e.logErr == nil {
			e.restore(entries)
		}
	}
	go e.readLoop()
	go e.engine()
	return e
}

func (e *Emulator) reset() {
	e.align, e.style, e.lineSpacing = 0, runStyle{W: 1, H: 1}, 0
	e.barH, e.module, e.hri, e.codepage = 162, 3, 0, 0
	e.qr = qrState{model: 2, size: 3, level: 48}
	e.line = nil
}

// Close stops the emulator; a read blocked on the device ends when the
// pseudo-terminal pair is closed.
func (e *Emulator) Close() {
	e.once.Do(func() {
		close(e.done)
		e.mu.Lock()
		e.wake.Broadcast()
		if e.log != nil {
			e.log.Close() // a dead printer finishes nothing
			e.log = nil
		}
		e.mu.Unlock()
	})
	<-e.engineDone
}

func (e *Emulator) stopped() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

func (e *Emulator) send(b []byte) {
	if e.stopped() {
		return
	}
	e.wmu.Lock()
	defer e.wmu.Unlock()
	e.dev.Write(b)
}

func (e *Emulator) readLoop() {
	buf := make([]byte, 512)
	for {
		n, err := e.dev.Read(buf)
		if n > 0 && !e.stopped() {
			e.receive(buf[:n])
		}
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return
		}
		if e.stopped() {
			return
		}
	}
}

// receive answers real-time requests at once and buffers the rest.
func (e *Emulator) receive(p []byte) {
	e.mu.Lock()
	data := append(e.rt, p...)
	e.rt = nil
	var replies []byte
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != 0x10 {
			e.queue = append(e.queue, c)
			continue
		}
		if i+2 >= len(data) {
			e.rt = append([]byte{}, data[i:]...) // wait for the rest
			break
		}
		switch {
		case data[i+1] == 0x04 && data[i+2] >= 1 && data[i+2] <= 4:
			e.requests++
			if !(e.opt.NoErrorPaperStatus && data[i+2] >= 3) {
				replies = append(replies, e.rtStatus(data[i+2]))
			}
			i += 2
		case data[i+1] == 0x05 && data[i+2] == 2: // DLE ENQ 2: recover, clear buffers
			e.cutter = false
			e.queue, e.line = nil, nil
			e.endTicket("cleared")
			i += 2
		default:
			e.queue = append(e.queue, c)
		}
	}
	silent, delay := e.silent, e.delay
	e.wake.Broadcast()
	e.mu.Unlock()
	if len(replies) > 0 && !silent {
		if delay > 0 {
			time.Sleep(delay)
		}
		e.send(replies)
	}
}

func (e *Emulator) offline() bool {
	return e.paperEnd || e.cover || e.cutter || e.temp || e.unrecov
}

// rtStatus is the DLE EOT n reply: fixed pattern 0xx1xx10.
func (e *Emulator) rtStatus(n byte) byte {
	b := byte(0x12)
	set := func(on bool, bits byte) {
		if on {
			b |= bits
		}
	}
	switch n {
	case 1:
		set(e.offline(), 0x08)
		set(e.cutter, 0x20) // waiting for online recovery
		set(e.feedButton, 0x40)
	case 2:
		set(e.cover, 0x04)
		set(e.paperEnd, 0x20)
		set(e.cutter || e.unrecov || e.temp, 0x40)
	case 3:
		set(e.cutter, 0x04|0x08) // recoverable, autocutter
		set(e.unrecov, 0x20)
		set(e.temp, 0x40)
	case 4:
		set(e.nearEnd, 0x0c)
		set(e.paperEnd, 0x60)
	}
	return b
}

// ---- engine ----

func (e *Emulator) engine() {
	defer close(e.engineDone)
	for {
		e.mu.Lock()
		for !e.stopped() && (len(e.queue) == 0 || e.offline()) {
			e.wake.Wait()
		}
		if e.stopped() {
			e.mu.Unlock()
			return
		}
		n, pause := e.step()
		if n > 0 {
			e.queue = e.queue[n:]
		}
		e.mu.Unlock()
		if n == 0 { // an incomplete command: wait for more bytes
			e.mu.Lock()
			before := len(e.queue)
			for !e.stopped() && len(e.queue) == before {
				e.wake.Wait()
			}
			e.mu.Unlock()
			continue
		}
		if pause > 0 {
			time.Sleep(pause)
		}
	}
}

func (e *Emulator) ticket() *Printout {
	if e.cur == nil {
		e.cur = &Printout{Seq: len(e.printouts) + 1, ratio: e.opt.ITFRatio, paper: e.opt.Paper, width: e.opt.Width}
	}
	return e.cur
}

func (e *Emulator) endTicket(failed string) {
	if e.cur == nil {
		return
	}
	if failed != "" {
		e.cur.Failed = failed
		e.logPaper(LogFailed, e.cur, failed)
	} else {
		e.cur.Complete = true
		e.logPaper(LogComplete, e.cur, "")
	}
	e.printouts = append(e.printouts, *e.cur)
	e.cur = nil
}

func (e *Emulator) decode(b []byte) string {
	switch e.codepage {
	case 18:
		s, _ := charmap.CodePage852.NewDecoder().Bytes(b)
		return string(s)
	case 0:
		s, _ := charmap.CodePage437.NewDecoder().Bytes(b)
		return string(s)
	}
	s, _ := charmap.ISO8859_1.NewDecoder().Bytes(b)
	return string(s)
}

// fault stops printing with f.
func (e *Emulator) fault(f Fault) {
	switch f {
	case PaperEnd:
		e.paperEnd = true
	case CoverOpen:
		e.cover = true
	case CutterJam:
		e.cutter = true
	case Overheat:
		e.temp = true
	}
	if e.cur != nil {
		e.cur.Failed = f.String()
		e.logPaper(LogFailed, e.cur, e.cur.Failed)
	}
}

// ---- scenarios ----

func (e *Emulator) set(f func()) {
	e.mu.Lock()
	f()
	e.wake.Broadcast()
	e.mu.Unlock()
}

// Sensors: a change takes effect at once.
func (e *Emulator) SetPaperNearEnd(on bool) { e.set(func() { e.nearEnd = on }) }
func (e *Emulator) SetPaperEnd(on bool)     { e.set(func() { e.paperEnd = on }) }
func (e *Emulator) SetCoverOpen(on bool)    { e.set(func() { e.cover = on }) }
func (e *Emulator) SetOverheat(on bool)     { e.set(func() { e.temp = on }) }
func (e *Emulator) SetCutterJam(on bool)    { e.set(func() { e.cutter = on }) }

// FailNextPrint stops the next ticket with f before or after its barcode.
func (e *Emulator) FailNextPrint(f Fault, w When) { e.set(func() { e.failNext = &armed{f, w} }) }

// SetReplyDelay delays every real-time reply.
func (e *Emulator) SetReplyDelay(d time.Duration) { e.set(func() { e.delay = d }) }

// SetSilent stops all replies.
func (e *Emulator) SetSilent(on bool) { e.set(func() { e.silent = on }) }

// SendGarbage writes raw bytes to the host.
func (e *Emulator) SendGarbage(b []byte) { e.send(b) }

// StatusRequests counts DLE EOT requests received.
func (e *Emulator) StatusRequests() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.requests
}

// Printouts returns every finished (cut or failed) ticket, plus the one in
// progress if it failed.
func (e *Emulator) Printouts() []Printout {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := append([]Printout(nil), e.printouts...)
	if e.cur != nil && e.cur.Failed != "" {
		out = append(out, *e.cur)
	}
	return out
}

package emulator

import (
	"fmt"
	"time"
)

// InsertNote feeds a note with the given escrow code. It is validated against
// the settings (C0, C7) and the currency table after AcceptTime.
func (a *Acceptor) InsertNote(code byte) error {
	if code < 0x61 || code > 0x70 || code == ticketEscrow {
		return fmt.Errorf("emulator: note escrow code %02X outside 61–70", code)
	}
	return a.insert(Doc{Code: code})
}

// InsertTicket feeds a barcode ticket with the given digits.
func (a *Acceptor) InsertTicket(digits string) error {
	if len(digits) < 6 || len(digits) > 24 {
		return ErrBadTicket
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return ErrBadTicket
		}
	}
	return a.insert(Doc{Code: ticketEscrow, Ticket: digits})
}

// RejectNext makes the next inserted document be rejected with code.
func (a *Acceptor) RejectNext(code byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pending = code
}

func (a *Acceptor) insert(d Doc) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st != sIdle || a.fault != 0 || a.inhibited() || a.silent {
		return ErrNotAccepting
	}
	a.doc = &d
	a.st, a.until, a.unseen = sAccepting, a.cfg.Now().Add(a.cfg.AcceptTime), true
	a.logDoc(LogInserted, d, "")
	return nil
}

// PullBack is the customer pulling the document back out. In escrow the
// document is simply gone (the acceptor goes back to IDLING); while stacking
// it is a cheat attempt (CHEATED until ClearFault).
func (a *Acceptor) PullBack() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch a.st {
	case sAccepting, sEscrow, sHolding:
		a.finish(Returned, "pulled back by the customer")
		a.st = sIdle
	case sStacking:
		a.finish(Returned, "pulled back while stacking")
		a.st, a.fault = sIdle, Cheated
	default:
		return ErrNoDocument
	}
	return nil
}

// SetFault raises an error state (StackerFull … Cheated). A jam holds the
// document in the path until ClearFault.
func (a *Acceptor) SetFault(code byte) error {
	if code < StackerFull || code > Cheated {
		return fmt.Errorf("emulator: %02X is not a fault status (use Fail for 49)", code)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.raise(code, 0)
	return nil
}

// Fail raises FAILURE with a failure code (A2 stacker motor, …).
func (a *Acceptor) Fail(code byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.raise(Failure, code)
}

func (a *Acceptor) raise(code, failure byte) {
	a.fault, a.failure = code, failure
	if (code == AcceptorJam || code == StackerJam) && a.doc != nil {
		a.jammed, a.doc = a.doc, nil
	}
}

// ClearFault ends the error state (stacker emptied or closed, jam removed);
// a jammed document is recorded as removed by the technician.
func (a *Acceptor) ClearFault() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.jammed != nil {
		a.addRecord(Entry{Doc: *a.jammed, Outcome: Removed, Detail: "jam cleared"})
		a.jammed = nil
	}
	a.fault, a.failure = 0, 0
	switch a.st {
	case sAccepting, sEscrow, sHolding, sStacking, sRejecting, sReturning:
		if a.doc == nil {
			a.st = sIdle
		}
	}
}

// PowerOff cuts the power: no more replies; settings are lost.
func (a *Acceptor) PowerOff() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.st = sOff
}

// PowerOn restores power. w says where the document that was in the path
// (or an unknown one, if none) ended: InStacker records it as stacked and
// reports 42; InAcceptor keeps it for return at RESET and reports 41;
// Nowhere reports 40.
func (a *Acceptor) PowerOn(w Where) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.fault, a.failure = 0, 0
	a.powerOn(w)
}

// PowerCycle is PowerOff then PowerOn.
func (a *Acceptor) PowerCycle(w Where) { a.PowerOff(); a.PowerOn(w) }

// Silence stops (true) or resumes (false) all replies while the device
// keeps its state, as a pulled cable does.
func (a *Acceptor) Silence(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.silent = on
}

// DropAcks loses the host's next n ACKs, so VEND VALID is repeated.
func (a *Acceptor) DropAcks(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.dropAcks = n
}

// SetReplyDelay makes every reply late by d.
func (a *Acceptor) SetReplyDelay(d time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.delay = d
}

// SetSplit cuts every reply (with its noise) into this many pieces at
// pseudo-random points, a millisecond apart, so frames arrive across several
// reads; 0 or 1 sends replies whole. A piece count at least the reply's
// length sends it one byte at a time.
func (a *Acceptor) SetSplit(pieces int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.split = pieces
}

// SetNoise puts these bytes on the line before every reply.
func (a *Acceptor) SetNoise(b []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.noise = append([]byte(nil), b...)
}

// CorruptReplies damages the CRC of the next n replies.
func (a *Acceptor) CorruptReplies(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.corrupt = n
}

// InjectGarbage writes raw bytes on the line now, between frames.
func (a *Acceptor) InjectGarbage(b []byte) error { return a.write(b, 1) }

// Record returns what became of every document so far, or of the last
// RecordKeep or more when there were more.
func (a *Acceptor) Record() []Entry {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Entry(nil), a.record...)
}

// StackedDocs lists the documents in the stacker (the cash box contents),
// as far as Record reaches back.
func (a *Acceptor) StackedDocs() []Doc {
	var out []Doc
	for _, e := range a.Record() {
		if e.Outcome == Stacked {
			out = append(out, e.Doc)
		}
	}
	return out
}

// Received lists the command codes the acceptor answered, in order.
func (a *Acceptor) Received() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]byte(nil), a.received...)
}

// Consumed counts the bytes read from the line and acted on (answered,
// or found to be no request), so a test knows what a host wrote has
// arrived.
func (a *Acceptor) Consumed() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.consumed
}

// Setting returns the current data of setting command c (C0–C7).
func (a *Acceptor) Setting(c byte) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]byte(nil), a.settings[c]...)
}

// Status is the status code the acceptor would answer now (0 when off).
func (a *Acceptor) Status() byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st == sOff {
		return 0
	}
	a.step()
	if a.st == sStacked {
		return stStacked // don't consume the one-shot STACKED
	}
	return a.status()[2]
}

// RecyclerReport makes the next status reply a recycler-extension frame:
// F0 20 code data… (as a unit with a bill recycler sends), once.
func (a *Acceptor) RecyclerReport(code byte, data ...byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.extReports = append(a.extReports, append([]byte{0x20, code}, data...))
}

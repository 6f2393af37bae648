package emulator

import (
	"time"

	"github.com/polaris-vlt/polaris/drivers/internal/jsonlog"
)

// The document log is the acceptor's physical record: a power cut of the
// cabinet does not empty the cash box nor take back a note half way into
// it. With Config.Log set, every movement of a document is appended to a
// JSON-lines file and fsynced before the host can learn of it, and a new
// emulator on the same file powers up as the old one left off.

// Log events.
const (
	LogInserted = "inserted"       // a document entered the path
	LogStacking = "stacking"       // the host said stack: it moves towards the cash box
	LogStacked  = string(Stacked)  // in the cash box
	LogReturned = string(Returned) // back with the customer (returned, pulled back)
	LogRejected = string(Rejected) // refused and given back
	LogRemoved  = string(Removed)  // taken out of a jam by a technician
	LogHostAck  = "host_ack"       // the host acknowledged the stack (ACK, or RESET after 42)
)

// LogEntry is one line of the document log.
type LogEntry struct {
	Seq    int       `json:"seq"`
	Event  string    `json:"event"`
	Code   byte      `json:"code,omitempty"`   // note escrow code, or 0x6F for a ticket
	Ticket string    `json:"ticket,omitempty"` // ticket digits
	Detail string    `json:"detail,omitempty"`
	Wall   time.Time `json:"wall"`
}

// Doc is the document the entry is about.
func (e LogEntry) Doc() Doc { return Doc{Code: e.Code, Ticket: e.Ticket} }

// IsTicket says whether the entry is about a barcode ticket.
func (e LogEntry) IsTicket() bool { return e.Code == ticketEscrow }

// ReadLog reads a document log. A last line cut short by a power cut is
// ignored; damage anywhere else is an error. A missing file is an empty log.
func ReadLog(path string) ([]LogEntry, error) { return jsonlog.Read[LogEntry](path) }

// docLog is the emulator's document log.
type docLog = jsonlog.Log[LogEntry]

func openLog(path string) (*docLog, []LogEntry, error) {
	return jsonlog.Open(path, func(e *LogEntry, seq int) { e.Seq = seq })
}

// logDoc records a movement of d (under a.mu).
func (a *Acceptor) logDoc(event string, d Doc, detail string) {
	a.log.Append(LogEntry{Event: event, Code: d.Code, Ticket: d.Ticket, Detail: detail, Wall: a.cfg.Now()})
}

// RecordKeep is how many document records Record keeps at least. A devkit
// cabinet runs for months: a record of every note and ticket would grow
// without end (the document log on disk keeps them all). The oldest are
// dropped in halves once there are twice as many, so memory stays under
// 2·RecordKeep entries.
const RecordKeep = 256

// addRecord records what became of a document, in memory and in the log.
func (a *Acceptor) addRecord(e Entry) {
	a.record = append(a.record, e)
	if len(a.record) >= 2*RecordKeep {
		drop := len(a.record) - RecordKeep
		a.record = append(a.record[:0:0], a.record[drop:]...)
		if a.openVend >= 0 { // an index into record
			a.openVend -= drop
		}
	}
	a.logDoc(string(e.Outcome), e.Doc, e.Detail)
}

// restore replays the log: the cash box contents come back, and a document
// the power cut left behind is found at power-up: in the path, also on its
// way to the cash box before VEND VALID (41, given back at RESET: with
// STACK-2 only VEND VALID says it is irrevocably in), or stacked without
// the host's acknowledgement (42, in the stacker).
func (a *Acceptor) restore(entries []LogEntry) Where {
	var inPath *Doc
	unacked := false
	for _, e := range entries {
		d := e.Doc()
		switch e.Event {
		case LogInserted:
			inPath = &d
		case LogStacked:
			a.record = append(a.record, Entry{Doc: d, Outcome: Stacked, Detail: e.Detail, VendValid: e.Detail == "VEND VALID"})
			inPath, unacked = nil, true
		case LogReturned, LogRejected, LogRemoved:
			a.record = append(a.record, Entry{Doc: d, Outcome: Outcome(e.Event), Detail: e.Detail})
			inPath = nil
		case LogHostAck:
			unacked = false
		}
	}
	switch {
	case inPath != nil:
		a.doc = inPath
		return InAcceptor
	case unacked:
		a.openVend = len(a.record) - 1 // already in the cash box: nothing new is recorded
		return InStacker
	}
	return Nowhere
}

// LogError returns why the document log could not be opened or written.
func (a *Acceptor) LogError() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.logErr != nil {
		return a.logErr
	}
	if a.log != nil {
		return a.log.Err()
	}
	return nil
}

// CloseLog closes the document log; later movements are not logged.
func (a *Acceptor) CloseLog() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	err := a.log.Close()
	a.log = nil
	return err
}

package tclemu

import (
	"time"

	"github.com/polaris-vlt/polaris/drivers/internal/jsonlog"
)

// The document log is the printer's physical record: paper that came out
// stays out when the cabinet loses power, and a ticket left in the chute
// is still there at power-up. With Options.Log set, every movement of
// paper is appended to a JSON-lines file and fsynced before the status
// flags tell the host, and a new emulator on the same file powers up as
// the old one left off.

// Log events.
const (
	LogPrinting   = "printing"   // a print started: paper moves (the entry carries the ticket)
	LogValidation = "validation" // the validation number (barcode) is on paper: the voucher exists
	LogComplete   = "complete"   // printed, cut and presented in the chute
	LogFailed     = "failed"     // stopped before the end (fault, flush, reset, power lost)
	LogTaken      = "taken"      // the chute was emptied
)

// LogEntry is one line of the document log.
type LogEntry struct {
	Seq      int       `json:"seq"`
	Event    string    `json:"event"`
	Ticket   int       `json:"ticket,omitempty"` // the printout's Seq
	Template byte      `json:"template,omitempty"`
	LineMode bool      `json:"line_mode,omitempty"`
	FormFeed bool      `json:"form_feed,omitempty"`
	Fields   []string  `json:"fields,omitempty"`
	Lines    []string  `json:"lines,omitempty"`
	Barcodes []string  `json:"barcodes,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Wall     time.Time `json:"wall"`
}

// ReadLog reads a document log. A last line cut short by a power cut is
// ignored; damage anywhere else is an error. A missing file is an empty log.
func ReadLog(path string) ([]LogEntry, error) { return jsonlog.Read[LogEntry](path) }

// docLog is the emulator's document log.
type docLog = jsonlog.Log[LogEntry]

func openLog(path string) (*docLog, []LogEntry, error) {
	return jsonlog.Open(path, func(e *LogEntry, seq int) { e.Seq = seq })
}

// logPaper records a movement of printout idx (under e.mu).
func (e *Emulator) logPaper(event string, idx int, reason string) {
	if e.log == nil {
		return
	}
	le := LogEntry{Event: event, Reason: reason, Wall: time.Now()}
	if idx >= 0 {
		po := e.printouts[idx]
		le.Ticket = po.Seq
		if event == LogPrinting {
			le.Template, le.LineMode, le.FormFeed = po.Template, po.LineMode, po.FormFeed
			le.Fields, le.Lines, le.Barcodes = po.Fields, po.Lines, po.Barcodes
		}
	}
	e.log.Append(le)
}

// restore replays the log: every printout comes back; one the power cut
// interrupted is failed now (its validation number, if printed, stays on
// the paper); a ticket presented and not taken waits in the chute.
func (e *Emulator) restore(entries []LogEntry) {
	index := map[int]int{}
	for _, le := range entries {
		switch le.Event {
		case LogPrinting:
			index[le.Ticket] = len(e.printouts)
			e.printouts = append(e.printouts, Printout{Seq: le.Ticket, Template: le.Template, LineMode: le.LineMode,
				FormFeed: le.FormFeed, Fields: le.Fields, Lines: le.Lines, Barcodes: le.Barcodes, printedTo: -1})
		case LogValidation, LogComplete, LogFailed:
			i, ok := index[le.Ticket]
			if !ok {
				continue
			}
			po := &e.printouts[i]
			switch le.Event {
			case LogValidation:
				po.ValidationPrinted = true
			case LogComplete:
				po.Complete = true
				e.chute = true
			case LogFailed:
				po.Failed = le.Reason
			}
		case LogTaken:
			e.chute = false
		}
	}
	for i := range e.printouts {
		if po := &e.printouts[i]; !po.Complete && po.Failed == "" {
			po.Failed = "power lost"
			e.logPaper(LogFailed, i, po.Failed)
		}
	}
}

// LogError returns why the document log could not be opened or written.
func (e *Emulator) LogError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.logErr != nil {
		return e.logErr
	}
	if e.log != nil {
		return e.log.Err()
	}
	return nil
}

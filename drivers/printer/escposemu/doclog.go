package escposemu

import (
	"time"

	"github.com/polaris-vlt/polaris/drivers/internal/jsonlog"
)

// The document log is the printer's physical record: paper that came out
// stays out when the cabinet loses power. With Options.Log set, each
// ticket's barcode (the validation number) reaching paper, its cut and its
// failure are appended to a JSON-lines file and fsynced as they happen, and
// a new emulator on the same file keeps the old one's printouts. The lines
// have the same shape as tclemu's log, whose reader reads them too.

// Log events.
const (
	LogValidation = "validation" // an ITF barcode (the validation number) is on paper
	LogComplete   = "complete"   // the ticket is cut
	LogFailed     = "failed"     // stopped before the cut (fault, cleared, power lost)
)

// LogEntry is one line of the document log.
type LogEntry struct {
	Seq      int       `json:"seq"`
	Event    string    `json:"event"`
	Ticket   int       `json:"ticket,omitempty"` // the printout's Seq
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

// logPaper records a movement of paper of ticket p (under e.mu).
func (e *Emulator) logPaper(event string, p *Printout, reason string) {
	if e.log == nil || p == nil {
		return
	}
	e.log.Append(LogEntry{Event: event, Ticket: p.Seq, Lines: p.Lines, Barcodes: p.Barcodes, Reason: reason, Wall: time.Now()})
}

// restore replays the log: every ticket comes back; one the power cut
// interrupted after its barcode is failed now, its number still on paper.
func (e *Emulator) restore(entries []LogEntry) {
	var open *Printout
	closed := map[int]bool{}
	for _, le := range entries {
		if closed[le.Ticket] {
			continue // a failed ticket cleared later
		}
		if open != nil && open.Seq != le.Ticket {
			e.printouts = append(e.printouts, *open)
			open = nil
		}
		if open == nil {
			open = &Printout{Seq: le.Ticket, ratio: e.opt.ITFRatio, paper: e.opt.Paper, width: e.opt.Width}
		}
		open.Lines, open.Barcodes = le.Lines, le.Barcodes
		switch le.Event {
		case LogValidation:
			open.ValidationPrinted = true
		case LogComplete:
			open.Complete, open.Cut = true, true
			open.ValidationPrinted = len(le.Barcodes) > 0
		case LogFailed:
			open.Failed = le.Reason
		}
		if open.Complete || open.Failed != "" {
			closed[open.Seq] = true
			e.printouts = append(e.printouts, *open)
			open = nil
		}
	}
	if open != nil {
		open.Failed = "power lost"
		e.printouts = append(e.printouts, *open)
		e.logPaper(LogFailed, open, open.Failed)
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

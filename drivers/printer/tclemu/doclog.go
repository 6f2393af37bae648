package tclemu

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
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
func ReadLog(path string) ([]LogEntry, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries, _, err := parseLog(b)
	return entries, err
}

func parseLog(b []byte) ([]LogEntry, int, error) {
	var out []LogEntry
	good := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		end := good + len(line) + 1
		var e LogEntry
		if err := json.Unmarshal(line, &e); err != nil {
			if end >= len(b) {
				return out, good, nil
			}
			return nil, 0, fmt.Errorf("tclemu: document log line %d: %w", len(out)+1, err)
		}
		if end > len(b) {
			end = len(b)
		}
		out = append(out, e)
		good = end
	}
	return out, good, sc.Err()
}

type docLog struct {
	f   *os.File
	seq int
	err error
}

func openLog(path string) (*docLog, []LogEntry, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	b, err := io.ReadAll(f)
	if err == nil {
		var entries []LogEntry
		var good int
		if entries, good, err = parseLog(b); err == nil {
			if err = f.Truncate(int64(good)); err == nil {
				_, err = f.Seek(int64(good), io.SeekStart)
			}
			if err == nil {
				l := &docLog{f: f}
				if n := len(entries); n > 0 {
					l.seq = entries[n-1].Seq
				}
				return l, entries, nil
			}
		}
	}
	f.Close()
	return nil, nil, fmt.Errorf("tclemu: document log %s: %w", path, err)
}

func (l *docLog) append(e LogEntry) {
	if l == nil || l.err != nil {
		return
	}
	l.seq++
	e.Seq = l.seq
	b, err := json.Marshal(e)
	if err == nil {
		_, err = l.f.Write(append(b, '\n'))
	}
	if err == nil {
		err = l.f.Sync()
	}
	l.err = err
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
	e.log.append(le)
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
		return e.log.err
	}
	return nil
}

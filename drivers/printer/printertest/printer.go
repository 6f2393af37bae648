// Package printertest is a ticket printer for tests, beside the printer
// package as httptest is beside net/http: it records documents and reports
// a scripted outcome for each job, with no serial line. The cabinet binary
// does not link it.
package printertest

import (
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
)

// Printer is an in-memory printer.Printer for firmware tests: it records documents and
// reports a scripted outcome for each job, with no serial line.
type Printer struct {
	mu     sync.Mutex
	Now    func() time.Time
	events chan printer.Event
	job    printer.JobID
	// Printed holds every accepted document, in order.
	Printed []document.Document
	// FailNext, when set, makes the next job fail with this fault; with
	// FailAfterValidation the voucher is issued first.
	FailNext            printer.Fault
	FailAfterValidation bool
	// FailUnsure, when set, makes the next job fail with no fault and no
	// word on the validation number (printer.PrintFailed.Unsure: a time-out), while
	// the fake prints it: its document is in Printed.
	FailUnsure bool
	// Refuse, when set, is returned by Print.
	Refuse error
	closed bool
}

// New returns a printer whose events channel holds up to 64 events.
func New(now func() time.Time) *Printer {
	return &Printer{Now: now, events: make(chan printer.Event, 64)}
}

func (f *Printer) Print(doc document.Document) (printer.JobID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, printer.ErrClosed
	}
	if err := doc.Validate(); err != nil {
		return 0, err
	}
	if f.Refuse != nil {
		return 0, f.Refuse
	}
	f.job++
	j := f.job
	f.Printed = append(f.Printed, doc)
	at := printer.At{Time: f.Now()}
	f.events <- printer.PrintStarted{At: at, Job: j}
	if f.FailUnsure {
		f.events <- printer.PrintFailed{At: at, Job: j, Unsure: true, Reason: "print did not finish in time"}
		f.events <- printer.TicketInChute{At: at, Job: j}
		f.FailUnsure = false
		return j, nil
	}
	issued := false
	if v := doc.ValidationNumber(); v != "" && (f.FailNext == 0 || f.FailAfterValidation) {
		f.events <- printer.ValidationPrinted{At: at, Job: j, Validation: v}
		issued = true
	}
	if f.FailNext != 0 {
		f.events <- printer.FaultSet{At: at, Fault: f.FailNext}
		f.events <- printer.PrintFailed{At: at, Job: j, Issued: issued, Fault: f.FailNext, Reason: f.FailNext.String()}
		f.FailNext, f.FailAfterValidation = 0, false
		return j, nil
	}
	f.events <- printer.PrintComplete{At: at, Job: j}
	f.events <- printer.TicketInChute{At: at, Job: j}
	return j, nil
}

// TakeTicket simulates the player taking the last ticket.
func (f *Printer) TakeTicket() {
	f.mu.Lock()
	defer f.mu.Unlock()
	at := printer.At{Time: f.Now()}
	f.events <- printer.TicketTaken{At: at, Job: f.job}
	f.events <- printer.TopOfForm{At: at}
}

func (f *Printer) ClearErrors() error           { return nil }
func (f *Printer) FormFeed() error              { return nil }
func (f *Printer) Events() <-chan printer.Event { return f.events }

func (f *Printer) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.events)
	}
	return nil
}

var _ printer.Printer = (*Printer)(nil)

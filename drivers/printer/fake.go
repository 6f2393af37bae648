package printer

import (
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
)

// Fake is an in-memory Printer for firmware tests: it records documents and
// reports a scripted outcome for each job, with no serial line.
type Fake struct {
	mu     sync.Mutex
	Now    func() time.Time
	events chan Event
	job    JobID
	// Printed holds every accepted document, in order.
	Printed []document.Document
	// FailNext, when set, makes the next job fail with this fault; with
	// FailAfterValidation the voucher is issued first.
	FailNext            Fault
	FailAfterValidation bool
	// FailUnsure, when set, makes the next job fail with no fault and no
	// word on the validation number (PrintFailed.Unsure: a time-out), while
	// the fake prints it: its document is in Printed.
	FailUnsure bool
	// Refuse, when set, is returned by Print.
	Refuse error
	closed bool
}

// NewFake returns a fake whose events channel holds up to 64 events.
func NewFake(now func() time.Time) *Fake {
	return &Fake{Now: now, events: make(chan Event, 64)}
}

func (f *Fake) Print(doc document.Document) (JobID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return 0, ErrClosed
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
	at := At{f.Now()}
	f.events <- PrintStarted{at, j}
	if f.FailUnsure {
		f.events <- PrintFailed{At: at, Job: j, Unsure: true, Reason: "print did not finish in time"}
		f.events <- TicketInChute{at, j}
		f.FailUnsure = false
		return j, nil
	}
	issued := false
	if v := doc.ValidationNumber(); v != "" && (f.FailNext == 0 || f.FailAfterValidation) {
		f.events <- ValidationPrinted{at, j, v}
		issued = true
	}
	if f.FailNext != 0 {
		f.events <- FaultSet{at, f.FailNext}
		f.events <- PrintFailed{At: at, Job: j, Issued: issued, Fault: f.FailNext, Reason: f.FailNext.String()}
		f.FailNext, f.FailAfterValidation = 0, false
		return j, nil
	}
	f.events <- PrintComplete{at, j}
	f.events <- TicketInChute{at, j}
	return j, nil
}

// TakeTicket simulates the player taking the last ticket.
func (f *Fake) TakeTicket() {
	f.mu.Lock()
	defer f.mu.Unlock()
	at := At{f.Now()}
	f.events <- TicketTaken{at, f.job}
	f.events <- TopOfForm{at}
}

func (f *Fake) ClearErrors() error   { return nil }
func (f *Fake) FormFeed() error      { return nil }
func (f *Fake) Events() <-chan Event { return f.events }

func (f *Fake) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.events)
	}
	return nil
}

var _ Printer = (*Fake)(nil)

// Package printer is the cabinet's port to a ticket printer: the Printer
// interface the firmware uses, the typed events every printer driver
// reports, and a fake for tests of the firmware. The drivers live below it:
// tcl (FutureLogic/JCM GEN2U and GEN5, Nanoptix) and escpos (generic
// thermal printers), each with a device emulator (tclemu, escposemu) that
// speaks bytes; document describes what is printed; render draws it.
//
// Money rule: a voucher counts as issued when — and only when — the driver
// reports ValidationPrinted for its job. Everything after that (a jam, paper
// out before the cut) is reported but does not un-issue the voucher.
package printer

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
)

// JobID numbers the print jobs of one driver instance, from 1.
type JobID uint64

// Fault is a printer condition that stops or threatens printing.
type Fault int

const (
	PaperLow Fault = iota + 1 // a warning: printing continues
	PaperOut
	PaperJam
	HeadUp // platen open
	ChassisOpen
	Temperature
	HeadError
	VoltageError
	CutterError
	SystemError   // system, flash, library or command errors
	TemplateError // region/data, library reference or load errors
	Offline       // the printer says it is offline (ESC/POS)
)

var faultNames = map[Fault]string{
	PaperLow: "paper low", PaperOut: "paper out", PaperJam: "paper jam", HeadUp: "head up",
	ChassisOpen: "chassis open", Temperature: "temperature", HeadError: "head error",
	VoltageError: "voltage error", CutterError: "cutter error", SystemError: "system error",
	TemplateError: "template error", Offline: "offline",
}

func (f Fault) String() string {
	if s, ok := faultNames[f]; ok {
		return s
	}
	return fmt.Sprintf("fault(%d)", int(f))
}

// Blocking reports whether the fault stops printing (paper low does not).
func (f Fault) Blocking() bool { return f != PaperLow }

// Faults is a set of faults.
type Faults map[Fault]bool

func (fs Faults) String() string {
	var s []string
	for f := PaperLow; f <= Offline; f++ {
		if fs[f] {
			s = append(s, f.String())
		}
	}
	return strings.Join(s, ", ")
}

// Event is something a printer driver reports. Every event carries the time
// the driver observed it (from its injected clock).
type Event interface{ When() time.Time }

// At is embedded in events for their time.
type At struct{ Time time.Time }

func (a At) When() time.Time { return a.Time }

type (
	// Online: the printer answers (first status, or after CommLost).
	Online struct {
		At
		Firmware string
	}
	// CommLost: no valid status for the configured time.
	CommLost struct{ At }
	// PrintStarted: the printer took the job and is printing it.
	PrintStarted struct {
		At
		Job JobID
	}
	// ValidationPrinted: the job's validation number and barcode are on
	// paper; the voucher is issued from here on.
	ValidationPrinted struct {
		At
		Job        JobID
		Validation string
	}
	// PrintComplete: the whole document is printed.
	PrintComplete struct {
		At
		Job JobID
	}
	// TicketInChute: the printed ticket waits in the bezel to be taken.
	TicketInChute struct {
		At
		Job JobID
	}
	// TicketTaken: the chute is empty again.
	TicketTaken struct {
		At
		Job JobID
	}
	// TopOfForm: ready for the next ticket.
	TopOfForm struct{ At }
	// PrintFailed: the job stopped. Issued says whether ValidationPrinted had
	// already been reported for it (then the voucher stands). Unsure (never
	// with Issued) says the driver cannot tell whether the validation number
	// reached paper: a time-out the printer may have printed through, or a
	// validation flag never seen clear for this job, so its state says
	// nothing. Such a voucher must not be voided as unprinted.
	PrintFailed struct {
		At
		Job    JobID
		Issued bool
		Unsure bool
		Fault  Fault // 0 when the cause is not a printer fault (time-out, lost line)
		Reason string
	}
	FaultSet struct {
		At
		Fault Fault
	}
	FaultCleared struct {
		At
		Fault Fault
	}
)

// Errors a driver returns for a refused command; nothing was sent.
var (
	ErrBusy          = errors.New("printer: a job is in progress")
	ErrTicketInChute = errors.New("printer: the last ticket has not been taken")
	ErrOffline       = errors.New("printer: not answering")
	ErrClosed        = errors.New("printer: closed")
	ErrNoTemplate    = errors.New("printer: no template configured for this document")
)

// FaultError refuses a job while blocking faults are present.
type FaultError struct{ Faults Faults }

func (e *FaultError) Error() string { return "printer: cannot print: " + e.Faults.String() }

// Printer is what the firmware drives.
type Printer interface {
	// Print validates doc and starts printing it; progress arrives as events.
	Print(doc document.Document) (JobID, error)
	// ClearErrors asks the printer to clear latched error flags.
	ClearErrors() error
	// FormFeed ejects a blank ticket (technician test, aligning the stack).
	FormFeed() error
	Events() <-chan Event
	Close() error
}

// Package acceptor is the cabinet's port to a bill/ticket acceptor: the
// Acceptor interface the firmware commands, the typed events every
// acceptor driver reports and the hooks it runs before it lets a document
// go. It names no protocol: a driver (drivers/id003 for JCM's ID-003)
// translates its own statuses into these, so the firmware's money rules
// are written once for any acceptor.
//
// Money rule: a document is credited when — and only when — the driver
// reports it fully in the stacker (Stacked, or PowerUpWithBill InStacker),
// and the BeforeAck/BeforeReset hooks run before the driver lets the
// acceptor forget it, so the credit is journaled first.
package acceptor

import (
	"context"
	"fmt"
)

// Accept says which documents the acceptor takes when enabled. Which notes
// the market credits is the firmware's decision at Escrow (a note worth
// nothing to it is returned), so the port enables notes as a whole.
type Accept struct {
	Notes   bool
	Tickets bool
}

// Acceptor is what the firmware commands; the events arrive on Device's
// Events channel.
type Acceptor interface {
	// Enable switches acceptance on for a.
	Enable(ctx context.Context, a Accept) error
	// Disable inhibits the acceptor.
	Disable(ctx context.Context) error
	// Stack moves the document in escrow to the stacker.
	Stack(ctx context.Context) error
	// Return gives the document in escrow back.
	Return(ctx context.Context) error
	// Hold keeps the document in escrow past the acceptor's time-out.
	Hold(ctx context.Context) error
}

// Device is an acceptor driver as the board runs it.
type Device interface {
	Acceptor
	Events() <-chan Event
	// Run drives the device until ctx ends.
	Run(ctx context.Context) error
}

// Hooks run on the driver's goroutine at the two moments after which the
// acceptor no longer tells what became of a document. An error withholds
// the driver's answer to the acceptor; the acceptor repeats its status and
// the hook runs again.
type Hooks struct {
	// BeforeAck runs when a document is fully in the stacker, before the
	// driver acknowledges it: the place to journal the credit.
	BeforeAck func(Stacked) error
	// BeforeReset runs at a power-up with a document inside, before the
	// reset after which the acceptor no longer says so.
	BeforeReset func(PowerUpWithBill) error
}

// Kind tells a note from a ticket.
type Kind int

const (
	// Unknown is a document the driver did not see reach escrow (after a
	// restart, or present at power-up).
	Unknown Kind = iota
	Note
	Ticket
)

func (k Kind) String() string {
	switch k {
	case Note:
		return "note"
	case Ticket:
		return "ticket"
	}
	return "unknown document"
}

// Denomination is a note's face value, Base × 10^Exponent whole units of
// the acceptor's currency.
type Denomination struct {
	Base     int64
	Exponent int
}

// Minor is the value in minor units of a currency with decimals decimals
// (2 for euro cents).
func (d Denomination) Minor(decimals int) int64 {
	v := d.Base
	for range d.Exponent + decimals {
		v *= 10
	}
	return v
}

// Document is what sits in escrow: a note (the driver's code for it and its
// face value when known) or a ticket (its barcode digits). Two reports of
// the same document compare equal.
type Document struct {
	Kind Kind
	// Code is the driver's code of a note (ID-003's escrow code): it tells
	// two notes apart in the log when the value is unknown.
	Code   int
	Denom  Denomination // zero when the driver does not know the value
	Ticket string
}

func (d Document) String() string {
	switch d.Kind {
	case Note:
		if d.Denom.Base != 0 {
			return fmt.Sprintf("note %02X (%d×10^%d)", d.Code, d.Denom.Base, d.Denom.Exponent)
		}
		return fmt.Sprintf("note %02X", d.Code)
	case Ticket:
		return "ticket " + d.Ticket
	}
	return "unknown document"
}

// Where says where a document was at power-up.
type Where int

const (
	InAcceptor Where = iota + 1 // given back to the customer at the reset
	InStacker                   // went into the stacker: reconcile and credit
)

func (w Where) String() string {
	if w == InStacker {
		return "in stacker"
	}
	return "in acceptor"
}

// FaultKind names an error state of the acceptor. Its words are the
// display's catalogue keys ("fault.<word>").
type FaultKind int

const (
	StackerFull FaultKind = iota + 1
	StackerOpen           // the cash box is out
	AcceptorJam
	StackerJam
	Pause
	Cheated
	Failure // the unit's own failure; Fault.Detail says which
)

var faultNames = [...]string{"", "stacker full", "stacker open", "jam in acceptor", "jam in stacker", "pause", "cheated", "failure"}

func (k FaultKind) String() string {
	if k > 0 && int(k) < len(faultNames) {
		return faultNames[k]
	}
	return fmt.Sprintf("fault %d", int(k))
}

// Event is something the acceptor did. Every Escrow is closed by exactly
// one of Stacked, Returned, Rejected (with its Doc), PowerUpWithBill or
// Anomaly.
type Event interface {
	fmt.Stringer
	event()
}

type (
	// Ready: the acceptor finished starting (after every reset); what it
	// was told before is forgotten.
	Ready struct{ Version string }
	// Enabled: acceptance is on for Accept.
	Enabled struct{ Accept Accept }
	// Disabled: acceptance is off.
	Disabled struct{}
	// Accepting: a document is being drawn in and validated.
	Accepting struct{}
	// Escrow: a document waits for Stack, Return or Hold.
	Escrow struct{ Doc Document }
	// Stacked: the document is fully in the stacker. Recovered: the driver
	// had not seen its Escrow (restart, lost line): reconcile it with the
	// pending record.
	Stacked struct {
		Doc       Document
		Recovered bool
	}
	// Returned: the document went back to the customer. ByHost: after
	// Return; Reason says what was seen.
	Returned struct {
		Doc    Document
		ByHost bool
		Reason string
	}
	// Rejected: the acceptor refused a document; Reason is the driver's
	// words for why. Doc is set when it had been in escrow (which this
	// event then closes).
	Rejected struct {
		Reason string
		Doc    *Document
	}
	// PowerUpWithBill: the acceptor powered up with a document inside. Doc
	// is the one the driver saw in escrow, else Unknown: the firmware
	// reconciles from its pending record.
	PowerUpWithBill struct {
		Where Where
		Doc   Document
	}
	// Fault: an error state began; Detail is the driver's words for a
	// Failure.
	Fault struct {
		Kind   FaultKind
		Detail string
	}
	// FaultCleared: the error state ended.
	FaultCleared struct{ Kind FaultKind }
	// CommLost: the acceptor stopped answering.
	CommLost struct{ Err error }
	// CommRestored: it answers again; a Ready follows its start-up.
	CommRestored struct{}
	// Anomaly: the acceptor broke its protocol in a way that touches money.
	Anomaly struct {
		Doc    *Document
		Detail string
	}
)

func (Ready) event()           {}
func (Enabled) event()         {}
func (Disabled) event()        {}
func (Accepting) event()       {}
func (Escrow) event()          {}
func (Stacked) event()         {}
func (Returned) event()        {}
func (Rejected) event()        {}
func (PowerUpWithBill) event() {}
func (Fault) event()           {}
func (FaultCleared) event()    {}
func (CommLost) event()        {}
func (CommRestored) event()    {}
func (Anomaly) event()         {}

func (e Ready) String() string { return fmt.Sprintf("Ready{version %q}", e.Version) }
func (e Enabled) String() string {
	return fmt.Sprintf("Enabled{notes %v tickets %v}", e.Accept.Notes, e.Accept.Tickets)
}
func (Disabled) String() string  { return "Disabled" }
func (Accepting) String() string { return "Accepting" }
func (e Escrow) String() string  { return "Escrow{" + e.Doc.String() + "}" }
func (e Stacked) String() string { return fmt.Sprintf("Stacked{%s recovered=%v}", e.Doc, e.Recovered) }
func (e Returned) String() string {
	return fmt.Sprintf("Returned{%s byHost=%v %s}", e.Doc, e.ByHost, e.Reason)
}
func (e Rejected) String() string {
	if e.Doc != nil {
		return fmt.Sprintf("Rejected{%s %s}", e.Reason, e.Doc)
	}
	return fmt.Sprintf("Rejected{%s}", e.Reason)
}
func (e PowerUpWithBill) String() string {
	return fmt.Sprintf("PowerUpWithBill{%s %s}", e.Where, e.Doc)
}
func (e Fault) String() string {
	if e.Detail != "" {
		return fmt.Sprintf("Fault{%s %s}", e.Kind, e.Detail)
	}
	return fmt.Sprintf("Fault{%s}", e.Kind)
}
func (e FaultCleared) String() string { return fmt.Sprintf("FaultCleared{%s}", e.Kind) }
func (e CommLost) String() string     { return fmt.Sprintf("CommLost{%v}", e.Err) }
func (CommRestored) String() string   { return "CommRestored" }
func (e Anomaly) String() string      { return "Anomaly{" + e.Detail + "}" }

package id003

import "fmt"

// Event is something the acceptor did, reported by the Driver. Every Escrow
// is closed by exactly one of Stacked, Returned, Rejected (with its Doc),
// PowerUpWithBill or Anomaly.
type Event interface {
	fmt.Stringer
	event()
}

// Ready: the start-up sequence finished (after every RESET): settings sent
// and echoed, the currency table read.
type Ready struct {
	Currency    CurrencyTable
	Version     string
	BootVersion string
}

// Enabled: acceptance was switched on (INHIBIT 00 echoed) for these documents.
type Enabled struct{ Accept Accept }

// Disabled: acceptance was switched off (INHIBIT 01 echoed).
type Disabled struct{}

// Accepting: a document is being drawn in and validated.
type Accepting struct{}

// Escrow: a note or ticket waits in escrow for Stack, Return or Hold. The
// firmware journals it as pending before deciding.
type Escrow struct{ Doc Document }

// Stacked: the acceptor reported VEND VALID for the document (with STACK-2,
// fully inside the stacker). Reported once per document, never before VEND
// VALID. Recovered means the driver had not seen this document's ESCROW
// (driver restart or lost line): reconcile it with the pending record.
type Stacked struct {
	Doc       Document
	Recovered bool
}

// RecyclerStatus: a recycler unit said something beyond plain ID-003 — a
// frame of the bill-recycler extension (F0 20 …) or the data byte it adds
// to STACKED. Reported when it changes; it moves no money (the note's
// credit is the Stacked at VEND VALID). Expected says whether the profile
// declares a recycler; frames from a unit declared without one are still
// decoded and reported, and also flagged once as an Anomaly.
type RecyclerStatus struct {
	Ext         *Extension
	StackedData []byte
	Expected    bool
}

// Returned: the document went back to the customer (RETURN, the acceptor's
// escrow time-out, a pull-back, or it disappeared without VEND VALID).
type Returned struct {
	Doc    Document
	ByHost bool   // the driver had sent RETURN for it
	Reason string // what was seen
}

// Rejected: the acceptor refused a document. Doc is set when the document
// had been in escrow (which this event then closes).
type Rejected struct {
	Code RejectCode
	Doc  *Document
}

// BillWhere says where a document was at power-up.
type BillWhere int

const (
	InAcceptor BillWhere = iota + 1 // returned to the customer at RESET
	InStacker                       // went into the stacker: reconcile and credit
)

func (w BillWhere) String() string {
	if w == InStacker {
		return "in stacker"
	}
	return "in acceptor"
}

// PowerUpWithBill: the acceptor powered up with a document inside (status 41
// or 42). Doc is the document that was in escrow when the driver knew one,
// else DocUnknown: the firmware reconciles from its pending record.
type PowerUpWithBill struct {
	Where BillWhere
	Doc   Document
}

// FaultKind names an error state of the acceptor.
type FaultKind int

const (
	FaultStackerFull FaultKind = iota + 1
	FaultStackerOpen
	FaultAcceptorJam
	FaultStackerJam
	FaultPause
	FaultCheated
	FaultFailure
)

var faultNames = [...]string{"", "stacker full", "stacker open", "jam in acceptor", "jam in stacker", "pause", "cheated", "failure"}

func (k FaultKind) String() string {
	if int(k) < len(faultNames) && k > 0 {
		return faultNames[k]
	}
	return fmt.Sprintf("fault %d", int(k))
}

func faultKind(code byte) FaultKind { return FaultKind(code-StStackerFull) + FaultStackerFull }

// Fault: an error state began. Failure is set for FaultFailure.
type Fault struct {
	Kind    FaultKind
	Failure FailureCode
}

// FaultCleared: the error state ended (the acceptor reports IDLING or DISABLE again).
type FaultCleared struct {
	Kind    FaultKind
	Failure FailureCode
}

// CommLost: no valid reply for Config.CommLostAfter.
type CommLost struct{ Err error }

// CommRestored: valid replies again; the driver repeats the start-up sequence.
type CommRestored struct{}

// Anomaly: the acceptor broke the protocol in a way that touches money (for
// example STACKED without VEND VALID). The firmware should tilt.
type Anomaly struct {
	Doc    *Document
	Detail string
}

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
func (RecyclerStatus) event()  {}

func (e RecyclerStatus) String() string {
	s := "RecyclerStatus{"
	if e.Ext != nil {
		s += e.Ext.String()
	}
	if len(e.StackedData) > 0 {
		s += fmt.Sprintf("STACKED % X", e.StackedData)
	}
	return s + fmt.Sprintf(" expected=%v}", e.Expected)
}

func (e Ready) String() string {
	return fmt.Sprintf("Ready{%d denominations, version %q}", len(e.Currency), e.Version)
}
func (e Enabled) String() string {
	return fmt.Sprintf("Enabled{notes %04X tickets %v}", uint16(e.Accept.Notes), e.Accept.Tickets)
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
		return fmt.Sprintf("Rejected{%s %s}", e.Code, e.Doc)
	}
	return fmt.Sprintf("Rejected{%s}", e.Code)
}
func (e PowerUpWithBill) String() string {
	return fmt.Sprintf("PowerUpWithBill{%s %s}", e.Where, e.Doc)
}
func (e Fault) String() string {
	if e.Kind == FaultFailure {
		return fmt.Sprintf("Fault{%s %s}", e.Kind, e.Failure)
	}
	return fmt.Sprintf("Fault{%s}", e.Kind)
}
func (e FaultCleared) String() string { return fmt.Sprintf("FaultCleared{%s}", e.Kind) }
func (e CommLost) String() string     { return fmt.Sprintf("CommLost{%v}", e.Err) }
func (CommRestored) String() string   { return "CommRestored" }
func (e Anomaly) String() string      { return "Anomaly{" + e.Detail + "}" }

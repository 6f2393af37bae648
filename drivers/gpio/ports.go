package gpio

import "time"

// Bits holds one level per line of a bank: bit i is line i, 1 = high.
// A bank has at most 64 lines (the kernel's limit for one line request).
type Bits uint64

// MaxLines is the most lines one bank can hold.
const MaxLines = 64

// Pull is the bias an input line asks for.
type Pull uint8

const (
	PullNone Pull = iota
	PullUp
	PullDown
)

func (p Pull) String() string {
	switch p {
	case PullUp:
		return "up"
	case PullDown:
		return "down"
	}
	return "none"
}

// LineSpec names one line for a backend to open.
type LineSpec struct {
	Name string // kernel line name, e.g. "GPIO17" on a Pi
	Pull Pull   // inputs only
	Use  string // what the line is for ("button start"), for error messages
}

// InputBank is a set of input lines read as one.
type InputBank interface {
	// Lines returns the line names in bit order.
	Lines() []string
	// Read returns the physical level of every line.
	Read() (Bits, error)
	// WaitEdge blocks until an edge on any line or until timeout, whichever
	// comes first, and reports whether an edge woke it. timeout must be > 0:
	// a bank never waits forever, so its loop can always stop.
	WaitEdge(timeout time.Duration) (bool, error)
	Close() error
}

// OutputBank is a set of output lines written as one. It has no Read: output
// state is kept in software (reading a periph ioctl output back turns it into
// a pulled-up input).
type OutputBank interface {
	Lines() []string
	// Write sets the lines selected by mask to the levels in bits. A zero
	// mask writes nothing.
	Write(bits, mask Bits) error
	Close() error
}

// MeterStore is the durable record of units owed to each hard meter; the
// ledger implements it. The caller commits units (in the same transaction as
// the money step they count) before asking the Controller to pulse them, so a
// power cut never loses a count: on start-up every owed unit is pulsed.
//
// The Controller calls the store from its own goroutine (Run), one call at a
// time; an implementation must be safe to call concurrently with the caller's
// own commits.
type MeterStore interface {
	// Owed returns the units committed to meter and not yet pulsed.
	Owed(m Meter) (int64, error)
	// Pulsed durably records that n units of meter were pulsed.
	Pulsed(m Meter, n int64) error
}

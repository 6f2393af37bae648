package ledger

import (
	"errors"
	"fmt"
)

var (
	// ErrRAMError is matched (errors.Is) by every write refused because the
	// ledger has no good copy. Only RAMClear ends it.
	ErrRAMError = errors.New("ledger: RAM error")
	// ErrNoLedger: neither copy exists. A new ledger is made only by Create
	// (first installation) or RAMClear, never implicitly.
	ErrNoLedger = errors.New("ledger: no ledger copies found")
	// ErrInvalid: the request is malformed; nothing was changed.
	ErrInvalid = errors.New("ledger: invalid request")
	// ErrConflict: the request contradicts what the ledger holds (a replay
	// with other values, a step out of order); nothing was changed.
	ErrConflict = errors.New("ledger: conflicts with ledger state")
	// ErrInsufficientCredit: a debit larger than the credit meter.
	ErrInsufficientCredit = errors.New("ledger: insufficient credit")
	// ErrNotFound: no such round, document or message.
	ErrNotFound = errors.New("ledger: not found")
	// ErrClosed: the ledger was closed.
	ErrClosed = errors.New("ledger: closed")
	// ErrStorage: a copy could not be written and could not be repaired.
	ErrStorage = errors.New("ledger: storage failure")
)

// RAMError describes why the ledger is in the RAM-error state.
type RAMError struct {
	Reason string
	Since  string // wall time, RFC 3339
}

func (e *RAMError) Error() string {
	return fmt.Sprintf("ledger: RAM error since %s: %s", e.Since, e.Reason)
}

// Is makes errors.Is(err, ErrRAMError) true.
func (e *RAMError) Is(target error) bool { return target == ErrRAMError }

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
}

func conflict(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrConflict, fmt.Sprintf(format, a...))
}

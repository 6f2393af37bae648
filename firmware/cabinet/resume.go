package cabinet

import (
	"errors"
	"fmt"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// writeKind says what a refused ledger write stops.
type writeKind int

const (
	// moneyWrite: a money or game step. Refused, it tilts for a
	// technician: the step did not happen and the cabinet must not guess.
	moneyWrite writeKind = iota
	// retriedWrite: a step its caller repeats (the acceptor's driver asks
	// again before it sends ACK). Refused, it is only logged.
	retriedWrite
	// recordWrite: an event, a tilt, the heartbeat. Refused, it is logged
	// and stops nothing: no money moves with it.
	recordWrite
)

// refused is the one way the cabinet handles a ledger write's error: it
// reports whether the write was refused (err != nil). A RAM error (no good
// copy, check 4) stops everything whatever the write; otherwise as kind says.
func (c *Cabinet) refused(what string, err error, kind writeKind) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ledger.ErrRAMError) {
		c.cond.ramFailed()
		return true
	}
	var cf *ledger.CopyFault
	if errors.As(err, &cf) {
		// One copy cannot be written and the other holds everything: a
		// technician's fault, not a RAM error, whatever the write. Nothing
		// of it happened; every write is refused until the repair.
		c.setTilt(copyFaultTilt(*cf))
		return true
	}
	switch kind {
	case moneyWrite:
		c.setTilt("ledger", fmt.Sprintf("ledger refused %s: %v", what, err), true)
	default:
		c.cfg.Hooks.Logf("cabinet: ledger refused %s: %v", what, err)
	}
	return true
}

// copyFaultTilt is the technician's tilt for a ledger copy that cannot be
// written. The reason names the copy and the cause only (not the write that
// found it), so the tilt's own refused record sets the same tilt again and
// stops there.
func copyFaultTilt(f ledger.CopyFault) (key, reason string, manual bool) {
	return "ledger_copy_" + f.Copy, fmt.Sprintf("ledger copy %s (%s) cannot be written: %s; nothing is lost, play waits for the technician's key after the medium is fixed", f.Copy, f.Dir, f.Cause), true
}

// ledgerFailed is refused for a money or game step whose error is known
// to be non-nil.
func (c *Cabinet) ledgerFailed(what string, err error) { c.refused(what, err, moneyWrite) }

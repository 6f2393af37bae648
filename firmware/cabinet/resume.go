package cabinet

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

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
	// recordWrite: an event, the heartbeat or resume state. Refused, it is
	// logged and stops nothing: the money it goes with is journaled apart.
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
		c.cond.ramError = true
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

// ledgerFailed is refused for a money or game step whose error is known
// to be non-nil.
func (c *Cabinet) ledgerFailed(what string, err error) { c.refused(what, err, moneyWrite) }

// stateKey is one piece of resume state the cabinet keeps in the ledger's
// software state, with its one type and encoding. The ledger writes each
// in a transaction of its own (SetSoftwareState); which money step each
// goes with, and why it may be written apart from it, is said at the key.
type stateKey[T any] struct {
	name string
	enc  func(T) ([]byte, error)
	dec  func([]byte) (T, error)
}

func jsonKey[T any](name string) stateKey[T] {
	return stateKey[T]{name: name,
		enc: func(v T) ([]byte, error) { return json.Marshal(v) },
		dec: func(b []byte) (T, error) {
			var v T
			err := json.Unmarshal(b, &v)
			return v, err
		}}
}

var (
	// stateTilts are the tilts a technician ends (check 6); stateDeviceTilts
	// those their device ends. Written when a tilt is set or cleared.
	stateTilts       = jsonKey[map[string]string]("tilts")
	stateDeviceTilts = jsonKey[map[string]string](deviceTiltsKey)
	// stateDoors are the doors' states, for the next power-up (check 18);
	// the door meters themselves move in the ledger's DoorOpened.
	stateDoors = jsonKey[map[string]bool](doorsKey)
	// stateRedeems are the ticket holds the central system has for this
	// cabinet (check 24): written before the ticket is stacked, dropped once
	// the central system confirmed or released the hold.
	stateRedeems = jsonKey[map[uint64]redeemIntent]("redeems")
	// stateBeat is the last heartbeat (beatEvery), the earliest the
	// power-off window may start.
	stateBeat = stateKey[time.Time]{name: beatKey,
		enc: func(t time.Time) ([]byte, error) { return []byte(t.UTC().Format(time.RFC3339Nano)), nil },
		dec: func(b []byte) (time.Time, error) { return time.Parse(time.RFC3339Nano, string(b)) }}
	// stateSoftwareID is the software the technician last accepted (check 9).
	stateSoftwareID = stateKey[string]{name: softwareIDKey,
		enc: func(s string) ([]byte, error) { return []byte(s), nil },
		dec: func(b []byte) (string, error) { return string(b), nil }}
)

// load reads k; ok is false when it was never written. A value that does
// not decode is logged (an event and a line) and read as absent: the state
// it would restore is lost, and that is said, never silently.
func load[T any](c *Cabinet, k stateKey[T]) (v T, ok bool) {
	b, ok := c.led.SoftwareState(k.name)
	if !ok {
		return v, false
	}
	v, err := k.dec(b)
	if err != nil {
		c.cfg.Hooks.Logf("cabinet: resume state %s unreadable: %v", k.name, err)
		c.logEvent("resume_state_unreadable", "cabinet", k.name+": "+err.Error(), 0)
		var zero T
		return zero, false
	}
	return v, true
}

// save writes k; it reports whether the ledger took it, a refusal handled
// as kind says.
func save[T any](c *Cabinet, k stateKey[T], v T, kind writeKind) bool {
	b, err := k.enc(v)
	if err != nil {
		// Every type here encodes: a failure is a bug, and nothing was written.
		c.cfg.Hooks.Logf("cabinet: resume state %s: %v", k.name, err)
		return false
	}
	return !c.refused("the resume state "+k.name, c.led.SetSoftwareState(k.name, b), kind)
}

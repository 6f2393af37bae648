// Package emulator is a JCM ID-003 bill and ticket acceptor that speaks bytes
// on the device end of a serial line (a pseudo-terminal in tests and in the
// devkit). It is written from reference/protocols.md §1, not from the host
// driver, and shares no code with it: it has its own CRC and framing.
//
// It keeps the device state machine (power-up → RESET → INITIALIZE →
// settings → DISABLE → INHIBIT 00 → IDLING → ACCEPTING → ESCROW → STACKING →
// VEND VALID → ACK → STACKED), answers every command of the tables, and takes
// scenario commands: insert a note or ticket, reject, pull back, stacker
// full/open, jams, cheat, failure, pause, power cycle with a bill in the
// acceptor or stacker, escrow time-out, lost ACKs (repeated VEND VALID), slow
// replies, split frames, garbage and corrupted frames. It records every
// document's outcome so tests can reconcile credits with what was stacked.
package emulator

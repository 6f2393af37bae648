// Package id003 is the host side of the JCM ID-003 bill and ticket acceptor
// protocol (reference/protocols.md §1): the frame codec (SYNC 0xFC, total
// length, CRC-16/KERMIT low byte first, resynchronisation after garbage),
// typed commands and statuses, a request/reply session with timeouts and
// retries, and the Driver: a polling state machine that runs the start-up
// sequence, reports typed events (Escrow, Stacked, Returned, Rejected,
// Fault, CommLost, PowerUpWithBill, …) and takes commands (Stack, Return,
// Hold, Enable, Disable). The driver never credits anything: it reports a
// document as Stacked exactly once, at VEND VALID, and the firmware decides.
//
// The device side lives in the emulator sub-package, written separately from
// the protocol facts so that the two check each other.
package id003

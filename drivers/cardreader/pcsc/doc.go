// Package pcsc is the player card reader through PC/SC: a pure-Go client of
// pcscd's socket protocol (pcsc-lite 1.9's messages, so no cgo and no
// libpcsclite for the arm64 build) and, on it, the cardreader.Reader the
// cabinet drives. One connection waits for pcscd's reader-change signal;
// another carries the card exchanges.
package pcsc

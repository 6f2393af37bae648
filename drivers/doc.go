// Package drivers holds the device drivers, each a codec, a session and a
// device state machine over an io.ReadWriter or pin interfaces, and beside
// each an emulator of the device that speaks bytes: JCM ID-003 bill/ticket
// acceptor, TCL and ESC/POS ticket printers, GPIO inputs and outputs
// through periph, and the player card reader through pcscd (PC/SC).
// Drivers know nothing of games or money rules.
//
// The firmware reaches a device through its protocol-neutral port: acceptor
// (bill/ticket acceptors; id003.Acceptor adapts the ID-003 driver),
// printer (tcl, escpos) and cardreader. A second protocol for a device is
// a driver behind the same port; the cabinet does not change.
package drivers

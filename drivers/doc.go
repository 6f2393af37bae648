// Package drivers holds the device drivers, each a codec, a session and a
// device state machine over an io.ReadWriter or pin interfaces, and beside
// each an emulator of the device that speaks bytes: JCM ID-003 bill/ticket
// acceptor, TCL and ESC/POS ticket printers, and GPIO inputs and outputs
// through periph. Drivers know nothing of games or money rules.
package drivers

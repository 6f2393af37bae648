// Package drivers holds the device drivers, each a codec, a session and a
// device state machine over an io.ReadWriter or pin interfaces, and beside
// each an emulator of the device that speaks bytes: JCM ID-003 bill/ticket
// acceptor, TCL and ESC/POS ticket printers, GPIO inputs and outputs
// through periph, and the player card reader through pcscd (PC/SC).
// Drivers know nothing of games or money rules.
package drivers

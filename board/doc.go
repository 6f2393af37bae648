// Package board holds cabinet hardware profiles (TOML files naming every pin,
// port and protocol, embedded from profiles/) and the code that assembles
// drivers from a profile into the devices the cabinet uses.
//
// Load, LoadFile and Parse refuse unknown keys, missing or duplicate pins,
// unknown protocols and malformed TOML with an *Error naming the line and key
// of every problem. Assemble opens the GPIO (periph on a cabinet, in memory
// on the devkit), the ID-003 acceptor and the TCL or ESC/POS printer; for
// emulated devices, in-memory GPIO included, it asks Options.Emulators
// (the devkit's; the cabinet binary links none), runs the emulators on
// pseudo-terminal pairs and opens the drivers on the host ends through the
// real serial code. A pin or port
// that does not exist refuses to start. The devkit profile runs on a
// desktop: DevkitKeys maps the keyboard onto its in-memory inputs.
package board

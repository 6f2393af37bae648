// Package gpiotest is the in-memory GPIO backend, beside package gpio as
// periph's gpiotest is beside its gpio: a Board whose input and output banks
// implement the gpio ports on an injected clock, and a MeterStore kept in
// memory. The cabinet binary does not link it; the devkit reaches it
// through board/emulated. Tests and the devkit drive inputs by line name (the devkit maps
// keys on the keyboard to them); outputs record every transition with the
// clock's time so lamp patterns and meter pulses can be asserted exactly.
// A sense input can follow output lines (a meter coil drawing current), and a
// coil can be disconnected to make a meter fail. Reads can fail, or hang
// (HoldReads, a wedged bus) to stall the loop above them.
package gpiotest

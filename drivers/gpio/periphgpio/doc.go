// Package periphgpio is the real GPIO backend: it implements the gpio ports
// with periph.io/x/host/v3 gpioioctl line sets (the Linux GPIO character
// device, uAPI v2), the one code path that works on a Pi 4, a Pi 5 and a CM4.
//
// It loads only periph's ioctl-gpio driver (not bcm283x, which on a Pi 5
// would try to map Pi 4 registers through /dev/mem), resolves every line by
// its kernel name on any chip, and refuses to open when one does not resolve,
// naming each missing line and what it is for. It never waits forever
// (periph's WaitForEdge(-1) returns at once, and 0 blocks beyond a Halt
// race), never reads an output back, never writes with a zero mask (periph
// treats it as "all lines"), and returns the errors periph would only log.
package periphgpio

// Package board holds cabinet hardware profiles (TOML files naming every pin,
// port and protocol) and the code that assembles drivers from a profile into
// the devices the cabinet uses. The devkit profile runs on a desktop with
// emulated devices.
package board

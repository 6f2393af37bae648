// Package gpio holds the cabinet's project-owned GPIO ports and the logic
// that runs on them, independent of any GPIO library.
//
// The ports are two narrow interfaces over banks of lines: InputBank (read all
// input levels at once, wait for an edge with a bounded timeout) and OutputBank
// (write levels under a mask; outputs are never read back). Backends live in
// subpackages: periphgpio drives real lines through periph's gpioioctl line
// sets (Pi 4 and Pi 5), gpiotest keeps lines in memory for tests and the
// devkit, where a keyboard drives them.
//
// On top of the banks, a Controller turns raw levels into debounced,
// timestamped input changes (buttons, keys, doors), runs lamp and tower-light
// patterns, and pulses hard meters one unit per pulse from counts the caller
// committed to a MeterStore first, reporting a MeterFailed event when the
// meter's sense line does not confirm a pulse. All timing comes from an
// injected Clock, so every behaviour is testable on a fake clock by calling
// Step at chosen instants.
package gpio

// Package centralpb is the generated Go code of central.proto, the cabinet ↔
// central-system protocol. Regenerate with `make proto`; never edit by hand.
package centralpb

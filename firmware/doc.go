// Package firmware is the cabinet program: the state machine that owns all
// cabinet state in one goroutine, the ledger (critical memory), money flows,
// lockups, tilts and menus. It publishes immutable view snapshots for the
// display.
package firmware

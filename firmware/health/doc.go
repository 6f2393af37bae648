// Package health decides whether the cabinet is alive enough to feed the
// systemd watchdog.
//
// Every loop that must not hang registers with a Monitor and calls Beat on
// its Heart each time round. A Feeder sends WATCHDOG=1 to systemd only while
// every registered component has beaten within its own window; a single
// stalled loop stops the pings, and systemd (WatchdogSec=) kills and restarts
// the service. A bare ticker goroutine would keep pinging a stuck game.
//
// The loops that feed it (windows in firmware/app):
//
//   - "cabinet" (2 s): the cabinet loop, on every timer tick (firmware/app).
//   - "acceptor" (5 s): the ID-003 poll loop, after every exchange answered
//     or timed out and every failed reopen (id003.Config.Heartbeat).
//   - "printer" (5 s): the TCL or ESC/POS status loop, after every read or
//     status round, and every read while a job prints.
//   - "gpio" (3 s): the GPIO loop, after every Step (gpio.Config.Heartbeat).
//   - "render" (3 s): the ebiten Update, registered by `polaris run` only;
//     headless has no render loop.
//
// The drivers know nothing of this package: each takes a plain func()
// hook, which firmware/app fills with a Heart's Beat for the devices the
// board has. A device that answers nothing is not a hung loop (its
// time-outs are handled, the loop beats on, CommLost tells the cabinet); a
// Read that never returns is, and stops that heart. A failed GPIO bank ends
// its loop, so the watchdog restarts the cabinet.
//
// Notifier is the narrow interface to systemd's notify socket: Systemd sends
// through github.com/coreos/go-systemd/v22/daemon (a no-op when NOTIFY_SOCKET
// is unset), Recorder is the fake beside it. healthtest drives a Monitor on
// a manual clock to prove, loop by loop, that a wedged loop stops the pings.
//
// The self-tests (check 10) are here too: SelfTest is one, RunSelfTests
// runs a set and names every failure, SelfTestSchedule says when a run is
// due (at start-up and every SelfTestEvery, 24 h). The cabinet owns the
// schedule and its malfunction path (firmware/cabinet selftest.go); the
// software digest test comes from the start-up gate (cmd/internal/boot).
package health

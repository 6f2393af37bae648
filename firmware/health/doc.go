// Package health decides whether the cabinet is alive enough to feed the
// systemd watchdog.
//
// Every loop that must not hang (the cabinet loop, the render loop, the GPIO
// loop, each serial device loop) registers with a Monitor and calls Beat on
// its Heart each time round. A Feeder sends WATCHDOG=1 to systemd only while
// every registered component has beaten within its own window; a single
// stalled loop stops the pings, and systemd (WatchdogSec=) kills and restarts
// the service. A bare ticker goroutine would keep pinging a stuck game.
//
// Notifier is the narrow interface to systemd's notify socket: Systemd sends
// through github.com/coreos/go-systemd/v22/daemon (a no-op when NOTIFY_SOCKET
// is unset), Recorder is the fake beside it.
package health

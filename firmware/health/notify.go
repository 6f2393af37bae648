package health

import (
	"context"
	"sync"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// States sent to systemd (sd_notify(3)).
const (
	StateReady    = daemon.SdNotifyReady    // READY=1: after hardware init and the first frame
	StateWatchdog = daemon.SdNotifyWatchdog // WATCHDOG=1
	StateStopping = daemon.SdNotifyStopping // STOPPING=1
)

// Notifier sends one state line to the service manager. sent is false when
// there is no manager listening (not started by systemd).
type Notifier interface {
	Notify(state string) (sent bool, err error)
}

// Systemd notifies through $NOTIFY_SOCKET.
type Systemd struct{}

// Notify implements Notifier.
func (Systemd) Notify(state string) (bool, error) { return daemon.SdNotify(false, state) }

// WatchdogInterval is systemd's WatchdogSec for this process (0 when not
// watched); ping at half of it, as sd_watchdog_enabled(3) advises.
func WatchdogInterval() time.Duration {
	d, err := daemon.SdWatchdogEnabled(false)
	if err != nil {
		return 0
	}
	return d
}

// Recorder is the fake Notifier: it keeps every state it was given.
type Recorder struct {
	mu     sync.Mutex
	states []string
}

// Notify implements Notifier.
func (r *Recorder) Notify(state string) (bool, error) {
	r.mu.Lock()
	r.states = append(r.states, state)
	r.mu.Unlock()
	return true, nil
}

// States returns a copy of what was sent so far.
func (r *Recorder) States() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.states...)
}

// Count returns how many times state was sent.
func (r *Recorder) Count(state string) int {
	n := 0
	for _, s := range r.States() {
		if s == state {
			n++
		}
	}
	return n
}

// RunSystemd feeds systemd's watchdog from m at half of WatchdogSec until
// ctx ends, in its own goroutine. It returns false (and starts nothing) when
// the process is not watched (no WatchdogSec=, not under systemd).
func RunSystemd(ctx context.Context, m *Monitor, logf func(string, ...any)) bool {
	iv := WatchdogInterval()
	if iv <= 0 {
		return false
	}
	f := &Feeder{Monitor: m, Notifier: Systemd{}, Logf: logf}
	t := time.NewTicker(iv / 2)
	go func() {
		defer t.Stop()
		f.Run(ctx, t.C)
	}()
	return true
}

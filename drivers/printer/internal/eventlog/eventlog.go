// Package eventlog is a test aid for the printer drivers: it drains a
// driver's event channel (a full channel would block the driver's loop) and
// lets a test wait for the next event of a kind.
package eventlog

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Log keeps every event received, with a cursor past those already used.
type Log struct {
	mu     sync.Mutex
	got    []printer.Event
	cursor int
}

// Collect drains ch into a new Log until ch is closed.
func Collect(ch <-chan printer.Event) *Log {
	l := &Log{}
	go func() {
		for x := range ch {
			l.mu.Lock()
			l.got = append(l.got, x)
			l.mu.Unlock()
		}
	}()
	return l
}

// Is matches events of type T.
func Is[T printer.Event](e printer.Event) bool { _, ok := e.(T); return ok }

// Skip moves the cursor past everything received so far.
func (l *Log) Skip() {
	l.mu.Lock()
	l.cursor = len(l.got)
	l.mu.Unlock()
}

// Has reports whether an event after the cursor matches.
func (l *Log) Has(match func(printer.Event) bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, x := range l.got[l.cursor:] {
		if match(x) {
			return true
		}
	}
	return false
}

// Await waits up to 5 s (poll.Scaled) for the next event that matches and
// moves past it.
func (l *Log) Await(t testing.TB, what string, match func(printer.Event) bool) {
	t.Helper()
	poll.Until(t, 5*time.Second, what, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		for i := l.cursor; i < len(l.got); i++ {
			if match(l.got[i]) {
				l.cursor = i + 1
				return true
			}
		}
		return false
	}, func() string {
		l.mu.Lock()
		defer l.mu.Unlock()
		names := make([]string, len(l.got))
		for i, e := range l.got {
			names[i] = strings.TrimPrefix(fmt.Sprintf("%T", e), "printer.")
		}
		return "saw " + strings.Join(names, " ")
	})
}

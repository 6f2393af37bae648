// Package pcscdtest runs readeremu's private pcscd for a test: found
// through hosttools (a missing pcscd names its package), stopped at the
// end of the test, its log shown when the test failed.
package pcscdtest

import (
	"bytes"
	"sync"
	"testing"

	"github.com/polaris-vlt/polaris/drivers/cardreader/readeremu"
	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// Reader names of vpcd's two slots.
const (
	Slot0 = readeremu.Slot0
	Slot1 = readeremu.Slot1
)

// Daemon is one running pcscd.
type Daemon struct {
	*readeremu.Rig
	t   testing.TB
	log logBuffer
}

// Start starts pcscd for t and stops it at the end of the test.
func Start(t testing.TB) *Daemon {
	t.Helper()
	hosttools.Need(t, "pcscd")
	d := &Daemon{t: t}
	rig, err := readeremu.Start(t.TempDir(), &d.log)
	if err != nil {
		t.Fatalf("%v\n%s", err, d.Log())
	}
	d.Rig = rig
	t.Cleanup(func() {
		rig.Close()
		if t.Failed() {
			t.Logf("pcscd log:\n%s", d.Log())
		}
	})
	return d
}

// Restart starts the stopped pcscd again.
func (d *Daemon) Restart() {
	d.t.Helper()
	if err := d.Rig.Restart(); err != nil {
		d.t.Fatalf("%v\n%s", err, d.Log())
	}
}

// Log is what pcscd wrote so far.
func (d *Daemon) Log() string { return d.log.String() }

type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

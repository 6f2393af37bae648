package tclemu

import (
	"testing"
	"time"
)

// nullDev never delivers input and swallows output.
type nullDev struct{ stop chan struct{} }

func (d nullDev) Read(p []byte) (int, error)  { <-d.stop; return 0, errClosed }
func (d nullDev) Write(p []byte) (int, error) { return len(p), nil }

type closedErr struct{}

func (closedErr) Error() string { return "closed" }

var errClosed = closedErr{}

// The device-side command parser never panics or wedges on any input, and
// a status request after it is still answered.
func FuzzEmulatorInput(f *testing.F) {
	f.Add([]byte("^P|2|1|a|b|^\x05"))
	f.Add([]byte("^R|a|R|1|2|3|4||0|1|l|2|6||0||^^T|V|R|512|1100|a|^^P|V|1|12|^"))
	f.Add([]byte("^j|^\x1b@hello\r\n\x0c\x1b[^]\x1b"))
	f.Add([]byte("^G|\x00\x01^|\x02\x03|^"))
	f.Fuzz(func(t *testing.T, in []byte) {
		d := nullDev{make(chan struct{})}
		e := New(d, Options{PrintTime: time.Millisecond})
		defer func() { close(d.stop); e.Close() }()
		e.feed(in, time.Now())
		e.mu.Lock()
		fr := e.frame()
		e.mu.Unlock()
		if len(fr) != 29 {
			t.Fatalf("status frame %q", fr)
		}
	})
}

// One-message-per-read framing never panics, holds at most one message's
// segments, and a whole message read alone after any input is taken.
func FuzzOneMessagePerRead(f *testing.F) {
	f.Add([]byte("^C|^^P|2|1|a|^"), uint8(3))
	f.Add([]byte("^P|2|1|"), uint8(2))
	f.Add([]byte("\x05\x05"), uint8(1))
	f.Fuzz(func(t *testing.T, in []byte, cut uint8) {
		d := nullDev{make(chan struct{})}
		e := New(d, Options{PrintTime: time.Millisecond, OneMessagePerRead: true, SplitTimeout: time.Hour})
		defer func() { close(d.stop); e.Close() }()
		k := int(cut) % (len(in) + 1)
		for _, part := range [][]byte{in[:k], in[k:]} {
			if len(part) > 0 {
				e.feed(part, time.Now())
			}
		}
		e.mu.Lock()
		if len(e.segs) > 0 && e.segs[0] != '^' {
			t.Fatalf("held %q", e.segs)
		}
		e.segs = nil // a fresh read after the rest timed out
		e.lineMode = false
		before := e.enqs
		e.mu.Unlock()
		e.feed([]byte("^S|^"), time.Now())
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.enqs != before+1 {
			t.Fatalf("a lone ^S|^ after %q was not taken", in)
		}
	})
}

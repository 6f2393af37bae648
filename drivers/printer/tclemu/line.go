package tclemu

import (
	"sync"
	"time"
)

// LineJoin is how close two of the host's writes must start to reach the
// printer as one read: bytes written back to back queue in the UART and
// arrive as one run, as they would from a host that does not pace its
// messages.
const LineJoin = 2 * time.Millisecond

// LineTiming is the host side's record of its writes, in order, for an
// emulator whose Options.Line it is: the host calls Wrote just before each
// write to the line (a test's wrapper around the serial port does).
type LineTiming struct {
	mu     sync.Mutex
	writes []timedWrite
}

type timedWrite struct {
	n  int
	at time.Time
}

type timedChunk struct {
	b  []byte
	at time.Time
}

// Wrote records that the host writes n bytes now, at at.
func (l *LineTiming) Wrote(n int, at time.Time) {
	if n <= 0 {
		return
	}
	l.mu.Lock()
	l.writes = append(l.writes, timedWrite{n, at})
	l.mu.Unlock()
}

// cut splits p, the next bytes read from the line, into the reads a
// printer on a real line would have made: a new piece where a write
// started more than LineJoin after the one before it, each piece timed by
// its first write. Bytes no write accounts for (nothing recorded) keep
// the time of reading.
func (l *LineTiming) cut(p []byte) []timedChunk {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []timedChunk
	var prev time.Time
	for len(p) > 0 {
		if len(l.writes) == 0 {
			return append(out, timedChunk{p, time.Now()})
		}
		w := &l.writes[0]
		k := min(w.n, len(p))
		if len(out) > 0 && w.at.Sub(prev) <= LineJoin {
			last := &out[len(out)-1]
			last.b = append(last.b, p[:k]...)
		} else {
			out = append(out, timedChunk{append([]byte(nil), p[:k]...), w.at})
		}
		prev = w.at
		p = p[k:]
		if w.n -= k; w.n == 0 {
			l.writes = l.writes[1:]
		}
	}
	return out
}

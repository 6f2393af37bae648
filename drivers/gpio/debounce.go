package gpio

import "time"

// Debouncer accepts a new level of a line only after it has stayed the same
// for the line's window. It works on samples (level, time), so it is exact on
// a fake clock and needs no goroutine. Every line starts inactive (0); a line
// already active at start-up makes one edge after its window.
type Debouncer struct {
	window  []time.Duration
	stable  Bits
	cand    Bits // candidate level, valid where pending is set
	pending Bits
	since   []time.Time // when the candidate level was first seen
}

// Edge is one debounced change of line Line to level Level, first seen at At.
type Edge struct {
	Line  int
	Level bool
	At    time.Time
}

// NewDebouncer makes a debouncer for len(windows) lines.
func NewDebouncer(windows []time.Duration) *Debouncer {
	if len(windows) > MaxLines {
		panic("gpio: too many lines for one debouncer")
	}
	return &Debouncer{window: append([]time.Duration(nil), windows...), since: make([]time.Time, len(windows))}
}

// Stable returns the debounced levels.
func (d *Debouncer) Stable() Bits { return d.stable }

// Sample feeds the levels seen at now and appends the edges it confirms.
func (d *Debouncer) Sample(now time.Time, levels Bits, edges []Edge) []Edge {
	for i := range d.window {
		bit := Bits(1) << i
		lv := levels & bit
		switch {
		case lv == d.stable&bit:
			// back to the stable level: whatever was pending was a bounce
			d.pending &^= bit
			continue
		case d.pending&bit == 0 || d.cand&bit != lv:
			d.pending |= bit
			d.cand = d.cand&^bit | lv
			d.since[i] = now
		}
		if now.Sub(d.since[i]) >= d.window[i] {
			d.stable = d.stable&^bit | lv
			d.pending &^= bit
			edges = append(edges, Edge{Line: i, Level: lv != 0, At: d.since[i]})
		}
	}
	return edges
}

// Deadline returns the earliest instant at which a pending level would be
// confirmed if nothing changes, and false when nothing is pending.
func (d *Debouncer) Deadline() (time.Time, bool) {
	var best time.Time
	ok := false
	for i := range d.window {
		if d.pending&(Bits(1)<<i) == 0 {
			continue
		}
		t := d.since[i].Add(d.window[i])
		if !ok || t.Before(best) {
			best, ok = t, true
		}
	}
	return best, ok
}

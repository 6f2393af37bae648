package gpio

import (
	"fmt"
	"time"
)

type pulsePhase uint8

const (
	phaseIdle pulsePhase = iota
	phaseOn
	phaseGap
)

type meterState struct {
	id     Meter
	bit    int // output bank bit of the coil
	owed   int64
	failed bool
	dirty  bool  // owed must be re-read from the store
	test   int64 // test pulses asked for (TestPulse): pulsed first, never recorded in the store
}

// pulser drives the hard meters one pulse at a time, round robin, so one
// shared sense line can confirm each pulse.
type pulser struct {
	meters   []*meterState
	store    MeterStore
	pulse    time.Duration
	gap      time.Duration
	hasSense bool

	next  int // round-robin start
	cur   int // meter being pulsed, -1 when idle
	phase pulsePhase
	until time.Time
	seen  bool // sense seen active during this pulse
}

func (p *pulser) find(m Meter) *meterState {
	for _, ms := range p.meters {
		if ms.id == m {
			return ms
		}
	}
	return nil
}

// step advances the pulse state machine to now. sense is the logical
// (active-high) level of the sense line sampled at now.
func (p *pulser) step(now time.Time, sense bool, evs []Event) []Event {
	for _, ms := range p.meters {
		if !ms.dirty {
			continue
		}
		ms.dirty = false
		n, err := p.store.Owed(ms.id)
		switch {
		case err != nil:
			ms.failed = true
			evs = append(evs, MeterFailed{Meter: ms.id, Reason: "store: " + err.Error(), At: now})
		case n < 0:
			ms.failed = true
			evs = append(evs, MeterFailed{Meter: ms.id, Reason: fmt.Sprintf("store says %d units owed", n), At: now})
		default:
			ms.owed = n
		}
	}
	if p.phase == phaseOn {
		if sense {
			p.seen = true
		}
		if now.Before(p.until) {
			return evs
		}
		ms := p.meters[p.cur]
		p.phase, p.until = phaseGap, now.Add(p.gap)
		if p.hasSense && !p.seen {
			ms.failed = true
			evs = append(evs, MeterFailed{Meter: ms.id, Reason: "sense line did not confirm the pulse (meter disconnected or coil open)", At: now})
		} else if ms.test > 0 {
			// A test pulse: the meter reads one more, the store owes the
			// same; the caller logs it (test mode).
			ms.test--
			evs = append(evs, MeterPulsed{Meter: ms.id, Remaining: ms.owed, Test: true, At: now})
		} else if err := p.store.Pulsed(ms.id, 1); err != nil {
			// The pulse happened but is not recorded: stop, so a failing
			// store cannot turn into an endless stream of pulses.
			ms.failed = true
			evs = append(evs, MeterFailed{Meter: ms.id, Reason: "store: " + err.Error(), At: now})
		} else {
			ms.owed--
			evs = append(evs, MeterPulsed{Meter: ms.id, Remaining: ms.owed, At: now})
		}
	}
	if p.phase == phaseGap {
		if now.Before(p.until) {
			return evs
		}
		p.phase, p.cur = phaseIdle, -1
	}
	for k := range p.meters {
		i := (p.next + k) % len(p.meters)
		ms := p.meters[i]
		if ms.failed || ms.owed <= 0 && ms.test <= 0 {
			continue
		}
		p.next = (i + 1) % len(p.meters)
		if p.hasSense && sense {
			ms.failed = true
			evs = append(evs, MeterFailed{Meter: ms.id, Reason: "sense line active before the pulse (stuck or shorted)", At: now})
			continue
		}
		p.cur, p.phase, p.until, p.seen = i, phaseOn, now.Add(p.pulse), false
		break
	}
	return evs
}

// coil reports whether meter i's coil is energised.
func (p *pulser) coil(i int) bool { return p.phase == phaseOn && p.cur == i }

func (p *pulser) deadline() (time.Time, bool) {
	if p.phase == phaseIdle {
		return time.Time{}, false
	}
	return p.until, true
}

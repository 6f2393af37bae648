package sound

import (
	"math"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func idle(now time.Time) *view.Snapshot {
	return &view.Snapshot{Mode: view.ModeIdle, Now: now, Credit: 1000, Bet: 100, Game: engine.WishStar,
		Sound: view.Sound{Volume: 100}}
}

func with(s *view.Snapshot, f func(*view.Snapshot)) *view.Snapshot {
	c := *s
	f(&c)
	return &c
}

// listen renders d of the mix.
func listen(m *Mixer, d time.Duration) []float32 { return m.Render(int(frames(d))) }

// audible is the span from the first to the last sample above −40 dBFS,
// and the longest silent gap inside it.
func audible(x []float32) (span, gap time.Duration) {
	first, last, lastLoud, longest := -1, -1, -1, 0
	for i, v := range x {
		if math.Abs(float64(v)) > 0.01 {
			if first < 0 {
				first = i
			}
			if lastLoud >= 0 && i-lastLoud > longest {
				longest = i - lastLoud
			}
			last, lastLoud = i, i
		}
	}
	if first < 0 {
		return 0, 0
	}
	return time.Duration(last-first+1) * time.Second / Rate, time.Duration(longest) * time.Second / Rate
}

func peak(x []float32) float64 {
	p := 0.0
	for _, v := range x {
		p = math.Max(p, math.Abs(float64(v)))
	}
	return p
}

func count(st []Started, c Cue) int {
	n := 0
	for _, s := range st {
		if s.Cue == c {
			n++
		}
	}
	return n
}

// Check 16: an illegal door opening sounds an alarm of at least 1.5 s,
// without a gap; with a key turned (a menu open) it does not.
func TestDoorAlarmLastsAtLeast1500ms(t *testing.T) {
	m := NewMixer()
	base := idle(t0)
	m.Observe(base)
	listen(m, 100*time.Millisecond)
	m.Observe(with(base, func(s *view.Snapshot) {
		s.Mode, s.Doors, s.Now = view.ModeDoorOpen, []string{"main"}, t0.Add(100*time.Millisecond)
	}))
	out := listen(m, 3*time.Second)
	span, gap := audible(out)
	if span < 1500*time.Millisecond || gap > 20*time.Millisecond {
		t.Fatalf("door alarm audible for %v with a gap of %v, want ≥ 1.5 s without gaps", span, gap)
	}
	if st := m.Started(); len(st) != 1 || st[0].Cue != DoorAlarm || st[0].Frame != frames(100*time.Millisecond) {
		t.Fatalf("started %+v, want the door alarm at once", st)
	}
	// The technician opening the door with his key on: no alarm.
	m2 := NewMixer()
	keyed := with(base, func(s *view.Snapshot) { s.Mode, s.Menu = view.ModeMenu, &view.MenuPage{Title: "menu.audit"} })
	m2.Observe(keyed)
	m2.Observe(with(keyed, func(s *view.Snapshot) { s.Doors = []string{"main"} }))
	if p := peak(listen(m2, 2*time.Second)); p != 0 {
		t.Fatalf("a door opened with the key turned sounded (peak %.3f)", p)
	}
}

func winningRound(number uint64, start time.Time) *view.Round {
	st := engine.Step{Kind: engine.StepBase, Pay: 500, Wins: []engine.Win{{Kind: engine.WinWays, Amount: 500}}}
	tl := view.StepTime{Start: start, Wins: start.Add(2200 * time.Millisecond), End: start.Add(4 * time.Second)}
	for i := range tl.Stops {
		tl.Stops[i] = start.Add(time.Second + time.Duration(i)*200*time.Millisecond)
	}
	return &view.Round{Number: number, Game: engine.WishStar, Stake: 100, Steps: []engine.Step{st},
		Timeline: []view.StepTime{tl}, Total: 500}
}

// What plays when in a round: the spin at its start, a stop per reel at
// the reel's instant, the win when it is shown, then the count-up; and
// the sound is there at those instants.
func TestRoundPlaysOnItsTimeline(t *testing.T) {
	m := NewMixer()
	base := idle(t0)
	m.Observe(base)
	r := winningRound(7, t0)
	m.Observe(with(base, func(s *view.Snapshot) { s.Mode, s.Round = view.ModePresenting, r }))
	out := listen(m, 5*time.Second)
	st := m.Started()
	want := []Started{{Spin, 0}}
	for i := range 5 {
		want = append(want, Started{ReelStop, frames(time.Second + time.Duration(i)*200*time.Millisecond)})
	}
	want = append(want, Started{Win, frames(2200 * time.Millisecond)})
	if len(st) < len(want) {
		t.Fatalf("started %+v", st)
	}
	for i, w := range want {
		if st[i] != w {
			t.Errorf("sound %d: %+v, want %+v", i, st[i], w)
		}
	}
	ticks := count(st, CountUp)
	if ticks < 20 || ticks > 25 || st[len(want)].Cue != CountUp || st[len(want)].Frame != frames(2800*time.Millisecond) {
		t.Errorf("count-up: %d ticks from %+v, want 22 from the end of the win sound", ticks, st[len(want)])
	}
	for _, w := range want {
		if p := peak(out[w.Frame : w.Frame+frames(30*time.Millisecond)]); p < 0.05 {
			t.Errorf("%s at frame %d: peak %.3f, nothing audible", w.Cue, w.Frame, p)
		}
	}
	// Before the first reel stops only the spin's whirr, and it has ended.
	if p := peak(out[frames(500*time.Millisecond):frames(990*time.Millisecond)]); p != 0 {
		t.Errorf("sound between the spin and the first stop: peak %.3f", p)
	}
	// The same round republished adds nothing.
	m.Observe(with(base, func(s *view.Snapshot) { s.Mode, s.Round, s.Now = view.ModeIdle, r, t0.Add(5*time.Second) }))
	listen(m, time.Second)
	if n := len(m.Started()); n != len(st) {
		t.Errorf("a republished round played again: %d sounds, had %d", n, len(st))
	}
}

// Stop shortens the spin: the round's new timeline replaces the stops
// not yet played, so each reel lands once, at its new instant.
func TestStopReplacesThePendingStops(t *testing.T) {
	m := NewMixer()
	base := idle(t0)
	m.Observe(base)
	r := winningRound(8, t0)
	m.Observe(with(base, func(s *view.Snapshot) { s.Mode, s.Round = view.ModePresenting, r }))
	listen(m, 300*time.Millisecond)
	short := *r
	tl := r.Timeline[0]
	for i := range tl.Stops {
		tl.Stops[i] = t0.Add(400*time.Millisecond + time.Duration(i)*50*time.Millisecond)
	}
	tl.Wins, tl.End = t0.Add(700*time.Millisecond), t0.Add(2*time.Second)
	short.Timeline = []view.StepTime{tl}
	m.Observe(with(base, func(s *view.Snapshot) {
		s.Mode, s.Round, s.Now = view.ModePresenting, &short, t0.Add(300*time.Millisecond)
	}))
	listen(m, 3*time.Second)
	st := m.Started()
	if n := count(st, ReelStop); n != 5 {
		t.Fatalf("%d reel stops after Stop, want 5: %+v", n, st)
	}
	if n := count(st, Spin); n != 1 {
		t.Fatalf("%d spins, want 1", n)
	}
	for _, s := range st {
		if s.Cue == ReelStop && s.Frame > frames(time.Second) {
			t.Errorf("a reel stop at frame %d: the old timeline's", s.Frame)
		}
	}
}

// No sound in attract where the market says so; where it allows it, the
// attract jingle plays once when attract begins.
func TestAttractSilentWhereTheMarketSays(t *testing.T) {
	for _, silent := range []bool{true, false} {
		m := NewMixer()
		base := idle(t0)
		base.Sound.AttractSilent = silent
		m.Observe(base)
		att := with(base, func(s *view.Snapshot) { s.Credit = 0 })
		m.Observe(att)
		m.Observe(with(att, func(s *view.Snapshot) { s.Bet = 200 })) // a button in attract
		p := peak(listen(m, 2*time.Second))
		if silent && p != 0 {
			t.Errorf("attract silent by the market: peak %.3f", p)
		}
		if !silent && (p < 0.05 || count(m.Started(), Attract) != 1) {
			t.Errorf("attract allowed: peak %.3f, started %+v", p, m.Started())
		}
	}
}

// Test mode is silent but for the sound test, which plays each press.
func TestTestModeSilentButTheSoundTest(t *testing.T) {
	m := NewMixer()
	base := idle(t0)
	m.Observe(base)
	test := with(base, func(s *view.Snapshot) { s.Mode, s.Sound.Muted = view.ModeMenu, true })
	m.Observe(test)
	m.Observe(with(test, func(s *view.Snapshot) { s.Bet, s.Doors = 200, []string{"main"} }))
	if p := peak(listen(m, time.Second)); p != 0 {
		t.Fatalf("test mode sounded: peak %.3f", p)
	}
	t1 := with(test, func(s *view.Snapshot) { s.Sound.Test, s.Sound.TestSeq = string(Win), 1 })
	m.Observe(t1)
	m.Observe(with(t1, func(s *view.Snapshot) { s.Credit++ })) // same press: not again
	m.Observe(with(t1, func(s *view.Snapshot) { s.Sound.TestSeq = 2 }))
	listen(m, time.Second)
	if n := count(m.Started(), Win); n != 2 || len(m.Started()) != 2 {
		t.Fatalf("sound test: %+v, want the win sound twice", m.Started())
	}
}

// The volume scales the mix: half the volume, half the amplitude; 0 is
// silence.
func TestVolumeScalesTheMix(t *testing.T) {
	alarm := func(vol int) float64 {
		m := NewMixer()
		base := idle(t0)
		base.Sound.Volume = vol
		m.Observe(base)
		m.Observe(with(base, func(s *view.Snapshot) { s.Doors = []string{"cashbox"} }))
		return peak(listen(m, time.Second))
	}
	full, half, none := alarm(100), alarm(50), alarm(0)
	if full < 0.5 || math.Abs(half/full-0.5) > 0.01 || none != 0 {
		t.Fatalf("peaks at volume 100, 50, 0: %.3f %.3f %.3f", full, half, none)
	}
}

// A Risk card, a jackpot lockup and a changed bet each have their sound.
func TestRiskJackpotAndButtons(t *testing.T) {
	m := NewMixer()
	base := idle(t0)
	m.Observe(base)
	lost := with(base, func(s *view.Snapshot) {
		s.Mode, s.Risk = view.ModeRisk, &view.RiskView{Step: 1, Last: &engine.RiskStep{Step: 1, Won: false}}
	})
	m.Observe(lost)
	m.Observe(with(base, func(s *view.Snapshot) {
		s.Mode, s.Lockup = view.ModeLockup, &view.Lockup{Kind: "handpay_jackpot", Amount: 500000}
	}))
	m.Observe(with(base, func(s *view.Snapshot) { s.Bet = 200 }))
	listen(m, time.Second)
	st := m.Started()
	if len(st) != 3 || st[0].Cue != Lose || st[1].Cue != Jackpot || st[2].Cue != Button {
		t.Fatalf("started %+v, want lose, jackpot, button", st)
	}
}

// Every sound is made, is audible and never clips alone.
func TestEverySoundIsSynthesised(t *testing.T) {
	for _, c := range Cues {
		s := Synth(c)
		if len(s) == 0 || peak(s) < 0.1 || peak(s) > 1 {
			t.Errorf("%s: %d samples, peak %.3f", c, len(s), peak(s))
		}
	}
	if d := time.Duration(len(Synth(DoorAlarm))) * time.Second / Rate; d < 1500*time.Millisecond {
		t.Errorf("door alarm %v", d)
	}
}

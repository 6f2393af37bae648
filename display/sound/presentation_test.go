package sound

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// A big win's count-up: its fanfare as it starts, a tick per countUpTick
// until its end; Start's skip (the same count-up ending at the press)
// takes the ticks not yet played.
func TestCountUpPlaysAndItsSkipStopsTheTicks(t *testing.T) {
	base := idle(t0)
	cu := &view.CountUp{Round: 9, Amount: 2000, Stake: 100, Start: t0, End: t0.Add(4 * time.Second), Tier: view.TierBig}
	next := with(base, func(s *view.Snapshot) { s.CountUp = cu })
	p := Changes(base, next)
	if len(p.Plays) == 0 || p.Plays[0].Cue != BigWin || !p.Plays[0].At.Equal(t0) {
		t.Fatalf("plays %+v, want the big win's fanfare first", p.Plays)
	}
	mega := with(base, func(s *view.Snapshot) {
		c := *cu
		c.Tier = view.TierMega
		s.CountUp = &c
	})
	if p := Changes(base, mega); len(p.Plays) == 0 || p.Plays[0].Cue != MegaWin {
		t.Fatalf("plays %+v, want the mega win's fanfare first", p.Plays)
	}
	if !(len(Synth(BigWin)) < len(Synth(MegaWin)) && len(Synth(MegaWin)) < len(Synth(SuperWin))) {
		t.Error("a bigger tier's fanfare must be longer")
	}
	if n, want := countPlays(p.Plays, CountUp), int(4*time.Second/countUpTick); n != want {
		t.Errorf("%d ticks, want %d", n, want)
	}
	small := with(base, func(s *view.Snapshot) {
		s.CountUp = &view.CountUp{Round: 9, Amount: 200, Stake: 100, Start: t0, End: t0.Add(time.Second)}
	})
	if p := Changes(base, small); countPlays(p.Plays, BigWin) != 0 || countPlays(p.Plays, CountUp) == 0 {
		t.Errorf("a win below the tiers: %+v", p.Plays)
	}

	m := NewMixer()
	m.Observe(base)
	m.Observe(next)
	listen(m, time.Second)
	done := *cu
	done.End = t0.Add(time.Second)
	m.Observe(with(base, func(s *view.Snapshot) { s.CountUp, s.Now = &done, done.End }))
	listen(m, 4*time.Second)
	for _, s := range m.Started() {
		if s.Cue == CountUp && s.Frame > frames(time.Second) {
			t.Fatalf("a count-up tick at frame %d after the skip at %d", s.Frame, frames(time.Second))
		}
	}
}

// The jackpot's celebration has its own sound, longer than the lockup's
// bells, at the instant the timeline celebrates it.
func TestJackpotHitSound(t *testing.T) {
	if hit, bells := len(Synth(JackpotHit)), len(Synth(Jackpot)); time.Duration(hit)*time.Second/Rate < JackpotHitLength || hit <= bells {
		t.Fatalf("jackpot hit %d samples, bells %d", hit, bells)
	}
	r := winningRound(11, t0)
	r.Steps[0].Wins = []engine.Win{{Kind: engine.WinJackpot, Jackpot: engine.Grand, Amount: 20000}}
	tl := &r.Timeline[0]
	tl.Celebrate = tl.Wins.Add(700 * time.Millisecond)
	tl.End = tl.Celebrate.Add(5 * time.Second)
	p := Changes(idle(t0), with(idle(t0), func(s *view.Snapshot) { s.Mode, s.Round = view.ModePresenting, r }))
	for _, pl := range p.Plays {
		if pl.Cue == JackpotHit {
			if !pl.At.Equal(tl.Celebrate) {
				t.Fatalf("jackpot hit at %v, want %v", pl.At, tl.Celebrate)
			}
			return
		}
	}
	t.Fatalf("no jackpot hit in %+v", p.Plays)
}

func countPlays(ps []Play, c Cue) int {
	n := 0
	for _, p := range ps {
		if p.Cue == c {
			n++
		}
	}
	return n
}

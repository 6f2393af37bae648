package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// winForRisk plays Magic Stars until a win that Risk may take.
func (r *rig) winForRisk() *view.Snapshot {
	r.t.Helper()
	for i := 0; i < 300; i++ {
		if r.credit() < 5 {
			r.insertNote(1000, 0)
		}
		s := r.playOne()
		if s.RiskOffer {
			return s
		}
		if s.Round.Total > 0 && len(s.Round.Steps) == 1 {
			r.t.Fatalf("MS-9: a base-game win of %d without a Risk offer", s.Round.Total)
		}
	}
	r.t.Fatal("no win to gamble in 300 rounds")
	return nil
}

// MS-9 and MS-10: Risk after a standard-game win; at least one step once
// started; red or black, one central card each; a win doubles, a loss
// forfeits; Collect moves the win to Credit.
func TestRiskDoubleUp(t *testing.T) {
	r := newRig(t, "cz")
	r.idle()
	r.insertNote(1000, 0)
	won, lost := 0, 0
	for won == 0 || lost == 0 {
		s := r.winForRisk()
		win := s.Round.Total
		before := r.credit()
		r.press(view.Risk)
		s = r.until("risk", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeRisk })
		if s.Risk.CanLeave || s.Risk.Win != win {
			t.Fatalf("MS-9: risk view %+v", s.Risk)
		}
		r.press(view.Collect) // refused: no step played yet
		r.press(view.Start)
		if s = r.state(); s.Mode != view.ModeRisk { // both presses decided on the loop
			t.Fatalf("MS-9: left Risk before one step (%s)", s.Mode)
		}
		r.press(view.BetMinus) // red
		s = r.until("card", time.Millisecond, func(s *view.Snapshot) bool {
			return s.Mode != view.ModeRisk || (s.Risk != nil && s.Risk.Step == 1)
		})
		rd, _ := r.led.Round(s.Round.Number)
		if len(rd.Risk) != 1 || rd.Risk[0].Stake != int64(win) {
			t.Fatalf("risk step not journaled: %+v", rd.Risk)
		}
		if rd.Risk[0].Won == 0 {
			lost++
			if s.Mode != view.ModeIdle || r.credit() != before || rd.Status != ledger.RoundSettled {
				t.Fatalf("MS-10: a lost step must forfeit the win: mode %s credit %d", s.Mode, r.credit())
			}
			// The lost card stays on screen for its time (issue 18: it vanished).
			if s.Risk == nil || s.Risk.Last == nil || s.Risk.Last.Won || s.Risk.ShowUntil.Sub(s.Now) < RiskLostShown-time.Second {
				t.Fatalf("the lost card is not kept on screen: %+v at %v", s.Risk, s.Now)
			}
			continue
		}
		won++
		if rd.Risk[0].Won != 2*int64(win) {
			t.Fatalf("MS-10: won %d on %d", rd.Risk[0].Won, win)
		}
		if s.Mode == view.ModeRisk {
			r.press(view.Collect)
		}
		r.idle()
		if r.credit() != before+2*win {
			t.Fatalf("MS-10: Collect credited %d, want %d", r.credit()-before, 2*win)
		}
	}
	ms, _ := r.led.Meters(ledger.ScopeCabinet)
	if ms[ledger.RiskWagered] == 0 || ms[ledger.RiskWon] == 0 {
		t.Fatal("risk meters")
	}
}

// The cap (MS-7 decision) and MS-9: Risk is offered only for a win of the
// standard game — no free spins, no jackpot, not Wish Upon a Star — and only
// while the doubled win stays within 500 000 CZK.
func TestRiskOfferRules(t *testing.T) {
	prof, err := market.Builtin("cz")
	if err != nil {
		t.Fatal(err)
	}
	prof.Limits.LargeWin = 1 << 40
	base := &engine.Round{Steps: []engine.Step{{Kind: engine.StepBase}}}
	free := &engine.Round{Steps: []engine.Step{{Kind: engine.StepBase}, {Kind: engine.StepFree}}}
	cases := []struct {
		name string
		r    roundState
		want bool
	}{
		{"base win", roundState{game: engine.MagicStars, result: base, pending: 250000}, true},
		{"over the cap when doubled", roundState{game: engine.MagicStars, result: base, pending: 250001}, false},
		{"no win", roundState{game: engine.MagicStars, result: base}, false},
		{"free spins", roundState{game: engine.MagicStars, result: free, pending: 100}, false},
		{"jackpot", roundState{game: engine.MagicStars, result: base, pending: 100, jackpot: 5000}, false},
		{"wish upon a star", roundState{game: engine.WishStar, result: base, pending: 100}, false},
	}
	for _, tc := range cases {
		if got := tc.r.riskAllowed(prof.Limits.LargeWin); got != tc.want {
			t.Errorf("%s: risk allowed %v, want %v", tc.name, got, tc.want)
		}
	}
}

// MS-13: during free spins every button is inactive and the feature plays
// on by itself; MS-12: free-spin wins accumulate in the Win field.
func TestFreeSpinsIgnoreButtons(t *testing.T) {
	r := newRig(t, "cz", withTiming(DefaultTiming))
	r.idle()
	res := &engine.Round{Game: engine.MagicStars, Stake: 5, Total: 30, Steps: []engine.Step{
		{Kind: engine.StepBase, Pay: 10, FreeSpinsWon: 15},
		{Kind: engine.StepFree, Pay: 0},
		{Kind: engine.StepFree, Pay: 20},
	}}
	var before, after view.Snapshot
	r.cab.Do(func() {
		c := r.cab
		rs := &roundState{n: 99, game: engine.MagicStars, stake: 5, phase: phasePresenting, result: res, pending: 30}
		rs.timeline = make([]view.StepTime, 3)
		rs.plan(0, c.now(), c.cfg.Timing)
		c.play.resume(rs, c.now())
		c.play.showRound(rs)
		rs.step = 1 // the first free spin is on screen
		c.play.stopAuto("test")
		c.publish()
		before = *c.View()
		for _, b := range view.Buttons {
			c.press(b)
		}
		c.publish()
		after = *c.View()
		c.play.endRound("test") // not a journaled round: leave nothing behind
	})
	if after.Auto != before.Auto || after.Mode != before.Mode || after.Round.Timeline[1] != before.Round.Timeline[1] {
		t.Fatalf("MS-13: a button acted during free spins: auto %v→%v, mode %s→%s", before.Auto, after.Auto, before.Mode, after.Mode)
	}
	// MS-12: the Win field adds up the pays of the steps shown so far.
	var win engine.Money
	r.cab.Do(func() {
		c := r.cab
		rs := &roundState{n: 99, game: engine.MagicStars, stake: 5, phase: phasePresenting, result: res, pending: 30,
			timeline: make([]view.StepTime, 3)}
		rs.plan(0, c.now(), c.cfg.Timing)
		c.play.resume(rs, c.now())
		r.clock.Advance(rs.timeline[1].End.Sub(c.now())) // two steps over, the third still on
		c.play.advance(rs, c.now(), false)
		win = c.play.win
		c.play.endRound("test")
	})
	if win != 10 {
		t.Fatalf("MS-12: Win field %d after the base spin (10) and a losing free spin, want 10", win)
	}
}

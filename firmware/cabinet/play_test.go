package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

func withMarket(fn func(*market.Profile)) rigOption {
	return func(c *Config) {
		p := *c.Market
		fn(&p)
		c.Market = &p
	}
}

// playOne presses Start and waits until the round is over: settled (idle,
// lockup) or offering Risk.
func (r *rig) playOne() *view.Snapshot {
	r.t.Helper()
	n := uint64(r.meter(ledger.GamesPlayed)) + 1
	if rd, ok := r.led.OpenRound(); ok {
		n = rd.Number
	} else if s := r.cab.View(); s.Round != nil && s.Round.Number >= n {
		n = s.Round.Number + 1
	}
	r.press(view.Start)
	return r.until("round over", 100*time.Millisecond, func(s *view.Snapshot) bool {
		return s.Round != nil && s.Round.Number >= n && (s.Mode == view.ModeIdle || s.Mode == view.ModeLockup || s.RiskOffer)
	})
}

// The round protocol end to end, for both games: every round is wagered,
// drawn centrally, mirrored, presented and settled, and the credit always
// equals notes − bets + wins.
func TestPlayRoundsBothGames(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(10000, 2)
	for _, g := range []engine.GameID{engine.WishStar, engine.MagicStars} {
		r.cab.Post(SelectGame{Game: g})
		for i := 0; i < 8; i++ {
			before := r.credit()
			s := r.playOne()
			if s.Round.Game != g {
				t.Fatalf("played %s, selected %s", s.Round.Game, g)
			}
			if s.RiskOffer {
				r.press(view.Collect) // take the win
				s = r.idle()
			}
			if want := before - s.Bet + s.Round.Total; r.credit() != want {
				t.Fatalf("%s round %d: credit %d, want %d − %d + %d", g, s.Round.Number, r.credit(), before, s.Bet, s.Round.Total)
			}
			if s.Win != s.Round.Total {
				t.Fatalf("Win field %d, round total %d", s.Win, s.Round.Total)
			}
		}
	}
	ms, _ := r.led.Meters(ledger.ScopeCabinet)
	if got := int64(r.credit()); got != ms[ledger.BillsInValue]-ms[ledger.CoinIn]+ms[ledger.CoinOut] {
		t.Fatalf("meter invariant: credit %d, bills %d, coin in %d, coin out %d", got, ms[ledger.BillsInValue], ms[ledger.CoinIn], ms[ledger.CoinOut])
	}
	if ms[ledger.GamesPlayed] != 16 {
		t.Fatalf("games played %d, want 16", ms[ledger.GamesPlayed])
	}
	// Every settled round queued its commit; the central system got them all.
	r.until("commits delivered", time.Millisecond, func(*view.Snapshot) bool {
		var n int64
		r.central.Server.DB().QueryRow(`SELECT count(*) FROM rounds WHERE cabinet = 'cab-1' AND committed_at IS NOT NULL`).Scan(&n)
		return n == 16
	})
}

// MS-6: the bet after start-up is 5 CZK. MS-2: + and − move over the
// ladder and the bet stays from game to game. The ladder's ends hold.
func TestBetLadderKeptBetweenGames(t *testing.T) {
	r := newRig(t, "cz")
	s := r.idle()
	if s.Bet != 5 {
		t.Fatalf("MS-6: default bet %d, want 5", s.Bet)
	}
	r.press(view.BetMinus)
	if s = r.until("bet", time.Millisecond, func(s *view.Snapshot) bool { return true }); s.Bet != 5 {
		t.Fatalf("below the ladder: %d", s.Bet)
	}
	r.press(view.BetPlus)
	r.press(view.BetPlus)
	r.until("bet 15", time.Millisecond, func(s *view.Snapshot) bool { return s.Bet == 15 })
	r.insertNote(1000, 0)
	for i := 0; i < 3; i++ {
		s = r.playOne()
		if s.RiskOffer {
			r.press(view.Collect)
			s = r.idle()
		}
		if s.Bet != 15 || s.Round.Stake != 15 {
			t.Fatalf("MS-2: bet %d, round stake %d after game %d", s.Bet, s.Round.Stake, i+1)
		}
	}
	for i := 0; i < 20; i++ {
		r.press(view.BetPlus)
	}
	if s = r.until("top bet", time.Millisecond, func(s *view.Snapshot) bool { return s.Bet == 1000 }); s.Bet != 1000 {
		t.Fatal(s.Bet)
	}
}

// MS-5: Auto plays game after game and stops when the credit is too low
// for the next one; the Stop button stops it too.
// collectOnce presses Collect once for each Risk offer the snapshots show.
func collectOnce(r *rig) func(*view.Snapshot) {
	pressed := false
	return func(s *view.Snapshot) {
		switch {
		case !s.RiskOffer:
			pressed = false
		case !pressed:
			r.press(view.Collect)
			pressed = true
		}
	}
}

func TestAutoStopsOnLowCreditAndStop(t *testing.T) {
	r := newRig(t, "cz", withTiming(Timing{}))
	r.idle()
	r.insertNote(100, 0)
	for i := 0; i < 5; i++ {
		r.press(view.BetPlus) // 100 CZK: at most a few games from 100 CZK
	}
	r.until("bet 100", time.Millisecond, func(s *view.Snapshot) bool { return s.Bet == 100 })
	r.press(view.Auto)
	// One Collect for each Risk offer: a snapshot shows the offer until
	// the loop has taken the press, and a second press would reach the
	// idle cabinet between two games and cash out (Auto off).
	collect := collectOnce(r)
	s := r.until("auto stopped on low credit", 50*time.Millisecond, func(s *view.Snapshot) bool {
		collect(s)
		return !s.Auto && s.Mode == view.ModeIdle && s.Credit < s.Bet
	})
	if s.Credit >= s.Bet {
		t.Fatalf("credit %d ≥ bet %d", s.Credit, s.Bet)
	}
	played := r.meter(ledger.GamesPlayed)
	if played == 0 {
		t.Fatal("Auto played nothing")
	}
	// Stop ends Auto.
	r.insertNote(5000, 0)
	r.press(view.BetMinus)
	r.until("bet 50", time.Millisecond, func(s *view.Snapshot) bool { return s.Bet == 50 })
	r.press(view.Auto)
	r.until("auto playing", 50*time.Millisecond, func(s *view.Snapshot) bool { return r.meter(ledger.GamesPlayed) >= played+2 })
	r.press(view.Stop)
	collect = collectOnce(r)
	r.until("auto off", 50*time.Millisecond, func(s *view.Snapshot) bool {
		collect(s)
		return !s.Auto && s.Mode == view.ModeIdle
	})
	n := r.meter(ledger.GamesPlayed)
	r.clock.Advance(time.Minute)
	// A tick after the minute: Auto's next game, were it still on, would
	// be wagered in it, on the loop.
	r.cab.Post(Tick{})
	var started bool
	r.cab.Do(func() { started = r.cab.play.round != nil || r.cab.play.auto })
	if started || r.meter(ledger.GamesPlayed) != n {
		t.Fatal("MS-5: a game started after Stop")
	}
}

// With presentation timing, the reels stop one after another, the round
// is not settled before its presentation ends, and Stop shortens the spin.
func TestPresentationTimelineAndStop(t *testing.T) {
	r := newRig(t, "at", withTiming(DefaultTiming))
	r.idle()
	r.insertNote(5000, 2)
	r.press(view.Start)
	s := r.until("presenting", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModePresenting })
	tl := s.Round.Timeline[0]
	for k := 1; k < 5; k++ {
		if !tl.Stops[k].After(tl.Stops[k-1]) {
			t.Fatalf("reel %d stops at %v, not after reel %d at %v", k, tl.Stops[k], k-1, tl.Stops[k-1])
		}
	}
	if got := tl.Stops[0].Sub(tl.Start); got != DefaultTiming.Spin {
		t.Fatalf("first stop after %v", got)
	}
	played := r.meter(ledger.GamesPlayed)
	r.press(view.Stop)
	r.until("shortened", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Round.Timeline[0].Stops[0].Before(tl.Stops[0])
	})
	if r.meter(ledger.GamesPlayed) != played {
		t.Fatal("settled before the presentation ended")
	}
	r.until("settled", 100*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
}

// Auto ends only through stopAuto, which keeps why: here a door opened.
func TestAutoStopsWithItsReason(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(5000, 2)
	r.press(view.Auto)
	r.until("auto on", time.Millisecond, func(s *view.Snapshot) bool { return s.Auto })
	r.cab.Post(Door{Name: "main", Open: true})
	r.until("door open, auto off", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeDoorOpen && !s.Auto })
	var why string
	r.cab.Do(func() { why = r.cab.play.autoStopped })
	if why != "door: main" {
		t.Fatalf("Auto stopped for %q, want the door", why)
	}
}

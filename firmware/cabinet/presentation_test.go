package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot/jpserver"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// playUntilCountUp plays rounds until one's win counts up, and returns the
// snapshot at its start (the round settled, the count-up running).
func (r *rig) playUntilCountUp() *view.Snapshot {
	r.t.Helper()
	for range 60 {
		if r.credit() < 100 {
			r.insertNote(2000, 2)
		}
		games := r.meter(ledger.GamesPlayed)
		r.press(view.Start)
		s := r.until("round over", 20*time.Millisecond, func(s *view.Snapshot) bool {
			return r.meter(ledger.GamesPlayed) > games && s.Round != nil && (s.Mode == view.ModeIdle || s.RiskOffer || s.Mode == view.ModeLockup)
		})
		s = r.settleRound(s)
		if s.Mode == view.ModeIdle && s.CountUp != nil && s.CountUp.Running(r.clock.Now()) {
			return s
		}
		r.until("count-up over", 200*time.Millisecond, func(s *view.Snapshot) bool { return !s.CountUp.Running(r.clock.Now()) })
	}
	r.t.Fatal("no winning round in 60")
	return nil
}

// A win counts up after the round is settled (the ledger has it all before
// the first frame of it); Start during the count-up brings it to the final
// amount and starts no round; the next Start does.
func TestCountUpSkippedByStartStartsNoRound(t *testing.T) {
	r := newRig(t, "demo", withTiming(DefaultTiming))
	r.idle()
	s := r.playUntilCountUp()
	cu := s.CountUp
	if s.Credit != r.credit() || cu.Amount != s.Win || cu.Round != s.Round.Number {
		t.Fatalf("count-up %+v: credit %d shown, %d in the ledger, win %d", cu, s.Credit, r.credit(), s.Win)
	}
	if _, open := r.led.OpenRound(); open {
		t.Fatal("the round is not settled while its win counts up")
	}
	if want := DefaultTiming.countUpFor(view.TierOf(cu.Amount, cu.Stake)); cu.End.Sub(cu.Start) != want {
		t.Errorf("count-up of tier %q lasts %v, want %v", cu.Tier, cu.End.Sub(cu.Start), want)
	}
	games := r.meter(ledger.GamesPlayed)
	r.press(view.Start)
	s = r.until("skipped", time.Millisecond, func(s *view.Snapshot) bool { return !s.CountUp.Running(r.clock.Now()) })
	if s.CountUp.Amount != cu.Amount || !s.CountUp.End.Before(cu.End) || s.Mode != view.ModeIdle {
		t.Fatalf("after Start: %+v in mode %s, want the count-up ended early", s.CountUp, s.Mode)
	}
	// A tick after the press: a start the press left pending would begin
	// in it, on the loop.
	r.cab.Post(Tick{})
	r.cab.Do(func() {
		if r.cab.play.round != nil {
			t.Error("the press that skipped the count-up started a round")
		}
	})
	if r.meter(ledger.GamesPlayed) != games {
		t.Fatal("a round was played from the skip press")
	}
	r.press(view.Start)
	r.until("next round", 20*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeWagering || s.Mode == view.ModePresenting })
}

// The tiers and their count-up lengths, as written down in view.TierOf.
func TestWinTiers(t *testing.T) {
	for _, c := range []struct {
		win, stake engine.Money
		tier       view.WinTier
		d          time.Duration
	}{
		{100, 100, view.TierNone, DefaultTiming.CountUp}, {1499, 100, view.TierNone, DefaultTiming.CountUp},
		{1500, 100, view.TierBig, DefaultTiming.BigWin}, {4999, 100, view.TierBig, DefaultTiming.BigWin},
		{5000, 100, view.TierMega, DefaultTiming.MegaWin}, {10000, 100, view.TierSuper, DefaultTiming.SuperWin},
		{500, 0, view.TierNone, DefaultTiming.CountUp},
	} {
		if got := view.TierOf(c.win, c.stake); got != c.tier || DefaultTiming.countUpFor(got) != c.d {
			t.Errorf("win %d at %d: tier %q (%v), want %q (%v)", c.win, c.stake, got, DefaultTiming.countUpFor(got), c.tier, c.d)
		}
	}
	if !(DefaultTiming.CountUp < DefaultTiming.BigWin && DefaultTiming.BigWin < DefaultTiming.MegaWin && DefaultTiming.MegaWin < DefaultTiming.SuperWin) {
		t.Error("a bigger tier must count up longer")
	}
}

// The round's timeline reserves the feature screens and the jackpot's
// celebration; the count-up is not on it (the settlement does not wait).
func TestTimelineHoldsFeatureScreens(t *testing.T) {
	steps := []engine.Step{
		{Kind: engine.StepBase, FreeSpinsWon: 10, Pay: 100, Wins: []engine.Win{{Kind: engine.WinScatter, Amount: 100}}},
		{Kind: engine.StepFree, Pay: 300, Wins: []engine.Win{{Kind: engine.WinWays, Amount: 300}}},
		{Kind: engine.StepFree, Pay: 0},
	}
	r := &roundState{game: engine.WishStar, result: &engine.Round{Steps: steps}, timeline: make([]view.StepTime, 3)}
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	r.plan(0, t0, DefaultTiming)
	tl := r.timeline
	if tl[0].Banner.IsZero() || tl[0].End.Sub(tl[0].Banner) != DefaultTiming.FeatureIntro {
		t.Errorf("free spins intro %v .. %v", tl[0].Banner, tl[0].End)
	}
	if !tl[1].Banner.IsZero() || !tl[1].Celebrate.IsZero() {
		t.Errorf("a free spin in the middle has a screen: %+v", tl[1])
	}
	if tl[2].Banner.IsZero() || tl[2].End.Sub(tl[2].Banner) != DefaultTiming.FeatureTotal {
		t.Errorf("free spins total %v .. %v", tl[2].Banner, tl[2].End)
	}
	if b := view.BannerOf(steps, 2); b.Kind != view.BannerFreeTotal || b.Amount != 300 {
		t.Errorf("total %+v, want the free spins' 300", b)
	}
	if got := tl[1].End.Sub(tl[1].Wins); got != DefaultTiming.PerWin {
		t.Errorf("a winning free spin holds %v after its wins, want %v (no count-up before the settlement)", got, DefaultTiming.PerWin)
	}
	// A jackpot is celebrated before its step's other screens.
	lock := []engine.Step{{Kind: engine.StepBase}, {Kind: engine.StepLockSpin, RespinsLeft: 3, Locked: 7},
		{Kind: engine.StepLockSpin, Pay: 20000, Wins: []engine.Win{{Kind: engine.WinJackpot, Jackpot: engine.Grand, Amount: 20000}}}}
	r = &roundState{game: engine.WishStar, result: &engine.Round{Steps: lock}, timeline: make([]view.StepTime, 3)}
	r.plan(0, t0, DefaultTiming)
	tl = r.timeline
	if b := view.BannerOf(lock, 0); b.Kind != view.BannerLockIntro || b.Locked != 7 || b.Count != 3 || tl[0].Banner.IsZero() {
		t.Errorf("Lock & Spin intro %+v at %v", b, tl[0].Banner)
	}
	if tl[2].Celebrate.IsZero() || tl[2].Banner.Sub(tl[2].Celebrate) != DefaultTiming.Celebrate || tl[2].End.Sub(tl[2].Banner) != DefaultTiming.FeatureTotal {
		t.Errorf("jackpot step %+v", tl[2])
	}
}

// The status line: a refused note and a bet above the credit are said; a
// refusal ends on the clock; "please take it" goes once the voucher is
// taken (its amount stays, check 33) and the line once money comes in.
func TestStatusLineNeverStale(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.cab.Post(AcceptorEvent{id003.Rejected{Code: 0x71}})
	s := r.until("note refused", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgNoteRefused })
	r.until("refusal ended", 500*time.Millisecond, func(s *view.Snapshot) bool { return s.Message == "" })
	if r.clock.Now().Sub(s.Now) < refusalShown {
		t.Errorf("the refusal went after %v, before its %v", r.clock.Now().Sub(s.Now), refusalShown)
	}

	r.insertNote(500, 2) // €5.00: the bet ladder goes to €25
	for range 10 {
		r.press(view.BetPlus)
	}
	r.until("bet above credit", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Bet > s.Credit && s.Message == view.MsgInsufficientCredit
	})
	for range 10 {
		r.press(view.BetMinus)
	}
	r.until("bet within credit", time.Millisecond, func(s *view.Snapshot) bool { return s.Bet <= s.Credit && s.Message == "" })

	r.press(view.Collect)
	r.until("cashed out", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgCashoutDone && s.MessageAmount == 500 })
	// A refusal covers the cash-out's line for its time, which then shows again.
	r.cab.Post(AcceptorEvent{id003.Rejected{Code: 0x71}})
	r.until("covered", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgNoteRefused })
	r.until("uncovered", 500*time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgCashoutDone && s.MessageAmount == 500 })
	r.cab.Post(PrinterEvent{printer.TicketTaken{}})
	r.until("taken", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgCashoutPaid && s.MessageAmount == 500 })
	r.insertNote(1000, 2)
	r.until("money in", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == "" })
}

// A Magic Stars progressive hit is celebrated on the round's timeline (its
// tier and amount over the reels), and only then does its lockup call the
// attendant (MS-18).
func TestJackpotCelebratedBeforeItsLockup(t *testing.T) {
	j := quickJackpot(t)
	r := newRigWith(t, "cz", jpserver.New(j), withTiming(DefaultTiming))
	r.idle()
	r.insertNote(1000, 0)
	for range 50 {
		games := r.meter(ledger.GamesPlayed)
		r.press(view.Start)
		s := r.until("round over or celebrating", 50*time.Millisecond, func(s *view.Snapshot) bool {
			if s.Round != nil && s.Round.Jackpot > 0 && s.Mode == view.ModePresenting {
				tl := s.Round.Timeline[len(s.Round.Timeline)-1]
				return !tl.Celebrate.IsZero() && !r.clock.Now().Before(tl.Celebrate)
			}
			return r.meter(ledger.GamesPlayed) > games && (s.Mode == view.ModeIdle || s.Mode == view.ModeLockup || s.RiskOffer)
		})
		if s.Round.Jackpot == 0 {
			r.settleRound(s)
			r.until("count-up over", 500*time.Millisecond, func(s *view.Snapshot) bool { return !s.CountUp.Running(r.clock.Now()) })
			continue
		}
		if s.Mode == view.ModeLockup {
			t.Fatal("the jackpot's lockup came without its celebration")
		}
		tl := s.Round.Timeline[len(s.Round.Timeline)-1]
		c, ok := view.CelebrationOf(s.Round.Steps, len(s.Round.Steps)-1, s.Round.Jackpot)
		if !ok || c.Tier != engine.NoJackpot || c.Amount != s.Round.Jackpot || tl.End.Sub(tl.Celebrate) < DefaultTiming.Celebrate {
			t.Fatalf("celebration %+v from %v to %v", c, tl.Celebrate, tl.End)
		}
		if s.Lockup != nil {
			t.Fatal("the lockup shows during the celebration")
		}
		s = r.until("lockup", 100*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeLockup })
		if r.clock.Now().Before(tl.End) || s.Lockup.Kind != string(ledger.DocHandpayJackpot) {
			t.Fatalf("lockup %+v at %v, the celebration ends %v", s.Lockup, r.clock.Now(), tl.End)
		}
		return
	}
	t.Fatal("no jackpot hit in 50 games")
}

// A power cut while a win counts up loses nothing and pays nothing twice:
// the round was settled before the count-up started; after power-up the
// credit is the same and no round is resumed.
func TestPowerCutDuringCountUpLosesNothing(t *testing.T) {
	r := newRig(t, "demo", withTiming(DefaultTiming))
	r.idle()
	s := r.playUntilCountUp()
	credit, games, won := r.credit(), r.meter(ledger.GamesPlayed), s.CountUp.Amount
	if s.CountUp.Credited(r.clock.Now()) >= won {
		t.Fatalf("the count-up is over already: %+v", s.CountUp)
	}
	r.powerCut()
	r.start("demo", withTiming(DefaultTiming))
	s = r.idle()
	if r.credit() != credit || s.Credit != credit || r.meter(ledger.GamesPlayed) != games {
		t.Fatalf("after the cut: credit %d (shown %d), want %d; games %d, want %d", r.credit(), s.Credit, credit, r.meter(ledger.GamesPlayed), games)
	}
	if s.CountUp.Running(r.clock.Now()) {
		t.Error("the count-up runs again after power-up")
	}
}

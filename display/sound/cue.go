package sound

import (
	"slices"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// Cue names a sound.
type Cue string

// The cabinet's sounds.
const (
	Spin      Cue = "spin"       // the reels start
	ReelStop  Cue = "reel_stop"  // one reel lands
	Win       Cue = "win"        // a step's win is shown
	CountUp   Cue = "count_up"   // the win counts up (a tick per step of the meter)
	Feature   Cue = "feature"    // free spins, Lock & Spin or a bonus win begins
	Jackpot   Cue = "jackpot"    // a jackpot won, or its lockup
	Button    Cue = "button"     // bet, game, Auto or a page changed
	Lose      Cue = "lose"       // a Risk card lost
	DoorAlarm Cue = "door_alarm" // a door opened with no key turned (check 16: ≥ 1.5 s)
	Attract   Cue = "attract"    // the cabinet starts attracting (where the market allows it)
	// BigWin, MegaWin and SuperWin are the tiers' fanfares as a win's
	// count-up starts (view.TierOf), each longer than the one below;
	// JackpotHit the jackpot celebration's, longer than any game sound
	// (JackpotHitLength).
	BigWin     Cue = "big_win"
	MegaWin    Cue = "mega_win"
	SuperWin   Cue = "super_win"
	JackpotHit Cue = "jackpot_hit"
)

// tierCues are the tiers' fanfares.
var tierCues = map[view.WinTier]Cue{view.TierBig: BigWin, view.TierMega: MegaWin, view.TierSuper: SuperWin}

// Cues lists every sound, in the sound test's order.
var Cues = []Cue{Spin, ReelStop, Win, CountUp, Feature, Jackpot, Button, Lose, DoorAlarm, Attract, BigWin, MegaWin, SuperWin, JackpotHit}

// Play is one sound starting at an instant of the cabinet's clock. Round
// is the round it belongs to (0: none): a round's timeline changed by
// Stop replaces the round's plays not yet started.
type Play struct {
	Cue   Cue
	At    time.Time
	Round uint64
}

// Plan is what the change from one snapshot to the next starts.
type Plan struct {
	Plays []Play
	// Replace names a round whose pending plays the new ones supersede
	// (its timeline changed), 0 for none.
	Replace uint64
}

// maxCountUp bounds the count-up's ticks: a long step end is not all
// count-up.
const maxCountUp = 2 * time.Second

// Changes is what plays because the view went from prev (nil at start)
// to next. Pure: the same two snapshots always give the same plan.
func Changes(prev, next *view.Snapshot) Plan {
	var p Plan
	if next == nil {
		return p
	}
	now := next.Now
	add := func(c Cue, at time.Time, round uint64) {
		if at.Before(now) {
			at = now
		}
		p.Plays = append(p.Plays, Play{Cue: c, At: at, Round: round})
	}
	if next.Sound.Muted {
		// Test mode: the sound test only.
		if next.Sound.Test != "" && (prev == nil || next.Sound.TestSeq != prev.Sound.TestSeq) {
			add(Cue(next.Sound.Test), now, 0)
		}
		return p
	}
	if prev == nil {
		return p // the first view after start: nothing changed yet
	}
	// A door opened with no key turned: illegal, the alarm (check 16).
	if next.Menu == nil {
		for _, d := range next.Doors {
			if !slices.Contains(prev.Doors, d) {
				add(DoorAlarm, now, 0)
				break
			}
		}
	}
	if next.Attract() {
		if !prev.Attract() && !next.Sound.AttractSilent {
			add(Attract, now, 0)
		}
		return p
	}
	if r := next.Round; r != nil && r != prev.Round {
		old := prev.Round
		switch {
		case old == nil || old.Number != r.Number:
			p.Plays = append(p.Plays, roundPlays(r, now)...)
		case !slices.Equal(old.Timeline, r.Timeline):
			p.Replace = r.Number
			p.Plays = append(p.Plays, roundPlays(r, now)...)
		}
	}
	if cu := next.CountUp; cu != nil && (prev.CountUp == nil || *prev.CountUp != *cu) {
		p.Plays = append(p.Plays, countUpPlays(prev.CountUp, cu, now, &p)...)
	}
	if rk := next.Risk; rk != nil && rk.Last != nil && (prev.Risk == nil || prev.Risk.Step != rk.Step || prev.Risk.Last == nil) {
		if rk.Last.Won {
			add(Win, now, 0)
		} else {
			add(Lose, now, 0)
		}
	}
	if l := next.Lockup; l != nil && (prev.Lockup == nil || *prev.Lockup != *l) {
		if l.Kind == "handpay_jackpot" || l.Kind == "handpay_win" {
			add(Jackpot, now, 0)
		}
	}
	if next.Bet != prev.Bet || next.Game != prev.Game || next.Auto != prev.Auto ||
		next.Info != nil && (prev.Info == nil || next.Info.Page != prev.Info.Page) ||
		next.Info == nil && prev.Info != nil {
		add(Button, now, 0)
	}
	return p
}

// roundPlays lays a round's sounds on its timeline; plays already past at
// now are dropped (a round recovered after a power cut does not replay
// what was heard).
func roundPlays(r *view.Round, now time.Time) []Play {
	var out []Play
	add := func(c Cue, at time.Time) {
		if !at.Before(now) {
			out = append(out, Play{Cue: c, At: at, Round: r.Number})
		}
	}
	for i, tl := range r.Timeline {
		if i >= len(r.Steps) {
			break
		}
		st := &r.Steps[i]
		if st.Kind != engine.StepBonusWin {
			add(Spin, tl.Start)
			for _, s := range tl.Stops {
				if !s.IsZero() {
					add(ReelStop, s)
				}
			}
		}
		if feature(r.Steps, i) && tl.Banner.IsZero() {
			add(Feature, tl.Wins)
		}
		// the wins are shown until a celebration or a feature screen
		shown := tl.End
		for _, t := range [...]time.Time{tl.Banner, tl.Celebrate} {
			if !t.IsZero() {
				shown = t
			}
		}
		if jackpotWon(st) {
			add(Jackpot, tl.Wins)
		} else if st.Pay > 0 {
			add(Win, tl.Wins)
			if end := min(shown.Sub(tl.Wins), maxCountUp); end > 0 {
				for t := time.Duration(0); t < end; t += countUpTick {
					add(CountUp, tl.Wins.Add(winLen+t))
				}
			}
		}
		if !tl.Celebrate.IsZero() {
			add(JackpotHit, tl.Celebrate)
		}
		if !tl.Banner.IsZero() {
			switch view.BannerOf(r.Steps, i).Kind {
			case view.BannerFreeIntro, view.BannerLockIntro:
				add(Feature, tl.Banner)
			default:
				add(Win, tl.Banner)
			}
		}
	}
	if r.Jackpot > 0 && len(r.Timeline) > 0 && r.Timeline[len(r.Timeline)-1].Celebrate.IsZero() {
		add(Jackpot, r.Timeline[len(r.Timeline)-1].Wins)
	}
	return out
}

// countUpPlays lays a settled win's count-up (view.CountUp): a tier's
// fanfare at its start, then a tick per countUpTick until its end. A
// count-up whose end came earlier (skipped) replaces its ticks not yet
// played.
func countUpPlays(old, cu *view.CountUp, now time.Time, p *Plan) []Play {
	var out []Play
	from := cu.Start
	if old != nil && old.Round == cu.Round && old.Start.Equal(cu.Start) {
		p.Replace = cu.Round // skipped: only the ticks to its new end
		from = now
	} else if cu.Tier != view.TierNone && !cu.Start.Before(now) {
		out = append(out, Play{Cue: tierCues[cu.Tier], At: cu.Start, Round: cu.Round})
	}
	for t := cu.Start; t.Before(cu.End); t = t.Add(countUpTick) {
		if !t.Before(from) {
			out = append(out, Play{Cue: CountUp, At: t, Round: cu.Round})
		}
	}
	return out
}

// countUpTick is the count-up's pace; winLen the win sound it follows.
const (
	countUpTick = 80 * time.Millisecond
	winLen      = 600 * time.Millisecond
)

// feature: step i awards free spins, triggers a Lock & Spin (the next
// step is its first respin) or is a bonus win reveal.
func feature(steps []engine.Step, i int) bool {
	st := &steps[i]
	return st.FreeSpinsWon > 0 || st.Kind == engine.StepBonusWin ||
		st.Kind != engine.StepLockSpin && i+1 < len(steps) && steps[i+1].Kind == engine.StepLockSpin
}

func jackpotWon(st *engine.Step) bool {
	for _, w := range st.Wins {
		if w.Kind == engine.WinJackpot {
			return true
		}
	}
	return false
}

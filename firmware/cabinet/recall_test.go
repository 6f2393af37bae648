package cabinet

import (
	"reflect"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

func hasStep(k engine.StepKind) func(*engine.Round) bool {
	return func(r *engine.Round) bool {
		for _, s := range r.Steps {
			if s.Kind == k {
				return true
			}
		}
		return false
	}
}

// recallOpen waits for the recall page of game i (0 the newest) with step
// k on it.
func (r *rig) recallAt(what string, i, k int) *view.Recall {
	r.t.Helper()
	s := r.until(what, time.Millisecond, func(s *view.Snapshot) bool {
		return s.Mode == view.ModeMenu && s.Menu != nil && s.Menu.Recall != nil && s.Menu.Recall.Index == i && s.Menu.Recall.Step == k
	})
	return s.Menu.Recall
}

// Check 11, game recall. Twelve games are played through a central system
// whose draws the test chooses — Wish Upon a Star free spins, Lock & Spin
// and a bonus win, a Magic Stars round of more than 50 free spins, a Risk
// step, a progressive jackpot followed by a cash-out, and plain games. The
// attendant key then shows the last ten, newest first, each with its
// number, game, bet, win, credit before and after, what was paid, the
// jackpot and the cash-out after it, and its final screen equal to the
// central outcome; Start and Stop page through every step (more than 50
// of them: each free spin's symbols and pay) and the Risk step with its
// card. Recall changes no meter and no credit, is the same after a power
// cut, and opens in a non-critical error state.
func TestCheck11Recall(t *testing.T) {
	sc := newScriptedCentral()
	limits := withMarket(func(p *market.Profile) { p.Limits.LargeWin, p.Limits.Credit, p.Limits.TicketOut = 1<<40, 1<<40, 1<<40 })
	r := newRig(t, "demo", limits, sc.option())
	r.idle()
	r.insertNote(10000, 2)
	r.insertNote(10000, 2)

	type played struct {
		n                    uint64
		game                 engine.GameID
		bet, before, after   engine.Money
		jackpot, cashOut     engine.Money
		riskSteps, manySteps bool
	}
	var games []played
	var riskSeed uint64
	play := func(g engine.GameID, seed uint64, jackpot engine.Money) *played {
		t.Helper()
		r.cab.Post(SelectGame{Game: g})
		r.until("game selected", time.Millisecond, func(s *view.Snapshot) bool { return s.Game == g })
		sc.queue(g, seed, jackpot)
		before := r.credit()
		s := r.playOne()
		p := played{n: s.Round.Number, game: g, bet: s.Bet, before: before, jackpot: jackpot}
		switch {
		case s.Mode == view.ModeLockup:
			r.cab.Post(Key{Name: "attendant", On: true})
			r.cab.Post(Key{Name: "attendant", On: false})
			r.idle()
		case s.RiskOffer && seed == riskSeed:
			r.press(view.Risk)
			r.until("risk", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeRisk })
			r.press(view.BetMinus)
			s = r.until("risk step", time.Millisecond, func(s *view.Snapshot) bool {
				return s.Mode == view.ModeIdle || s.Risk != nil && s.Risk.Step == 1 && s.Mode == view.ModeRisk
			})
			if s.Mode == view.ModeRisk {
				r.press(view.Collect)
				r.idle()
			}
			p.riskSteps = true
		default:
			r.settleRound(s)
		}
		p.after = r.credit()
		games = append(games, p)
		return &games[len(games)-1]
	}
	ws, ms := engine.WishStar, engine.MagicStars
	riskSeed = findSeed(ms, 5, func(r *engine.Round) bool { return len(r.Steps) == 1 && r.Total > 0 })
	play(ms, 1, 0)
	play(ms, 2, 0)
	play(ws, findSeed(ws, 100, hasStep(engine.StepFree)), 0)
	play(ws, findSeed(ws, 100, hasStep(engine.StepLockSpin)), 0)
	play(ws, findSeed(ws, 100, hasStep(engine.StepBonusWin)), 0)
	play(ms, findSeed(ms, 5, func(r *engine.Round) bool { return len(r.Steps) >= 60 }), 0).manySteps = true
	play(ms, riskSeed, 0)
	jp := play(ms, 3, 4321)
	// A cash-out after the jackpot game, then money for more.
	jp.cashOut = r.credit()
	r.press(view.Collect)
	s := r.until("cash-out", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Credit == 0 && s.Mode == view.ModeIdle || s.Message == "take_ticket"
	})
	if s.Message == "take_ticket" { // a jackpot form in the chute first
		r.takeTicket()
		r.press(view.Collect)
		r.until("cash-out", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
	}
	r.takeTicket()
	r.insertNote(5000, 2)
	for i := 0; i < 4; i++ {
		play(ms, 10+uint64(i), 0)
	}

	check := func(label string) []view.Recall {
		t.Helper()
		meters, _ := r.led.AllMeters()
		credit := r.credit()
		r.cab.Post(Key{Name: "attendant", On: true})
		var pages []view.Recall
		for i := 0; i < 10; i++ {
			g := games[len(games)-1-i]
			v := r.recallAt(label+": recall page", i, 0)
			pages = append(pages, *v)
			o := sc.outcome(g.n)
			steps := o.Result.Steps
			if v.Count != 10 || v.Number != g.n || v.Game != g.game || v.Bet != g.bet || v.CreditBefore != g.before ||
				v.CreditAfter != g.after || v.Win != o.Result.Total || v.Jackpot != g.jackpot || v.CashOut != g.cashOut {
				t.Fatalf("check 11 %s: page %d is %+v, want game %+v with win %d", label, i, *v, g, o.Result.Total)
			}
			if v.Final == nil || !reflect.DeepEqual(*v.Final, steps[len(steps)-1]) || !reflect.DeepEqual(*v.StepGame, steps[0]) {
				t.Fatalf("check 11 %s: game #%d shows another final screen or first step than the central outcome", label, g.n)
			}
			switch {
			case g.riskSteps:
				c := sc.card(g.n, 1)
				if v.Steps != 2 || v.Paid != c.Step.After {
					t.Fatalf("check 11 %s: the Risk game shows %d steps, paid %d; want 2 and %d", label, v.Steps, v.Paid, c.Step.After)
				}
				r.press(view.Start)
				rv := r.recallAt(label+": risk step", i, 1)
				if rv.StepRisk == nil || *rv.StepRisk != c.Step {
					t.Fatalf("check 11 %s: the Risk step shows %+v, the central card was %+v", label, rv.StepRisk, c.Step)
				}
			case g.manySteps:
				if v.Steps != len(steps) || v.Steps < 60 {
					t.Fatalf("check 11 %s: %d steps, want %d (≥ 60)", label, v.Steps, len(steps))
				}
				for k := 1; k < 60; k++ {
					r.press(view.Start)
					rv := r.recallAt(label+": next step", i, k)
					if !reflect.DeepEqual(*rv.StepGame, steps[k]) {
						t.Fatalf("check 11 %s: step %d shows %+v, the central outcome has %+v", label, k, *rv.StepGame, steps[k])
					}
				}
				r.press(view.Stop)
				r.recallAt(label+": step back", i, 58)
				r.press(view.Stop)
				r.recallAt(label+": step back", i, 57)
			}
			r.press(view.BetPlus)
		}
		r.until(label+": money history after the last game", time.Millisecond, func(s *view.Snapshot) bool {
			return s.Menu != nil && s.Menu.Title == "menu.money"
		})
		r.press(view.Collect) // nothing in a menu
		r.cab.Post(Key{Name: "attendant", On: false})
		r.idle()
		after, _ := r.led.AllMeters()
		if !reflect.DeepEqual(meters, after) || r.credit() != credit {
			t.Fatalf("check 11 %s: recall changed meters or credit (credit %d → %d)", label, credit, r.credit())
		}
		return pages
	}
	before := check("first look")

	r.powerCut()
	r.start("demo", limits, sc.option())
	r.idle()
	if again := check("after a power cut"); !reflect.DeepEqual(again, before) {
		t.Fatal("check 11: recall after a power cut differs")
	}

	// In a non-critical error state (paper out) recall opens too.
	r.cab.Post(PrinterEvent{printer.FaultSet{Fault: printer.PaperOut}})
	r.until("tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	r.cab.Post(Key{Name: "attendant", On: true})
	if v := r.recallAt("recall in a tilt", 0, 0); !reflect.DeepEqual(*v, before[0]) {
		t.Fatalf("check 11: recall in a tilt shows %+v", *v)
	}
	r.cab.Post(Key{Name: "attendant", On: false})
	r.until("tilt again", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	r.cab.Post(PrinterEvent{printer.FaultCleared{Fault: printer.PaperOut}})
	r.idle()
}

// Check 11, cash-out in recall: a cancel-credit handpay and a voucher paid
// after a game are shown as that game's cash-out, not the next one's.
func TestRecallCashOut(t *testing.T) {
	r := newRig(t, "demo", withMarket(func(p *market.Profile) { p.Limits.LargeWin, p.Limits.TicketOut = 1<<40, 5000 }))
	r.idle()
	r.insertNote(10000, 2)
	r.settleRound(r.playOne())
	handpay := r.credit()
	r.press(view.Collect) // above the ticket-out limit: a cancel-credit handpay
	r.until("cancel-credit lockup", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeLockup })
	r.cab.Post(Key{Name: "attendant", On: true})
	r.cab.Post(Key{Name: "attendant", On: false})
	r.idle()
	r.takeTicket() // the handpay receipt
	r.insertNote(2000, 2)
	r.settleRound(r.playOne())
	voucher := r.credit()
	r.press(view.Collect)
	r.until("voucher", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
	r.takeTicket()
	r.insertNote(500, 2)
	r.settleRound(r.playOne())

	r.cab.Post(Key{Name: "attendant", On: true})
	want := []engine.Money{0, voucher, handpay} // newest first
	for i, w := range want {
		if v := r.recallAt("recall page", i, 0); v.CashOut != w {
			t.Fatalf("check 11: game %d (newest 0) shows a cash-out of %d, want %d", i, v.CashOut, w)
		}
		r.press(view.BetPlus)
	}
	r.cab.Post(Key{Name: "attendant", On: false})
}

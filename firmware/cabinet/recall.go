package cabinet

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// recallGames is how many past games the recall pages show (check 11: at
// least the last ten).
const recallGames = 10

// recallGame is one past game, read from the ledger when the menu opens:
// its steps are the engine's replay of the signed outcome kept in the
// round record, so what is shown is what was paid.
type recallGame struct {
	round   ledger.Round
	steps   []engine.Step
	risk    []engine.RiskStep
	cashOut engine.Money
	problem string
}

// loadRecall reads the last games for the recall pages, their outcomes
// verified by v. It only reads: recall changes no meter and no credit.
func loadRecall(led *ledger.Ledger, v outcomes) []recallGame {
	rounds := led.Recall(recallGames)
	outs := led.DocsOut()
	events := led.Events(2000)
	recall := make([]recallGame, 0, len(rounds))
	for i, lr := range rounds {
		g := recallGame{round: lr}
		// Cash-outs after this game and before the next one.
		from, to := journalEnd(lr), time.Time{}
		if i > 0 {
			to = journalStart(rounds[i-1])
		}
		in := func(t time.Time) bool { return !t.Before(from) && (to.IsZero() || t.Before(to)) }
		for _, d := range outs {
			if in(d.Done) {
				g.cashOut += engine.Money(d.Amount)
			}
		}
		for _, e := range events {
			if e.Kind == ledger.EventHandpay && strings.HasPrefix(e.Text, string(ledger.DocHandpayCancel)) && in(e.Wall) {
				g.cashOut += engine.Money(e.Amount)
			}
		}
		if len(lr.Outcome) > 0 {
			if eg, err := engine.Lookup(engine.GameID(lr.Game)); err != nil {
				g.problem = err.Error()
			} else if o, err := v.recalled(lr, eg); err != nil {
				g.problem = "outcome does not verify: " + err.Error()
			} else {
				g.steps = o.Result.Steps
			}
		}
		for _, s := range lr.Risk {
			g.risk = append(g.risk, v.risk(lr.Number, s))
		}
		recall = append(recall, g)
	}
	return recall
}

// recallRisk is a Risk step with its card, from the signed card kept with
// it (the choice is not journaled: the one the signature covers is it).
func (v outcomes) risk(round uint64, s ledger.RiskStep) engine.RiskStep {
	out := engine.RiskStep{Step: s.Step, Before: engine.Money(s.Stake), After: engine.Money(s.Won), Won: s.Won > 0}
	var env outcomeEnvelope
	if json.Unmarshal(s.Payload, &env) != nil || v.key == nil {
		return out
	}
	for _, choice := range []engine.Colour{engine.Red, engine.Black} {
		if card, err := link.VerifyRisk(v.key, v.cabinet, round, s.Step, choice, env.Body, env.Signature); err == nil {
			return card.Step
		}
	}
	return out
}

func journalStart(r ledger.Round) time.Time {
	if len(r.Journal) == 0 {
		return time.Time{}
	}
	return r.Journal[0].Wall
}

func journalEnd(r ledger.Round) time.Time {
	if len(r.Journal) == 0 {
		return time.Time{}
	}
	return r.Journal[len(r.Journal)-1].Wall
}

// recallPage is game i (0 the newest) with step s.recallStep on screen.
func recallPage(s pageSource, i int) *view.MenuPage {
	p := &view.MenuPage{Title: "menu.recall"}
	if i >= len(s.recall) {
		return p
	}
	g := s.recall[i]
	r := g.round
	v := &view.Recall{Index: i, Count: len(s.recall), Number: r.Number, Game: engine.GameID(r.Game), Status: string(r.Status),
		Ended: journalEnd(r), Bet: engine.Money(r.Stake), Win: engine.Money(r.Win), CreditBefore: engine.Money(r.CreditBefore),
		CreditAfter: engine.Money(r.CreditAfter), CashOut: g.cashOut, Steps: len(g.steps) + len(g.risk), Problem: g.problem}
	if st := r.Settlement; st != nil {
		v.Paid, v.Handpay, v.Jackpot = engine.Money(st.Credit), engine.Money(st.Handpay), engine.Money(st.Jackpot)
	}
	if n := len(g.steps); n > 0 {
		v.Final = &g.steps[n-1]
	}
	if v.Steps > 0 {
		v.Step = ((s.recallStep % v.Steps) + v.Steps) % v.Steps
		if v.Step < len(g.steps) {
			v.StepGame = &g.steps[v.Step]
		} else {
			v.StepRisk = &g.risk[v.Step-len(g.steps)]
		}
	}
	p.Recall = v
	// The same facts as lines, for the log readers and tests.
	p.Lines = append(p.Lines,
		view.Line("menu.recall.game", view.Text(strconv.FormatUint(r.Number, 10)), view.Key("game."+r.Game), view.Key("round."+string(r.Status)),
			view.Money(r.Stake), view.Money(r.Win), view.Money(r.CreditBefore), view.Money(r.CreditAfter)),
		view.Line("menu.recall.paid", view.Money(int64(v.Paid)), view.Money(int64(v.Handpay)),
			view.Money(int64(v.Jackpot)), view.Money(int64(v.CashOut))))
	if v.StepGame != nil {
		p.Lines = append(p.Lines, view.Line("menu.recall.step", view.Count(int64(v.Step+1)), view.Count(int64(v.Steps)),
			view.Key("step."+stepKind(v.StepGame.Kind)), view.Money(int64(v.StepGame.Pay))))
	}
	if rs := v.StepRisk; rs != nil {
		p.Lines = append(p.Lines, view.Line("menu.recall.risk", view.Count(int64(v.Step+1)), view.Count(int64(v.Steps)),
			view.Count(int64(rs.Step)), view.Count(int64(rs.Card)), view.Money(int64(rs.Before)), view.Money(int64(rs.After))))
	}
	if g.problem != "" {
		p.Lines = append(p.Lines, view.Line("menu.text", view.Text(g.problem)))
	}
	return p
}

func stepKind(k engine.StepKind) string {
	switch k {
	case engine.StepFree:
		return "free_spin"
	case engine.StepLockSpin:
		return "lock_spin"
	case engine.StepBonusWin:
		return "bonus_win"
	}
	return "base"
}

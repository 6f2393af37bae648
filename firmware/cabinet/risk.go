package cabinet

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// RiskLostShown is how long a lost card stays on screen: the player sees
// the card that took the win, and "lost", before the reels come back.
const RiskLostShown = 2500 * time.Millisecond

func (p *playState) showRisk(r *roundState) {
	v := &view.RiskView{Step: len(r.gamble.steps), Win: r.pending, CanRed: !r.gamble.asking, CanLeave: len(r.gamble.steps) > 0,
		History: append([]engine.RiskStep(nil), r.gamble.steps...)}
	if len(r.gamble.steps) > 0 {
		last := r.gamble.steps[len(r.gamble.steps)-1]
		v.Last = &last
	}
	p.riskShown = v
	p.win = r.pending
}

// offerRisk: the win may be gambled (MS-9) until the offer ends.
func (r *roundState) offerRisk(until time.Time) {
	r.phase = phaseRiskOffer
	r.gamble.offerUntil = until
}

// resumeRisk: a round found open at power-up had started Risk: its
// presentation is over and it goes on from the pending win (MS-9: the
// step already played counts).
func (r *roundState) resumeRisk(lr ledger.Round) {
	r.step = len(r.result.Steps)
	r.paid = r.result.Total
	r.pending = engine.Money(lr.PendingWin)
	for _, s := range lr.Risk {
		r.gamble.steps = append(r.gamble.steps, engine.RiskStep{Step: s.Step, Before: engine.Money(s.Stake), After: engine.Money(s.Won), Won: s.Won > 0})
	}
	r.phase = phaseRisk
}

// askRisk draws one card centrally for the next step (MS-10); nothing
// changes until the signed card is back and journaled.
func (r *roundState) askRisk(central Central, choice engine.Colour) func(context.Context) Event {
	r.gamble.asking = true
	n, step := r.n, len(r.gamble.steps)+1
	return func(ctx context.Context) Event {
		card, err := central.RequestRiskStep(ctx, n, step, choice)
		return riskReply{round: n, step: step, card: card, err: err}
	}
}

func (c *Cabinet) riskArrived(e riskReply) {
	r := c.play.round
	if r == nil || r.n != e.round || r.phase != phaseRisk || e.step != len(r.gamble.steps)+1 {
		return
	}
	r.gamble.asking = false
	var sig *link.SignatureError
	var body *link.BodyError
	if errors.As(e.err, &sig) || errors.As(e.err, &body) {
		c.setTilt("outcome", "risk card mismatch: "+e.err.Error(), true) // as a card that does not mirror
		return
	}
	if e.err != nil {
		// No card: the player may choose again; the step is idempotent on
		// (round, step) at the central system.
		c.say(view.MsgRiskUnavailable, 0)
		c.play.showRisk(r)
		return
	}
	s := e.card.Step
	if err := e.card.Mirror(); err != nil || s.Before != r.pending || s.Step != e.step {
		c.setTilt("outcome", "risk card mismatch", true)
		return
	}
	payload, _ := json.Marshal(outcomeEnvelope{Body: e.card.Body, Signature: e.card.Sig})
	if err := c.led.Risk(r.n, ledger.RiskStep{Step: s.Step, Stake: int64(s.Before), Won: int64(s.After), Payload: payload}); err != nil {
		c.ledgerFailed("the risk step", err)
		return
	}
	r.gamble.steps = append(r.gamble.steps, s)
	r.pending = s.After
	c.play.showRisk(r)
	switch {
	case !s.Won:
		c.play.riskShown.ShowUntil = c.now().Add(RiskLostShown)
		c.settle(r) // a loss forfeits the win (MS-10)
	case !engine.RiskAllowed(r.pending, roundCap(r.game)) || r.pending >= c.cfg.Market.Limits.LargeWin:
		c.settle(r) // the cap: no further doubling (MS-7 decision)
	}
}

package cabinet

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

type phase int

const (
	phaseWaitOutcome phase = iota // wagered, waiting for the central system
	phasePresenting               // reels and wins on the clock
	phaseRiskOffer                // a win that may be gambled (MS-9)
	phaseRisk                     // red or black (MS-10)
)

type roundState struct {
	n     uint64
	game  engine.GameID
	stake engine.Money
	phase phase

	outcome *link.Outcome
	result  *engine.Round
	jackpot engine.Money // progressive hit, handpaid (MS-18)

	step     int // index of the step on screen
	timeline []view.StepTime
	paid     engine.Money // sum of the pays of the steps already shown
	pending  engine.Money // the win at stake now (after Risk steps)

	paused bool // a door opened: held at the end of a step
	ask    outcomeAsk
	gamble riskSteps
}

// outcomeAsk is the request for the round's outcome.
type outcomeAsk struct {
	inFlight bool          // asked, no reply yet
	retryAt  time.Time     // when to ask again after a failure
	held     bool          // drawn but not accepted: waits for the central void (void.go)
	holdPoll time.Duration // the wait before the held round is asked again
}

// riskSteps is the round's Risk (MS-9, MS-10).
type riskSteps struct {
	offerUntil time.Time // Auto takes the win when the offer ends
	steps      []engine.RiskStep
	asking     bool // a card is asked for
}

// outcomeEnvelope is what the ledger keeps of an outcome: the exact signed
// bytes, so recall and recovery verify them again.
type outcomeEnvelope struct {
	Body      []byte `json:"body"`
	Signature []byte `json:"sig"`
}

// features reports whether the round went beyond its base spin: Risk is
// not offered for such wins (MS-9).
func (r *roundState) features() bool {
	return r.result != nil && len(r.result.Steps) > 1
}

func (c *Cabinet) press(b view.Button) {
	if c.menus.test != nil {
		c.testPress(b)
		return
	}
	if c.menus.menu != nil {
		c.menuPress(b)
		return
	}
	if c.menus.info != nil {
		c.infoPress(b)
		return
	}
	if c.frozen() {
		return
	}
	if c.skipCountUp(b) {
		return
	}
	if r := c.play.round; r != nil {
		c.pressInRound(r, b)
		return
	}
	if c.cashOut.voucher != nil {
		return
	}
	switch b {
	case view.Start:
		c.startRound()
	case view.Auto:
		c.play.auto = !c.play.auto
		if c.play.auto {
			c.play.nextAuto = c.now()
		}
	case view.Stop:
		c.play.auto = false
		c.play.pendingStart = false
	case view.BetPlus, view.BetMinus:
		c.changeBet(b == view.BetPlus)
	case view.Collect:
		c.collect()
	case view.InfoButton:
		c.enterInfo()
	case view.Risk: // nothing to gamble in idle: the game menu (gamemenu.go)
		c.openGameMenu()
	}
}

func (c *Cabinet) pressInRound(r *roundState, b view.Button) {
	switch r.phase {
	case phaseWaitOutcome:
		if b == view.Stop || b == view.Auto {
			c.play.auto = false
		}
	case phasePresenting:
		if r.inFeature() {
			return // MS-13: every button is inactive during the feature
		}
		switch b {
		case view.Stop:
			c.play.auto = false
			c.shortenSpin(r)
		case view.Auto:
			c.play.auto = !c.play.auto
		}
	case phaseRiskOffer:
		switch b {
		case view.Risk:
			r.phase = phaseRisk
			c.showRisk(r)
		case view.Start:
			c.settle(r)
			c.startRound()
		case view.Collect:
			c.settle(r)
		case view.Auto:
			c.play.auto = !c.play.auto
		case view.Stop:
			c.play.auto = false
		}
	case phaseRisk:
		if r.gamble.asking {
			return
		}
		switch b {
		case view.BetMinus:
			c.askRisk(r, engine.Red)
		case view.BetPlus:
			c.askRisk(r, engine.Black)
		case view.Collect, view.Start:
			if len(r.gamble.steps) == 0 {
				return // MS-9: once started, at least one Risk round is played
			}
			c.settle(r)
			if b == view.Start {
				c.startRound()
			}
		}
	}
}

func (r *roundState) inFeature() bool {
	return r.result != nil && r.step > 0 && r.step < len(r.result.Steps)
}

func (c *Cabinet) changeBet(up bool) {
	g, ok := c.cfg.Market.Game(c.play.game)
	if !ok {
		return
	}
	cur := c.play.bets[c.play.game]
	i := 0
	for i < len(g.Stakes) && g.Stakes[i] != cur {
		i++
	}
	switch {
	case up && i+1 < len(g.Stakes):
		c.play.bets[c.play.game] = g.Stakes[i+1]
	case !up && i > 0 && i < len(g.Stakes):
		c.play.bets[c.play.game] = g.Stakes[i-1]
	}
	// A bet above the credit is said at once, not only at Start; a bet
	// within it takes that line away.
	if bet, credit := c.play.bets[c.play.game], c.credit(); credit > 0 && bet > credit {
		c.say(view.MsgInsufficientCredit, 0)
	} else {
		c.unsay(view.MsgInsufficientCredit)
	}
}

func (c *Cabinet) selectGame(id engine.GameID) {
	if c.play.round != nil || c.cashOut.voucher != nil || c.holds(condRAMError) {
		return
	}
	if _, ok := c.cfg.Market.Game(id); ok {
		c.play.game = id
		c.play.shown, c.play.riskShown, c.play.win = nil, nil, 0
		c.play.after.countUp = nil
	}
}

// startRound is step 1 of the round protocol: journal the wager, then ask
// the central system.
func (c *Cabinet) startRound() {
	if why := c.blocked(); why != "" {
		c.say(view.MsgBlocked+why, 0)
		c.play.auto = false
		return
	}
	if c.play.round != nil || c.cashOut.voucher != nil {
		return
	}
	now := c.now()
	// The jurisdiction's shortest round: a Start before it waits.
	if min := time.Duration(c.cfg.Market.Timers.MinRoundMs) * time.Millisecond; !c.play.startedAt.IsZero() && now.Before(c.play.startedAt.Add(min)) {
		if c.play.auto {
			c.play.nextAuto = c.play.startedAt.Add(min)
		} else {
			c.play.pendingStart = true
		}
		return
	}
	c.play.pendingStart = false
	stake := c.play.bets[c.play.game]
	if c.credit() < stake {
		c.say(view.MsgInsufficientCredit, 0)
		c.play.auto = false // MS-5: Auto stops when credit is too low
		return
	}
	if !c.verify("before game") {
		return
	}
	n := c.led.NextRound()
	if err := c.led.Wager(ledger.Wager{Round: n, Game: string(c.play.game), Denom: 1, Stake: int64(stake)}); err != nil {
		c.ledgerFailed("the wager", err)
		return
	}
	c.say("", 0)
	c.play.win = 0
	c.play.riskShown = nil
	c.play.after.countUp = nil
	c.play.startedAt = now
	c.play.round = &roundState{n: n, game: c.play.game, stake: stake, phase: phaseWaitOutcome}
	c.askOutcome(c.play.round)
}

func (c *Cabinet) askOutcome(r *roundState) {
	g, err := engine.Lookup(r.game)
	if err != nil {
		c.setTilt("game", err.Error(), true)
		return
	}
	r.ask.inFlight = true
	n, game, model, stake := r.n, r.game, g.ModelID(), r.stake
	c.async(func(ctx context.Context) Event {
		o, err := c.cfg.Central.RequestOutcome(ctx, n, game, model, stake)
		return outcomeReply{round: n, outcome: o, err: err}
	})
}

// outcomeArrived is steps 3 and 4: verify and mirror, then journal.
func (c *Cabinet) outcomeArrived(e outcomeReply) {
	r := c.play.round
	if r == nil || r.n != e.round || r.phase != phaseWaitOutcome {
		return
	}
	r.ask.inFlight = false
	if e.err != nil {
		var drawn *link.RoundDrawnError
		if errors.As(e.err, &drawn) {
			c.roundDrawnElsewhere(r, drawn)
			return
		}
		var sig *link.SignatureError
		var body *link.BodyError
		if errors.As(e.err, &sig) || errors.As(e.err, &body) {
			// Bytes the central key did not sign, or not this round's:
			// as a mirror mismatch, nothing is paid and a technician looks.
			c.refuseOutcome(r, e.err)
			return
		}
		var refused *link.RefusedError
		if errors.As(e.err, &refused) && refused.Reason == link.ReasonRoundVoid {
			c.roundVoided(r, refused)
			return
		}
		if errors.As(e.err, &refused) && (r.ask.held || !link.DrewNothing(refused.Reason)) {
			c.refusalHeld(r, refused)
			return
		}
		if errors.As(e.err, &refused) {
			// The central system will never draw this round: refund it.
			if err := c.led.Refund(r.n, "refused: "+refused.Reason); err != nil {
				c.ledgerFailed("the refund", err)
				return
			}
			c.logEvent("round_refused", "central", refused.Error(), r.stake)
			if !c.playerRefusal(refused) {
				c.say(view.MsgRoundRefused, 0)
			}
			c.play.round = nil
			c.play.auto = false
			return
		}
		// No reply: the wager stays open and is asked again (idempotent
		// on the round number) once the link is back.
		r.ask.retryAt = c.now().Add(2 * time.Second)
		return
	}
	if err := c.check(r, e.outcome); err != nil {
		c.refuseOutcome(r, err)
		return
	}
	env, _ := json.Marshal(outcomeEnvelope{Body: e.outcome.Body, Signature: e.outcome.Signature})
	if err := c.led.Outcome(r.n, int64(e.outcome.Result.Total), env); err != nil {
		c.ledgerFailed("the outcome", err)
		return
	}
	c.present(r, e.outcome)
}

// check verifies that the outcome answers this round and that the engine
// reproduces it from its tape (house rule 3).
func (c *Cabinet) check(r *roundState, o *link.Outcome) error {
	if o == nil || o.Result == nil {
		return errors.New("empty outcome")
	}
	g, err := engine.Lookup(r.game)
	if err != nil {
		return err
	}
	if o.Round != r.n || o.Game != r.game || o.Stake != r.stake || o.ModelID != g.ModelID() {
		return fmt.Errorf("outcome for round %d %s stake %d model %.12s does not answer round %d %s stake %d model %.12s",
			o.Round, o.Game, o.Stake, o.ModelID, r.n, r.game, r.stake, g.ModelID())
	}
	if _, err := engine.Mirror(g, r.stake, o.Tape, o.Result); err != nil {
		return err
	}
	return nil
}

// roundDrawnElsewhere: the central system holds another round of this
// cabinet drawn (a copy of its key asked for it, or journal and store
// disagree). The stake was booked there: it is never refunded. The round
// the central system has is the open one if it is exactly this one;
// otherwise the cabinet tilts for a technician with the wager left open.
func (c *Cabinet) roundDrawnElsewhere(r *roundState, e *link.RoundDrawnError) {
	if o := e.Open; o != nil && !e.Committed && c.check(r, o) == nil {
		env, _ := json.Marshal(outcomeEnvelope{Body: o.Body, Signature: o.Signature})
		if err := c.led.Outcome(r.n, int64(o.Result.Total), env); err != nil {
			c.ledgerFailed("the outcome", err)
			return
		}
		c.present(r, o)
		return
	}
	if !r.ask.held {
		c.logEvent("round_drawn_elsewhere", "central", fmt.Sprintf("round %d %s stake %d: %v", r.n, r.game, r.stake, e), r.stake)
	}
	c.setTilt("central_round", fmt.Sprintf("central round differs from journal round %d: %v", r.n, e.Refusal.Reason), true)
	c.holdRound(r)
}

// present is step 5: lay the round out on the clock.
func (c *Cabinet) present(r *roundState, o *link.Outcome) {
	r.outcome, r.result = o, o.Result
	if o.Jackpot != nil {
		r.jackpot = o.Jackpot.Amount
	}
	r.phase = phasePresenting
	r.step, r.paid, r.pending = 0, 0, o.Result.Total
	r.timeline = make([]view.StepTime, len(r.result.Steps))
	c.plan(r, 0, c.now())
	c.showRound(r)
}

func (c *Cabinet) showRound(r *roundState) {
	v := &view.Round{Number: r.n, Game: r.game, Stake: r.stake, Steps: r.result.Steps,
		Timeline: append([]view.StepTime(nil), r.timeline...), Total: r.result.Total, Jackpot: r.jackpot}
	c.play.shown = v
}

// plan places steps from..end on the clock starting at t.
func (c *Cabinet) plan(r *roundState, from int, t time.Time) { c.planWith(r, from, t, c.cfg.Timing) }

func (c *Cabinet) planWith(r *roundState, from int, t time.Time, tm Timing) {
	for i := from; i < len(r.result.Steps); i++ {
		s := &r.result.Steps[i]
		st := view.StepTime{Start: t}
		spin := tm.Spin
		if s.Kind != engine.StepBase {
			spin = tm.FreeSpin
		}
		reels := 5
		if r.game == engine.MagicStars {
			reels = 3
		}
		for k := 0; k < 5; k++ {
			if k < reels {
				st.Stops[k] = t.Add(spin + time.Duration(k)*tm.ReelGap)
			} else {
				st.Stops[k] = st.Stops[reels-1]
			}
		}
		st.Wins = st.Stops[4]
		// The wins, then a jackpot's celebration, then the feature's intro
		// or total screen; the count-up comes after the settlement.
		st.End = st.Wins.Add(time.Duration(len(s.Wins)) * tm.PerWin)
		if _, ok := view.CelebrationOf(r.result.Steps, i, r.jackpot); ok && tm.Celebrate > 0 {
			st.Celebrate, st.End = st.End, st.End.Add(tm.Celebrate)
		}
		if b := view.BannerOf(r.result.Steps, i); b.Kind != view.BannerNone {
			d := tm.FeatureTotal
			if b.Kind == view.BannerFreeIntro || b.Kind == view.BannerLockIntro {
				d = tm.FeatureIntro
			}
			if d > 0 {
				st.Banner, st.End = st.End, st.End.Add(d)
			}
		}
		r.timeline[i] = st
		t = st.End
	}
}

// shortenSpin: Stop brings the reels of the current step to rest now.
func (c *Cabinet) shortenSpin(r *roundState) {
	now := c.now()
	st := r.timeline[r.step]
	if !now.Before(st.Stops[4]) {
		return
	}
	quick := c.cfg.Timing
	quick.Spin, quick.ReelGap = 0, quick.ReelGap/4
	c.planWith(r, r.step, now, quick)
	c.plan(r, r.step+1, r.timeline[r.step].End)
	c.showRound(r)
}

// advance moves the presentation along the clock; a door opened during
// presentation stops it at the end of the current step (check 16).
func (c *Cabinet) advance(r *roundState) {
	now := c.now()
	for r.step < len(r.result.Steps) && !now.Before(r.timeline[r.step].End) {
		r.paid += r.result.Steps[r.step].Pay
		c.play.win = r.paid
		r.step++
		if r.step < len(r.result.Steps) && (c.doorOpen() || c.cond.ramError) {
			r.paused = true
			return
		}
	}
	if r.step < len(r.result.Steps) {
		return
	}
	c.play.win = r.result.Total
	c.presented(r)
}

// presented: the whole round has been shown. Offer Risk where the rules
// allow it, else settle.
func (c *Cabinet) presented(r *roundState) {
	if c.riskAllowed(r) {
		r.phase = phaseRiskOffer
		r.gamble.offerUntil = c.now().Add(c.cfg.Timing.RiskOffer)
		return
	}
	c.settle(r)
}

// riskAllowed: Magic Stars only, a win of the standard game without free
// spins or a jackpot, whose double stays within the round cap (MS-9, MS-7).
func (c *Cabinet) riskAllowed(r *roundState) bool {
	return r.game == engine.MagicStars && r.jackpot == 0 && !r.features() &&
		engine.RiskAllowed(r.pending, roundCap(r.game)) && r.pending < c.cfg.Market.Limits.LargeWin
}

// roundCap is the most a round of game g may pay with its Risk steps: the
// game's engine.RoundCapper (Magic Stars: MS-7), unbounded otherwise.
func roundCap(g engine.GameID) engine.Money {
	if eg, err := engine.Lookup(g); err == nil {
		if c, ok := eg.(engine.RoundCapper); ok {
			return c.RoundCap()
		}
	}
	return 1 << 62
}

// settle is step 6: the win goes to credit (or to a handpay at the large-win
// threshold), a progressive hit to a jackpot handpay, and the commit to the
// outbox, in one ledger transaction.
func (c *Cabinet) settle(r *roundState) {
	s := ledger.Settlement{Credit: int64(r.pending), Jackpot: int64(r.jackpot)}
	if r.pending > 0 && r.pending >= c.cfg.Market.Limits.LargeWin {
		s.Credit, s.Handpay = 0, int64(r.pending)
	}
	s.Commit = binary.BigEndian.AppendUint64(nil, r.n) // link.KindCommit's payload
	if err := c.led.Settle(r.n, s); err != nil {
		c.ledgerFailed("the settlement", err)
		return
	}
	c.verify("after game")
	c.play.win = r.pending
	c.play.round = nil
	c.play.lastEnd = c.now()
	c.play.nextAuto = c.play.lastEnd
	c.player.pollAt = c.play.lastEnd // what is left of the player's limits moved
	c.startCountUp(r, engine.Money(s.Credit))
	c.refreshLockups()
}

func (c *Cabinet) tick() {
	if c.cfg.Hooks.Heartbeat != nil {
		c.cfg.Hooks.Heartbeat()
	}
	c.tickSelfTest()
	now := c.now()
	if r := c.play.round; r != nil {
		switch r.phase {
		case phaseWaitOutcome:
			if !r.ask.inFlight && c.cond.linkUp && !r.ask.retryAt.IsZero() && !now.Before(r.ask.retryAt) {
				c.askOutcome(r)
			}
		case phasePresenting:
			if !r.paused {
				c.advance(r)
			}
		case phaseRiskOffer:
			if c.play.auto && !now.Before(r.gamble.offerUntil) {
				c.settle(r)
			}
		}
	}
	if c.play.pendingStart && c.play.round == nil && c.cashOut.voucher == nil {
		c.startRound()
	}
	if c.play.auto && c.play.round == nil && c.cashOut.voucher == nil && !now.Before(c.play.nextAuto) {
		if c.blocked() != "" {
			c.play.auto = false
		} else {
			c.startRound()
		}
	}
	c.tickMoney(now)
	c.tickMessage(now)
	c.tickPlayer(now)
	c.tickPowerOff(now)
}

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
	"github.com/polaris-vlt/polaris/market"
)

// playState is the player-facing state: the game, the bets, Auto, the
// round and what of it is on screen.
type playState struct {
	game         engine.GameID
	bets         map[engine.GameID]engine.Money // kept between games (MS-2)
	auto         bool
	autoStopped  string       // why Auto last stopped (stopAuto): for tests and diagnostics
	win          engine.Money // the Win field
	nextAuto     time.Time    // earliest time Auto may start the next round
	lastEnd      time.Time    // end of the last round
	startedAt    time.Time    // start of the last round (minimum round time)
	pendingStart bool         // Start pressed before the minimum round time ended

	round     *roundState
	shown     *view.Round // the last round on screen
	riskShown *view.RiskView

	jackpots      []view.Jackpot
	message       string // the status line (view.Msg*): one slot (messages.go)
	messageAmount engine.Money
	after         afterRound // the status line's expiry and the win's count-up (messages.go)
}

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

// hold keeps r open, waiting for the central system's void (void.go).
func (r *roundState) hold(now time.Time) {
	r.ask.held = true
	r.ask.holdPoll = min(max(2*r.ask.holdPoll, HeldRoundPoll), MaxHeldRoundPoll)
	r.ask.retryAt = now.Add(r.ask.holdPoll)
}

// askAt: the outcome is asked (again) at t, once the link is up.
func (r *roundState) askAt(t time.Time) { r.ask.retryAt = t }

// features reports whether the round went beyond its base spin: Risk is
// not offered for such wins (MS-9).
func (r *roundState) features() bool {
	return r.result != nil && len(r.result.Steps) > 1
}

func (c *Cabinet) press(b view.Button) {
	if c.test != nil {
		c.testPress(b)
		return
	}
	if c.menus.menu != nil {
		c.menuPress(b)
		return
	}
	if c.info != nil {
		if c.info.press(b, len(view.InfoPages(c.play.game))) {
			c.info = nil
		}
		return
	}
	if c.conditions().frozen() {
		return
	}
	if c.play.skipCountUp(b, c.now()) {
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
		if c.play.toggleAuto() {
			c.play.nextAuto = c.now()
		}
	case view.Stop:
		c.play.halt("stop")
	case view.BetPlus, view.BetMinus:
		if g, ok := c.cfg.Market.Game(c.play.game); ok {
			c.play.changeBet(g.Stakes, b == view.BetPlus, c.credit(), c.now())
		}
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
			c.play.stopAuto("stop")
		}
	case phasePresenting:
		if r.inFeature() {
			return // MS-13: every button is inactive during the feature
		}
		switch b {
		case view.Stop:
			c.play.stopAuto("stop")
			if r.shortenSpin(c.now(), c.cfg.Timing) {
				c.play.showRound(r)
			}
		case view.Auto:
			c.play.toggleAuto()
		}
	case phaseRiskOffer:
		switch b {
		case view.Risk:
			r.phase = phaseRisk
			c.play.showRisk(r)
		case view.Start:
			c.settle(r)
			c.startRound()
		case view.Collect:
			c.settle(r)
		case view.Auto:
			c.play.toggleAuto()
		case view.Stop:
			c.play.stopAuto("stop")
		}
	case phaseRisk:
		if r.gamble.asking {
			return
		}
		switch b {
		case view.BetMinus, view.BetPlus:
			choice := engine.Red
			if b == view.BetPlus {
				choice = engine.Black
			}
			c.loop.async(r.askRisk(c.cfg.Central, choice))
			c.play.showRisk(r)
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

// changeBet steps the game's bet through its stakes.
func (p *playState) changeBet(stakes []engine.Money, up bool, credit engine.Money, now time.Time) {
	cur := p.bets[p.game]
	i := 0
	for i < len(stakes) && stakes[i] != cur {
		i++
	}
	switch {
	case up && i+1 < len(stakes):
		p.bets[p.game] = stakes[i+1]
	case !up && i > 0 && i < len(stakes):
		p.bets[p.game] = stakes[i-1]
	}
	// A bet above the credit is said at once, not only at Start; a bet
	// within it takes that line away.
	if bet := p.bets[p.game]; credit > 0 && bet > credit {
		p.say(view.MsgInsufficientCredit, 0, now)
	} else {
		p.unsay(view.MsgInsufficientCredit, now)
	}
}

func (c *Cabinet) selectGame(id engine.GameID) {
	if c.play.round != nil || c.cashOut.voucher != nil || c.holds(condRAMError) {
		return
	}
	if _, ok := c.cfg.Market.Game(id); ok {
		c.play.selectGame(id)
	}
}

// selectGame puts game id on screen, nothing of the last game's round with it.
func (p *playState) selectGame(id engine.GameID) {
	p.game = id
	p.shown, p.riskShown, p.win = nil, nil, 0
	p.after.countUp = nil
}

// newPlayState is the play part at power-up: every game at its default
// bet (MS-6), the market's first game on screen.
func newPlayState(m *market.Profile) playState {
	p := playState{bets: map[engine.GameID]engine.Money{}, game: m.Games[0].ID}
	for _, g := range m.Games {
		p.bets[g.ID] = g.DefaultStake
	}
	return p
}

// stopAuto is the one way Auto ends; why names the rule that ended it.
func (p *playState) stopAuto(why string) {
	if p.auto {
		p.autoStopped = why
	}
	p.auto = false
}

// toggleAuto is the Auto button: on, or off; it reports whether Auto is on.
func (p *playState) toggleAuto() bool {
	if p.auto {
		p.stopAuto("auto")
		return false
	}
	p.auto = true
	return true
}

// halt ends Auto and forgets a Start that waits for the minimum round time.
func (p *playState) halt(why string) {
	p.stopAuto(why)
	p.pendingStart = false
}

// setJackpots are the central system's jackpot meters.
func (p *playState) setJackpots(v []view.Jackpot) { p.jackpots = v }

// deferStart: a Start before the jurisdiction's shortest round (min after
// the last start) waits: Auto's next round, or the press itself. It
// reports whether the start waits.
func (p *playState) deferStart(min time.Duration, now time.Time) bool {
	if p.startedAt.IsZero() || !now.Before(p.startedAt.Add(min)) {
		p.pendingStart = false
		return false
	}
	if p.auto {
		p.nextAuto = p.startedAt.Add(min)
	} else {
		p.pendingStart = true
	}
	return true
}

// begin puts the wagered round r on screen; the last round's win goes.
func (p *playState) begin(r *roundState, now time.Time) {
	p.say("", 0, now)
	p.win = 0
	p.riskShown = nil
	p.after.countUp = nil
	p.startedAt = now
	p.round = r
}

// resume puts a round found open at power-up back on screen.
func (p *playState) resume(r *roundState, now time.Time) {
	p.game = r.game
	p.round = r
	p.startedAt = now
}

// endRound: the round ends without a settlement (refunded or voided).
func (p *playState) endRound(why string) {
	p.round = nil
	p.stopAuto(why)
}

// settled: round r's win is booked; Auto may play on from now.
func (p *playState) settled(r *roundState, now time.Time) {
	p.win = r.pending
	p.round = nil
	p.lastEnd = now
	p.nextAuto = now
}

// clear is the RAM clear: no round, nothing of one on screen.
func (p *playState) clear() {
	p.round = nil
	p.win = 0
	p.shown, p.riskShown = nil, nil
}

// startRound is step 1 of the round protocol: journal the wager, then ask
// the central system.
func (c *Cabinet) startRound() {
	if why := c.blocked(); why != "" {
		c.say(view.MsgBlocked+why, 0)
		c.play.stopAuto("blocked: " + why)
		return
	}
	if c.play.round != nil || c.cashOut.voucher != nil {
		return
	}
	now := c.now()
	if c.play.deferStart(time.Duration(c.cfg.Market.Timers.MinRoundMs)*time.Millisecond, now) {
		return
	}
	stake := c.play.bets[c.play.game]
	if c.credit() < stake {
		c.say(view.MsgInsufficientCredit, 0)
		c.play.stopAuto("credit") // MS-5: Auto stops when credit is too low
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
	r := &roundState{n: n, game: c.play.game, stake: stake, phase: phaseWaitOutcome}
	c.play.begin(r, now)
	c.askOutcome(r)
}

func (c *Cabinet) askOutcome(r *roundState) {
	g, err := engine.Lookup(r.game)
	if err != nil {
		c.setTilt("game", err.Error(), true)
		return
	}
	r.ask.inFlight = true
	n, game, model, stake := r.n, r.game, g.ModelID(), r.stake
	c.loop.async(func(ctx context.Context) Event {
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
			c.holdRound(r, "outcome_refused", e.err, "outcome", "outcome mismatch: "+e.err.Error())
			return
		}
		var refused *link.RefusedError
		if errors.As(e.err, &refused) && refused.Reason == link.ReasonRoundVoid {
			c.roundVoided(r, refused)
			return
		}
		if errors.As(e.err, &refused) && (r.ask.held || !link.DrewNothing(refused.Reason)) {
			// Refused in a way that does not prove it was never drawn (an
			// admission refusal, a refused held round): held, not refunded;
			// the round ends as the central system then answers it (its
			// outcome, or ROUND_VOID).
			c.holdRound(r, "round_refusal_held", refused, "central_refused", fmt.Sprintf("central system refused round %d (%s): held, not refunded", r.n, refused.Reason))
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
			c.play.endRound("refused")
			return
		}
		// No reply: the wager stays open and is asked again (idempotent
		// on the round number) once the link is back.
		r.askAt(c.now().Add(2 * time.Second))
		return
	}
	if err := checkOutcome(r, e.outcome); err != nil {
		c.holdRound(r, "outcome_refused", err, "outcome", "outcome mismatch: "+err.Error())
		return
	}
	env, _ := json.Marshal(outcomeEnvelope{Body: e.outcome.Body, Signature: e.outcome.Signature})
	if err := c.led.Outcome(r.n, int64(e.outcome.Result.Total), env); err != nil {
		c.ledgerFailed("the outcome", err)
		return
	}
	c.play.present(r, e.outcome, c.now(), c.cfg.Timing)
}

// checkOutcome verifies that the outcome answers round r and that the
// engine reproduces it from its tape (house rule 3).
func checkOutcome(r *roundState, o *link.Outcome) error {
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
	if o := e.Open; o != nil && !e.Committed && checkOutcome(r, o) == nil {
		env, _ := json.Marshal(outcomeEnvelope{Body: o.Body, Signature: o.Signature})
		if err := c.led.Outcome(r.n, int64(o.Result.Total), env); err != nil {
			c.ledgerFailed("the outcome", err)
			return
		}
		c.play.present(r, o, c.now(), c.cfg.Timing)
		return
	}
	c.holdRound(r, "round_drawn_elsewhere", e, "central_round", fmt.Sprintf("central round differs from journal round %d: %v", r.n, e.Refusal.Reason))
}

// present is step 5: lay the round out on the clock.
func (p *playState) present(r *roundState, o *link.Outcome, now time.Time, tm Timing) {
	r.outcome, r.result = o, o.Result
	if o.Jackpot != nil {
		r.jackpot = o.Jackpot.Amount
	}
	r.phase = phasePresenting
	r.step, r.paid, r.pending = 0, 0, o.Result.Total
	r.timeline = make([]view.StepTime, len(r.result.Steps))
	r.plan(0, now, tm)
	p.showRound(r)
}

func (p *playState) showRound(r *roundState) {
	v := &view.Round{Number: r.n, Game: r.game, Stake: r.stake, Steps: r.result.Steps,
		Timeline: append([]view.StepTime(nil), r.timeline...), Total: r.result.Total, Jackpot: r.jackpot}
	p.shown = v
}

// plan places steps from..end on the clock starting at t.
func (r *roundState) plan(from int, t time.Time, tm Timing) {
	for i := from; i < len(r.result.Steps); i++ {
		s := &r.result.Steps[i]
		st := view.StepTime{Start: t}
		spin := tm.Spin
		if s.Kind != engine.StepBase {
			spin = tm.FreeSpin
		}
		layout, _ := engine.LayoutOf(r.game)
		reels := layout.Reels
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

// shortenSpin: Stop brings the reels of the current step to rest now; it
// reports whether the timeline changed.
func (r *roundState) shortenSpin(now time.Time, tm Timing) bool {
	st := r.timeline[r.step]
	if !now.Before(st.Stops[4]) {
		return false
	}
	quick := tm
	quick.Spin, quick.ReelGap = 0, quick.ReelGap/4
	r.plan(r.step, now, quick)
	r.plan(r.step+1, r.timeline[r.step].End, tm)
	return true
}

// advance moves the presentation along the clock; held (a door open, a
// RAM error: check 16) stops it at the end of the current step. It
// reports whether the whole round has been shown.
func (p *playState) advance(r *roundState, now time.Time, held bool) bool {
	for r.step < len(r.result.Steps) && !now.Before(r.timeline[r.step].End) {
		r.paid += r.result.Steps[r.step].Pay
		p.win = r.paid
		r.step++
		if r.step < len(r.result.Steps) && held {
			r.paused = true
			return false
		}
	}
	if r.step < len(r.result.Steps) {
		return false
	}
	p.win = r.result.Total
	return true
}

// unpause: the door closed; the presentation goes on from the step it
// stopped at. It reports whether it was paused.
func (p *playState) unpause(r *roundState, now time.Time, tm Timing) bool {
	if r.phase != phasePresenting || !r.paused {
		return false
	}
	r.paused = false
	r.plan(r.step, now, tm)
	p.showRound(r)
	return true
}

// riskAllowed: a game whose layout offers Risk (Magic Stars), a win of the
// standard game without free spins or a jackpot, whose double stays within
// the round cap and below the large win (MS-9, MS-7).
func (r *roundState) riskAllowed(largeWin engine.Money) bool {
	layout, _ := engine.LayoutOf(r.game)
	return layout.Risk && r.jackpot == 0 && !r.features() &&
		engine.RiskAllowed(r.pending, roundCap(r.game)) && r.pending < largeWin
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
	now := c.now()
	c.play.settled(r, now)
	c.player.pollNow(now) // what is left of the player's limits moved
	c.play.startCountUp(r, engine.Money(s.Credit), c.cfg.Timing, now)
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
			if r.paused || !c.play.advance(r, now, c.cond.doorOpen() || c.cond.ramError) {
				break
			}
			// The whole round has been shown: Risk where the rules allow
			// it, else the settlement.
			if r.riskAllowed(c.cfg.Market.Limits.LargeWin) {
				r.offerRisk(c.now().Add(c.cfg.Timing.RiskOffer))
			} else {
				c.settle(r)
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
		if why := c.blocked(); why != "" {
			c.play.stopAuto("blocked: " + why)
		} else {
			c.startRound()
		}
	}
	c.tickMoney(now)
	c.play.tickMessage(now)
	c.tickPlayer(now)
	c.tickPowerOff(now)
}

package cabinet

import (
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The status line is one slot: the latest message replaces the one before,
// but a refusal (the answer to a press) only covers a standing message
// (a cash-out's, a handpay's) for refusalShown, which then shows again; a
// message about a voucher goes once the voucher is no longer where it
// said (taken from the chute, or money came in). The display gives the
// slot to a round's win caption while the round is presented.

// afterRound is what the screen shows after a press or a round, on the
// cabinet's clock: when the status line's refusal ends, and the win that
// counts up.
type afterRound struct {
	messageUntil time.Time // zero: until replaced
	// under is the standing message a refusal covers, and its amount.
	under       string
	underAmount engine.Money
	// countUp is the last settled win counting up on screen (nil: none
	// since the round started); presentation only, the ledger has it.
	countUp *view.CountUp
}

// refusalShown is how long the answer to a press stays on the status line.
const refusalShown = 4 * time.Second

// expires: the messages that answer a press and are stale once read.
func expires(msg string) bool { return view.Refusal(msg) }

// say puts msg (a view.Msg*, "" for none) with its amount on the status line.
func (c *Cabinet) say(msg string, amount engine.Money) {
	a := &c.play.after
	switch {
	case msg != "" && expires(msg) && !expires(c.play.message):
		a.under, a.underAmount = c.play.message, c.play.messageAmount
	case !expires(msg):
		a.under, a.underAmount = "", 0
	}
	c.play.message, c.play.messageAmount = msg, amount
	a.messageUntil = time.Time{}
	if expires(msg) {
		a.messageUntil = c.now().Add(refusalShown)
	}
}

// unsay takes msg off the status line (or from under a refusal) if it is there.
func (c *Cabinet) unsay(msg string) {
	if c.play.after.under == msg {
		c.play.after.under, c.play.after.underAmount = "", 0
	}
	if c.play.message == msg {
		c.endMessage()
	}
}

// endMessage ends the message on the line: the one it covered shows again.
func (c *Cabinet) endMessage() {
	under, amount := c.play.after.under, c.play.after.underAmount
	c.say(under, amount)
}

// tickMessage ends an expired refusal.
func (c *Cabinet) tickMessage(now time.Time) {
	if c.play.message != "" && !c.play.after.messageUntil.IsZero() && !now.Before(c.play.after.messageUntil) {
		c.endMessage()
	}
}

// ticketTaken: "Voucher printed – please take it" becomes "Paid out" with
// the amount (check 33 keeps the amount until the next game).
func (c *Cabinet) ticketTaken() {
	a := &c.play.after
	if a.under == view.MsgCashoutDone {
		a.under = view.MsgCashoutPaid
	}
	if c.play.message == view.MsgCashoutDone {
		c.say(view.MsgCashoutPaid, c.play.messageAmount)
	}
	c.unsay(view.MsgTakeTicket)
}

// moneyCame: credit came in (a note, a ticket, perhaps the voucher just
// printed): the cash-out's line is over.
func (c *Cabinet) moneyCame() {
	c.unsay(view.MsgCashoutDone)
	c.unsay(view.MsgCashoutPaid)
	c.unsay(view.MsgNoteRefused)
	c.unsay(view.MsgTicketRefused)
	if c.play.message == view.MsgInsufficientCredit && c.credit() >= c.play.bets[c.play.game] {
		c.endMessage()
	}
}

// ---- the count-up ------------------------------------------------------

// startCountUp: the round's win, already credited, counts up on screen.
func (c *Cabinet) startCountUp(r *roundState, credited engine.Money) {
	c.play.after.countUp = nil
	if credited <= 0 {
		return
	}
	tier := view.TierOf(credited, r.stake)
	d := c.cfg.Timing.countUpFor(tier)
	if d <= 0 {
		return
	}
	// The Win field counts on from what it showed: the steps before the
	// last one (their pays were added as each ended), or, after a Risk
	// offer, the whole win (it then only goes into the Credit field).
	from := credited
	if r.phase == phasePresenting {
		from = 0
		if n := len(r.result.Steps); n > 0 {
			from = max(min(r.result.Total-r.result.Steps[n-1].Pay, credited), 0)
		}
	}
	now := c.now()
	c.play.after.countUp = &view.CountUp{Round: r.n, Amount: credited, From: from, Stake: r.stake, Start: now, End: now.Add(d), Tier: tier}
	// Auto plays on once the player has seen the win.
	c.play.nextAuto = c.play.after.countUp.End
}

// skipCountUp: a button while the win counts up brings it to the final
// amount. Start, Auto, Risk, Stop and Info do nothing else (no new round
// from that press; Stop also ends Auto) and it reports the press taken;
// Collect and the bet buttons go on to do what they do.
func (c *Cabinet) skipCountUp(b view.Button) bool {
	now := c.now()
	cu := c.play.after.countUp
	if c.play.round != nil || !cu.Running(now) {
		return false
	}
	done := *cu
	done.End = now
	if done.End.Before(done.Start) {
		done.End = done.Start
	}
	c.play.after.countUp = &done
	if now.Before(c.play.nextAuto) {
		c.play.nextAuto = now
	}
	switch b {
	case view.Stop:
		c.play.auto = false
	case view.Collect, view.BetPlus, view.BetMinus:
		return false
	}
	return true
}

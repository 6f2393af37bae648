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
func (c *Cabinet) say(msg string, amount engine.Money) { c.play.say(msg, amount, c.now()) }

// say puts msg on the status line at now.
func (p *playState) say(msg string, amount engine.Money, now time.Time) {
	a := &p.after
	switch {
	case msg != "" && expires(msg) && !expires(p.message):
		a.under, a.underAmount = p.message, p.messageAmount
	case !expires(msg):
		a.under, a.underAmount = "", 0
	}
	p.message, p.messageAmount = msg, amount
	a.messageUntil = time.Time{}
	if expires(msg) {
		a.messageUntil = now.Add(refusalShown)
	}
}

// unsay takes msg off the status line (or from under a refusal) if it is there.
func (p *playState) unsay(msg string, now time.Time) {
	if p.after.under == msg {
		p.after.under, p.after.underAmount = "", 0
	}
	if p.message == msg {
		p.endMessage(now)
	}
}

// endMessage ends the message on the line: the one it covered shows again.
func (p *playState) endMessage(now time.Time) {
	under, amount := p.after.under, p.after.underAmount
	p.say(under, amount, now)
}

// tickMessage ends an expired refusal.
func (p *playState) tickMessage(now time.Time) {
	if p.message != "" && !p.after.messageUntil.IsZero() && !now.Before(p.after.messageUntil) {
		p.endMessage(now)
	}
}

// ticketTaken: "Voucher printed – please take it" becomes "Paid out" with
// the amount (check 33 keeps the amount until the next game).
func (p *playState) ticketTaken(now time.Time) {
	a := &p.after
	if a.under == view.MsgCashoutDone {
		a.under = view.MsgCashoutPaid
	}
	if p.message == view.MsgCashoutDone {
		p.say(view.MsgCashoutPaid, p.messageAmount, now)
	}
	p.unsay(view.MsgTakeTicket, now)
}

// moneyCame: credit came in (a note, a ticket, perhaps the voucher just
// printed): the cash-out's line is over.
func (p *playState) moneyCame(credit engine.Money, now time.Time) {
	p.unsay(view.MsgCashoutDone, now)
	p.unsay(view.MsgCashoutPaid, now)
	p.unsay(view.MsgNoteRefused, now)
	p.unsay(view.MsgTicketRefused, now)
	if p.message == view.MsgInsufficientCredit && credit >= p.bets[p.game] {
		p.endMessage(now)
	}
}

// ---- the count-up ------------------------------------------------------

// startCountUp: the round's win, already credited, counts up on screen.
func (p *playState) startCountUp(r *roundState, credited engine.Money, tm Timing, now time.Time) {
	p.after.countUp = nil
	if credited <= 0 {
		return
	}
	tier := view.TierOf(credited, r.stake)
	d := tm.countUpFor(tier)
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
	p.after.countUp = &view.CountUp{Round: r.n, Amount: credited, From: from, Stake: r.stake, Start: now, End: now.Add(d), Tier: tier}
	// Auto plays on once the player has seen the win.
	p.nextAuto = p.after.countUp.End
}

// skipCountUp: a button while the win counts up brings it to the final
// amount. Start, Auto, Risk, Stop and Info do nothing else (no new round
// from that press; Stop also ends Auto) and it reports the press taken;
// Collect and the bet buttons go on to do what they do.
func (p *playState) skipCountUp(b view.Button, now time.Time) bool {
	cu := p.after.countUp
	if p.round != nil || !cu.Running(now) {
		return false
	}
	done := *cu
	done.End = now
	if done.End.Before(done.Start) {
		done.End = done.Start
	}
	p.after.countUp = &done
	if now.Before(p.nextAuto) {
		p.nextAuto = now
	}
	switch b {
	case view.Stop:
		p.stopAuto("stop")
	case view.Collect, view.BetPlus, view.BetMinus:
		return false
	}
	return true
}

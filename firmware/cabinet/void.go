package cabinet

import (
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// A drawn round is a wager at the central system: its stake is booked
// there as it is drawn, so the cabinet never refunds it on its own. When
// the cabinet cannot accept the drawn round (an outcome that does not
// mirror or verify, or the central system holds another round drawn by a
// copy of the key) it tilts for a technician and holds the wager open,
// asking for the round again (HeldRoundPoll, backing off, and whenever the
// link comes back or the cabinet starts). The central operator resolves it: `polaris-central admin
// void` books the refund centrally, and the next answer to the round is
// ROUND_VOID, on which the cabinet refunds the stake: once, the ledger's
// refund is keyed on the round and closes it, so a power cut on either
// side of it neither loses nor repeats it. The technician clears the tilt.

// A held round is asked for again after HeldRoundPoll, then at twice the
// previous wait up to MaxHeldRoundPoll: a void reaches the player within
// that, and a round drawn by a copy of the key (each ask a ROUND_CONFLICT
// alarm at the central system) does not flood the operator's alarms.
const (
	HeldRoundPoll    = 15 * time.Second
	MaxHeldRoundPoll = 2 * time.Minute
)

// refuseOutcome: the outcome of round r does not answer it, mirror or
// verify. Nothing is paid, nothing refunded: the cabinet tilts, logs
// outcome_refused (the central system raises an alarm on it) and holds
// the wager.
func (c *Cabinet) refuseOutcome(r *roundState, why error) {
	if !r.ask.held {
		c.logEvent("outcome_refused", "central", fmt.Sprintf("round %d %s stake %d: %v", r.n, r.game, r.stake, why), r.stake)
	}
	c.setTilt("outcome", "outcome mismatch: "+why.Error(), true)
	r.hold(c.now())
}

// roundVoided: the central operator voided the round; its stake goes back
// (the ledger's refund of this round: repeated, it is acknowledged and
// changes nothing). A tilt stays until the technician clears it.
func (c *Cabinet) roundVoided(r *roundState, v *link.RefusedError) {
	if err := c.led.Refund(r.n, "voided by the central system"); err != nil {
		c.ledgerFailed("the refund of a voided round", err)
		return
	}
	c.logEvent("round_voided", "central", fmt.Sprintf("round %d: %s", r.n, v.Message), r.stake)
	c.say(view.MsgRoundRefused, 0)
	c.play.endRound("voided")
}

// refusalHeld: the central system refused the round in a way that does not
// prove it was never drawn (an admission refusal, a refused held round):
// no refund; the cabinet tilts and holds the wager, asking again, and the
// round ends as the central system then answers it (its outcome, or
// ROUND_VOID).
func (c *Cabinet) refusalHeld(r *roundState, e *link.RefusedError) {
	if !r.ask.held {
		c.logEvent("round_refusal_held", "central", fmt.Sprintf("round %d %s stake %d: %v", r.n, r.game, r.stake, e), r.stake)
	}
	c.setTilt("central_refused", fmt.Sprintf("central system refused round %d (%s): held, not refunded", r.n, e.Reason), true)
	r.hold(c.now())
}

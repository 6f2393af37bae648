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

// holdRound: the cabinet cannot accept the drawn round r (its outcome
// does not answer it, mirror or verify; the central system holds another
// round drawn; it refused in a way that does not prove nothing was drawn).
// Nothing is paid, nothing refunded: the cabinet tilts for a technician
// (tilt: text), logs kind with why the first time (the central system
// raises an alarm on it) and holds the wager, asking again.
func (c *Cabinet) holdRound(r *roundState, kind string, why error, tilt, text string) {
	if !r.ask.held {
		c.logEvent(kind, "central", fmt.Sprintf("round %d %s stake %d: %v", r.n, r.game, r.stake, why), r.stake)
	}
	c.setTilt(tilt, text, true)
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

package cabinet

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// powerUp restores the state of the last power-down from the ledger: a
// RAM error stays a RAM error; tilts that need a technician are shown
// again; lockups wait for the attendant; an open round is finished with
// its own outcome (asked again when it had none: the central system
// answers with the same one).
func (c *Cabinet) powerUp() {
	c.cond.poweredUp(readOffState(c.led, c.now()))
	if err := c.led.PowerUp(); err != nil {
		c.ledgerFailed("the power-up", err)
		c.cond.owePowerUp(errors.Is(err, ledger.ErrCopyFault))
	}
	if c.led.RAMError() != nil {
		c.cond.ramFailed()
		return
	}
	for _, f := range c.led.Faults() {
		c.setTilt(copyFaultTilt(f))
	}
	if c.holds(condSoftware) {
		c.logEvent("software_verification_failed", "cabinet", c.cfg.Software.Error, 0)
		return
	}
	for k, t := range c.led.Resume().Tilts {
		// A device's tilt is shown again until the device, started again,
		// reports the condition gone (check 6). Any other ends with the
		// power cut (its condition is checked again), said in the log.
		if t.Manual || k == "acceptor" && c.cfg.Acceptor != nil || k == "printer" && c.cfg.Printer != nil {
			c.cond.setTilt(k, tilt{reason: t.Reason, source: k, manual: t.Manual})
			continue
		}
		c.refused("the tilt cleared "+k, c.led.ClearTilt(k, "cabinet", "not kept across the power cut: "+t.Reason), recordWrite)
	}
	c.checkSoftware()
	c.refreshLockups()
	for _, d := range c.led.PendingDocs() {
		if d.Kind == ledger.DocVoucher && d.Number == "" {
			// Requested, its number not journaled: the central system
			// may have issued it. Asked again under the same sequence
			// (answered with the same voucher, or issued now), then
			// printed and debited as any; play stays locked meanwhile.
			co := &cashoutState{doc: d.ID, amount: engine.Money(d.Amount), phase: voucherAsking, resumed: true}
			c.cashOut.start(co)
			if c.cond.linkUp {
				c.loop.async(co.askVoucher(c.cfg.Central))
			} else {
				co.askAt(c.now())
			}
			continue
		}
		if d.Kind == ledger.DocVoucher {
			// Whether its validation number reached paper is unknown,
			// and the central system holds it issued either way: the
			// voucher is printed again, marked duplicate, and debited
			// then (a ticket found waiting in the chute is the original:
			// debited as it is). The number is redeemable once, whichever
			// paper comes back; voiding it here would pay it twice.
			c.cashOut.start(&cashoutState{doc: d.ID, amount: engine.Money(d.Amount), validation: d.Number, phase: voucherHeld, reprint: true})
			c.setTilt(tiltVoucher, "voucher print interrupted by power loss: printing it again", false)
		}
	}
	if d := pendingEscrows(c.led); d > 0 {
		c.moneyIn.reconcileAfter(c.now().Add(reconcileGrace))
	} else {
		c.resumeRedeems()
	}
	lr, ok := c.led.OpenRound()
	if !ok {
		return
	}
	g, err := engine.Lookup(engine.GameID(lr.Game))
	if err != nil {
		c.setTilt("game", "open round of unknown game "+lr.Game, true)
		return
	}
	r := &roundState{n: lr.Number, game: g.ID(), stake: engine.Money(lr.Stake), phase: phaseWaitOutcome}
	c.play.resume(r, c.now())
	if lr.Status == ledger.RoundWagered {
		if c.cond.linkUp {
			c.askOutcome(r)
		} else {
			r.askAt(c.now())
		}
		return
	}
	o, err := c.outcomes.stored(lr, g)
	if err != nil {
		c.setTilt("outcome", "stored outcome of round unreadable: "+err.Error(), true)
		return
	}
	c.play.present(r, o, c.now(), c.cfg.Timing)
	if len(lr.Risk) > 0 {
		r.resumeRisk(lr)
		c.play.showRisk(r)
		if r.pending == 0 || !engine.RiskAllowed(r.pending, roundCap(r.game)) {
			c.settle(r)
		}
	}
}

// reconcileGrace is how long after start-up a pending note waits for the
// acceptor to report it stacked (a repeated VEND VALID) before it counts
// as returned.
const reconcileGrace = 5 * time.Second

// pendingEscrows counts the notes and tickets the ledger holds in escrow.
func pendingEscrows(led *ledger.Ledger) int {
	n := 0
	for _, d := range led.PendingDocs() {
		if d.Kind == ledger.DocBill || d.Kind == ledger.DocTicketIn {
			n++
		}
	}
	return n
}

// outcomes verifies the signed outcomes the ledger keeps again: the
// central system's key and the cabinet they were drawn for.
type outcomes struct {
	key     ed25519.PublicKey
	cabinet string
}

// stored is the outcome of round lr of game g, verified and mirrored again.
func (v outcomes) stored(lr ledger.Round, g engine.Game) (*link.Outcome, error) {
	var env outcomeEnvelope
	if err := json.Unmarshal(lr.Outcome, &env); err != nil {
		return nil, err
	}
	if v.key == nil {
		return nil, errors.New("no signing key to verify it")
	}
	o, err := link.VerifyOutcome(v.key, v.cabinet, link.OutcomeRequest{Round: lr.Number, Game: g.ID(),
		ModelID: g.ModelID(), Stake: engine.Money(lr.Stake)}, env.Body, env.Signature)
	if err != nil {
		return nil, err
	}
	r := &roundState{n: lr.Number, game: g.ID(), stake: engine.Money(lr.Stake)}
	if err := checkOutcome(r, o); err != nil {
		return nil, err
	}
	return o, nil
}

// recalled is stored for the recall, which also shows a
// round played on a retired model of its game (engine.RetiredModels): a
// round the cabinet played before a model change is shown as it was paid,
// verified and mirrored on the model it was drawn on. Only the recall: an
// open round is resumed on the current model alone.
func (v outcomes) recalled(lr ledger.Round, g engine.Game) (*link.Outcome, error) {
	o, err := v.stored(lr, g)
	if err == nil || v.key == nil {
		return o, err
	}
	var env outcomeEnvelope
	if json.Unmarshal(lr.Outcome, &env) != nil {
		return nil, err
	}
	for _, id := range engine.RetiredModels(g.ID()) {
		old, lerr := engine.LookupModel(g.ID(), id)
		if lerr != nil {
			continue
		}
		ro, verr := link.VerifyOutcome(v.key, v.cabinet, link.OutcomeRequest{Round: lr.Number, Game: g.ID(),
			ModelID: id, Stake: engine.Money(lr.Stake)}, env.Body, env.Signature)
		if verr != nil {
			continue // signed for another model
		}
		if _, merr := engine.Mirror(old, engine.Money(lr.Stake), ro.Tape, ro.Result); merr != nil {
			return nil, merr
		}
		return ro, nil
	}
	return nil, err
}

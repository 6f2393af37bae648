package cabinet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// moneyInState is the acceptor's side: the document in escrow and the
// acceptor's last command.
type moneyInState struct {
	escrow        *escrowState
	hooked        *id003.Document // stacked through BeforeAck; its Stacked event follows
	acceptorOn    bool            // last command sent: enabled
	acceptorKnown bool
	reconcileAt   time.Time // when pending escrows of a past power-up count as returned
}

// command: the acceptor is to be enabled (want) or inhibited; false: it
// was told so already.
func (s *moneyInState) command(want bool) bool {
	if s.acceptorKnown && want == s.acceptorOn {
		return false
	}
	s.acceptorKnown, s.acceptorOn = true, want
	return true
}

// reset: the acceptor started again; what it was told is unknown.
func (s *moneyInState) reset() { s.acceptorKnown = false }

// reconcileAfter: the pending escrows of a past power-up count as
// returned at t, unless the acceptor reports them first.
func (s *moneyInState) reconcileAfter(t time.Time) { s.reconcileAt = t }

// reconcileDue: the time to reconcile has come (once).
func (s *moneyInState) reconcileDue(now time.Time) bool {
	if s.reconcileAt.IsZero() || now.Before(s.reconcileAt) {
		return false
	}
	s.reconcileAt = time.Time{}
	return true
}

// hold: es is in escrow.
func (s *moneyInState) hold(es *escrowState) { s.escrow = es }

// release: es left the escrow (stacked or returned).
func (s *moneyInState) release(es *escrowState) {
	if s.escrow == es {
		s.escrow = nil
	}
}

// clear: nothing is in escrow (a power-up's reconciliation, a RAM clear).
func (s *moneyInState) clear() { s.escrow = nil }

// stacked: doc was journaled by the BeforeAck hook; its Stacked event follows.
func (s *moneyInState) stacked(doc id003.Document) { s.hooked = &doc }

// takeHooked: doc's Stacked event, journaled already by the hook.
func (s *moneyInState) takeHooked(doc id003.Document) bool {
	if s.hooked == nil || *s.hooked != doc {
		return false
	}
	s.hooked = nil
	return true
}

// escrowState is the note or ticket in the acceptor's escrow.
type escrowState struct {
	doc    uint64
	kind   ledger.DocKind
	amount engine.Money
	number string
	hold   string // the central system's hold on a ticket being redeemed
	// decided: Stack or Return was sent.
	decided bool
}

// canAccept says whether money may come in now (check 20).
func (c *Cabinet) canAccept() bool {
	if c.test != nil {
		return c.cfg.Acceptor != nil // the acceptor test: read and returned
	}
	if c.blocked() != "" || c.cfg.Acceptor == nil {
		return false
	}
	if c.cashOut.voucher != nil {
		return false
	}
	// A document of the last power-up is still pending: the acceptor
	// takes nothing new until it is reconciled (one document at a time).
	if !c.moneyIn.reconcileAt.IsZero() {
		return false
	}
	if c.play.round != nil && c.cfg.Market.Timers.AcceptorOffDuringPlay {
		return false
	}
	return c.credit() < c.cfg.Market.Limits.Credit
}

// updateAcceptor enables or inhibits the acceptor whenever that changes.
func (c *Cabinet) updateAcceptor() {
	if c.cfg.Acceptor == nil || c.poweredOff {
		return
	}
	want := c.canAccept() && c.moneyIn.escrow == nil
	if !c.moneyIn.command(want) {
		return
	}
	acc := c.cfg.Acceptor
	c.loop.async(func(ctx context.Context) Event {
		var err error
		if want {
			err = acc.Enable(ctx, id003.Accept{Notes: id003.AllDenoms, Tickets: true})
		} else {
			err = acc.Disable(ctx)
		}
		return deviceDone{what: fmt.Sprintf("acceptor enable=%v", want), err: err}
	})
}

// acceptorCall is command fn (Acceptor.Stack, Return, Hold) to acc, to
// run off the loop; what names it in the log if it fails.
func acceptorCall(acc Acceptor, fn func(a Acceptor, ctx context.Context) error, what string) func(context.Context) Event {
	return func(ctx context.Context) Event {
		return deviceDone{what: what, err: fn(acc, ctx)}
	}
}

// billValue is note d's value in the market's minor units, 0 if the
// market takes no such note.
func billValue(m *market.Profile, d id003.Document) engine.Money {
	if d.Denom.Base == 0 {
		return 0
	}
	v := engine.Money(d.Denom.Minor(m.Currency.MinorUnits))
	for _, b := range m.Limits.Bills {
		if b == v {
			return v
		}
	}
	return 0
}

func (c *Cabinet) acceptorEvent(e id003.Event) {
	switch e := e.(type) {
	case id003.Escrow:
		c.escrowed(e.Doc)
	case id003.Stacked:
		// Normally journaled already by the BeforeAck hook; a driver
		// without the hook lands here.
		if c.moneyIn.takeHooked(e.Doc) {
			return
		}
		if err := c.journalStack(e); err != nil {
			c.cfg.Hooks.Logf("cabinet: stacked: %v", err)
		}
	case id003.Returned:
		c.documentBack("returned: " + e.Reason)
	case id003.Rejected:
		if e.Doc != nil {
			c.documentBack("rejected: " + e.Code.String())
		}
		if e.Doc != nil && e.Doc.Kind == id003.DocTicket {
			c.say(view.MsgTicketRefused, 0)
		} else {
			c.say(view.MsgNoteRefused, 0)
		}
		c.logEvent("bill_rejected", "acceptor", e.Code.String(), 0)
	case id003.PowerUpWithBill:
		c.powerUpWithBill(e)
	case id003.Fault:
		c.setTilt("acceptor", "acceptor: "+e.Kind.String(), false)
	case id003.FaultCleared:
		c.clearTilt("acceptor")
	case id003.CommLost:
		c.setTilt("acceptor", "acceptor: communication lost", false)
	case id003.Ready:
		c.clearTilt("acceptor")
		c.moneyIn.reset() // set enable/inhibit again after a reset
		if pendingEscrows(c.led) > 0 && c.moneyIn.escrow == nil {
			c.moneyIn.reconcileAfter(c.now().Add(reconcileGrace))
		}
	}
}

// escrowed: a pending record first, then the decision (stack or return).
func (c *Cabinet) escrowed(d id003.Document) {
	if c.moneyIn.escrow != nil {
		return // the driver repeats escrow while the document is decided on
	}
	if c.test != nil {
		// In test mode a document is read, shown and returned.
		c.test.readDoc(testRead(c.cfg.Market, d))
		c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (test mode)"))
		c.showTest()
		return
	}
	if !c.canAccept() {
		c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (cannot accept)"))
		return
	}
	id := c.led.NextDocID()
	switch d.Kind {
	case id003.DocNote:
		v := billValue(c.cfg.Market, d)
		if v == 0 {
			c.say(view.MsgNoteRefused, 0)
			c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (unknown note)"))
			return
		}
		if err := c.led.Escrow(id, ledger.DocBill, int64(v), ""); err != nil {
			c.ledgerFailed("the escrow", err)
			c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (ledger)"))
			return
		}
		c.moneyIn.hold(&escrowState{doc: id, kind: ledger.DocBill, amount: v, decided: true})
		c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Stack, "stack"))
	case id003.DocTicket:
		if ticketCredited(c.led, d.Ticket) {
			// Credited here already: while its confirmation is on the way
			// the central system would hand this cabinet the same hold
			// again, so a copy must be refused here (check 24).
			c.say(view.MsgTicketRefused, 0)
			c.logEvent("ticket_refused", "cabinet", "already credited: "+ledger.Mask(d.Ticket), 0)
			c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (ticket already credited)"))
			return
		}
		if err := c.led.Escrow(id, ledger.DocTicketIn, 0, d.Ticket); err != nil {
			c.ledgerFailed("the escrow", err)
			c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (ledger)"))
			return
		}
		c.moneyIn.hold(&escrowState{doc: id, kind: ledger.DocTicketIn, number: d.Ticket})
		// Hold keeps the ticket in escrow while the central system
		// validates it, so the acceptor's time-out does not return it.
		c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Hold, "hold"))
		number := d.Ticket
		c.loop.async(func(ctx context.Context) Event {
			h, err := c.cfg.Central.RedeemVoucher(ctx, number)
			return redeemReply{doc: id, number: number, hold: h, err: err}
		})
	default:
		c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (unknown document)"))
	}
}

func (c *Cabinet) redeemArrived(e redeemReply) {
	es := c.moneyIn.escrow
	if es == nil || es.doc != e.doc {
		if e.hold != nil { // the ticket is gone: let the central system release it
			c.loop.async(cancelRedeem(c.cfg.Central, e.number, e.hold.Hold))
		}
		return
	}
	if e.err != nil || e.hold == nil || e.hold.Amount <= 0 || c.blocked() != "" {
		// Returned on any doubt (check 24).
		if e.hold != nil {
			c.loop.async(cancelRedeem(c.cfg.Central, e.number, e.hold.Hold))
		}
		c.say(view.MsgTicketRefused, 0)
		if e.err != nil {
			c.logEvent("ticket_refused", "central", link.Reason(e.err), 0)
		}
		es.decided = true
		c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (ticket refused)"))
		return
	}
	es.amount, es.hold, es.decided = e.hold.Amount, e.hold.Hold, true
	// The hold is journaled before the ticket is stacked, so that a power
	// cut can never leave a credited ticket unconfirmed at the central
	// system (where an expired hold would make it redeemable again).
	if c.refused("the ticket's hold", c.led.HoldTicket(es.doc, es.hold, int64(es.amount)), moneyWrite) {
		es.hold = ""
		c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Return, "return (ledger)"))
		return
	}
	c.loop.async(acceptorCall(c.cfg.Acceptor, Acceptor.Stack, "stack ticket"))
}

// cancelRedeem releases the central system's hold on a ticket that is
// gone, off the loop.
func cancelRedeem(central Central, number, hold string) func(context.Context) Event {
	return func(ctx context.Context) Event {
		return deviceDone{what: "cancel redeem", err: central.CancelRedeem(ctx, number, hold)}
	}
}

// journalStack credits a stacked document exactly once (check 19). It runs
// before the acceptor's ACK; a repeat for the same document is a no-op.
func (c *Cabinet) journalStack(s id003.Stacked) error {
	es := c.moneyIn.escrow
	if es == nil {
		// A stack nobody escrowed: look for the pending record of a
		// restart; without one no credit, and an event (check 19).
		for _, d := range c.led.PendingDocs() {
			if d.Kind == ledger.DocBill && s.Doc.Kind == id003.DocNote && engine.Money(d.Amount) == billValue(c.cfg.Market, s.Doc) {
				return c.stackDoc(&escrowState{doc: d.ID, kind: d.Kind, amount: engine.Money(d.Amount)})
			}
		}
		c.logEvent("unsolicited_stack", "acceptor", s.Doc.String(), 0)
		return nil
	}
	if es.kind == ledger.DocTicketIn && es.hold == "" {
		// Stacked before validation: no credit; a technician must look.
		c.setTilt("acceptor", "ticket stacked without validation", true)
		return nil
	}
	if err := c.stackDoc(es); err != nil {
		return err
	}
	c.moneyIn.stacked(s.Doc)
	return nil
}

func (c *Cabinet) stackDoc(es *escrowState) error {
	if err := c.led.Stacked(es.doc, int64(es.amount)); c.refused("the stacked document", err, retriedWrite) {
		return err // no ACK: the driver asks again
	}
	c.verify("money in")
	c.play.moneyCame(c.credit(), c.now())
	if es.kind == ledger.DocTicketIn && es.hold != "" {
		c.loop.async(es.intent().settle(c.cfg.Central, es.doc, true))
	}
	c.moneyIn.release(es)
	return nil
}

// documentBack: the note or ticket went back to the customer.
func (c *Cabinet) documentBack(why string) {
	es := c.moneyIn.escrow
	if es == nil {
		return
	}
	if err := c.led.Returned(es.doc); err != nil {
		c.ledgerFailed("the return", err)
	}
	if es.kind == ledger.DocTicketIn && es.hold != "" {
		c.loop.async(es.intent().settle(c.cfg.Central, es.doc, false))
	}
	c.moneyIn.release(es)
}

// powerUpWithBill reconciles a document found in the acceptor at power-up
// with the pending record: in the stacker it is credited (once), in the
// acceptor it goes back. It runs from the driver's BeforeReset hook and
// again at the event: the second finds nothing pending.
func (c *Cabinet) powerUpWithBill(e id003.PowerUpWithBill) error {
	var failed error
	fail := func(what string, err error) {
		c.ledgerFailed(what, err)
		if failed == nil {
			failed = err
		}
	}
	for _, d := range c.led.PendingDocs() {
		if d.Kind != ledger.DocBill && d.Kind != ledger.DocTicketIn {
			continue
		}
		if e.Where == id003.InStacker && d.Kind == ledger.DocBill {
			if err := c.led.Stacked(d.ID, d.Amount); err != nil {
				fail("the recovered stack", err)
			}
			c.logEvent("power_up_with_bill", "acceptor", "in stacker: credited", engine.Money(d.Amount))
		} else if e.Where == id003.InStacker {
			if r, ok := c.led.Resume().Holds[d.ID]; ok && r.Hold != "" && r.Amount > 0 {
				// Validated by the central system, its hold journaled, and
				// now in the cash box: credited, and the hold confirmed.
				if err := c.stackDoc(&escrowState{doc: d.ID, kind: d.Kind, number: r.Number, hold: r.Hold, amount: engine.Money(r.Amount)}); err != nil {
					fail("the recovered ticket", err)
				}
				c.logEvent("power_up_with_bill", "acceptor", "ticket in stacker: credited", engine.Money(r.Amount))
				continue
			}
			// A ticket whose validation was not journaled cannot be credited
			// here: the attendant checks it with the central system.
			c.setTilt("acceptor", "ticket in stacker at power-up: check with the central system", true)
			continue
		} else {
			if err := c.led.Returned(d.ID); err != nil {
				fail("the recovered return", err)
			}
		}
	}
	c.moneyIn.clear()
	return failed
}

// reconcileEscrow: after the acceptor's start-up, an escrow the ledger still
// holds as pending that the acceptor no longer has went back to the player.
func (c *Cabinet) reconcileEscrow() {
	if c.moneyIn.escrow != nil {
		return
	}
	defer c.resumeRedeems()
	for _, d := range c.led.PendingDocs() {
		if d.Kind == ledger.DocBill || d.Kind == ledger.DocTicketIn {
			if err := c.led.Returned(d.ID); err != nil {
				c.ledgerFailed("the stale escrow", err)
			}
		}
	}
}

// redeemIntent is a ticket the central system holds for this cabinet, as
// the calls to it name it; the ledger keeps it (ledger.TicketHold) until
// the central system has confirmed or released it.
type redeemIntent struct {
	Number string       `json:"number"`
	Hold   string       `json:"hold"`
	Amount engine.Money `json:"amount"`
}

type redeemDone struct {
	doc uint64
	err error
}

func (redeemDone) event() {}

// ticketCredited: a ticket of this number was credited here (the money-in
// log is written in the credit's own transaction).
func ticketCredited(led *ledger.Ledger, number string) bool {
	for _, d := range led.DocsIn() {
		if d.Kind == ledger.DocTicketIn && d.Number == number && d.Result == ledger.DocStacked {
			return true
		}
	}
	return false
}

// intent is the central system's hold on the ticket in escrow.
func (es *escrowState) intent() redeemIntent {
	return redeemIntent{Number: es.number, Hold: es.hold, Amount: es.amount}
}

func intentOf(h ledger.TicketHold) redeemIntent {
	return redeemIntent{Number: h.Number, Hold: h.Hold, Amount: engine.Money(h.Amount)}
}

// settle confirms (the ticket was credited) or releases (it went
// back) a hold; the intent is dropped only when the central system answered.
func (r redeemIntent) settle(central Central, doc uint64, confirm bool) func(context.Context) Event {
	return func(ctx context.Context) Event {
		var err error
		if confirm {
			err = central.ConfirmRedeem(ctx, r.Number, r.Hold, r.Amount)
		} else {
			err = central.CancelRedeem(ctx, r.Number, r.Hold)
		}
		return redeemDone{doc: doc, err: err}
	}
}

func (c *Cabinet) redeemSettled(e redeemDone) {
	if e.err != nil {
		var refused *link.RefusedError
		if !errors.As(e.err, &refused) {
			return // no answer: retried at the next reconciliation
		}
		c.logEvent("ticket_confirm_refused", "central", e.err.Error(), 0)
	}
	c.refused("the settled hold", c.led.HoldSettled(e.doc), moneyWrite)
}

// resumeRedeems settles the holds a power cut left: a ticket the ledger
// credited is confirmed, one it returned is released (the ledger marked
// each in the transaction that ended its escrow); one still in escrow
// waits for the acceptor's reconciliation.
func (c *Cabinet) resumeRedeems() {
	for doc, h := range c.led.Resume().Holds {
		switch h.Result {
		case "":
		case ledger.DocStacked:
			c.loop.async(intentOf(h).settle(c.cfg.Central, doc, true))
		default:
			c.loop.async(intentOf(h).settle(c.cfg.Central, doc, false))
		}
	}
}

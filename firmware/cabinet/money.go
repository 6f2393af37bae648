package cabinet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/market"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/money"
)

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

// cashoutState is a voucher being issued and printed.
type cashoutState struct {
	doc        uint64
	amount     engine.Money
	validation string
	job        printer.JobID // 0 until the driver names it
	phase      voucherPhase
	reprint    bool          // a power cut interrupted its first print: DUPLICATE
	retryAt    time.Time     // a reprint the printer refused, or a number not answered, is tried again then
	asking     bool          // its number is being asked of the central system
	askWait    time.Duration // the wait before the last ask again (voucherAskRetry, doubling)
	resumed    bool          // requested before a power cut: asked again at power-up
}

// voucherPhase is where a voucher is in its life; each phase is left only
// forward, except that a reprint the printer refused goes back to held.
type voucherPhase int

const (
	voucherAsking   voucherPhase = iota // journaled as requested; its number asked of the central system
	voucherHeld                         // journaled as printing, not with the printer: a reprint waiting for it
	voucherPrinting                     // journaled and sent to the printer
	voucherIssued                       // its validation number is on paper: debited (check 22)
)

// tiltVoucher is the tilt of a voucher being printed again after a power cut
// or a print the printer did not confirm.
const tiltVoucher = "voucher"

// canAccept says whether money may come in now (check 20).
func (c *Cabinet) canAccept() bool {
	if c.menus.test != nil {
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
	if c.moneyIn.acceptorKnown && want == c.moneyIn.acceptorOn {
		return
	}
	c.moneyIn.acceptorKnown, c.moneyIn.acceptorOn = true, want
	acc := c.cfg.Acceptor
	c.async(func(ctx context.Context) Event {
		var err error
		if want {
			err = acc.Enable(ctx, id003.Accept{Notes: id003.AllDenoms, Tickets: true})
		} else {
			err = acc.Disable(ctx)
		}
		return deviceDone{what: fmt.Sprintf("acceptor enable=%v", want), err: err}
	})
}

func (c *Cabinet) acceptor(fn func(a Acceptor, ctx context.Context) error, what string) {
	acc := c.cfg.Acceptor
	c.async(func(ctx context.Context) Event {
		return deviceDone{what: what, err: fn(acc, ctx)}
	})
}

func (c *Cabinet) billValue(d id003.Document) engine.Money {
	if d.Denom.Base == 0 {
		return 0
	}
	v := engine.Money(d.Denom.Minor(c.cfg.Market.Currency.MinorUnits))
	for _, b := range c.cfg.Market.Limits.Bills {
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
		if c.moneyIn.hooked != nil && *c.moneyIn.hooked == e.Doc {
			c.moneyIn.hooked = nil
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
		c.moneyIn.acceptorKnown = false // set enable/inhibit again after a reset
		if c.pendingEscrows() > 0 && c.moneyIn.escrow == nil {
			c.moneyIn.reconcileAt = c.now().Add(reconcileGrace)
		}
	}
}

// escrowed: a pending record first, then the decision (stack or return).
func (c *Cabinet) escrowed(d id003.Document) {
	if c.moneyIn.escrow != nil {
		return // the driver repeats escrow while the document is decided on
	}
	if c.menus.test != nil {
		c.testEscrow(d)
		return
	}
	if !c.canAccept() {
		c.acceptor(Acceptor.Return, "return (cannot accept)")
		return
	}
	id := c.led.NextDocID()
	switch d.Kind {
	case id003.DocNote:
		v := c.billValue(d)
		if v == 0 {
			c.say(view.MsgNoteRefused, 0)
			c.acceptor(Acceptor.Return, "return (unknown note)")
			return
		}
		if err := c.led.Escrow(id, ledger.DocBill, int64(v), ""); err != nil {
			c.ledgerFailed("the escrow", err)
			c.acceptor(Acceptor.Return, "return (ledger)")
			return
		}
		c.moneyIn.escrow = &escrowState{doc: id, kind: ledger.DocBill, amount: v, decided: true}
		c.acceptor(Acceptor.Stack, "stack")
	case id003.DocTicket:
		if c.ticketCredited(d.Ticket) {
			// Credited here already: while its confirmation is on the way
			// the central system would hand this cabinet the same hold
			// again, so a copy must be refused here (check 24).
			c.say(view.MsgTicketRefused, 0)
			c.logEvent("ticket_refused", "cabinet", "already credited: "+ledger.Mask(d.Ticket), 0)
			c.acceptor(Acceptor.Return, "return (ticket already credited)")
			return
		}
		if err := c.led.Escrow(id, ledger.DocTicketIn, 0, d.Ticket); err != nil {
			c.ledgerFailed("the escrow", err)
			c.acceptor(Acceptor.Return, "return (ledger)")
			return
		}
		c.moneyIn.escrow = &escrowState{doc: id, kind: ledger.DocTicketIn, number: d.Ticket}
		// Hold keeps the ticket in escrow while the central system
		// validates it, so the acceptor's time-out does not return it.
		c.acceptor(Acceptor.Hold, "hold")
		number := d.Ticket
		c.async(func(ctx context.Context) Event {
			h, err := c.cfg.Central.RedeemVoucher(ctx, number)
			return redeemReply{doc: id, number: number, hold: h, err: err}
		})
	default:
		c.acceptor(Acceptor.Return, "return (unknown document)")
	}
}

func (c *Cabinet) redeemArrived(e redeemReply) {
	es := c.moneyIn.escrow
	if es == nil || es.doc != e.doc {
		if e.hold != nil { // the ticket is gone: let the central system release it
			c.cancelRedeem(e.number, e.hold.Hold)
		}
		return
	}
	if e.err != nil || e.hold == nil || e.hold.Amount <= 0 || c.blocked() != "" {
		// Returned on any doubt (check 24).
		if e.hold != nil {
			c.cancelRedeem(e.number, e.hold.Hold)
		}
		c.say(view.MsgTicketRefused, 0)
		if e.err != nil {
			c.logEvent("ticket_refused", "central", link.Reason(e.err), 0)
		}
		es.decided = true
		c.acceptor(Acceptor.Return, "return (ticket refused)")
		return
	}
	es.amount, es.hold, es.decided = e.hold.Amount, e.hold.Hold, true
	// The hold is journaled before the ticket is stacked, so that a power
	// cut can never leave a credited ticket unconfirmed at the central
	// system (where an expired hold would make it redeemable again).
	if !c.saveRedeem(es.doc, redeemIntent{Number: es.number, Hold: es.hold, Amount: es.amount}) {
		es.hold = ""
		c.acceptor(Acceptor.Return, "return (ledger)")
		return
	}
	c.acceptor(Acceptor.Stack, "stack ticket")
}

func (c *Cabinet) cancelRedeem(number, hold string) {
	c.async(func(ctx context.Context) Event {
		return deviceDone{what: "cancel redeem", err: c.cfg.Central.CancelRedeem(ctx, number, hold)}
	})
}

// journalStack credits a stacked document exactly once (check 19). It runs
// before the acceptor's ACK; a repeat for the same document is a no-op.
func (c *Cabinet) journalStack(s id003.Stacked) error {
	es := c.moneyIn.escrow
	if es == nil {
		// A stack nobody escrowed: look for the pending record of a
		// restart; without one no credit, and an event (check 19).
		for _, d := range c.led.PendingDocs() {
			if d.Kind == ledger.DocBill && s.Doc.Kind == id003.DocNote && engine.Money(d.Amount) == c.billValue(s.Doc) {
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
	d := s.Doc
	c.moneyIn.hooked = &d
	return nil
}

func (c *Cabinet) stackDoc(es *escrowState) error {
	if err := c.led.Stacked(es.doc, int64(es.amount)); c.refused("the stacked document", err, retriedWrite) {
		return err // no ACK: the driver asks again
	}
	c.verify("money in")
	c.play.moneyCame(c.credit(), c.now())
	if es.kind == ledger.DocTicketIn && es.hold != "" {
		c.settleRedeem(es.doc, redeemIntent{Number: es.number, Hold: es.hold, Amount: es.amount}, true)
	}
	if c.moneyIn.escrow == es {
		c.moneyIn.escrow = nil
	}
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
		c.settleRedeem(es.doc, redeemIntent{Number: es.number, Hold: es.hold, Amount: es.amount}, false)
	}
	c.moneyIn.escrow = nil
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
			if r, ok := c.redeems()[d.ID]; ok && r.Hold != "" && r.Amount > 0 {
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
	c.moneyIn.escrow = nil
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

// collect is the cash-out: a voucher, or a cancel-credit handpay above the
// ticket-out limit or when no voucher can be printed.
func (c *Cabinet) collect() {
	amount := c.credit()
	if amount <= 0 || c.holds(condRAMError) || c.holds(condSoftware) {
		return
	}
	if c.cashOut.ticketInChute {
		// No second ticket until the first is taken (check 22).
		c.say(view.MsgTakeTicket, 0)
		return
	}
	id := c.led.NextDocID()
	if amount > c.cfg.Market.Limits.TicketOut || !c.printerReady() || !c.cond.linkUp {
		if err := c.led.CancelCreditHandpay(id, int64(amount)); err != nil {
			c.ledgerFailed("the handpay", err)
			return
		}
		c.play.stopAuto("handpay")
		c.refreshLockups()
		return
	}
	// Journal the request before the central system issues anything
	// (house rule 2): a power cut after it issued the voucher finds the
	// request pending, and asks again under the same sequence.
	if err := c.led.VoucherRequested(id, int64(amount)); err != nil {
		c.ledgerFailed("the voucher request", err)
		return
	}
	c.cashOut.voucher = &cashoutState{doc: id, amount: amount}
	c.play.stopAuto("cash-out")
	c.askVoucher(c.cashOut.voucher)
}

// The attendant's page on a voucher whose number the central system has
// not given while the link is down.
const (
	menuVoucherUnanswered = "menu.voucher_unanswered"
	hintVoucherUnanswered = "menu.hint.voucher_unanswered"
)

// voucherUnanswered: a requested voucher waits for a central system the
// link cannot reach; whether it was issued there is unknown.
func (c *Cabinet) voucherUnanswered() bool {
	co := c.cashOut.voucher
	return co != nil && co.phase == voucherAsking && c.holds(condLinkDown)
}

// offerVoucherHandpay: the attendant's key on an unanswered voucher.
// Start pays the credit by hand; turning the key back leaves the request
// to wait for the central system, asked again when the link is back.
func (c *Cabinet) offerVoucherHandpay() {
	c.menus.menu = &view.MenuPage{Title: menuVoucherUnanswered, Lines: []view.MenuLine{
		view.Line("menu.voucher_unanswered.amount", view.Money(int64(c.cashOut.voucher.amount))),
		view.Line("menu.voucher_unanswered.text"), view.Line("menu.voucher_unanswered.text2"),
		view.Line("menu.voucher_unanswered.start"), view.Line("menu.voucher_unanswered.key")}, Hint: hintVoucherUnanswered}
}

// voucherToHandpay turns the unanswered voucher into a cancelled-credit
// handpay lockup for its amount (ledger.VoucherToHandpay: the request
// goes in Unprinted, so a voucher the central system issued for it unseen
// is voided at the next Hello), then goes on as the attendant's key on
// that lockup. An answer still under way is dropped when it comes.
func (c *Cabinet) voucherToHandpay() {
	co := c.cashOut.voucher
	if !c.voucherUnanswered() || !c.cond.keys["attendant"] {
		c.menus.menu = nil
		return
	}
	if err := c.led.VoucherToHandpay(co.doc, c.led.NextDocID(), market.AttendantKey); err != nil {
		c.ledgerFailed("the voucher's handpay", err)
		return
	}
	c.cashOut.voucher = nil
	c.menus.menu = nil
	c.refreshLockups()
	c.handpayKey()
}

// Retries of a voucher's number when the central system's answer is
// unknown (unreachable, timed out): it may have issued it, so the request
// stays pending, asked again under the same sequence (answered with the
// same voucher) after voucherAskRetry, doubling to maxVoucherAskRetry, and
// whenever the link comes back.
const (
	voucherAskRetry    = 5 * time.Second
	maxVoucherAskRetry = time.Minute
)

// askVoucher asks the central system for the number of the requested
// voucher co (idempotent on its sequence, co.doc).
func (c *Cabinet) askVoucher(co *cashoutState) {
	co.asking, co.retryAt = true, time.Time{}
	id, amount := co.doc, co.amount
	c.async(func(ctx context.Context) Event {
		v, err := c.cfg.Central.IssueVoucher(ctx, amount, id)
		return voucherReply{doc: id, voucher: v, err: err}
	})
}

// tickVoucherAsk asks again for a requested voucher's number when its
// wait is over.
func (c *Cabinet) tickVoucherAsk(now time.Time) {
	co := c.cashOut.voucher
	if co == nil || co.phase != voucherAsking || co.asking || !c.cond.linkUp || co.retryAt.IsZero() || now.Before(co.retryAt) {
		return
	}
	c.askVoucher(co)
}

// answerUnknown: err leaves open whether the central system issued the
// voucher (no answer came: the link, a time-out).
func answerUnknown(err error) bool {
	var u *link.UnavailableError
	return errors.As(err, &u) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

func (c *Cabinet) printerReady() bool {
	if c.cfg.Printer == nil {
		return false
	}
	for f, on := range c.cashOut.printerFaults {
		if on && f.Blocking() {
			return false
		}
	}
	return true
}

func (c *Cabinet) voucherArrived(e voucherReply) {
	co := c.cashOut.voucher
	if co == nil || co.doc != e.doc || co.phase != voucherAsking {
		return
	}
	co.asking = false
	if e.err != nil && answerUnknown(e.err) {
		c.cfg.Hooks.Logf("cabinet: voucher %d: no answer from the central system, asked again: %v", co.doc, e.err)
		co.askWait = min(max(2*co.askWait, voucherAskRetry), maxVoucherAskRetry)
		co.retryAt = c.now().Add(co.askWait)
		return
	}
	if e.err != nil || e.voucher == nil || e.voucher.Amount != co.amount {
		// A refusal: the central system issued nothing (a refused call
		// changes nothing there).
		why := "no voucher from the central system"
		if e.err != nil {
			why = e.err.Error()
		}
		if err := c.led.VoucherFailed(co.doc, why); err != nil {
			c.ledgerFailed("the refused voucher", err)
		}
		c.cashOut.voucher = nil
		c.say(view.MsgCashoutUnavailable, 0)
		return
	}
	co.validation = e.voucher.Number
	// Journal "printing" before the printer sees a byte (house rule 2).
	if err := c.led.VoucherPrinting(co.doc, int64(co.amount), co.validation); err != nil {
		c.ledgerFailed("the voucher", err)
		c.cashOut.voucher = nil
		return
	}
	if co.resumed && (!c.cashOut.printerOnline || !c.printerReady()) {
		// Resumed at power-up before the printer said it is ready: the
		// first print waits for it (tickReprint), not marked duplicate.
		co.phase = voucherHeld
		return
	}
	c.printVoucher(co)
}

func (c *Cabinet) printVoucher(co *cashoutState) {
	co.phase = voucherPrinting
	doc := c.voucherDocument(co)
	if co.reprint {
		v := doc.(document.Voucher)
		v.Duplicate = true
		doc = v
	}
	p := c.cfg.Printer
	id := co.doc
	c.async(func(ctx context.Context) Event {
		job, err := p.Print(doc)
		return printReply{doc: id, job: job, err: err}
	})
}

func (c *Cabinet) docCurrency() money.Currency { return c.cfg.Market.Currency }

func (c *Cabinet) voucherDocument(co *cashoutState) document.Document {
	now := c.wall()
	return document.Voucher{
		Lang:       document.Lang(c.cfg.Market.Language),
		Site:       c.cfg.Site.Name,
		SiteID:     c.cfg.Site.ID,
		Machine:    c.cfg.ID,
		Issued:     now,
		Amount:     int64(co.amount),
		Currency:   c.docCurrency(),
		Sequence:   uint32(co.doc),
		Validation: co.validation,
		Type:       document.Cashable,
		Expiry:     now.AddDate(0, 0, c.cfg.Market.Timers.VoucherExpiryDays),
	}
}

// voucherIssued is the debit: only once the validation number is on
// paper is the voucher issued (check 22).
func (c *Cabinet) voucherIssued(co *cashoutState) {
	if err := c.led.VoucherPrinted(co.doc); err != nil {
		c.ledgerFailed("the printed voucher", err)
		return
	}
	c.verify("money out")
	co.phase = voucherIssued
}

func (c *Cabinet) voucherDone(co *cashoutState) {
	if co.phase != voucherIssued {
		return
	}
	c.cashOut.voucher = nil
	if co.reprint {
		c.clearTilt(tiltVoucher)
	}
	c.say(view.MsgCashoutDone, co.amount) // check 33: shown until the next game
}

// tickReprint prints again a voucher a power cut interrupted, once the
// printer has reported its status (a ticket in its chute is the original).
func (c *Cabinet) tickReprint(now time.Time) {
	co := c.cashOut.voucher
	if co == nil || co.phase != voucherHeld || !c.cashOut.printerOnline || !c.printerReady() || now.Before(co.retryAt) {
		return
	}
	c.printVoucher(co)
}

// voucherUnconfirmed: the print stopped and the driver cannot tell whether
// the validation number reached paper (a time-out, a status missed). The
// central system holds it issued, so voiding it could leave a valid-looking
// paper unpaid: it is resolved as a power cut's voucher is, debited if the
// printer refuses to print over a ticket in its chute (the original) or
// else printed again, marked duplicate, with the same number.
func (c *Cabinet) voucherUnconfirmed(co *cashoutState, reason string) {
	co.reprint = true
	co.phase, co.job = voucherHeld, 0
	co.retryAt = c.now().Add(time.Second)
	c.setTilt(tiltVoucher, "voucher print not confirmed ("+reason+"): printing it again", false)
}

func (c *Cabinet) printStarted(e printReply) {
	co := c.cashOut.voucher
	if co == nil || co.doc != e.doc {
		return
	}
	if e.err != nil && co.reprint {
		co.phase = voucherHeld
		if errors.Is(e.err, printer.ErrTicketInChute) {
			// The printer prints nothing while a ticket waits in the
			// chute, and none waited when this voucher was sent: the
			// ticket there is this voucher, printed before the cut.
			c.voucherIssued(co)
			c.voucherDone(co)
			return
		}
		c.cfg.Hooks.Logf("cabinet: reprinting voucher %d: %v", co.doc, e.err)
		co.retryAt = c.now().Add(time.Second)
		return
	}
	if e.err != nil {
		// Nothing was printed: nothing is debited; the voucher is void.
		if err := c.led.VoucherFailed(co.doc, e.err.Error()); err != nil {
			c.ledgerFailed("the failed voucher", err)
		}
		c.cashOut.voucher = nil
		if errors.Is(e.err, printer.ErrTicketInChute) || errors.Is(e.err, printer.ErrBusy) {
			c.say(view.MsgTakeTicket, 0)
			return
		}
		c.setTilt("printer", "printer: "+e.err.Error(), false)
		return
	}
	// Its events may have come first and ended the job unconfirmed (held
	// for a reprint): the reply then names a job no longer followed.
	if co.job == 0 && co.phase == voucherPrinting {
		co.job = e.job
	}
}

// ours: a printer event about the voucher being printed. Events may come
// before Print has returned the job id; only one job is ever in flight.
func (co *cashoutState) ours(job printer.JobID) bool {
	if co == nil || co.phase < voucherPrinting {
		return false
	}
	if co.job == 0 {
		co.job = job
	}
	return co.job == job
}

func (c *Cabinet) printerEvent(e printer.Event) {
	c.handpayPrinterEvent(e)
	co := c.cashOut.voucher
	switch e := e.(type) {
	case printer.ValidationPrinted:
		if co.ours(e.Job) && e.Validation == co.validation && co.phase != voucherIssued {
			c.voucherIssued(co)
		}
	case printer.PrintComplete:
		if co.ours(e.Job) && co.phase == voucherIssued {
			c.voucherDone(co)
		}
	case printer.PrintFailed:
		if co.ours(e.Job) && co.reprint && co.phase != voucherIssued {
			// Still unknown whether the first print reached paper: the
			// voucher stays pending and is tried again.
			co.phase, co.job = voucherHeld, 0
			co.retryAt = c.now().Add(time.Second)
			break
		}
		if co.ours(e.Job) && e.Unsure && co.phase != voucherIssued {
			c.voucherUnconfirmed(co, e.Reason)
			break
		}
		if co.ours(e.Job) {
			if !e.Issued && co.phase != voucherIssued {
				if err := c.led.VoucherFailed(co.doc, e.Reason); err != nil {
					c.ledgerFailed("the failed voucher", err)
				}
			}
			if co.reprint {
				c.clearTilt(tiltVoucher) // debited: its number is on paper
			}
			c.cashOut.voucher = nil
		}
	case printer.TicketInChute:
		c.cashOut.ticketInChute = true
	case printer.TicketTaken:
		c.cashOut.ticketInChute = false
		c.play.ticketTaken(c.now())
	case printer.FaultSet:
		c.cashOut.printerFaults[e.Fault] = true
		if e.Fault.Blocking() {
			c.setTilt("printer", "printer: "+e.Fault.String(), false)
		}
	case printer.FaultCleared:
		delete(c.cashOut.printerFaults, e.Fault)
		if c.printerReady() {
			c.clearTilt("printer")
		}
	case printer.CommLost:
		c.cashOut.printerOnline = false
		c.setTilt("printer", "printer: communication lost", false)
	case printer.Online:
		c.cashOut.printerOnline = true
		if c.printerReady() {
			c.clearTilt("printer")
		}
	}
}

// refreshLockups reads the handpays waiting for the attendant.
func (c *Cabinet) refreshLockups() {
	c.cond.lockups = c.cond.lockups[:0]
	for _, d := range c.led.PendingDocs() {
		switch d.Kind {
		case ledger.DocHandpayWin, ledger.DocHandpayJackpot, ledger.DocHandpayCancel:
			c.cond.lockups = append(c.cond.lockups, d)
		}
	}
	if len(c.cond.lockups) > 0 {
		c.play.stopAuto("lockup")
	}
}

// transferOffered: the market lets the attendant put the first lockup, a
// large-win handpay, on the credit meter (check 26).
func (c *Cabinet) transferOffered() bool {
	return c.cfg.Market.Limits.HandpayToCredit && len(c.cond.lockups) > 0 && c.cond.lockups[0].Kind == ledger.DocHandpayWin
}

// offerTransfer asks the attendant, key turned: Start puts the win on the
// credit meter; turning the key back pays it by hand.
func (c *Cabinet) offerTransfer() {
	c.menus.handpayChoice = true
	c.menus.menu = &view.MenuPage{Title: "menu.handpay", Lines: []view.MenuLine{
		view.Line("menu.handpay.amount", view.Money(c.cond.lockups[0].Amount)),
		view.Line("menu.handpay.start"), view.Line("menu.handpay.key")}, Hint: hintHandpayChoice}
}

// transferHandpay resets the first lockup to the credit meter, journaled
// with its amount and the attendant.
func (c *Cabinet) transferHandpay() {
	if !c.transferOffered() {
		return
	}
	d := c.cond.lockups[0]
	if err := c.led.HandpayToCredit(d.ID, c.cond.handpay.who); err != nil {
		c.ledgerFailed("the handpay transfer", err)
		return
	}
	c.verify("handpay")
	c.say(view.MsgHandpayCredited, engine.Money(d.Amount))
	c.refreshLockups()
}

func (c *Cabinet) tickMoney(now time.Time) {
	c.tickVoucherAsk(now)
	c.tickReprint(now)
	c.tickHandpay(now)
	if !c.moneyIn.reconcileAt.IsZero() && !now.Before(c.moneyIn.reconcileAt) {
		c.moneyIn.reconcileAt = time.Time{}
		c.reconcileEscrow()
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
func (c *Cabinet) ticketCredited(number string) bool {
	for _, d := range c.led.DocsIn() {
		if d.Kind == ledger.DocTicketIn && d.Number == number && d.Result == ledger.DocStacked {
			return true
		}
	}
	return false
}

// redeems are the holds the ledger keeps (ledger.TicketHold), by document.
func (c *Cabinet) redeems() map[uint64]ledger.TicketHold { return c.led.Resume().Holds }

func intentOf(h ledger.TicketHold) redeemIntent {
	return redeemIntent{Number: h.Number, Hold: h.Hold, Amount: engine.Money(h.Amount)}
}

// saveRedeem journals a ticket's hold with its escrowed document; false:
// refused (and tilted).
func (c *Cabinet) saveRedeem(doc uint64, r redeemIntent) bool {
	return !c.refused("the ticket's hold", c.led.HoldTicket(doc, r.Hold, int64(r.Amount)), moneyWrite)
}

// settleRedeem confirms (the ticket was credited) or releases (it went
// back) a hold; the intent is dropped only when the central system answered.
func (c *Cabinet) settleRedeem(doc uint64, r redeemIntent, confirm bool) {
	c.async(func(ctx context.Context) Event {
		var err error
		if confirm {
			err = c.cfg.Central.ConfirmRedeem(ctx, r.Number, r.Hold, r.Amount)
		} else {
			err = c.cfg.Central.CancelRedeem(ctx, r.Number, r.Hold)
		}
		return redeemDone{doc: doc, err: err}
	})
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
	for doc, h := range c.redeems() {
		switch h.Result {
		case "":
		case ledger.DocStacked:
			c.settleRedeem(doc, intentOf(h), true)
		default:
			c.settleRedeem(doc, intentOf(h), false)
		}
	}
}

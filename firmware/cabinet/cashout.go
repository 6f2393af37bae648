package cabinet

import (
	"context"
	"errors"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// cashOutState is the printer's side: the voucher being issued and what
// the printer last reported.
type cashOutState struct {
	voucher       *cashoutState
	printerFaults printer.Faults
	ticketInChute bool // the last voucher waits to be taken
	printerOnline bool // the printer's status has been read since power-up
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
	if amount > c.cfg.Market.Limits.TicketOut || !c.cashOut.ready(c.cfg.Printer != nil) || !c.cond.linkUp {
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
	c.cashOut.start(&cashoutState{doc: id, amount: amount})
	c.play.stopAuto("cash-out")
	c.loop.async(c.cashOut.voucher.askVoucher(c.cfg.Central))
}

// The attendant's page on a voucher whose number the central system has
// not given while the link is down.
const (
	menuVoucherUnanswered = "menu.voucher_unanswered"
	hintVoucherUnanswered = "menu.hint.voucher_unanswered"
)

// unanswered: the requested voucher waits for a central system the link
// cannot reach; whether it was issued there is unknown.
func (co *cashoutState) unanswered(linkDown bool) bool {
	return co.phase == voucherAsking && linkDown
}

// voucherUnansweredPage is the attendant's key on an unanswered voucher
// of amount. Start pays the credit by hand; turning the key back leaves
// the request to wait for the central system, asked again when the link
// is back.
func voucherUnansweredPage(amount engine.Money) *view.MenuPage {
	return &view.MenuPage{Title: menuVoucherUnanswered, Lines: []view.MenuLine{
		view.Line("menu.voucher_unanswered.amount", view.Money(int64(amount))),
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
	if co == nil || !co.unanswered(c.holds(condLinkDown)) || !c.cond.keys["attendant"] {
		c.menus.close()
		return
	}
	if err := c.led.VoucherToHandpay(co.doc, c.led.NextDocID(), market.AttendantKey); err != nil {
		c.ledgerFailed("the voucher's handpay", err)
		return
	}
	c.cashOut.end()
	c.menus.close()
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
func (co *cashoutState) askVoucher(central Central) func(context.Context) Event {
	co.ask()
	id, amount := co.doc, co.amount
	return func(ctx context.Context) Event {
		v, err := central.IssueVoucher(ctx, amount, id)
		return voucherReply{doc: id, voucher: v, err: err}
	}
}

// ask: its number is asked of the central system.
func (co *cashoutState) ask() { co.asking, co.retryAt = true, time.Time{} }

// askAt: its number is asked again at t (once the link is up).
func (co *cashoutState) askAt(t time.Time) { co.retryAt = t }

// askDue: its number is to be asked again now, the link being up.
func (co *cashoutState) askDue(now time.Time, linkUp bool) bool {
	return co.phase == voucherAsking && !co.asking && linkUp && !co.retryAt.IsZero() && !now.Before(co.retryAt)
}

// reprintDue: the voucher a power cut interrupted is printed again now,
// the printer having reported its status (a ticket in its chute is the
// original) and being ready.
func (co *cashoutState) reprintDue(now time.Time, printerReady bool) bool {
	return co.phase == voucherHeld && printerReady && !now.Before(co.retryAt)
}

// answerUnknown: err leaves open whether the central system issued the
// voucher (no answer came: the link, a time-out).
func answerUnknown(err error) bool {
	var u *link.UnavailableError
	return errors.As(err, &u) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// ready: a printer is there and no fault stops it.
func (s *cashOutState) ready(hasPrinter bool) bool {
	if !hasPrinter {
		return false
	}
	for f, on := range s.printerFaults {
		if on && f.Blocking() {
			return false
		}
	}
	return true
}

// notReady says why the printer cannot print now, or "".
func (s *cashOutState) notReady(hasPrinter bool) string {
	if !hasPrinter {
		return "no printer"
	}
	for f, on := range s.printerFaults {
		if on && f.Blocking() {
			return "printer: " + f.String()
		}
	}
	if s.ticketInChute {
		return "printer: a ticket waits in the chute"
	}
	return ""
}

// start: voucher co is being issued.
func (s *cashOutState) start(co *cashoutState) { s.voucher = co }

// end: no voucher is being issued.
func (s *cashOutState) end() { s.voucher = nil }

// printerSaid keeps what the printer reported of its faults, its chute
// and whether it answers.
func (s *cashOutState) printerSaid(e printer.Event) {
	switch e := e.(type) {
	case printer.TicketInChute:
		s.ticketInChute = true
	case printer.TicketTaken:
		s.ticketInChute = false
	case printer.FaultSet:
		s.printerFaults[e.Fault] = true
	case printer.FaultCleared:
		delete(s.printerFaults, e.Fault)
	case printer.CommLost:
		s.printerOnline = false
	case printer.Online:
		s.printerOnline = true
	}
}

func (c *Cabinet) voucherArrived(e voucherReply) {
	co := c.cashOut.voucher
	if co == nil || co.doc != e.doc || co.phase != voucherAsking {
		return
	}
	co.asking = false
	if e.err != nil && answerUnknown(e.err) {
		c.cfg.Hooks.Logf("cabinet: voucher %d: no answer from the central system, asked again: %v", co.doc, e.err)
		co.noAnswer(c.now())
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
		c.cashOut.end()
		c.say(view.MsgCashoutUnavailable, 0)
		return
	}
	co.numbered(e.voucher.Number)
	// Journal "printing" before the printer sees a byte (house rule 2).
	if err := c.led.VoucherPrinting(co.doc, int64(co.amount), co.validation); err != nil {
		c.ledgerFailed("the voucher", err)
		c.cashOut.end()
		return
	}
	if co.resumed && (!c.cashOut.printerOnline || !c.cashOut.ready(c.cfg.Printer != nil)) {
		// Resumed at power-up before the printer said it is ready: the
		// first print waits for it (tickMoney), not marked duplicate.
		co.held()
		return
	}
	c.loop.async(co.print(c.cfg.Printer, c.paper.voucher(co, c.wall())))
}

// print sends the voucher, laid out as doc, to printer p.
func (co *cashoutState) print(p printer.Printer, doc document.Document) func(context.Context) Event {
	co.printing()
	id := co.doc
	return func(ctx context.Context) Event {
		job, err := p.Print(doc)
		return printReply{doc: id, job: job, err: err}
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
	co.issued()
}

func (c *Cabinet) voucherDone(co *cashoutState) {
	if co.phase != voucherIssued {
		return
	}
	c.cashOut.end()
	if co.reprint {
		c.clearTilt(tiltVoucher)
	}
	c.say(view.MsgCashoutDone, co.amount) // check 33: shown until the next game
}

// noAnswer: the central system's answer is unknown; asked again after a
// wait that doubles (voucherAskRetry to maxVoucherAskRetry).
func (co *cashoutState) noAnswer(now time.Time) {
	co.askWait = min(max(2*co.askWait, voucherAskRetry), maxVoucherAskRetry)
	co.retryAt = now.Add(co.askWait)
}

// numbered: the central system issued it with validation number n.
func (co *cashoutState) numbered(n string) { co.validation = n }

// held: journaled as printing, it waits for the printer.
func (co *cashoutState) held() { co.phase = voucherHeld }

// printing: sent to the printer.
func (co *cashoutState) printing() { co.phase = voucherPrinting }

// issued: its number is on paper (debited).
func (co *cashoutState) issued() { co.phase = voucherIssued }

// retry: the print stopped without its number known on paper; it is
// printed again (marked duplicate) from now+1s.
func (co *cashoutState) retry(now time.Time) {
	co.phase, co.job = voucherHeld, 0
	co.retryAt = now.Add(time.Second)
}

// unconfirmed: the print stopped and the driver cannot tell whether the
// validation number reached paper (a time-out, a status missed). The
// central system holds it issued, so voiding it could leave a
// valid-looking paper unpaid: it is resolved as a power cut's voucher is,
// debited if the printer refuses to print over a ticket in its chute (the
// original) or else printed again, marked duplicate, with the same number.
func (co *cashoutState) unconfirmed(now time.Time) {
	co.reprint = true
	co.retry(now)
}

func (c *Cabinet) printStarted(e printReply) {
	co := c.cashOut.voucher
	if co == nil || co.doc != e.doc {
		return
	}
	if e.err != nil && co.reprint {
		co.held()
		if errors.Is(e.err, printer.ErrTicketInChute) {
			// The printer prints nothing while a ticket waits in the
			// chute, and none waited when this voucher was sent: the
			// ticket there is this voucher, printed before the cut.
			c.voucherIssued(co)
			c.voucherDone(co)
			return
		}
		c.cfg.Hooks.Logf("cabinet: reprinting voucher %d: %v", co.doc, e.err)
		co.askAt(c.now().Add(time.Second))
		return
	}
	if e.err != nil {
		// Nothing was printed: nothing is debited; the voucher is void.
		if err := c.led.VoucherFailed(co.doc, e.err.Error()); err != nil {
			c.ledgerFailed("the failed voucher", err)
		}
		c.cashOut.end()
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
	c.cashOut.printerSaid(e)
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
			co.retry(c.now())
			break
		}
		if co.ours(e.Job) && e.Unsure && co.phase != voucherIssued {
			co.unconfirmed(c.now())
			c.setTilt(tiltVoucher, "voucher print not confirmed ("+e.Reason+"): printing it again", false)
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
			c.cashOut.end()
		}
	case printer.TicketTaken:
		c.play.ticketTaken(c.now())
	case printer.FaultSet:
		if e.Fault.Blocking() {
			c.setTilt("printer", "printer: "+e.Fault.String(), false)
		}
	case printer.FaultCleared, printer.Online:
		if c.cashOut.ready(c.cfg.Printer != nil) {
			c.clearTilt("printer")
		}
	case printer.CommLost:
		c.setTilt("printer", "printer: communication lost", false)
	}
}

// refreshLockups reads the handpays waiting for the attendant.
func (c *Cabinet) refreshLockups() {
	c.cond.setLockups(c.led.PendingDocs())
	if len(c.cond.lockups) > 0 {
		c.play.stopAuto("lockup")
	}
}

// transferHandpay resets the first lockup to the credit meter, journaled
// with its amount and the attendant.
func (c *Cabinet) transferHandpay() {
	if !c.cond.transferOffered(c.cfg.Market.Limits.HandpayToCredit) {
		return
	}
	d := c.cond.lockups[0]
	if err := c.led.HandpayToCredit(d.ID, c.handpay.who); err != nil {
		c.ledgerFailed("the handpay transfer", err)
		return
	}
	c.verify("handpay")
	c.say(view.MsgHandpayCredited, engine.Money(d.Amount))
	c.refreshLockups()
}

// tickMoney runs the timers of money: a voucher's number asked again, a
// voucher a power cut interrupted printed again, a handpay's paper, the
// escrow of the last power-up reconciled.
func (c *Cabinet) tickMoney(now time.Time) {
	if co := c.cashOut.voucher; co != nil && co.askDue(now, c.cond.linkUp) {
		c.loop.async(co.askVoucher(c.cfg.Central))
	}
	if co := c.cashOut.voucher; co != nil && co.reprintDue(now, c.cashOut.printerOnline && c.cashOut.ready(c.cfg.Printer != nil)) {
		c.loop.async(co.print(c.cfg.Printer, c.paper.voucher(co, c.wall())))
	}
	c.tickHandpay(now)
	if c.moneyIn.reconcileDue(now) {
		c.reconcileEscrow()
	}
}

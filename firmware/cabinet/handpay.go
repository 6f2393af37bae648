package cabinet

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// A handpay (large win, cancel-credit, jackpot) is paid in three steps:
// the attendant's key, then who the attendant is (the market's
// attendant_id: the key alone, or a PIN on the deck), then the receipt or
// MS-18's jackpot form. The lockup ends, and the ledger counts the
// handpay, only when that paper has printed, or when the attendant
// chose a manual form instead (logged with who and why). A printer that
// is not ready keeps the lockup and says so; when it is back the paper
// prints and the handpay completes.

// Menu titles of the handpay pages (display catalogues: "menu." keys).
const (
	menuAttendantPIN  = "menu.attendant_pin"
	menuHandpayWaits  = "menu.handpay_printer"
	pinTriesPerKeyOn  = 3 // wrong PINs before the key must be turned back
	handpayRetryAfter = time.Second
)

// handpayState is the attendant's side of the lockups.
type handpayState struct {
	who   string        // the attendant identified while the key is on ("" : nobody yet)
	pin   *pinEntry     // a PIN being entered, nil otherwise
	wrong int           // wrong PINs since the key turned on
	print *handpayPrint // the first lockup's paper, authorised by an attendant
}

// pinEntry is a PIN entered on the deck: Bet−/Bet+ choose the digit, Stop
// takes it, Collect starts again. The digits taken are shown as "*".
type pinEntry struct {
	digits []byte
	cur    byte
}

// handpayPrint is a lockup's receipt or form: waiting for the printer
// (sent false) or sent as job (0 until the printer names it).
type handpayPrint struct {
	doc     ledger.Doc
	who     string
	sent    bool
	job     printer.JobID
	retryAt time.Time
	why     string // why it waits: the printer's fault, shown and logged with a manual form
}

// handpayPrinted is the printer's answer to a handpay receipt or form.
type handpayPrinted struct {
	doc       uint64
	job       printer.JobID
	err       error
	duplicate bool
}

func (handpayPrinted) event() {}

// handpayKey: the attendant's key turned on a lockup.
func (c *Cabinet) handpayKey() {
	if c.handpay.print != nil {
		c.menus.show(c.handpay.print.page()) // already authorised: the printer decides
		return
	}
	if c.cfg.Market.AttendantID != market.AttendantPIN {
		c.handpay.identified(market.AttendantKey)
	}
	if c.handpay.who == "" {
		if !c.handpay.askPIN() {
			c.say(view.MsgPINRefused, 0)
			return
		}
		c.menus.show(pinPage(c.handpay.pin, c.cond.lockups[0].Amount))
		return
	}
	c.attendantKnown()
}

// keyOff: the key turned back; who the attendant was is forgotten, a
// paper already authorised still prints when the printer is ready.
func (h *handpayState) keyOff() { h.who, h.pin, h.wrong = "", nil, 0 }

// identified: the attendant is who.
func (h *handpayState) identified(who string) { h.who = who }

// askPIN starts a PIN's entry; false: the wrong PINs of this key turn are
// spent.
func (h *handpayState) askPIN() bool {
	if h.wrong >= pinTriesPerKeyOn {
		return false
	}
	h.pin = &pinEntry{}
	return true
}

// wrongPIN counts a wrong PIN and reports how many were wrong.
func (h *handpayState) wrongPIN() int {
	h.pin = nil
	h.wrong++
	return h.wrong
}

// authorise: the first lockup's paper, by who, is to print.
func (h *handpayState) authorise(d ledger.Doc, who string) *handpayPrint {
	if who == "" {
		who = market.AttendantKey
	}
	h.print = &handpayPrint{doc: d, who: who}
	return h.print
}

// printed: the paper is done with (printed, a manual form, or the lockup
// gone); it returns the paper.
func (h *handpayState) printed() *handpayPrint {
	hp := h.print
	h.print = nil
	return hp
}

// attendantKnown: the market's transfer choice, or straight to the paper.
func (c *Cabinet) attendantKnown() {
	if c.cond.transferOffered(c.cfg.Market.Limits.HandpayToCredit) {
		c.menus.offerTransfer(c.cond.lockups[0].Amount)
		return
	}
	c.menus.close()
	c.resetHandpay()
}

// handpayPress is a deck button on a handpay page; false: not one.
func (c *Cabinet) handpayPress(b view.Button) bool {
	switch {
	case c.handpay.pin != nil && c.menus.menu != nil && c.menus.menu.Title == menuAttendantPIN:
		switch changed, complete := c.handpay.pin.press(b); {
		case complete:
			c.checkPIN(string(c.handpay.pin.digits))
		case changed:
			c.menus.show(pinPage(c.handpay.pin, c.cond.lockups[0].Amount))
		}
		return true
	case c.handpay.print != nil && c.menus.menu != nil && c.menus.menu.Title == menuHandpayWaits:
		if b == view.Collect && !c.handpay.print.sent {
			c.manualForm()
		}
		return true
	case c.menus.menu != nil && c.menus.menu.Title == menuVoucherUnanswered:
		if b == view.Start {
			c.voucherToHandpay()
		}
		return true
	case b == view.Collect && c.cond.keys["attendant"] && len(c.cond.lockups) == 0 && c.menus.menu != nil:
		c.reprintHandpay()
		return true
	}
	return false
}

// press is a deck button on the PIN page; it reports whether the page
// changed and whether the PIN is complete.
func (p *pinEntry) press(b view.Button) (changed, complete bool) {
	switch b {
	case view.BetPlus:
		p.cur = (p.cur + 1) % 10
	case view.BetMinus:
		p.cur = (p.cur + 9) % 10
	case view.Collect:
		p.digits, p.cur = p.digits[:0], 0
	case view.Stop:
		p.digits = append(p.digits, '0'+p.cur)
		p.cur = 0
		if len(p.digits) == market.PINLen {
			return false, true
		}
	default:
		return false, false
	}
	return true, false
}

// checkPIN identifies the attendant, or refuses the PIN and logs it (the
// PIN itself is never logged).
func (c *Cabinet) checkPIN(pin string) {
	a, ok := c.cfg.Market.AttendantByPIN(pin)
	if !ok {
		wrong := c.handpay.wrongPIN()
		c.logEvent("attendant_pin_refused", "attendant", fmt.Sprintf("wrong PIN (%d of %d)", wrong, pinTriesPerKeyOn), 0)
		c.say(view.MsgPINRefused, 0)
		if c.handpay.askPIN() {
			c.menus.show(pinPage(c.handpay.pin, c.cond.lockups[0].Amount))
		} else {
			c.menus.close()
		}
		return
	}
	c.handpay.pin = nil
	c.handpay.identified(a.ID)
	c.logEvent("attendant_identified", a.ID, "PIN", 0)
	c.attendantKnown()
}

// pinPage is the PIN's page for a lockup of amount.
func pinPage(p *pinEntry, amount int64) *view.MenuPage {
	shown := strings.Repeat("* ", len(p.digits)) + string('0'+p.cur) + strings.Repeat(" _", market.PINLen-len(p.digits)-1)
	return &view.MenuPage{Title: menuAttendantPIN, Lines: []view.MenuLine{
		view.Line("menu.handpay.amount", view.Money(amount)),
		view.Line("menu.handpay.pin", view.Text(shown)),
		view.Line("menu.handpay.pin_help"),
		view.Line("menu.handpay.pin_cancel")}, Hint: hintPIN}
}

// hintPIN is the PIN page's footer: Bet± change the digit, not the page.
const hintPIN = "menu.hint.pin"

// hintHandpayChoice is the transfer choice's footer: Start puts the win on
// the credit, the key turned back pays it by hand; nothing pages.
const hintHandpayChoice = "menu.hint.handpay"

// resetHandpay pays the first lockup by hand: the attendant is known; the
// receipt or the jackpot form is printed, and the handpay is journaled
// when it has (MS-18).
func (c *Cabinet) resetHandpay() {
	if len(c.cond.lockups) == 0 || c.handpay.print != nil {
		return
	}
	c.handpay.authorise(c.cond.lockups[0], c.handpay.who)
	c.tryHandpayPrint()
}

// tryHandpayPrint sends the paper if the printer is ready; otherwise the
// lockup waits and the screen says why.
func (c *Cabinet) tryHandpayPrint() {
	hp := c.handpay.print
	if hp == nil || hp.sent {
		return
	}
	if why := c.cashOut.notReady(c.cfg.Printer != nil); why != "" {
		if hp.waits(why) {
			c.logEvent("handpay_waits_printer", hp.who, why, engine.Money(hp.doc.Amount))
		}
		c.say(view.MsgHandpayWaitsPrinter, engine.Money(hp.doc.Amount))
		if c.cond.keys["attendant"] {
			c.menus.show(hp.page())
		}
		return
	}
	hp.send()
	c.say(view.MsgHandpayPrinting, engine.Money(hp.doc.Amount))
	c.menus.closeIf(menuHandpayWaits)
	doc, p, id := c.paper.handpay(hp.doc, hp.who, c.wall(), false), c.cfg.Printer, hp.doc.ID
	c.loop.async(func(ctx context.Context) Event {
		job, err := p.Print(doc)
		return handpayPrinted{doc: id, job: job, err: err}
	})
}

// waits: the paper waits for the printer, for why; it reports whether
// that is a new reason.
func (hp *handpayPrint) waits(why string) bool {
	if hp.why == why {
		return false
	}
	hp.why = why
	return true
}

// send: the paper goes to the printer.
func (hp *handpayPrint) send() { hp.sent, hp.job = true, 0 }

// ours: a printer event about the paper's job. Only one job is ever in
// flight: an event may name it before Print has returned.
func (hp *handpayPrint) ours(job printer.JobID) bool {
	if hp.job == 0 {
		hp.job = job
	}
	return hp.job == job
}

// notPrinted: the paper did not print; it waits for the printer, tried
// again after a pause.
func (hp *handpayPrint) notPrinted(why string, now time.Time) {
	hp.sent, hp.job, hp.retryAt = false, 0, now.Add(handpayRetryAfter)
	hp.why = "printer: " + why
}

// page is the attendant's page while the paper waits or prints.
func (hp *handpayPrint) page() *view.MenuPage {
	lines := []view.MenuLine{view.Line("menu.handpay.amount", view.Money(hp.doc.Amount)), view.Line("menu.handpay.printing")}
	if !hp.sent {
		// why is the device's own words, as on the tilt screen
		lines = []view.MenuLine{view.Line("menu.handpay.amount", view.Money(hp.doc.Amount)),
			view.Line("menu.handpay.waiting", view.Text(hp.why)),
			view.Line("menu.handpay.manual"), view.Line("menu.handpay.when_ready")}
	}
	return &view.MenuPage{Title: menuHandpayWaits, Lines: lines}
}

// handpayPrintReply: Print refused the job (nothing printed: the lockup
// waits again) or named its job.
func (c *Cabinet) handpayPrintReply(e handpayPrinted) {
	if e.duplicate {
		if e.err != nil {
			c.cfg.Hooks.Logf("cabinet: handpay reprint: %v", e.err)
			c.say(view.MsgHandpayWaitsPrinter, 0)
		}
		return
	}
	hp := c.handpay.print
	if hp == nil || hp.doc.ID != e.doc || !hp.sent {
		return
	}
	if e.err != nil {
		c.handpayNotPrinted(e.err.Error())
		return
	}
	hp.ours(e.job)
}

// handpayNotPrinted: the paper did not print; the lockup waits for the
// printer, retried after a pause.
func (c *Cabinet) handpayNotPrinted(why string) {
	hp := c.handpay.print
	hp.notPrinted(why, c.now())
	c.cfg.Hooks.Logf("cabinet: handpay %d not printed: %s", hp.doc.ID, why)
	c.say(view.MsgHandpayWaitsPrinter, engine.Money(hp.doc.Amount))
}

// handpayPrinterEvent follows the handpay's job. Only one job is ever in
// flight: an event may name it before Print has returned.
func (c *Cabinet) handpayPrinterEvent(e printer.Event) {
	hp := c.handpay.print
	if hp == nil || !hp.sent {
		return
	}
	switch e := e.(type) {
	case printer.PrintComplete:
		if hp.ours(e.Job) {
			c.handpayPaid(hp.who, "")
		}
	case printer.PrintFailed:
		if hp.ours(e.Job) {
			c.handpayNotPrinted(e.Reason)
		}
	}
}

// tickHandpay prints a waiting receipt once the printer is back.
func (c *Cabinet) tickHandpay(now time.Time) {
	hp := c.handpay.print
	if hp == nil || hp.sent || now.Before(hp.retryAt) {
		return
	}
	if len(c.cond.lockups) == 0 || c.cond.lockups[0].ID != hp.doc.ID {
		c.handpay.printed() // cleared with the memory (RAM clear)
		return
	}
	if why := c.cashOut.notReady(c.cfg.Printer != nil); why == "" || why != hp.why {
		c.tryHandpayPrint() // prints, or says the new reason
	}
}

// manualForm: the attendant pays the waiting lockup with a hand-written
// form; logged with who and why before the handpay is journaled.
func (c *Cabinet) manualForm() {
	hp := c.handpay.print
	why := hp.why
	if why == "" {
		why = "printer not ready"
	}
	c.logEvent("handpay_manual_form", hp.who, fmt.Sprintf("%s %d: %s", hp.doc.Kind, hp.doc.ID, why), engine.Money(hp.doc.Amount))
	c.menus.close()
	c.handpayPaid(hp.who, "manual form")
}

// handpayPaid journals the handpay the paper (or the manual form) proves.
func (c *Cabinet) handpayPaid(who, how string) {
	d := c.handpay.printed().doc
	if err := c.led.HandpayPaid(d.ID, who); err != nil {
		c.ledgerFailed("the handpay reset", err)
		return
	}
	c.verify("handpay")
	msg := view.MsgHandpayPaid
	if how != "" {
		msg = view.MsgHandpayManual
	}
	c.say(msg, engine.Money(d.Amount))
	c.refreshLockups()
	if len(c.cond.lockups) > 0 && c.cond.keys["attendant"] && c.handpay.who != "" {
		c.attendantKnown() // the next lockup, by the same attendant
	}
}

// reprintHandpay prints the last paid handpay's paper again, marked
// DUPLICATE, from the attendant's menu; logged, no meter moves.
func (c *Cabinet) reprintHandpay() {
	paid := c.led.PaidHandpays() // newest first: the one to reprint
	if len(paid) == 0 {
		return
	}
	r := paid[0]
	if why := c.cashOut.notReady(c.cfg.Printer != nil); why != "" {
		c.say(view.MsgHandpayWaitsPrinter, engine.Money(r.Amount))
		return
	}
	c.logEvent("handpay_reprint", "attendant", fmt.Sprintf("%s %d duplicate", r.Kind, r.ID), engine.Money(r.Amount))
	doc, p := c.paper.handpay(r.Doc, r.By, r.Done, true), c.cfg.Printer
	c.loop.async(func(ctx context.Context) Event {
		_, err := p.Print(doc)
		return handpayPrinted{doc: r.ID, err: err, duplicate: true}
	})
	c.say(view.MsgHandpayReprinted, engine.Money(r.Amount))
}

// handpay is the paper of a handpay paid at by who: MS-18's form for a
// CZK jackpot, otherwise the handpay receipt.
func (p paper) handpay(d ledger.Doc, who string, at time.Time, duplicate bool) document.Document {
	lang := document.Lang(p.market.Language)
	cur := p.market.Currency
	reason := document.HandpayLargeWin
	switch {
	case d.Kind == ledger.DocHandpayJackpot && document.Is(cur, document.CZK):
		return document.JackpotForm{Lang: lang, Site: p.site.Name, SiteID: p.site.ID, Machine: p.id, Won: at,
			Amount: d.Amount, Currency: cur, JackpotID: fmt.Sprintf("%s-%d", p.id, d.Round), Sequence: uint32(d.ID),
			Attendant: who, Duplicate: duplicate}
	case d.Kind == ledger.DocHandpayJackpot:
		// MS-18's form is the Czech one, in CZK; a market in another
		// currency (demo) gets the receipt, reason jackpot.
		reason = document.HandpayJackpot
	case d.Kind == ledger.DocHandpayCancel:
		reason = document.HandpayCancelCredit
	}
	return document.HandpayReceipt{Lang: lang, Site: p.site.Name, SiteID: p.site.ID, Machine: p.id, Paid: at,
		Amount: d.Amount, Currency: cur, Sequence: uint32(d.ID), Reason: reason, Attendant: who, Duplicate: duplicate}
}

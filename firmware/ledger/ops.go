package ledger

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Money and journal transactions. Each is one ledger transaction: credit,
// meters, journal and history change together or not at all. Each is keyed
// (round number, step, document id) so that replaying it after a restart
// with the same values does nothing, and with other values is ErrConflict.

func (t *tx) round(n uint64) (*Round, bool) {
	var r Round
	if !t.getJSON(seqKey("round", n), &r) {
		return nil, false
	}
	return &r, true
}

func (t *tx) putRound(r *Round) { t.putJSON(seqKey("round", r.Number), r) }

func (t *tx) journal(r *Round, kind string) {
	r.Journal = append(r.Journal, JournalEntry{Kind: kind, Seq: t.l.head.Seq + 1, Wall: t.wall})
}

func roundScopes(r *Round) []Scope {
	return []Scope{ScopeCabinet, GameScope(r.Game), DenomScope(r.Denom)}
}

// NextRound is the number the next Wager must carry.
func (l *Ledger) NextRound() uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return uint64(intOf(l.kv, "seq/round")) + 1
}

// Wager opens a round: the stake leaves the credit meter and counts as
// coin in (cabinet, game, denomination). Only one round is open at a time.
func (l *Ledger) Wager(w Wager) error {
	return l.do("wager", w, func(t *tx) error {
		if w.Round == 0 || w.Game == "" || w.Denom <= 0 || w.Stake <= 0 || w.Stake%w.Denom != 0 {
			return invalid("wager %+v", w)
		}
		if r, ok := t.round(w.Round); ok {
			if r.Game == w.Game && r.Denom == w.Denom && r.Stake == w.Stake && bytes.Equal(r.Choices, w.Choices) {
				return nil
			}
			return conflict("round %d already wagered with other values", w.Round)
		}
		if want := t.counter("round") + 1; w.Round != want {
			return conflict("round %d out of order, next is %d", w.Round, want)
		}
		if open, ok := t.get("open/round"); ok {
			return conflict("round %s is still open", open)
		}
		c := t.credit()
		if c < w.Stake {
			return ErrInsufficientCredit
		}
		t.next("round")
		r := &Round{Number: w.Round, Game: w.Game, Denom: w.Denom, Stake: w.Stake, Status: RoundWagered,
			CreditBefore: c, Choices: w.Choices}
		t.journal(r, JournalWager)
		t.setCredit(c - w.Stake)
		t.add(CoinIn, w.Stake, roundScopes(r)...)
		t.putRound(r)
		t.put("open/round", []byte(strconv.FormatUint(w.Round, 10)))
		if w.Round > RecallKeep { // keep RecallKeep rounds, this one included
			t.del(seqKey("round", w.Round-RecallKeep))
		}
		return nil
	})
}

type outcomeArgs struct {
	Round uint64 `json:"round"`
	Win   int64  `json:"win"`
	Body  []byte `json:"body"`
}

// Outcome records the verified central outcome of a round (body: the signed
// outcome with its draw tape, kept for recall) and its total win, which
// stays pending until Settle.
func (l *Ledger) Outcome(round uint64, win int64, body []byte) error {
	return l.do("outcome", outcomeArgs{round, win, body}, func(t *tx) error {
		if win < 0 || len(body) == 0 {
			return invalid("outcome of round %d: win %d, %d body bytes", round, win, len(body))
		}
		r, ok := t.round(round)
		if !ok {
			return fmt.Errorf("%w: round %d", ErrNotFound, round)
		}
		if r.Status != RoundWagered {
			if r.Outcome != nil && r.Win == win && bytes.Equal(r.Outcome, body) {
				return nil
			}
			return conflict("round %d is %s", round, r.Status)
		}
		r.Outcome, r.Win, r.PendingWin, r.Status = body, win, win, RoundOutcome
		t.journal(r, JournalOutcome)
		t.putRound(r)
		return nil
	})
}

type riskArgs struct {
	Round uint64   `json:"round"`
	Step  RiskStep `json:"step"`
}

// Risk records one double-up step on the round's pending win. Risk stakes
// are not coin in; they count on the Risk meters only.
func (l *Ledger) Risk(round uint64, s RiskStep) error {
	return l.do("risk", riskArgs{round, s}, func(t *tx) error {
		r, ok := t.round(round)
		if !ok {
			return fmt.Errorf("%w: round %d", ErrNotFound, round)
		}
		if s.Step >= 1 && s.Step <= len(r.Risk) {
			p := r.Risk[s.Step-1]
			if p.Stake == s.Stake && p.Won == s.Won && bytes.Equal(p.Payload, s.Payload) {
				return nil
			}
			return conflict("risk step %d of round %d already recorded with other values", s.Step, round)
		}
		if r.Status != RoundOutcome {
			return conflict("round %d is %s", round, r.Status)
		}
		if s.Step != len(r.Risk)+1 {
			return conflict("risk step %d out of order, next is %d", s.Step, len(r.Risk)+1)
		}
		if s.Stake <= 0 || s.Stake > r.PendingWin || s.Won < 0 {
			return invalid("risk step %+v with pending win %d", s, r.PendingWin)
		}
		r.Risk = append(r.Risk, s)
		r.PendingWin += s.Won - s.Stake
		t.journal(r, JournalRisk)
		t.add(RiskWagered, s.Stake, roundScopes(r)...)
		t.add(RiskWon, s.Won, roundScopes(r)...)
		t.putRound(r)
		return nil
	})
}

type settleArgs struct {
	Round uint64     `json:"round"`
	S     Settlement `json:"settlement"`
}

// Settle ends a round. s.Credit goes to the credit meter (coin out),
// s.Handpay and s.Jackpot become pending handpays for the attendant (their
// meters count when HandpayPaid). s.Credit+s.Handpay must equal the pending
// win. The round becomes a recall record.
func (l *Ledger) Settle(round uint64, s Settlement) error {
	return l.do("settle", settleArgs{round, s}, func(t *tx) error {
		if s.Credit < 0 || s.Handpay < 0 || s.Jackpot < 0 {
			return invalid("settlement %+v", s)
		}
		r, ok := t.round(round)
		if !ok {
			return fmt.Errorf("%w: round %d", ErrNotFound, round)
		}
		switch r.Status {
		case RoundSettled:
			p := r.Settlement
			if p != nil && p.Credit == s.Credit && p.Handpay == s.Handpay && p.Jackpot == s.Jackpot &&
				bytes.Equal(p.Payload, s.Payload) && bytes.Equal(p.Commit, s.Commit) {
				return nil
			}
			return conflict("round %d already settled with other values", round)
		case RoundOutcome:
		default:
			return conflict("round %d is %s", round, r.Status)
		}
		if s.Credit+s.Handpay != r.PendingWin {
			return invalid("settlement %d+%d does not pay the pending win %d", s.Credit, s.Handpay, r.PendingWin)
		}
		sc := roundScopes(r)
		t.addCredit(s.Credit)
		t.add(CoinOut, s.Credit, sc...)
		t.add(GamesPlayed, 1, sc...)
		if r.Win > 0 || s.Jackpot > 0 {
			t.add(GamesWon, 1, sc...)
		}
		for _, hp := range []struct {
			kind DocKind
			amt  int64
		}{{DocHandpayWin, s.Handpay}, {DocHandpayJackpot, s.Jackpot}} {
			if hp.amt == 0 {
				continue
			}
			id := t.next("doc")
			t.putJSON(seqKey("doc", id), Doc{ID: id, Kind: hp.kind, Amount: hp.amt, Round: r.Number, Game: r.Game,
				Denom: r.Denom, Created: t.wall})
			r.HandpayIDs = append(r.HandpayIDs, id)
			t.event(EventHandpay, string(hp.kind), fmt.Sprintf("round %d: handpay lockup", r.Number), hp.amt, nil)
		}
		sc2 := s
		r.Settlement = &sc2
		r.Status = RoundSettled
		r.PendingWin = 0
		r.CreditAfter = t.credit()
		t.journal(r, JournalSettle)
		t.putRound(r)
		t.del("open/round")
		if s.Commit != nil {
			t.enqueue("commit", s.Commit)
		}
		return nil
	})
}

type refundArgs struct {
	Round  uint64 `json:"round"`
	Reason string `json:"reason"`
}

// Refund returns the stake of a round that got no outcome (refused by the
// central system). The stake counts on wagers_refunded; coin in is not
// decreased (meters only count up).
func (l *Ledger) Refund(round uint64, reason string) error {
	return l.do("refund", refundArgs{round, reason}, func(t *tx) error {
		if reason == "" {
			return invalid("refund needs a reason")
		}
		r, ok := t.round(round)
		if !ok {
			return fmt.Errorf("%w: round %d", ErrNotFound, round)
		}
		if r.Status == RoundRefunded {
			if r.RefundReason == reason {
				return nil
			}
			return conflict("round %d already refunded", round)
		}
		if r.Status != RoundWagered {
			return conflict("round %d is %s", round, r.Status)
		}
		t.addCredit(r.Stake)
		t.add(WagersRefunded, r.Stake, roundScopes(r)...)
		r.Status, r.RefundReason, r.CreditAfter = RoundRefunded, reason, t.credit()
		t.journal(r, JournalRefund)
		t.putRound(r)
		t.del("open/round")
		return nil
	})
}

// ---- documents: escrow, vouchers, handpays ----

// NextDocID is the id the next new document must carry.
func (l *Ledger) NextDocID() uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return uint64(intOf(l.kv, "seq/doc")) + 1
}

func (t *tx) doc(id uint64) (*Doc, bool) {
	var d Doc
	if !t.getJSON(seqKey("doc", id), &d) {
		return nil, false
	}
	return &d, true
}

func (t *tx) done(id uint64) (*DocRecord, bool) {
	var d DocRecord
	if !t.getJSON(seqKey("done", id), &d) {
		return nil, false
	}
	return &d, true
}

// createDoc adds pending document d (d.ID must be NextDocID, or an earlier
// id with the same content: a replay).
func (t *tx) createDoc(d Doc, only ...DocKind) error {
	if p, ok := t.doc(d.ID); ok {
		if p.Kind == d.Kind && p.Amount == d.Amount && p.Number == d.Number {
			return nil
		}
		return conflict("document %d exists with other values", d.ID)
	}
	if p, ok := t.done(d.ID); ok {
		if p.Kind == d.Kind && p.Number == d.Number {
			return nil // created and finished already
		}
		return conflict("document %d was a %s", d.ID, p.Kind)
	}
	if want := t.counter("doc") + 1; d.ID != want {
		return conflict("document id %d, next is %d", d.ID, want)
	}
	// one document at a time per device
	for k := range t.l.dig.items["doc"] {
		{
			var p Doc
			t.getJSON(k, &p)
			for _, o := range only {
				if p.Kind == o {
					return conflict("document %d (%s) is still pending", p.ID, p.Kind)
				}
			}
		}
	}
	t.next("doc")
	d.Created = t.wall
	t.putJSON(seqKey("doc", d.ID), d)
	return nil
}

// finishDoc removes a pending document and remembers how it ended.
func (t *tx) finishDoc(d *Doc, res DocResult, by string) DocRecord {
	rec := DocRecord{Doc: *d, Result: res, Done: t.wall, By: by}
	t.del(seqKey("doc", d.ID))
	t.putJSON(seqKey("done", d.ID), rec)
	if d.ID > doneKeep {
		t.del(seqKey("done", d.ID-doneKeep))
	}
	return rec
}

// pendingFor finds pending document id of one of kinds, or reports that it
// already ended with res (replay: ok=false, err=nil).
func (t *tx) pendingFor(id uint64, res DocResult, kinds ...DocKind) (*Doc, error) {
	if d, ok := t.doc(id); ok {
		for _, k := range kinds {
			if d.Kind == k {
				return d, nil
			}
		}
		return nil, conflict("document %d is a %s", id, d.Kind)
	}
	if r, ok := t.done(id); ok {
		if r.Result == res {
			return nil, nil
		}
		return nil, conflict("document %d already %s", id, r.Result)
	}
	return nil, fmt.Errorf("%w: document %d", ErrNotFound, id)
}

// unprinted reports voucher id as never printed (number "" when none came),
// keeping the newest UnprintedKeep.
func (t *tx) unprinted(id uint64, number string) {
	k := seqKey("unprinted", id)
	t.putJSON(k, number)
	ks := keysWithPrefix(t.l.kv, "unprinted/")
	if !slices.Contains(ks, k) {
		ks = append(ks, k)
	}
	for ; len(ks) > UnprintedKeep; ks = ks[1:] {
		t.del(ks[0])
	}
}

func (t *tx) logDoc(prefix string, keep uint64, rec DocRecord) {
	n := t.next(prefix)
	t.putJSON(seqKey(prefix, n), rec)
	if n > keep {
		t.del(seqKey(prefix, n-keep))
	}
}

type escrowArgs struct {
	ID     uint64  `json:"id"`
	Kind   DocKind `json:"kind"`
	Amount int64   `json:"amount"`
	Number string  `json:"number,omitempty"`
}

// Escrow records a note (kind DocBill, amount = its value) or a ticket
// (DocTicketIn, number = its validation number) held in escrow, before the
// cabinet decides to stack or return it.
func (l *Ledger) Escrow(id uint64, kind DocKind, amount int64, number string) error {
	return l.do("escrow", escrowArgs{id, kind, amount, number}, func(t *tx) error {
		switch {
		case kind == DocBill && amount > 0 && number == "":
		case kind == DocTicketIn && amount >= 0 && number != "":
		default:
			return invalid("escrow of %s, amount %d, number %q", kind, amount, number)
		}
		return t.createDoc(Doc{ID: id, Kind: kind, Amount: amount, Number: number}, DocBill, DocTicketIn)
	})
}

type stackArgs struct {
	ID     uint64 `json:"id"`
	Amount int64  `json:"amount"`
}

// Stacked credits a document the acceptor reports irrevocably stacked:
// amount must be the note's value, or for a ticket the amount the central
// system validated.
func (l *Ledger) Stacked(id uint64, amount int64) error {
	return l.do("stacked", stackArgs{id, amount}, func(t *tx) error {
		d, err := t.pendingFor(id, DocStacked, DocBill, DocTicketIn)
		if err != nil || d == nil {
			return err
		}
		if amount <= 0 || (d.Kind == DocBill && amount != d.Amount) {
			return invalid("stacked %s %d for amount %d", d.Kind, id, amount)
		}
		var h TicketHold
		if t.getJSON(holdKey(id), &h) && h.Amount != amount {
			return invalid("stacked ticket %d for amount %d, its hold is for %d", id, amount, h.Amount)
		}
		d.Amount = amount
		t.addCredit(amount)
		if d.Kind == DocBill {
			t.add(BillsInValue, amount, ScopeCabinet)
			t.add(BillsInCount, 1, ScopeCabinet, BillScope(amount))
		} else {
			t.add(TicketsInValue, amount, ScopeCabinet)
			t.add(TicketsInCount, 1, ScopeCabinet)
		}
		t.add(TotalDrop, amount, ScopeCabinet)
		t.endHold(id, DocStacked)
		t.logDoc("docin", DocsInKeep, t.finishDoc(d, DocStacked, ""))
		return nil
	})
}

// Returned ends an escrow without credit (note or ticket given back).
func (l *Ledger) Returned(id uint64) error {
	return l.do("returned", stackArgs{ID: id}, func(t *tx) error {
		d, err := t.pendingFor(id, DocReturned, DocBill, DocTicketIn)
		if err != nil || d == nil {
			return err
		}
		t.endHold(id, DocReturned)
		t.finishDoc(d, DocReturned, "")
		return nil
	})
}

// VoucherRequested records a cash-out voucher of amount (≤ credit) before
// its number is asked of the central system, which issues it for the
// sequence id: a pending voucher without a number. A power cut after the
// central system issued it and before VoucherPrinting leaves it pending,
// so the cabinet asks again under the same id (answered with the same
// number) instead of leaving a voucher issued there that no ticket
// carries. Nothing is debited.
func (l *Ledger) VoucherRequested(id uint64, amount int64) error {
	return l.do("voucher_requested", escrowArgs{ID: id, Kind: DocVoucher, Amount: amount}, func(t *tx) error {
		if amount <= 0 {
			return invalid("voucher amount %d", amount)
		}
		if _, ok := t.doc(id); !ok {
			if _, ok := t.done(id); !ok && amount > t.credit() {
				return ErrInsufficientCredit
			}
		}
		return t.createDoc(Doc{ID: id, Kind: DocVoucher, Amount: amount}, DocVoucher)
	})
}

// VoucherPrinting records a cash-out voucher about to be printed: amount
// (≤ credit) and its validation number, given to the voucher requested
// under id (VoucherRequested, the same amount) or, without one, to a new
// voucher. Credit is debited only by VoucherPrinted.
func (l *Ledger) VoucherPrinting(id uint64, amount int64, validation string) error {
	return l.do("voucher_printing", escrowArgs{id, DocVoucher, amount, validation}, func(t *tx) error {
		if amount <= 0 || validation == "" {
			return invalid("voucher amount %d, validation %q", amount, validation)
		}
		if d, ok := t.doc(id); ok && d.Kind == DocVoucher && d.Number == "" {
			if d.Amount != amount {
				return conflict("voucher %d was requested for %d, not %d", id, d.Amount, amount)
			}
			d.Number = validation
			t.putJSON(seqKey("doc", id), d)
			return nil
		}
		if _, ok := t.doc(id); !ok {
			if _, ok := t.done(id); !ok && amount > t.credit() {
				return ErrInsufficientCredit
			}
		}
		return t.createDoc(Doc{ID: id, Kind: DocVoucher, Amount: amount, Number: validation}, DocVoucher)
	})
}

// VoucherPrinted debits the credit meter when the printer confirms the
// voucher printed.
func (l *Ledger) VoucherPrinted(id uint64) error {
	return l.do("voucher_printed", stackArgs{ID: id}, func(t *tx) error {
		d, err := t.pendingFor(id, DocPrinted, DocVoucher)
		if err != nil || d == nil {
			return err
		}
		if t.credit() < d.Amount {
			return ErrInsufficientCredit
		}
		t.addCredit(-d.Amount)
		t.add(TicketsOutValue, d.Amount, ScopeCabinet)
		t.add(TicketsOutCount, 1, ScopeCabinet)
		t.logDoc("docout", DocsOutKeep, t.finishDoc(d, DocPrinted, ""))
		return nil
	})
}

type failArgs struct {
	ID     uint64 `json:"id"`
	Reason string `json:"reason"`
}

// VoucherFailed ends a voucher that was not printed, or a request the
// central system refused (no number yet); nothing is debited.
func (l *Ledger) VoucherFailed(id uint64, reason string) error {
	return l.do("voucher_failed", failArgs{id, reason}, func(t *tx) error {
		d, err := t.pendingFor(id, DocFailed, DocVoucher)
		if err != nil || d == nil {
			return err
		}
		t.finishDoc(d, DocFailed, "")
		if d.Number == "" {
			// Requested, and refused: the central system issued nothing.
			t.event("voucher_refused", "central", "voucher not issued: "+reason, d.Amount, nil)
			return nil
		}
		// Issued centrally but never on paper: the central system voids it
		// (CreditMeters.Unprinted) so its credit mirror does not count it
		// out.
		t.unprinted(id, d.Number)
		t.event("device_fault", "printer", "voucher not printed: "+reason, d.Amount, nil)
		return nil
	})
}

type toHandpayArgs struct {
	ID      uint64 `json:"id"`
	Handpay uint64 `json:"handpay"`
	Who     string `json:"who"`
}

// VoucherToHandpay ends the voucher requested under id whose number never
// came (the central system unreachable: whether it issued one is unknown)
// and starts, in the same transaction, a cancelled-credit handpay lockup
// handpay for its amount: the attendant (who) pays the credit by hand.
// The request's sequence goes in Unprinted, so that a voucher the central
// system did issue for it is voided there (CreditMeters.Unprinted); no
// ticket carries its number, so it is never paid. A voucher that has its
// number is refused: it prints.
func (l *Ledger) VoucherToHandpay(id, handpay uint64, who string) error {
	return l.do("voucher_to_handpay", toHandpayArgs{id, handpay, who}, func(t *tx) error {
		if who == "" {
			return invalid("a voucher goes to a handpay by an attendant")
		}
		d, err := t.pendingFor(id, DocFailed, DocVoucher)
		if err != nil {
			return err
		}
		if d == nil {
			// Ended already: a replay if it ended here (one transaction
			// made both), else not this voucher's to change.
			if h, ok := t.doc(handpay); ok && h.Kind == DocHandpayCancel {
				return nil
			}
			if h, ok := t.done(handpay); ok && h.Kind == DocHandpayCancel {
				return nil
			}
			return conflict("voucher %d ended already", id)
		}
		if d.Number != "" {
			return conflict("voucher %d has its number: it prints", id)
		}
		t.finishDoc(d, DocFailed, who)
		t.unprinted(id, "")
		t.event("voucher_to_handpay", who, "voucher request unanswered by the central system, paid by hand", d.Amount, nil)
		if err := t.createDoc(Doc{ID: handpay, Kind: DocHandpayCancel, Amount: d.Amount}, DocHandpayCancel); err != nil {
			return err
		}
		t.event(EventHandpay, string(DocHandpayCancel), "cancelled-credit handpay lockup", d.Amount, nil)
		return nil
	})
}

// CancelCreditHandpay starts a cancelled-credit handpay lockup for amount
// (≤ credit); the credit is debited when the attendant pays it.
func (l *Ledger) CancelCreditHandpay(id uint64, amount int64) error {
	return l.do("handpay_cancel", escrowArgs{ID: id, Kind: DocHandpayCancel, Amount: amount}, func(t *tx) error {
		if amount <= 0 {
			return invalid("handpay amount %d", amount)
		}
		if _, ok := t.doc(id); !ok {
			if _, ok := t.done(id); !ok && amount > t.credit() {
				return ErrInsufficientCredit
			}
		}
		_, existed := t.doc(id)
		if err := t.createDoc(Doc{ID: id, Kind: DocHandpayCancel, Amount: amount}, DocHandpayCancel); err != nil {
			return err
		}
		if !existed && len(t.w) > 0 {
			t.event(EventHandpay, string(DocHandpayCancel), "cancelled-credit handpay lockup", amount, nil)
		}
		return nil
	})
}

type paidArgs struct {
	ID  uint64 `json:"id"`
	Who string `json:"who"`
}

// HandpayPaid records the attendant's key reset of a handpay: its meter
// counts, and a cancelled-credit handpay debits the credit meter.
func (l *Ledger) HandpayPaid(id uint64, who string) error {
	return l.do("handpay_paid", paidArgs{id, who}, func(t *tx) error {
		if who == "" {
			return invalid("handpay reset needs the attendant")
		}
		d, err := t.pendingFor(id, DocPaid, DocHandpayWin, DocHandpayJackpot, DocHandpayCancel)
		if err != nil || d == nil {
			return err
		}
		switch d.Kind {
		case DocHandpayWin:
			t.add(HandpayWin, d.Amount, ScopeCabinet, GameScope(d.Game), DenomScope(d.Denom))
		case DocHandpayJackpot:
			t.add(JackpotAttendant, d.Amount, ScopeCabinet, GameScope(d.Game), DenomScope(d.Denom))
		case DocHandpayCancel:
			if t.credit() < d.Amount {
				return ErrInsufficientCredit
			}
			t.addCredit(-d.Amount)
			t.add(HandpayCancelledCredit, d.Amount, ScopeCabinet)
		}
		t.finishDoc(d, DocPaid, who)
		t.event(EventHandpay, who, fmt.Sprintf("%s %d paid by attendant", d.Kind, d.ID), d.Amount, nil)
		return nil
	})
}

// HandpayToCredit records the attendant's key reset of a large-win handpay
// to the credit meter ("transfer to credit", check 26): the win is
// credited and counted as a win paid to credit (coin out), not as a
// handpay.
func (l *Ledger) HandpayToCredit(id uint64, who string) error {
	return l.do("handpay_to_credit", paidArgs{id, who}, func(t *tx) error {
		if who == "" {
			return invalid("handpay reset needs the attendant")
		}
		d, err := t.pendingFor(id, DocCredited, DocHandpayWin)
		if err != nil || d == nil {
			return err
		}
		sc := []Scope{ScopeCabinet, GameScope(d.Game), DenomScope(d.Denom)}
		t.addCredit(d.Amount)
		t.add(CoinOut, d.Amount, sc...)
		t.add(HandpayToCredit, d.Amount, sc...)
		t.finishDoc(d, DocCredited, who)
		t.event(EventHandpay, who, fmt.Sprintf("%s %d transferred to credit by attendant", d.Kind, d.ID), d.Amount, nil)
		return nil
	})
}

// ---- events, doors, power, configuration ----

type eventArgs struct {
	Kind   string `json:"kind"`
	Source string `json:"source,omitempty"`
	Text   string `json:"text,omitempty"`
	Amount int64  `json:"amount,omitempty"`
	Data   []byte `json:"data,omitempty"`
}

// LogEvent appends an event (tilt, link, device fault, …).
func (l *Ledger) LogEvent(kind, source, text string, amount int64, data []byte) error {
	return l.do("event", eventArgs{kind, source, text, amount, data}, func(t *tx) error {
		if kind == "" {
			return invalid("event without kind")
		}
		t.event(kind, source, text, amount, data)
		return nil
	})
}

// PowerUp counts a power-up and logs it. The cabinet calls it once per start.
func (l *Ledger) PowerUp() error {
	return l.do("power_up", nil, func(t *tx) error {
		t.add(PowerUps, 1, ScopeCabinet)
		t.event(EventPowerUp, "cabinet", "power up", 0, nil)
		return nil
	})
}

// DoorOpened counts an opening of door (per door and in total), logs it
// and keeps the door open in the resume state, for the next power-up to
// compare (check 18).
func (l *Ledger) DoorOpened(door string) error {
	return l.do("door_open", eventArgs{Source: door}, func(t *tx) error {
		if door == "" || strings.ContainsRune(door, '/') {
			return invalid("door name %q", door)
		}
		t.put(resumeDoor+door, []byte("1"))
		t.add(DoorOpens, 1, ScopeCabinet, DoorScope(door))
		t.event(EventDoorOpen, door, "door opened", 0, nil)
		return nil
	})
}

// DoorClosed logs a door closing and keeps it closed in the resume state.
// The cabinet then calls Verify.
func (l *Ledger) DoorClosed(door string) error {
	return l.do("door_close", eventArgs{Source: door}, func(t *tx) error {
		if door == "" || strings.ContainsRune(door, '/') {
			return invalid("door name %q", door)
		}
		t.del(resumeDoor + door)
		t.event(EventDoorClose, door, "door closed", 0, nil)
		return nil
	})
}

type configArgs struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Who   string `json:"who"`
}

// SetConfig sets a configuration value and logs the change with who made
// it. Setting the same value is a no-op.
func (l *Ledger) SetConfig(key, value, who string) error {
	return l.do("config", configArgs{key, value, who}, func(t *tx) error {
		if key == "" || who == "" {
			return invalid("config change needs a key and who")
		}
		k := "config/" + key
		old, had := t.get(k)
		if had && string(old) == value {
			return nil
		}
		t.put(k, []byte(value))
		from := "(unset)"
		if had {
			from = string(old)
		}
		t.event(EventConfigChange, who, key+": "+from+" -> "+value, 0, nil)
		return nil
	})
}

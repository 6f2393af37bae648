package ledger

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// A voucher is journaled as requested (amount, sequence) before its
// number is asked of the central system: it survives a power cut without
// a number, is not yet counted out of the credit the central mirror is
// told, takes its number once (the same again is a replay, another amount
// a conflict) and is debited only when printed.
func TestVoucherRequestedSurvivesACutAndTakesItsNumberOnce(t *testing.T) {
	l, o := newTestLedger(t)
	insertBill(t, l, 5000)
	id := l.NextDocID()
	if err := l.VoucherRequested(id, 6000); !errors.Is(err, ErrInsufficientCredit) {
		t.Fatalf("a request above the credit: %v", err)
	}
	if err := l.VoucherRequested(id, 0); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a request of 0: %v", err)
	}
	must(t, l.VoucherRequested(id, 5000))
	seq := l.Seq()
	must(t, l.VoucherRequested(id, 5000)) // replay: nothing written
	if l.Seq() != seq {
		t.Fatalf("a repeated request wrote a transaction")
	}
	if err := l.VoucherRequested(id, 4000); !errors.Is(err, ErrConflict) {
		t.Fatalf("the same request for another amount: %v", err)
	}
	if err := l.VoucherRequested(l.NextDocID(), 100); !errors.Is(err, ErrConflict) {
		t.Fatalf("a second voucher while one is pending: %v", err)
	}
	l.Close()

	l, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	pend := l.PendingDocs()
	if len(pend) != 1 || pend[0].ID != id || pend[0].Kind != DocVoucher || pend[0].Amount != 5000 || pend[0].Number != "" {
		t.Fatalf("pending after the cut %+v, want voucher %d of 5000 without a number", pend, id)
	}
	if cs, err := l.CreditState(16); err != nil || cs.Credit != 5000 {
		t.Fatalf("credit state %+v %v: a voucher without a number is not counted out", cs, err)
	}
	if err := l.VoucherPrinting(id, 4000, "000011112222333344"); !errors.Is(err, ErrConflict) {
		t.Fatalf("the number for another amount: %v", err)
	}
	must(t, l.VoucherPrinting(id, 5000, "000011112222333344"))
	must(t, l.VoucherPrinting(id, 5000, "000011112222333344")) // replay
	if err := l.VoucherPrinting(id, 5000, "000099998888777766"); !errors.Is(err, ErrConflict) {
		t.Fatalf("a second number: %v", err)
	}
	if cs, _ := l.CreditState(16); cs.Credit != 0 {
		t.Fatalf("credit state %+v: a voucher printing is counted out", cs)
	}
	if c, _ := l.Credit(); c != 5000 {
		t.Fatalf("credit %d before the print, want 5000", c)
	}
	must(t, l.VoucherPrinted(id))
	out := l.DocsOut()
	if c, _ := l.Credit(); c != 0 || len(out) != 1 || out[0].Number != "000011112222333344" || out[0].Amount != 5000 {
		t.Fatalf("credit %d, out %+v", c, out)
	}
}

// A request the central system refused ends without a debit and is not
// reported unprinted (no number was issued for it).
func TestVoucherRequestRefusedEndsWithoutDebit(t *testing.T) {
	l, _ := newTestLedger(t)
	insertBill(t, l, 5000)
	id := l.NextDocID()
	must(t, l.VoucherRequested(id, 5000))
	must(t, l.VoucherFailed(id, "VOUCHER_ABOVE_CREDIT"))
	if len(l.PendingDocs()) != 0 {
		t.Fatalf("pending %+v", l.PendingDocs())
	}
	cs, err := l.CreditState(16)
	if err != nil || cs.Credit != 5000 || len(cs.Unprinted) != 0 {
		t.Fatalf("credit state %+v %v", cs, err)
	}
	if es := l.Events(1); len(es) != 1 || es[0].Kind != "voucher_refused" || es[0].Source != "central" {
		t.Fatalf("last event %+v, want voucher_refused from the central system", es)
	}
}

// A request the central system never answered goes to a cancelled-credit
// handpay in one transaction: the voucher ends unprinted (its sequence in
// Unprinted, for the central system to void what it may have issued), the
// lockup holds its amount, nothing is debited until the attendant pays;
// the same again is a replay, and neither a voucher with its number nor
// one refused earlier goes to a handpay.
func TestVoucherRequestUnansweredGoesToAHandpay(t *testing.T) {
	l, o := newTestLedger(t)
	insertBill(t, l, 5000)
	id := l.NextDocID()
	must(t, l.VoucherRequested(id, 5000))
	hp := l.NextDocID()
	if err := l.VoucherToHandpay(id, hp, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("without the attendant: %v", err)
	}
	must(t, l.VoucherToHandpay(id, hp, "attendant"))
	seq := l.Seq()
	must(t, l.VoucherToHandpay(id, hp, "attendant")) // replay
	if l.Seq() != seq {
		t.Fatal("a repeated conversion wrote a transaction")
	}
	l.Close()
	l, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	pend := l.PendingDocs()
	if len(pend) != 1 || pend[0].ID != hp || pend[0].Kind != DocHandpayCancel || pend[0].Amount != 5000 {
		t.Fatalf("pending %+v, want the handpay %d of 5000 alone", pend, hp)
	}
	cs, err := l.CreditState(16)
	if err != nil || cs.Credit != 5000 || cs.VoucherRequested != 0 || len(cs.Unprinted) != 1 || cs.Unprinted[0] != id {
		t.Fatalf("credit state %+v %v, want 5000, no request, %d unprinted", cs, err, id)
	}
	must(t, l.HandpayPaid(hp, "attendant"))
	if c, _ := l.Credit(); c != 0 {
		t.Fatalf("after the payment credit %d", c)
	}
	if m, _ := l.Meters(ScopeCabinet); m[HandpayCancelledCredit] != 5000 {
		t.Fatalf("after the payment the cancelled-credit meter is %d", m[HandpayCancelledCredit])
	}

	insertBill(t, l, 3000)
	printing := l.NextDocID()
	must(t, l.VoucherRequested(printing, 3000))
	must(t, l.VoucherPrinting(printing, 3000, "000011112222333344"))
	if err := l.VoucherToHandpay(printing, l.NextDocID(), "attendant"); !errors.Is(err, ErrConflict) {
		t.Fatalf("a voucher with its number to a handpay: %v", err)
	}
	must(t, l.VoucherFailed(printing, "paper jam"))
	refused := l.NextDocID()
	must(t, l.VoucherRequested(refused, 3000))
	must(t, l.VoucherFailed(refused, "VOUCHER_ABOVE_CREDIT"))
	if err := l.VoucherToHandpay(refused, l.NextDocID(), "attendant"); !errors.Is(err, ErrConflict) {
		t.Fatalf("a refused request to a handpay: %v", err)
	}
	if len(l.PendingDocs()) != 0 {
		t.Fatalf("pending %+v", l.PendingDocs())
	}
}

// The vouchers reported unprinted are a bounded table: of 40 failed prints
// the newest UnprintedKeep are kept and reported, in order.
func TestUnprintedKeepsTheNewest(t *testing.T) {
	l, _ := newTestLedger(t)
	insertBill(t, l, 5000)
	var ids []uint64
	for i := 0; i < 40; i++ {
		id := l.NextDocID()
		must(t, l.VoucherPrinting(id, 100, fmt.Sprintf("%018d", 1000+i)))
		must(t, l.VoucherFailed(id, "paper jam"))
		ids = append(ids, id)
	}
	if n := len(keysWithPrefix(l.kv, "unprinted/")); n != UnprintedKeep {
		t.Fatalf("%d unprinted kept, want %d", n, UnprintedKeep)
	}
	cs, err := l.CreditState(100)
	if err != nil || !slices.Equal(cs.Unprinted, ids[len(ids)-UnprintedKeep:]) {
		t.Fatalf("unprinted %v %v, want the newest %d of %v", cs.Unprinted, err, UnprintedKeep, ids)
	}
}

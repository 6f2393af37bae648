package ledger

// Check 12 (standards.md §2), the ledger's part: the money-in/out history
// keeps the last 50 notes and tickets accepted (value, time) and the last 35
// vouchers printed (time, amount, validation number), across a reopen, and
// the number is shown only masked. The cabinet's money page
// (firmware/cabinet historyPage) prints these records with MaskedNumber.

import (
	"fmt"
	"strings"
	"testing"
)

func TestCheck12MoneyHistoryKeptAndMasked(t *testing.T) {
	if DocsInKeep < 50 || DocsOutKeep < 35 {
		t.Fatalf("history keeps %d in, %d out; the check asks 50 and 35", DocsInKeep, DocsOutKeep)
	}
	l, o := newTestLedger(t)
	const ins, outs = 60, 40
	for i := 1; i <= ins; i++ {
		if i%3 == 0 {
			id := l.NextDocID()
			n := fmt.Sprintf("0%016d7", 5_000+i)
			must(t, l.Escrow(id, DocTicketIn, int64(100*i), n))
			must(t, l.Stacked(id, int64(100*i)))
		} else {
			insertBill(t, l, int64(1000*i))
		}
	}
	var vouchers []string
	for i := 1; i <= outs; i++ {
		id := l.NextDocID()
		n := fmt.Sprintf("0%016d3", 900_000+i)
		vouchers = append(vouchers, n)
		must(t, l.VoucherPrinting(id, int64(10*i), n))
		must(t, l.VoucherPrinted(id))
	}
	must(t, l.Close())
	l, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })

	in := l.DocsIn()
	if len(in) != 50 {
		t.Fatalf("%d notes and tickets in the history, want the last 50", len(in))
	}
	for k, d := range in {
		i := ins - k // newest first
		want := int64(1000 * i)
		kind := DocBill
		if i%3 == 0 {
			want, kind = int64(100*i), DocTicketIn
		}
		if d.Kind != kind || d.Amount != want || d.Result != DocStacked || d.Done.IsZero() {
			t.Errorf("in #%d: %+v, want %s of %d stacked, with its time", k, d, kind, want)
		}
	}
	out := l.DocsOut()
	if len(out) != 35 {
		t.Fatalf("%d vouchers in the history, want the last 35", len(out))
	}
	for k, d := range out {
		i := outs - k
		full := vouchers[i-1]
		if d.Kind != DocVoucher || d.Amount != int64(10*i) || d.Done.IsZero() || d.Number != full {
			t.Errorf("out #%d: %+v, want voucher %s of %d with its time", k, d, full, 10*i)
		}
		m := d.MaskedNumber()
		if m == full || strings.Contains(m, full[:14]) || !strings.HasSuffix(m, full[len(full)-4:]) || len(m) != len(full) {
			t.Errorf("out #%d: shown as %q, want all but the last 4 digits of %s hidden", k, m, full)
		}
		if strings.Trim(m[:len(m)-4], "*") != "" {
			t.Errorf("out #%d: %q shows more than the last 4 digits", k, m)
		}
	}
}

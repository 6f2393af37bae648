package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"

	"github.com/polaris-vlt/polaris/drivers/printer/printertest"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// unsureVoucher cashes 100.00 out to a printer that prints the voucher but
// reports the job failed without knowing whether the validation number
// reached paper (PrintFailed.Unsure: a time-out, a status missed). It
// waits for the voucher tilt and returns the voucher's number.
func unsureVoucher(t *testing.T, r *rig) string {
	t.Helper()
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.idle()
	r.insertNote(10000, 2)
	r.prn.FailUnsure = true
	r.press(view.Collect)
	r.until("voucher printed", time.Millisecond, func(*view.Snapshot) bool { return len(r.prn.Printed) == 1 })
	r.until("voucher tilt or void", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt || r.pendingVoucher() == "" })
	number := r.pendingVoucher()
	if number == "" {
		t.Fatalf("the voucher is no longer pending (voided as unprinted?): documents out %+v", r.led.DocsOut())
	}
	return number
}

// A print the driver cannot confirm is never voided: the central system
// holds the number issued and it may be on paper. With the chute empty
// (taken) it is printed again, marked duplicate, with the same number, and
// debited once. (Crash harness: "voucher … printed but not debited", the
// TCL driver having missed the validation flag's clearing under load.)
func TestUnconfirmedVoucherIsReprintedAsDuplicate(t *testing.T) {
	r := newRig(t, "demo")
	number := unsureVoucher(t, r)
	r.until("debited", 10*time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
	if len(r.prn.Printed) != 2 {
		t.Fatalf("%d documents printed, want the voucher and its duplicate", len(r.prn.Printed))
	}
	first, _ := r.prn.Printed[0].(document.Voucher)
	dup, ok := r.prn.Printed[1].(document.Voucher)
	if !ok || !dup.Duplicate || first.Duplicate || dup.Validation != number || first.Validation != number {
		t.Fatalf("printed %+v then %+v, want voucher %s and its duplicate", r.prn.Printed[0], r.prn.Printed[1], number)
	}
	if got := r.meter(ledger.TicketsOutValue); got != 10000 {
		t.Fatalf("tickets out %d, want 10000 once", got)
	}
	out := r.led.DocsOut()
	if len(out) != 1 || out[0].Number != number || out[0].Result != ledger.DocPrinted {
		t.Fatalf("documents out %+v, want voucher %s printed once", out, number)
	}
}

// lateReturn is a driver whose Print returns after the job's events have
// been handled: the cabinet must not then follow the job it gave up.
type lateReturn struct {
	*printertest.Printer
	cab func() *Cabinet
}

func (p lateReturn) Print(d document.Document) (printer.JobID, error) {
	j, err := p.Printer.Print(d)
	if err != nil {
		return j, err
	}
	// Print returns once the loop has handled the event that ends the job
	// for the cabinet: the unsure failure (the voucher held for a reprint)
	// or the completed reprint (no voucher left).
	cab := p.cab()
	for deadline := time.Now().Add(poll.Scaled(15 * time.Second)); time.Now().Before(deadline); time.Sleep(poll.Every) {
		var handled bool
		cab.Do(func() { co := cab.cashOut.voucher; handled = co == nil || co.phase == voucherHeld })
		if handled {
			break
		}
	}
	return j, err
}

// The same, with the failure handled before Print returned: the reprint's
// events are still followed, and it is debited once.
func TestUnconfirmedVoucherReportedBeforePrintReturnedIsReprinted(t *testing.T) {
	var r *rig
	r = newRig(t, "demo", func(c *Config) {
		c.Printer = lateReturn{c.Printer.(*printertest.Printer), func() *Cabinet { return r.cab }}
	})
	number := unsureVoucher(t, r)
	r.until("debited", 10*time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
	out := r.led.DocsOut()
	if len(r.prn.Printed) != 2 || len(out) != 1 || out[0].Number != number || out[0].Result != ledger.DocPrinted {
		t.Fatalf("%d printed, documents out %+v, want voucher %s and its duplicate, debited once", len(r.prn.Printed), out, number)
	}
}

// The same voucher still waiting in the chute: the printer refuses to print
// over it, so it is the original, debited as it is, with no duplicate.
func TestUnconfirmedVoucherInTheChuteIsDebited(t *testing.T) {
	r := newRig(t, "demo")
	number := unsureVoucher(t, r)
	r.prn.Refuse = printer.ErrTicketInChute
	r.until("debited", 10*time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
	if len(r.prn.Printed) != 1 {
		t.Fatalf("%d documents printed, want the original only", len(r.prn.Printed))
	}
	out := r.led.DocsOut()
	if len(out) != 1 || out[0].Number != number || out[0].Result != ledger.DocPrinted || r.meter(ledger.TicketsOutValue) != 10000 {
		t.Fatalf("documents out %+v, want voucher %s printed once", out, number)
	}
}

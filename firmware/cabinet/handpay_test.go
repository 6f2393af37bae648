package cabinet

import (
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// testPIN is attendant A17's PIN in withAttendants' market.
const testPIN = "2468"

// withAttendants: the market identifies attendants by PIN; A17's is
// testPIN, B02's another.
func withAttendants() rigOption {
	return withMarket(func(p *market.Profile) {
		p.AttendantID = market.AttendantPIN
		p.Attendants = []market.Attendant{
			{ID: "B02", PINHash: market.HashPIN("1357", []byte("salt-b02-salt"))},
			{ID: "A17", PINHash: market.HashPIN(testPIN, []byte("salt-a17-salt"))},
		}
	})
}

// handpayRig is a Magic Stars cabinet locked up on a large-win handpay
// (no transfer to credit offered); it returns the amount.
func handpayRig(t *testing.T, opts ...rigOption) (*rig, engine.Money) {
	t.Helper()
	big, large := largeWin()
	sc := newScriptedCentral()
	opts = append([]rigOption{sc.option(), withMarket(func(p *market.Profile) {
		p.Limits.LargeWin, p.Limits.HandpayToCredit = large, false
	})}, opts...)
	r := magicStarsRig(t, opts...)
	sc.queue(engine.MagicStars, big, 0)
	if s := r.playOne(); s.Mode != view.ModeLockup {
		t.Fatalf("mode %s after a win of %d, want the handpay lockup", s.Mode, large)
	}
	return r, large
}

func (r *rig) printed() []document.Document {
	var out []document.Document
	r.cab.Do(func() { out = append(out, r.prn.Printed...) })
	return out
}

// stillLocked: for a while (five seconds of the fake clock, the loop
// ticking after each step) the lockup stays and nothing is counted or
// printed.
func (r *rig) stillLocked(what string, amount engine.Money, printed int) *view.Snapshot {
	r.t.Helper()
	var s *view.Snapshot
	for i := 0; i < 50; i++ {
		r.clock.Advance(100 * time.Millisecond)
		r.ticked()
		s = r.state()
		if s.Lockup == nil || r.meter(ledger.HandpayWin) != 0 || len(r.printed()) != printed {
			r.t.Fatalf("%s: lockup %+v, handpay meter %d, %d printed: the handpay completed without its receipt",
				what, s.Lockup, r.meter(ledger.HandpayWin), len(r.printed()))
		}
	}
	return s
}

// A handpay with the printer out of paper does not complete: the lockup
// stays, nothing is counted, the screen says why; when the paper is back
// the receipt prints and only then is the handpay paid.
func TestHandpayWaitsForItsReceipt(t *testing.T) {
	r, large := handpayRig(t)
	r.cab.Post(PrinterEvent{printer.FaultSet{Fault: printer.PaperOut}})
	seq := r.lastEventSeq()
	r.cab.Post(Key{Name: "attendant", On: true})
	s := r.until("the printer page", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Menu != nil && s.Menu.Title == menuHandpayWaits
	})
	if s.Message != view.MsgHandpayWaitsPrinter || !strings.Contains(strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n"), printer.PaperOut.String()) {
		t.Fatalf("waiting for paper: message %q, page %q", s.Message, s.Menu.Lines)
	}
	r.stillLocked("paper out, key on", large, 0)
	r.cab.Post(Key{Name: "attendant", On: false})
	s = r.stillLocked("paper out, key back", large, 0)
	if s.Message != view.MsgHandpayWaitsPrinter {
		t.Fatalf("the lockup without the key says %q, want why it waits", s.Message)
	}
	if ev := r.eventsOf(seq, "handpay_waits_printer"); len(ev) != 1 || !strings.Contains(ev[0].Text, printer.PaperOut.String()) {
		t.Fatalf("the wait logged as %+v", ev)
	}

	// A job that fails on the way (paper out mid-receipt) pays nothing either.
	r.prn.FailNext = printer.PaperOut
	r.cab.Post(PrinterEvent{printer.FaultCleared{Fault: printer.PaperOut}})
	// The job's failure handled, not only its printing begun: the paper
	// out it reports must be in before the paper comes back below.
	r.until("the failed job handled", time.Millisecond, func(*view.Snapshot) bool {
		var failed bool
		r.cab.Do(func() {
			hp := r.cab.handpay.print
			failed = hp != nil && !hp.sent && r.cab.cashOut.printerFaults[printer.PaperOut]
		})
		return failed && len(r.printed()) == 1
	})
	r.stillLocked("the receipt failed", large, 1)

	r.cab.Post(PrinterEvent{printer.FaultCleared{Fault: printer.PaperOut}})
	s = r.until("paid after the receipt", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil })
	if r.meter(ledger.HandpayWin) != int64(large) || s.Message != view.MsgHandpayPaid {
		t.Fatalf("after the receipt: handpay meter %d, message %q", r.meter(ledger.HandpayWin), s.Message)
	}
	p := r.printed()
	if h, ok := p[len(p)-1].(document.HandpayReceipt); !ok || h.Amount != int64(large) || h.Attendant != market.AttendantKey || h.Duplicate {
		t.Fatalf("printed %+v, want the handpay receipt", p[len(p)-1])
	}
}

// With the printer out of paper the attendant may choose a manual form:
// logged with who and why, then the handpay is paid.
func TestHandpayManualFormIsLogged(t *testing.T) {
	r, large := handpayRig(t, withAttendants())
	r.cab.Post(PrinterEvent{printer.FaultSet{Fault: printer.PaperOut}})
	r.cab.Post(Key{Name: "attendant", On: true})
	r.enterPIN(testPIN)
	r.until("the printer page", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Menu != nil && s.Menu.Title == menuHandpayWaits
	})
	r.stillLocked("before the choice", large, 0)
	seq := r.lastEventSeq()
	r.press(view.Collect)
	s := r.until("paid by a manual form", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil })
	if s.Message != view.MsgHandpayManual || r.meter(ledger.HandpayWin) != int64(large) || len(r.printed()) != 0 {
		t.Fatalf("manual form: message %q, meter %d, %d printed", s.Message, r.meter(ledger.HandpayWin), len(r.printed()))
	}
	ev := r.eventsSince(seq)
	if len(ev) < 2 || ev[0].Kind != "handpay_manual_form" || ev[0].Source != "A17" || !strings.Contains(ev[0].Text, printer.PaperOut.String()) ||
		ev[1].Kind != ledger.EventHandpay || ev[1].Source != "A17" {
		t.Fatalf("the manual form logged as %+v, want who (A17) and why, then the handpay by A17", ev)
	}
}

// enterPIN enters pin on the deck: Bet+ to each digit, Stop to take it.
func (r *rig) enterPIN(pin string) {
	r.t.Helper()
	s := r.until("the PIN page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == menuAttendantPIN })
	if s.Menu.Hint != hintPIN { // Bet± change the digit, not the page
		r.t.Fatalf("the PIN page's footer is %q, want %q", s.Menu.Hint, hintPIN)
	}
	for _, d := range pin {
		for i := '0'; i < d; i++ {
			r.press(view.BetPlus)
		}
		r.press(view.Stop)
	}
}

// The PIN names the attendant: a wrong one is refused and logged (the PIN
// itself never); the right one's id is on the receipt and in the ledger's
// handpay event. A reprint from the attendant's menu says DUPLICATE.
func TestHandpayAttendantPINAndReprint(t *testing.T) {
	r, large := handpayRig(t, withAttendants())
	seq := r.lastEventSeq()
	r.cab.Post(Key{Name: "attendant", On: true})
	r.enterPIN("1111")
	s := r.until("refused", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgPINRefused })
	if s.Lockup == nil || len(r.printed()) != 0 {
		t.Fatal("a wrong PIN paid the handpay")
	}
	ev := r.eventsOf(seq, "attendant_pin_refused")
	if len(ev) != 1 || strings.Contains(ev[0].Text, "1111") {
		t.Fatalf("the wrong PIN logged as %+v (once, without the PIN)", ev)
	}
	r.enterPIN(testPIN)
	r.until("paid", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil })
	p := r.printed()
	h, ok := p[len(p)-1].(document.HandpayReceipt)
	if !ok || h.Attendant != "A17" {
		t.Fatalf("printed %+v, want the receipt by A17", p[len(p)-1])
	}
	for _, f := range h.Fields() {
		if strings.Contains(f.Value, testPIN) {
			t.Fatalf("the receipt's %s prints the PIN: %q", f.Name, f.Value)
		}
	}
	paid := r.eventsOf(seq, ledger.EventHandpay)
	if len(paid) != 1 || paid[0].Source != "A17" || paid[0].Amount != int64(large) {
		t.Fatalf("the handpay logged as %+v, want by A17", paid)
	}
	r.takeTicket()

	// The reprint: the attendant's menu (no lockup), Collect.
	r.cab.Post(Key{Name: "attendant", On: false})
	r.cab.Post(Key{Name: "attendant", On: true})
	r.until("the attendant's menu", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil })
	r.press(view.Collect)
	r.until("reprinted", time.Millisecond, func(*view.Snapshot) bool { return len(r.printed()) == len(p)+1 })
	d, ok := r.printed()[len(p)].(document.HandpayReceipt)
	if !ok || !d.Duplicate || d.Attendant != "A17" || d.Amount != h.Amount || d.Sequence != h.Sequence {
		t.Fatalf("reprinted %+v, want the same receipt marked duplicate", d)
	}
	if v, _ := document.FieldValue(d, document.FTitle); !strings.Contains(v, "DUPLICATE") {
		t.Fatalf("the reprint's title %q does not say DUPLICATE", v)
	}
	if r.meter(ledger.HandpayWin) != int64(large) {
		t.Fatal("the reprint moved the handpay meter")
	}
}

// Three wrong PINs lock the PIN page until the key is turned back.
func TestHandpayThreeWrongPINs(t *testing.T) {
	r, _ := handpayRig(t, withAttendants())
	seq := r.lastEventSeq()
	r.cab.Post(Key{Name: "attendant", On: true})
	for i := 0; i < pinTriesPerKeyOn; i++ {
		r.enterPIN("0000")
	}
	r.until("no PIN page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu == nil && s.Message == view.MsgPINRefused })
	if ev := r.eventsOf(seq, "attendant_pin_refused"); len(ev) != pinTriesPerKeyOn {
		t.Fatalf("%d refusals logged, want %d", len(ev), pinTriesPerKeyOn)
	}
	r.cab.Post(Key{Name: "attendant", On: false})
	r.cab.Post(Key{Name: "attendant", On: true})
	r.enterPIN(testPIN)
	r.until("paid", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil })
}

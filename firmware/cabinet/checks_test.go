package cabinet

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/acceptor"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// settle waits for a round to end, taking the win when Risk is offered.
func (r *rig) settleRound(s *view.Snapshot) *view.Snapshot {
	r.t.Helper()
	if s.RiskOffer {
		r.press(view.Collect)
		s = r.until("settled", time.Millisecond, func(s *view.Snapshot) bool {
			return !s.RiskOffer && (s.Mode == view.ModeIdle || s.Mode == view.ModeLockup)
		})
	}
	return s
}

// lastEventSeq is the sequence number of the newest ledger event.
func (r *rig) lastEventSeq() uint64 {
	if es := r.led.Events(1); len(es) > 0 {
		return es[0].Seq
	}
	return 0
}

// eventsSince returns the ledger events after seq, oldest first.
func (r *rig) eventsSince(seq uint64) []ledger.Event {
	es := r.led.Events(100000)
	var out []ledger.Event
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Seq > seq {
			out = append(out, es[i])
		}
	}
	return out
}

// Check 23: Collect pressed while a round is presented prints nothing and
// pays nothing out — neither then nor when the round ends; Collect in idle
// afterwards does print (so the printer path is live).
func TestCheck23NoCashoutDuringARound(t *testing.T) {
	r := newRig(t, "demo", withTiming(DefaultTiming))
	r.idle()
	r.insertNote(2000, 2)
	r.press(view.Start)
	r.until("presenting", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModePresenting })
	r.press(view.Collect)
	var cashout bool
	// The press is decided on the loop: a cash-out begins there (the
	// voucher asked for), or not at all.
	r.cab.Do(func() { cashout = r.cab.cashOut.voucher != nil })
	if cashout || len(r.prn.Printed) != 0 || r.cab.View().Mode == view.ModeCashout {
		t.Fatalf("check 23: Collect during the presentation started a cash-out (printed %d)", len(r.prn.Printed))
	}
	s := r.until("round over", 100*time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle || s.RiskOffer })
	s = r.settleRound(s)
	// A tick after the round's end: a Collect kept for the round's end
	// would begin its cash-out by then, on the loop.
	r.cab.Post(Tick{})
	r.cab.Do(func() { cashout = r.cab.cashOut.voucher != nil })
	if cashout || len(r.prn.Printed) != 0 || r.meter(ledger.TicketsOutCount) != 0 || r.meter(ledger.HandpayCancelledCredit) != 0 || s.Credit == 0 {
		t.Fatalf("check 23: a cash-out happened for a Collect pressed mid-round (printed %d, credit %d)", len(r.prn.Printed), s.Credit)
	}
	credit := s.Credit
	r.press(view.Collect)
	r.until("voucher", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && len(r.prn.Printed) == 1 })
	if r.meter(ledger.TicketsOutValue) != int64(credit) {
		t.Fatalf("voucher of %d for a credit of %d", r.meter(ledger.TicketsOutValue), credit)
	}
}

// Check 27, tilt list (the conditions the cabinet can be given in a test):
// each shows a specific reason, disables the acceptor, refuses Start and a
// note already in escrow, is logged in the ledger, and clears only when its
// condition is gone, returning the cabinet to idle with the acceptor on.
// Check 31 (money acceptance stops on link loss) is the last row.
func TestCheck27TiltList(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(1000, 2)
	cases := []struct {
		name      string
		set       []Event
		clear     []Event
		mode      view.Mode
		reason    string // in Snapshot.Tilts; "" for none
		kind, src string // the ledger event
		cleared   string // the ledger event kind when it clears
	}{
		{"acceptor jam", []Event{AcceptorEvent{acceptor.Fault{Kind: acceptor.AcceptorJam}}}, []Event{AcceptorEvent{acceptor.FaultCleared{Kind: acceptor.AcceptorJam}}},
			view.ModeTilt, "acceptor: " + acceptor.AcceptorJam.String(), "tilt", "acceptor", "tilt_cleared"},
		{"acceptor stacker full", []Event{AcceptorEvent{acceptor.Fault{Kind: acceptor.StackerFull}}}, []Event{AcceptorEvent{acceptor.FaultCleared{Kind: acceptor.StackerFull}}},
			view.ModeTilt, "acceptor: " + acceptor.StackerFull.String(), "tilt", "acceptor", "tilt_cleared"},
		// The ID-003 driver follows CommRestored with its start-up sequence, which ends in Ready.
		{"acceptor comm lost", []Event{AcceptorEvent{acceptor.CommLost{}}}, []Event{AcceptorEvent{acceptor.CommRestored{}}, AcceptorEvent{acceptor.Ready{}}},
			view.ModeTilt, "acceptor: communication lost", "tilt", "acceptor", "tilt_cleared"},
		{"printer paper out", []Event{PrinterEvent{printer.FaultSet{Fault: printer.PaperOut}}}, []Event{PrinterEvent{printer.FaultCleared{Fault: printer.PaperOut}}},
			view.ModeTilt, "printer: " + printer.PaperOut.String(), "tilt", "printer", "tilt_cleared"},
		{"printer comm lost", []Event{PrinterEvent{printer.CommLost{}}}, []Event{PrinterEvent{printer.Online{}}},
			view.ModeTilt, "printer: communication lost", "tilt", "printer", "tilt_cleared"},
		{"low storage", []Event{StorageHealth{Free: 5 << 20}}, []Event{StorageHealth{Free: 1 << 30}},
			view.ModeTilt, "storage low: 5 MiB free, below 64 MiB", "tilt", "storage", "tilt_cleared"},
		{"storage unreadable", []Event{StorageHealth{Err: errors.New("statfs: input/output error")}}, []Event{StorageHealth{Free: 1 << 30}},
			view.ModeTilt, "storage: cannot read free space: statfs: input/output error", "tilt", "storage", "tilt_cleared"},
		{"central link loss", []Event{LinkState{Up: false}}, []Event{LinkState{Up: true}},
			view.ModeOutOfService, "", "link", "central", "link"},
	}
	for _, tc := range cases {
		r.idle()
		r.until("acceptor on", time.Millisecond, func(*view.Snapshot) bool { return r.acc.isEnabled() })
		seq := r.lastEventSeq()
		coinIn, credit := r.meter(ledger.CoinIn), r.credit()
		for _, e := range tc.set {
			r.cab.Post(e)
		}
		s := r.until(tc.name, time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == tc.mode })
		if tc.reason != "" && !reflect.DeepEqual(s.Tilts, []string{tc.reason}) {
			t.Fatalf("check 27 %s: tilts %q, want %q", tc.name, s.Tilts, tc.reason)
		}
		r.until(tc.name+": acceptor off", time.Millisecond, func(*view.Snapshot) bool { return !r.acc.isEnabled() })
		r.press(view.Start)
		r.acc.doc = acceptor.Document{Kind: acceptor.Note, Code: 0x61, Denom: acceptor.Denomination{Base: 10}}
		returns := r.acc.count("return")
		r.cab.Post(AcceptorEvent{acceptor.Escrow{Doc: r.acc.doc}})
		r.returnedAfter("check 27 "+tc.name+": the note", returns)
		if r.meter(ledger.CoinIn) != coinIn || r.credit() != credit || r.cab.View().Mode != tc.mode {
			t.Fatalf("check 27 %s: Start or a note was taken: coin in %d → %d, credit %d → %d, mode %s",
				tc.name, coinIn, r.meter(ledger.CoinIn), credit, r.credit(), r.cab.View().Mode)
		}
		logged := false
		for _, e := range r.eventsSince(seq) {
			if e.Kind == tc.kind && e.Source == tc.src && (tc.reason == "" || e.Text == tc.reason) {
				logged = true
			}
		}
		if !logged {
			t.Fatalf("check 27 %s: no %s/%s event in the ledger: %+v", tc.name, tc.kind, tc.src, r.eventsSince(seq))
		}
		seq = r.lastEventSeq()
		for _, e := range tc.clear {
			r.cab.Post(e)
		}
		r.idle()
		r.until(tc.name+": acceptor on again", time.Millisecond, func(*view.Snapshot) bool { return r.acc.isEnabled() })
		logged = false
		for _, e := range r.eventsSince(seq) {
			logged = logged || e.Kind == tc.cleared && e.Source == tc.src
		}
		if !logged {
			t.Fatalf("check 27 %s: clearing not logged: %+v", tc.name, r.eventsSince(seq))
		}
		if s := r.playOne(); s.Round == nil || r.meter(ledger.CoinIn) == coinIn {
			t.Fatalf("check 27 %s: no game after the condition cleared", tc.name)
		}
		r.settleRound(r.cab.View())
	}
}

package id003

import (
	"errors"
	"testing"

	"github.com/polaris-vlt/polaris/drivers/acceptor"
)

// The cabinet tilts with the neutral fault's words and the display finds
// its catalogue key by them: a kind translated to another word would show
// the wrong fault.
func TestNeutralFaultsKeepTheirWords(t *testing.T) {
	for k := FaultStackerFull; k <= FaultFailure; k++ {
		n, ok := Neutral(Fault{Kind: k})
		if !ok || n.(acceptor.Fault).Kind.String() != k.String() {
			t.Errorf("%s: neutral %v", k, n)
		}
	}
}

// Every event that closes an escrow or moves money keeps its document, so
// the firmware credits and reconciles the same note through the port.
func TestNeutralEventsKeepTheirDocuments(t *testing.T) {
	note := Document{Kind: DocNote, Code: 0x63, Denom: Denomination{Code: 0x63, Country: 0xE0, Base: 20}}
	want := acceptor.Document{Kind: acceptor.Note, Code: 0x63, Denom: acceptor.Denomination{Base: 20}}
	ticket := Document{Kind: DocTicket, Ticket: "123456789012345678"}
	cases := []struct {
		in   Event
		want acceptor.Event
	}{
		{Escrow{Doc: note}, acceptor.Escrow{Doc: want}},
		{Stacked{Doc: note, Recovered: true}, acceptor.Stacked{Doc: want, Recovered: true}},
		{Returned{Doc: note, ByHost: true, Reason: "returning"}, acceptor.Returned{Doc: want, ByHost: true, Reason: "returning"}},
		{Escrow{Doc: ticket}, acceptor.Escrow{Doc: acceptor.Document{Kind: acceptor.Ticket, Ticket: ticket.Ticket}}},
		{PowerUpWithBill{Where: InStacker}, acceptor.PowerUpWithBill{Where: acceptor.InStacker}},
		{PowerUpWithBill{Where: InAcceptor, Doc: note}, acceptor.PowerUpWithBill{Where: acceptor.InAcceptor, Doc: want}},
		{Ready{Version: "v1"}, acceptor.Ready{Version: "v1"}},
		{Enabled{Accept: Accept{Notes: AllDenoms}}, acceptor.Enabled{Accept: acceptor.Accept{Notes: true}}},
		{FaultCleared{Kind: FaultStackerOpen}, acceptor.FaultCleared{Kind: acceptor.StackerOpen}},
		{CommRestored{}, acceptor.CommRestored{}},
	}
	for _, c := range cases {
		if got, ok := Neutral(c.in); !ok || got != c.want {
			t.Errorf("%s: got %v, want %v", c.in, got, c.want)
		}
	}
	got, _ := Neutral(Rejected{Code: RejectInhibited, Doc: &note})
	if r := got.(acceptor.Rejected); r.Reason != RejectInhibited.String() || r.Doc == nil || *r.Doc != want {
		t.Errorf("rejected: %v", got)
	}
	lost := errors.New("silence")
	if got, _ := Neutral(CommLost{Err: lost}); got.(acceptor.CommLost).Err != lost {
		t.Errorf("comm lost: %v", got)
	}
	if got, _ := Neutral(Fault{Kind: FaultFailure, Failure: 0xA2}); got.(acceptor.Fault).Detail == "" {
		t.Errorf("failure without its code: %v", got)
	}
	if _, ok := Neutral(RecyclerStatus{}); ok {
		t.Error("a recycler report crossed the port")
	}
}

// A note worth 50 000 (Base 5, Exponent 4) in a currency of 2 decimals.
func TestNeutralDenominationMinor(t *testing.T) {
	d, _ := Neutral(Escrow{Doc: Document{Kind: DocNote, Denom: Denomination{Base: 5, Exponent: 4}}})
	if got := d.(acceptor.Escrow).Doc.Denom.Minor(2); got != 5000000 {
		t.Errorf("minor %d", got)
	}
}

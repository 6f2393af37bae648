// Package outbox hands the cabinet's ledger to the central link as the
// link's durable outbox: the ledger stores messages as opaque bytes in the
// transactions of the facts they report; this package knows the link's
// message type and encodes the ledger's events in the link's wire format.
// It sits above both, so the ledger imports nothing of the central system.
package outbox

import (
	"errors"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// Of is the ledger as the link's outbox.
func Of(l *ledger.Ledger) link.Outbox { return ledgerOutbox{l} }

type ledgerOutbox struct{ l *ledger.Ledger }

func (o ledgerOutbox) Enqueue(kind string, payload []byte) (int64, error) {
	return o.l.Enqueue(kind, payload)
}

func (o ledgerOutbox) Pending(limit int) ([]link.OutboxMessage, error) {
	ms, err := o.l.Pending(limit)
	if err != nil {
		return nil, err
	}
	out := make([]link.OutboxMessage, len(ms))
	for i, m := range ms {
		out[i] = link.OutboxMessage{ID: m.ID, Kind: m.Kind, Payload: m.Payload}
	}
	return out, nil
}

func (o ledgerOutbox) Ack(id int64) error { return o.l.Ack(id) }

// CreditMeters makes the ledger's outbox a link.CreditSource: the meters
// the central system's credit mirror needs, sent with every voucher
// request and Hello. None while a stake is in flight (a power cut between
// the wager and its outcome): whether the central system booked it is
// unknown until the round is asked again, so a Hello then would compare
// the credit with a mirror that may lack the stake (a false
// MIRROR_DIFFERS); the next Hello takes the meters. A voucher is never
// asked for mid-round. A voucher requested but not yet answered
// (a power cut before its number reached the ledger) is told as
// VoucherRequested: the link then sends the meters with the voucher's
// request, not with a Hello; so is a ticket credited and not yet confirmed
// (TicketsToConfirm).
func (o ledgerOutbox) CreditMeters() (link.CreditMeters, error) {
	c, err := o.l.CreditState(link.MaxUnprinted)
	if err != nil {
		return link.CreditMeters{}, err
	}
	if c.StakeInFlight > 0 {
		return link.CreditMeters{}, ErrStakeInFlight
	}
	return link.CreditMeters{Base: engine.Money(c.Base), BillsIn: engine.Money(c.BillsIn), WinsToCredit: engine.Money(c.WinsToCredit),
		HandpayCancelled: engine.Money(c.HandpayCancelled), Credit: engine.Money(c.Credit), Unprinted: c.Unprinted,
		VoucherRequested: engine.Money(c.VoucherRequested), TicketsToConfirm: engine.Money(c.TicketsToConfirm)}, nil
}

var _ link.CreditSource = ledgerOutbox{}

// ErrStakeInFlight is CreditMeters' refusal while a round's stake is in
// flight.
var ErrStakeInFlight = errors.New("outbox: a round's stake in flight: no credit meters until its outcome")

// EventMessage is ledger.Options.EventMessage for a cabinet whose events go
// to the central system: one event as a link.KindEvents message, in the
// link's own wire format so the client sends it as it is. The source (a
// device, a door, an actor) leads the text, as the central log shows it.
func EventMessage(e ledger.Event) (string, []byte, error) {
	text := e.Text
	if e.Source != "" {
		text = e.Source + ": " + text
	}
	b, err := link.EventsPayload([]link.Event{{Seq: int64(e.Seq), At: e.Wall, Kind: e.Kind, Text: text, Amount: engine.Money(e.Amount), Data: e.Data}})
	return link.KindEvents, b, err
}

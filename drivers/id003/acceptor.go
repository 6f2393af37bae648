package id003

import (
	"context"

	"github.com/polaris-vlt/polaris/drivers/acceptor"
)

// Acceptor is a Driver behind the protocol-neutral acceptor port
// (drivers/acceptor): the firmware commands it and reads its events
// without knowing ID-003. Its Run drives the Driver and translates the
// Driver's events in order.
type Acceptor struct {
	d      *Driver
	events chan acceptor.Event
}

// NewAcceptor makes a Driver for cfg behind the neutral port. h's hooks,
// when set, replace cfg's BeforeAck and BeforeReset: they run at the same
// moments with the neutral events.
func NewAcceptor(cfg Config, h acceptor.Hooks) *Acceptor {
	if ack := h.BeforeAck; ack != nil {
		cfg.BeforeAck = func(s Stacked) error { return ack(neutralStacked(s)) }
	}
	if reset := h.BeforeReset; reset != nil {
		cfg.BeforeReset = func(e PowerUpWithBill) error { return reset(neutralPowerUp(e)) }
	}
	d := New(cfg)
	return &Acceptor{d: d, events: make(chan acceptor.Event, d.cfg.EventBuffer)}
}

// Driver is the ID-003 driver behind the port.
func (p *Acceptor) Driver() *Driver { return p.d }

// Events delivers the acceptor's events, in order; like the Driver's, the
// port blocks rather than drop one.
func (p *Acceptor) Events() <-chan acceptor.Event { return p.events }

// Enable switches acceptance on: every note code of the currency table
// (the firmware refuses a note it does not credit at Escrow) and tickets
// when a.Tickets.
func (p *Acceptor) Enable(ctx context.Context, a acceptor.Accept) error {
	var notes DenomSet
	if a.Notes {
		notes = AllDenoms
	}
	return p.d.Enable(ctx, Accept{Notes: notes, Tickets: a.Tickets})
}

func (p *Acceptor) Disable(ctx context.Context) error { return p.d.Disable(ctx) }
func (p *Acceptor) Stack(ctx context.Context) error   { return p.d.Stack(ctx) }
func (p *Acceptor) Return(ctx context.Context) error  { return p.d.Return(ctx) }
func (p *Acceptor) Hold(ctx context.Context) error    { return p.d.Hold(ctx) }

// Run drives the acceptor until ctx ends and returns the Driver's error.
func (p *Acceptor) Run(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case e := <-p.d.Events():
				n, ok := Neutral(e)
				if !ok {
					continue
				}
				select {
				case p.events <- n:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	err := p.d.Run(ctx)
	<-done
	return err
}

// Neutral is e as the neutral port reports it; ok is false for what the
// port does not carry: RecyclerStatus, which moves no money (the note's
// credit is its Stacked) and has no meaning outside ID-003's extension.
func Neutral(e Event) (n acceptor.Event, ok bool) {
	switch e := e.(type) {
	case Ready:
		return acceptor.Ready{Version: e.Version}, true
	case Enabled:
		return acceptor.Enabled{Accept: acceptor.Accept{Notes: e.Accept.Notes != 0, Tickets: e.Accept.Tickets}}, true
	case Disabled:
		return acceptor.Disabled{}, true
	case Accepting:
		return acceptor.Accepting{}, true
	case Escrow:
		return acceptor.Escrow{Doc: neutralDoc(e.Doc)}, true
	case Stacked:
		return neutralStacked(e), true
	case Returned:
		return acceptor.Returned{Doc: neutralDoc(e.Doc), ByHost: e.ByHost, Reason: e.Reason}, true
	case Rejected:
		return acceptor.Rejected{Reason: e.Code.String(), Doc: neutralDocPtr(e.Doc)}, true
	case PowerUpWithBill:
		return neutralPowerUp(e), true
	case Fault:
		f := acceptor.Fault{Kind: neutralFault(e.Kind)}
		if e.Kind == FaultFailure {
			f.Detail = e.Failure.String()
		}
		return f, true
	case FaultCleared:
		return acceptor.FaultCleared{Kind: neutralFault(e.Kind)}, true
	case CommLost:
		return acceptor.CommLost{Err: e.Err}, true
	case CommRestored:
		return acceptor.CommRestored{}, true
	case Anomaly:
		return acceptor.Anomaly{Doc: neutralDocPtr(e.Doc), Detail: e.Detail}, true
	}
	return nil, false
}

func neutralStacked(s Stacked) acceptor.Stacked {
	return acceptor.Stacked{Doc: neutralDoc(s.Doc), Recovered: s.Recovered}
}

func neutralPowerUp(e PowerUpWithBill) acceptor.PowerUpWithBill {
	w := acceptor.InAcceptor
	if e.Where == InStacker {
		w = acceptor.InStacker
	}
	return acceptor.PowerUpWithBill{Where: w, Doc: neutralDoc(e.Doc)}
}

var docKinds = map[DocKind]acceptor.Kind{DocUnknown: acceptor.Unknown, DocNote: acceptor.Note, DocTicket: acceptor.Ticket}

func neutralDoc(d Document) acceptor.Document {
	n := acceptor.Document{Kind: docKinds[d.Kind], Ticket: d.Ticket}
	if d.Kind == DocNote {
		n.Code = int(d.Code)
		n.Denom = acceptor.Denomination{Base: int64(d.Denom.Base), Exponent: int(d.Denom.Exponent)}
	}
	return n
}

func neutralDocPtr(d *Document) *acceptor.Document {
	if d == nil {
		return nil
	}
	n := neutralDoc(*d)
	return &n
}

var faultKinds = map[FaultKind]acceptor.FaultKind{
	FaultStackerFull: acceptor.StackerFull, FaultStackerOpen: acceptor.StackerOpen,
	FaultAcceptorJam: acceptor.AcceptorJam, FaultStackerJam: acceptor.StackerJam,
	FaultPause: acceptor.Pause, FaultCheated: acceptor.Cheated, FaultFailure: acceptor.Failure,
}

// neutralFault: a kind the port does not name is a failure of the unit.
func neutralFault(k FaultKind) acceptor.FaultKind {
	if n, ok := faultKinds[k]; ok {
		return n
	}
	return acceptor.Failure
}

var _ acceptor.Device = (*Acceptor)(nil)

package link

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/engine"
)

// HelloInfo is the central system's answer to Hello.
type HelloInfo struct {
	Cabinet, Hall string
	ServerTime    time.Time
	// Offset is the server's time minus the cabinet's (Config.Clock) at the
	// moment the server read it, taken as the middle of the round trip:
	// its error is at most RTT/2.
	Offset         time.Duration
	RTT            time.Duration
	Models         map[engine.GameID]string
	LastRound      uint64
	Enabled        bool
	DisabledReason string
	// MirrorCredit is the central system's mirror of the credit meter;
	// MirrorDiffers says it differs from the credit the cabinet reported
	// (an alarm at both ends).
	MirrorCredit  engine.Money
	MirrorDiffers bool
}

// creditMeters reads Config.Credit for a request (nil without one, or
// when the read fails: the central system then issues no voucher), and
// for a Hello none while a voucher request is unanswered or a credited
// ticket unconfirmed (CreditMeters.VoucherRequested, TicketsToConfirm).
func (c *Client) creditMeters(hello bool) *pb.CreditMeters {
	if c.cfg.Credit == nil {
		return nil
	}
	m, err := c.cfg.Credit()
	if err != nil || hello && (m.VoucherRequested > 0 || m.TicketsToConfirm > 0) {
		return nil
	}
	return &pb.CreditMeters{Base: int64(m.Base), BillsIn: int64(m.BillsIn), WinsToCredit: int64(m.WinsToCredit),
		HandpayCancelled: int64(m.HandpayCancelled), Credit: int64(m.Credit), Present: true, Unprinted: m.Unprinted}
}

// Hello tells the central system which models the cabinet plays and gets
// its time. A model difference is a *RefusedError with Reason MODEL_MISMATCH;
// a central key that differs from the pinned one is a *SignatureError.
func (c *Client) Hello(ctx context.Context) (*HelloInfo, error) {
	return c.hello(ctx, c.cfg.Retries)
}

func (c *Client) hello(ctx context.Context, retries int) (*HelloInfo, error) {
	req := &pb.HelloRequest{SoftwareVersion: c.cfg.Version, Meters: c.creditMeters(true)}
	for _, g := range c.cfg.Games {
		req.Models = append(req.Models, &pb.GameModel{Game: string(g.ID()), ModelId: g.ModelID()})
	}
	var rep *pb.HelloReply
	var sent, got time.Time
	err := c.callN(ctx, "hello", retries, func(ctx context.Context) (err error) {
		sent = c.cfg.Clock.Now()
		req.CabinetTimeUnixNano = sent.UnixNano()
		rep, err = c.api().Hello(ctx, req)
		got = c.cfg.Clock.Now()
		return err
	})
	if err != nil {
		return nil, err
	}
	if string(rep.GetSigningPublicKey()) != string(c.cfg.SigningKey) {
		return nil, &SignatureError{What: "hello: the central signing key differs from the pinned key"}
	}
	if rep.GetCabinet() != c.cfg.Cabinet {
		return nil, &BodyError{Field: "cabinet", Want: c.cfg.Cabinet, Got: rep.GetCabinet()}
	}
	st := time.Unix(0, rep.GetServerTimeUnixNano())
	info := &HelloInfo{
		Cabinet: rep.GetCabinet(), Hall: rep.GetHall(), ServerTime: st,
		Offset: st.Sub(sent.Add(got.Sub(sent) / 2)), RTT: got.Sub(sent),
		Models: map[engine.GameID]string{}, LastRound: rep.GetLastRound(), Enabled: rep.GetEnabled(),
		DisabledReason: rep.GetDisabledReason(), MirrorCredit: engine.Money(rep.GetMirrorCredit()),
		MirrorDiffers: rep.GetMirrorDiffers(),
	}
	for _, m := range rep.GetModels() {
		info.Models[engine.GameID(m.GetGame())] = m.GetModelId()
	}
	c.offsetMeasured(info.Offset)
	return info, nil
}

// RequestOutcome asks for round n (idempotent: the same n always gives the
// same bytes) and returns it verified and decoded. It does not mirror; call
// Outcome.Mirror.
func (c *Client) RequestOutcome(ctx context.Context, n uint64, game engine.GameID, modelID string, stake engine.Money) (*Outcome, error) {
	req := &pb.OutcomeRequest{Round: n, Game: string(game), ModelId: modelID, Stake: int64(stake)}
	carried := c.carryCommits(req)
	if !c.cfg.CarryCommits {
		c.sendCommits(ctx) // round n is drawn only once n-1 is settled
	}
	var sb *pb.SignedBody
	ask := func() error {
		return c.call(ctx, "outcome", func(ctx context.Context) (err error) {
			sb, err = c.api().RequestOutcome(ctx, req)
			return err
		})
	}
	err := ask()
	if r := (*RefusedError)(nil); errors.As(err, &r) && refusal.Reason(r.Reason) == refusal.RoundOpen && c.sendCommits(ctx) {
		err = ask() // the previous round's commit had not reached the central system yet
	}
	if r := (*RefusedError)(nil); errors.As(err, &r) && roundDrawnReason(r.Reason) {
		return nil, c.roundDrawn(ctx, r)
	}
	if err != nil {
		return nil, err
	}
	c.ackCarried(carried, sb.GetCommitted())
	return VerifyOutcome(c.cfg.SigningKey, c.cfg.Cabinet, OutcomeRequest{Round: n, Game: game, ModelID: modelID, Stake: stake}, sb.GetBody(), sb.GetSignature())
}

// carryLimit bounds the outbox messages looked at, and the commits carried,
// per RequestOutcome (the server takes at most 64).
const carryLimit = 16

// carryCommits puts the commits waiting in the outbox into req (with
// Config.CarryCommits): one call per round instead of two. It returns the
// outbox ids by round.
func (c *Client) carryCommits(req *pb.OutcomeRequest) map[uint64][]int64 {
	if !c.cfg.CarryCommits || c.cfg.Outbox == nil {
		return nil
	}
	msgs, err := c.cfg.Outbox.Pending(carryLimit)
	if err != nil {
		return nil // the drain reports outbox failures
	}
	var ids map[uint64][]int64
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range msgs {
		if m.Kind != KindCommit || len(m.Payload) != 8 || c.acking[m.ID] {
			continue // not a commit, or already recorded and being acked
		}
		k := binary.BigEndian.Uint64(m.Payload)
		if ids == nil {
			ids = map[uint64][]int64{}
		}
		if ids[k] == nil {
			req.Settled = append(req.Settled, k)
		}
		ids[k] = append(ids[k], m.ID)
	}
	return ids
}

// ackCarried acknowledges, in the background, the carried commits the
// central system recorded: an Ack is a durable write to the cabinet's
// ledger, which must not delay the round that was just drawn. A round the
// server did not record (never drawn) stays for the drain, whose
// CommitOutcome gets the clear refusal; a failed Ack too (the drain sends
// it again, and a repeated commit is acknowledged). Close waits for them.
func (c *Client) ackCarried(ids map[uint64][]int64, committed []uint64) {
	var acks []int64
	for _, k := range committed {
		acks = append(acks, ids[k]...)
	}
	if len(acks) == 0 {
		return
	}
	c.mu.Lock()
	for _, id := range acks {
		c.acking[id] = true
	}
	c.mu.Unlock()
	c.acks.Add(1)
	go func() {
		defer c.acks.Done()
		var err error
		for _, id := range acks {
			if err == nil {
				err = c.cfg.Outbox.Ack(id)
			}
			c.mu.Lock()
			delete(c.acking, id)
			c.mu.Unlock()
		}
	}()
}

// CommitOutcome tells the central system that round n is settled. Most
// cabinets send it through the outbox (EnqueueCommit) instead.
func (c *Client) CommitOutcome(ctx context.Context, n uint64) error {
	return c.call(ctx, "commit", func(ctx context.Context) error {
		_, err := c.api().CommitOutcome(ctx, &pb.CommitRequest{Round: n})
		return err
	})
}

// RequestRiskStep asks for the card of Risk step (1-based) on round n.
func (c *Client) RequestRiskStep(ctx context.Context, n uint64, step int, choice engine.Colour) (*RiskCard, error) {
	if step < 1 {
		return nil, errors.New("link: risk step must be positive")
	}
	req := &pb.RiskRequest{Round: n, Step: uint32(step), Choice: pb.Colour(choice)}
	var sb *pb.SignedBody
	err := c.call(ctx, "risk", func(ctx context.Context) (err error) {
		sb, err = c.api().RequestRiskStep(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	return VerifyRisk(c.cfg.SigningKey, c.cfg.Cabinet, n, step, choice, sb.GetBody(), sb.GetSignature())
}

// Voucher is an issued validation number.
type Voucher struct {
	Number    string
	Amount    engine.Money
	Sequence  uint64
	IssuedAt  time.Time
	ExpiresAt time.Time
}

// IssueVoucher gets the validation number for the cabinet's voucher
// sequence number seq (idempotent per seq).
func (c *Client) IssueVoucher(ctx context.Context, amount engine.Money, seq uint64) (*Voucher, error) {
	var rep *pb.VoucherReply
	req := &pb.IssueVoucherRequest{Amount: int64(amount), Sequence: seq, Meters: c.creditMeters(false)}
	err := c.call(ctx, "issue voucher", func(ctx context.Context) (err error) {
		rep, err = c.api().IssueVoucher(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	if rep.GetAmount() != int64(amount) || rep.GetSequence() != seq || len(rep.GetValidationNumber()) != 18 {
		return nil, &BodyError{Field: "voucher", Want: "the voucher asked for", Got: rep.String()}
	}
	return &Voucher{Number: rep.GetValidationNumber(), Amount: amount, Sequence: seq,
		IssuedAt: time.Unix(0, rep.GetIssuedAtUnixNano()), ExpiresAt: time.Unix(0, rep.GetExpiresAtUnixNano())}, nil
}

// Hold is a voucher held for this cabinet while the acceptor stacks it.
type Hold struct {
	Number    string
	Amount    engine.Money
	Hold      string
	ExpiresAt time.Time
}

// RedeemVoucher puts a hold on voucher number. Refusals carry reasons
// VOUCHER_UNKNOWN, VOUCHER_EXPIRED, VOUCHER_REDEEMED, VOUCHER_HELD_ELSEWHERE.
func (c *Client) RedeemVoucher(ctx context.Context, number string) (*Hold, error) {
	var rep *pb.RedeemReply
	err := c.call(ctx, "redeem voucher", func(ctx context.Context) (err error) {
		rep, err = c.api().RedeemVoucher(ctx, &pb.RedeemRequest{ValidationNumber: number})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &Hold{Number: number, Amount: engine.Money(rep.GetAmount()), Hold: rep.GetHold(), ExpiresAt: time.Unix(0, rep.GetHoldExpiresAtUnixNano())}, nil
}

// ConfirmRedeem marks the held voucher redeemed for amount, once stacked.
func (c *Client) ConfirmRedeem(ctx context.Context, number, hold string, amount engine.Money) error {
	return c.call(ctx, "confirm redeem", func(ctx context.Context) error {
		_, err := c.api().ConfirmRedeem(ctx, &pb.ConfirmRedeemRequest{ValidationNumber: number, Hold: hold, Amount: int64(amount)})
		return err
	})
}

// CancelRedeem releases the hold (the ticket went back to the player).
func (c *Client) CancelRedeem(ctx context.Context, number, hold string) error {
	return c.call(ctx, "cancel redeem", func(ctx context.Context) error {
		_, err := c.api().CancelRedeem(ctx, &pb.CancelRedeemRequest{ValidationNumber: number, Hold: hold})
		return err
	})
}

// Event is one cabinet event for the central event log.
type Event struct {
	Seq    int64
	At     time.Time
	Kind   string
	Text   string
	Amount engine.Money
	Data   []byte // JSON detail
}

// Meter is one accounting meter value.
type Meter struct {
	Name  string
	Value int64
}

// ReportEvents sends a batch under message id (idempotent per id).
func (c *Client) ReportEvents(ctx context.Context, id int64, events []Event) error {
	b := &pb.EventBatch{MessageId: id}
	for _, e := range events {
		b.Events = append(b.Events, &pb.Event{Seq: e.Seq, AtUnixNano: e.At.UnixNano(), Kind: e.Kind, Text: e.Text, Amount: int64(e.Amount), Data: e.Data})
	}
	return c.sendEvents(ctx, b)
}

func (c *Client) sendEvents(ctx context.Context, b *pb.EventBatch) error {
	return c.call(ctx, "events", func(ctx context.Context) error {
		_, err := c.api().ReportEvents(ctx, b)
		return err
	})
}

// ReportMeters sends a meter snapshot under message id (idempotent per id).
func (c *Client) ReportMeters(ctx context.Context, id int64, at time.Time, meters []Meter) error {
	r := &pb.MeterReport{MessageId: id, AtUnixNano: at.UnixNano()}
	for _, m := range meters {
		r.Meters = append(r.Meters, &pb.Meter{Name: m.Name, Value: m.Value})
	}
	return c.sendMeters(ctx, r)
}

func (c *Client) sendMeters(ctx context.Context, r *pb.MeterReport) error {
	return c.call(ctx, "meters", func(ctx context.Context) error {
		_, err := c.api().ReportMeters(ctx, r)
		return err
	})
}

// ReasonRoundVoid is refusal.RoundVoid as RefusedError.Reason carries it:
// the one refusal of a drawn round on which the cabinet refunds its wager.
const ReasonRoundVoid = string(refusal.RoundVoid)

// DrewNothing reports whether a refusal of RequestOutcome proves that the
// round was not drawn, so that the cabinet may refund its wager
// (refusal.Refund). Any other refusal (an admission refusal such as
// UNKNOWN_CABINET or CERTIFICATE_REVOKED, one without a reason) may follow
// an earlier attempt that drew the round: the cabinet never refunds on it.
func DrewNothing(reason string) bool {
	return refusal.Reason(reason).Round() == refusal.Refund
}

// roundDrawnReason: another round of this cabinet is drawn; the stake of
// the round asked for must never be refunded.
func roundDrawnReason(r string) bool {
	return refusal.Reason(r).Round() == refusal.DrawnElsewhere
}

// sendCommits sends the commits waiting in the outbox at once (a round
// is drawn only once the one before is settled) and reports whether any
// was recorded.
func (c *Client) sendCommits(ctx context.Context) bool {
	if c.cfg.Outbox == nil {
		return false
	}
	msgs, err := c.cfg.Outbox.Pending(commitScan)
	if err != nil {
		return false
	}
	sent := false
	for _, m := range msgs {
		if m.Kind != KindCommit || len(m.Payload) != 8 {
			continue
		}
		if err := c.CommitOutcome(ctx, binary.BigEndian.Uint64(m.Payload)); err != nil {
			continue // the drain reports it
		}
		sent = true
		c.cfg.Outbox.Ack(m.ID)
	}
	return sent
}

// commitScan bounds the outbox messages sendCommits looks at.
const commitScan = 1024

// RoundDrawnError is RequestOutcome's answer when the central system has a
// round of this cabinet drawn other than the one asked for (a copy of the
// cabinet's key drew it, or the journal and the store disagree). The
// wager must stay open, never refunded: the cabinet tilts for a
// technician. Open is that round as the central system signed it (nil if
// it could not be fetched or verified), Committed whether it is settled.
type RoundDrawnError struct {
	Refusal   *RefusedError
	Open      *Outcome
	Committed bool
	LastRound uint64
	OpenErr   error // why Open is nil
}

func (e *RoundDrawnError) Error() string {
	open := "unknown"
	if e.Open != nil {
		open = fmt.Sprintf("round %d %s stake %d (settled %v)", e.Open.Round, e.Open.Game, e.Open.Stake, e.Committed)
	} else if e.OpenErr != nil {
		open = "unknown: " + e.OpenErr.Error()
	}
	return fmt.Sprintf("%v; the central system's latest round: %s", e.Refusal, open)
}

func (e *RoundDrawnError) Unwrap() error { return e.Refusal }

// roundDrawn asks for the cabinet's latest round after r.
func (c *Client) roundDrawn(ctx context.Context, r *RefusedError) error {
	e := &RoundDrawnError{Refusal: r}
	o, committed, last, err := c.OpenRound(ctx)
	e.Open, e.Committed, e.LastRound, e.OpenErr = o, committed, last, err
	return e
}

// OpenRound returns the cabinet's latest drawn round at the central system,
// verified (nil when there is none), and whether it is settled.
func (c *Client) OpenRound(ctx context.Context) (o *Outcome, committed bool, last uint64, err error) {
	var rep *pb.OpenRoundReply
	err = c.call(ctx, "open round", func(ctx context.Context) (err error) {
		rep, err = c.api().OpenRound(ctx, &pb.OpenRoundRequest{})
		return err
	})
	if err != nil || rep.GetRound() == nil {
		return nil, false, rep.GetLastRound(), err
	}
	// The request is whatever the body says; VerifyOutcome checks the
	// signature, the purpose and the cabinet.
	var b pb.OutcomeBody
	if err := proto.Unmarshal(rep.GetRound().GetBody(), &b); err != nil {
		return nil, false, rep.GetLastRound(), &BodyError{Field: "body", Want: "an OutcomeBody", Got: err.Error()}
	}
	asked := OutcomeRequest{Round: b.GetRound(), Game: engine.GameID(b.GetGame()), ModelID: b.GetModelId(), Stake: engine.Money(b.GetStake())}
	o, err = VerifyOutcome(c.cfg.SigningKey, c.cfg.Cabinet, asked, rep.GetRound().GetBody(), rep.GetRound().GetSignature())
	return o, rep.GetCommitted(), rep.GetLastRound(), err
}

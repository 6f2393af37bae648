package link

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/engine"
)

// State is the link's state.
type State uint8

const (
	Unknown State = iota
	Up
	Down
)

func (s State) String() string {
	switch s {
	case Up:
		return "up"
	case Down:
		return "down"
	}
	return "unknown"
}

// StateEvent reports a change of link state, or an outbox message the
// central system refused (Refused set; the message was dropped from the
// outbox so later ones can go, and the cabinet must log it).
type StateEvent struct {
	State   State
	At      time.Time
	Err     error
	Refused *OutboxMessage
}

// States delivers link state changes. The channel is buffered; when the
// reader falls behind, the oldest undelivered changes are dropped, the
// newest is always kept.
func (c *Client) States() <-chan StateEvent { return c.states }

// State is the current link state.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

func (c *Client) setState(s State, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == s {
		return
	}
	c.state = s
	c.emit(StateEvent{State: s, At: c.cfg.Clock.Now(), Err: err})
}

func (c *Client) emit(ev StateEvent) {
	for {
		select {
		case c.states <- ev:
			return
		default:
			select {
			case <-c.states:
			default:
			}
		}
	}
}

// Notice is something the central system pushed: jackpot values or a command.
type Notice struct {
	Hello    *HelloInfo     // set after each (re)connection's Hello
	Jackpots []JackpotValue // set for a jackpot update
	Command  *Command       // set for a command
}

// JackpotValue is one jackpot the cabinet shows.
type JackpotValue struct {
	Pool, Name, Tier string
	Game             engine.GameID
	Amount, Stake    engine.Money
}

// CommandKind is what the central system asks of the cabinet.
type CommandKind uint8

const (
	CmdDisable CommandKind = iota + 1
	CmdEnable
	CmdTime
)

// Command is a command from the central system.
type Command struct {
	Kind       CommandKind
	Reason     string
	ServerTime time.Time
}

// CentralOffset is the central system's time minus local's (the clock the
// client reads, Config.Clock) that a notice brings: Hello's Offset, to the
// middle of its round trip; a TIME command's server time against local
// now, one way, so late by its delivery. False: the notice has no time.
// A clock.Disciplined follows it (check 38).
func CentralOffset(n Notice, local Clock) (time.Duration, bool) {
	switch {
	case n.Hello != nil:
		return n.Hello.Offset, true
	case n.Command != nil && n.Command.Kind == CmdTime:
		return n.Command.ServerTime.Sub(local.Now()), true
	}
	return 0, false
}

// Notices delivers what the stream carries while Run runs. When the reader
// falls behind, the oldest notices are dropped.
func (c *Client) Notices() <-chan Notice { return c.notices }

func (c *Client) pushNotice(n Notice) {
	for {
		select {
		case c.notices <- n:
			return
		default:
			select {
			case <-c.notices:
			default:
			}
		}
	}
}

func noticeFromPB(n *pb.Notice) Notice {
	if j := n.GetJackpots(); j != nil {
		out := Notice{Jackpots: []JackpotValue{}}
		for _, v := range j.GetValues() {
			out.Jackpots = append(out.Jackpots, JackpotValue{Pool: v.GetPool(), Name: v.GetName(), Tier: v.GetTier(),
				Game: engine.GameID(v.GetGame()), Amount: engine.Money(v.GetAmount()), Stake: engine.Money(v.GetStake())})
		}
		return out
	}
	cmd := n.GetCommand()
	return Notice{Command: &Command{Kind: CommandKind(cmd.GetKind()), Reason: cmd.GetReason(), ServerTime: time.Unix(0, cmd.GetServerTimeUnixNano())}}
}

// Run keeps the notice stream open and drains the outbox in order, until
// ctx ends. It reconnects with backoff after every failure, and takes the
// link back to its home node once that serves again (Config.HomeProbe).
func (c *Client) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); c.runStream(ctx) }()
	go func() { defer wg.Done(); c.runOutbox(ctx) }()
	go func() { defer wg.Done(); c.ReturnHome(ctx) }()
	wg.Wait()
}

func (c *Client) sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-c.cfg.Clock.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

func (c *Client) runStream(ctx context.Context) {
	wait := c.cfg.Backoff
	for ctx.Err() == nil {
		err := c.stream(ctx)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errMoved) {
			continue
		}
		c.setState(Down, err)
		if !c.sleep(ctx, wait) {
			return
		}
		if wait *= 2; wait > c.cfg.MaxBackoff {
			wait = c.cfg.MaxBackoff
		}
		if err == nil {
			wait = c.cfg.Backoff
		}
	}
}

// stream says Hello (time, models: a refused model keeps the link down),
// then reads the notice stream until it breaks.
func (c *Client) stream(ctx context.Context) error {
	hctx, hcancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	info, err := c.hello(hctx, 0)
	hcancel()
	if err != nil {
		return err
	}
	c.pushNotice(Notice{Hello: info})
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	api, ep := c.rpc()
	c.mu.Lock()
	c.moved = cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.moved = nil
		c.mu.Unlock()
	}()
	if c.cur.Load() != ep { // went home before goHome could end this stream
		return errMoved
	}
	st, err := api.Subscribe(sctx, &pb.SubscribeRequest{})
	if err != nil {
		if sctx.Err() != nil && ctx.Err() == nil {
			return errMoved
		}
		c.failover(ep, status.Code(err))
		return err
	}
	for {
		n, err := st.Recv()
		if err != nil {
			switch {
			case ctx.Err() != nil:
			case sctx.Err() != nil:
				return errMoved
			default:
				c.failover(ep, status.Code(err))
			}
			return err
		}
		c.setState(Up, nil)
		c.Kick()
		c.pushNotice(noticeFromPB(n))
	}
}

// Kick wakes the outbox drain (after Enqueue).
func (c *Client) Kick() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// Outbox message kinds.
const (
	KindCommit = "commit"
	KindEvents = "events"
	KindMeters = "meters"
)

// EnqueueCommit puts the commit of round n in the outbox.
func EnqueueCommit(ob Outbox, n uint64) (int64, error) {
	return ob.Enqueue(KindCommit, binary.BigEndian.AppendUint64(nil, n))
}

// EnqueueEvents puts an event batch in the outbox; the outbox id becomes its message id.
func EnqueueEvents(ob Outbox, events []Event) (int64, error) {
	p, err := EventsPayload(events)
	if err != nil {
		return 0, err
	}
	return ob.Enqueue(KindEvents, p)
}

// EventsPayload is the outbox payload of a KindEvents message, for an
// outbox that queues events inside its own transactions (the ledger).
func EventsPayload(events []Event) ([]byte, error) {
	b := &pb.EventBatch{}
	for _, e := range events {
		b.Events = append(b.Events, &pb.Event{Seq: e.Seq, AtUnixNano: e.At.UnixNano(), Kind: e.Kind, Text: e.Text, Amount: int64(e.Amount), Data: e.Data})
	}
	return proto.Marshal(b)
}

// EnqueueMeters puts a meter snapshot in the outbox.
func EnqueueMeters(ob Outbox, at time.Time, meters []Meter) (int64, error) {
	r := &pb.MeterReport{AtUnixNano: at.UnixNano()}
	for _, m := range meters {
		r.Meters = append(r.Meters, &pb.Meter{Name: m.Name, Value: m.Value})
	}
	p, err := proto.Marshal(r)
	if err != nil {
		return 0, err
	}
	return ob.Enqueue(KindMeters, p)
}

// BadMessageError is an outbox message the client cannot send.
type BadMessageError struct {
	Msg    OutboxMessage
	Reason string
}

func (e *BadMessageError) Error() string {
	return fmt.Sprintf("link: outbox message %d (%s): %s", e.Msg.ID, e.Msg.Kind, e.Reason)
}

// send delivers one outbox message.
func (c *Client) send(ctx context.Context, m OutboxMessage) error {
	switch m.Kind {
	case KindCommit:
		if len(m.Payload) != 8 {
			return &BadMessageError{Msg: m, Reason: "commit payload is not 8 bytes"}
		}
		return c.CommitOutcome(ctx, binary.BigEndian.Uint64(m.Payload))
	case KindEvents:
		var b pb.EventBatch
		if err := proto.Unmarshal(m.Payload, &b); err != nil {
			return &BadMessageError{Msg: m, Reason: err.Error()}
		}
		b.MessageId = m.ID
		return c.sendEvents(ctx, &b)
	case KindMeters:
		var r pb.MeterReport
		if err := proto.Unmarshal(m.Payload, &r); err != nil {
			return &BadMessageError{Msg: m, Reason: err.Error()}
		}
		r.MessageId = m.ID
		return c.sendMeters(ctx, &r)
	}
	return &BadMessageError{Msg: m, Reason: "unknown kind"}
}

// DrainOutbox sends pending messages in id order, acking each, until the
// outbox is empty or a send fails for want of a link (returned). A message
// the central system refuses, or one that cannot be sent, is reported on
// States and acked, so that it does not block the ones after it.
func (c *Client) DrainOutbox(ctx context.Context) error {
	ob := c.cfg.Outbox
	if ob == nil {
		return nil
	}
	for {
		msgs, err := ob.Pending(32)
		if err != nil {
			return fmt.Errorf("link: outbox: %w", err)
		}
		if len(msgs) == 0 {
			return nil
		}
		for _, m := range msgs {
			err := c.send(ctx, m)
			var ref *RefusedError
			var bad *BadMessageError
			switch {
			case err == nil:
			case errors.As(err, &ref) && messageRefusal(ref) || errors.As(err, &bad):
				mm := m
				c.mu.Lock()
				c.emit(StateEvent{State: c.state, At: c.cfg.Clock.Now(), Err: err, Refused: &mm})
				c.mu.Unlock()
			default:
				return err
			}
			if err := ob.Ack(m.ID); err != nil {
				return fmt.Errorf("link: outbox ack: %w", err)
			}
		}
	}
}

// messageRefusal tells a refusal of the message itself from one of the
// cabinet (unknown or unauthorised), which must not empty the outbox.
func messageRefusal(r *RefusedError) bool {
	switch r.Code {
	case codes.InvalidArgument, codes.NotFound, codes.FailedPrecondition, codes.AlreadyExists, codes.OutOfRange:
		return refusal.Reason(r.Reason) != refusal.CabinetDisabled
	}
	return false
}

func (c *Client) runOutbox(ctx context.Context) {
	for ctx.Err() == nil {
		if err := c.DrainOutbox(ctx); err != nil && ctx.Err() == nil {
			c.setState(Down, err)
		}
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
		case <-c.cfg.Clock.After(time.Second):
		}
	}
}

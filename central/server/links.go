package server

import (
	"context"
	"sort"
	"sync"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/wishstar"
)

// Links are the cabinets' connections as this node sees them: the command
// streams open now (commands, jackpot values), the calls it answered and
// refused, the TLS handshakes it refused, and what the store keeps of
// each cabinet's link (linkstats.go).
type Links struct {
	base
	games map[engine.GameID]engine.Game // read only: their fixed jackpots

	subMu  sync.Mutex
	subs   map[*subscriber]struct{}
	closed bool // the server is stopping: no new stream

	link    linkMem
	refused refusals
}

// stop ends every stream and refuses new ones.
func (s *Links) stop() {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	s.closed = true
	for sub := range s.subs {
		sub.cancel()
	}
}

type subscriber struct {
	cabinet, hall string
	kick          chan struct{}    // jackpot values changed (coalesced)
	cmds          chan *pb.Command // commands, in order
	cancel        context.CancelFunc
	// since orders the streams for MaxSubscribers (the real clock: an
	// injected one may stand still); at is the opening on the server's
	// clock, for the link statistics.
	since, at time.Time
}

// serve streams jackpot values and commands to one admitted cabinet
// until its stream ends or the server stops. The stream starts with the
// cabinet's state as state says it once the stream is registered: a
// Disable after that reaches it as a command.
func (s *Links) serve(c *cabinet, stream pb.Central_SubscribeServer, state func(id string) (enabled bool, reason string)) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	sub := &subscriber{cabinet: c.id, hall: c.hall, kick: make(chan struct{}, 1), cmds: make(chan *pb.Command, 32), cancel: cancel, since: time.Now(), at: s.now()}
	s.subMu.Lock()
	if s.closed {
		s.subMu.Unlock()
		return refuse(codes.Unavailable, refusal.Stopping, "server is stopping")
	}
	// At most MaxSubscribers streams per cabinet: a cabinet that
	// reconnects before its old stream timed out keeps working, the
	// oldest goes.
	var mine []*subscriber
	for o := range s.subs {
		if o.cabinet == c.id {
			mine = append(mine, o)
		}
	}
	for len(mine) >= MaxSubscribers {
		oldest := 0
		for i, o := range mine {
			if o.since.Before(mine[oldest].since) {
				oldest = i
			}
		}
		s.log.Warn("subscription ended: too many streams for the cabinet", "cabinet", c.id, "limit", MaxSubscribers)
		mine[oldest].cancel()
		delete(s.subs, mine[oldest])
		mine = append(mine[:oldest], mine[oldest+1:]...)
	}
	s.subs[sub] = struct{}{}
	s.subMu.Unlock()
	s.noteStream(ctx, c.id, sub.at)
	defer func() {
		s.subMu.Lock()
		delete(s.subs, sub)
		s.subMu.Unlock()
	}()
	// The state first: enable or disable, the time, the values.
	en, reason := state(c.id)
	first := &pb.Command{Kind: pb.Command_ENABLE, ServerTimeUnixNano: s.now().UnixNano()}
	if !en {
		first = &pb.Command{Kind: pb.Command_DISABLE, Reason: reason, ServerTimeUnixNano: s.now().UnixNano()}
	}
	if err := stream.Send(&pb.Notice{Notice: &pb.Notice_Command{Command: first}}); err != nil {
		return err
	}
	if err := stream.Send(s.jackpotNotice(c.hall)); err != nil {
		return err
	}
	// Jackpot values change with every batch of rounds; a display needs a
	// few a second, so sends are spaced by JackpotInterval, the newest
	// values going out at the end of each interval.
	var throttle <-chan time.Time
	pending := false
	for {
		select {
		case <-ctx.Done():
			if stream.Context().Err() == nil {
				return refuse(codes.Unavailable, refusal.Stopping, "subscription ended by the server")
			}
			return ctx.Err()
		case cmd := <-sub.cmds:
			if err := stream.Send(&pb.Notice{Notice: &pb.Notice_Command{Command: cmd}}); err != nil {
				return err
			}
		case <-sub.kick:
			if throttle != nil {
				pending = true
				continue
			}
			if err := stream.Send(s.jackpotNotice(c.hall)); err != nil {
				return err
			}
			throttle = time.After(s.cfg.JackpotInterval)
		case <-throttle:
			throttle = nil
			if pending {
				pending = false
				if err := stream.Send(s.jackpotNotice(c.hall)); err != nil {
					return err
				}
				throttle = time.After(s.cfg.JackpotInterval)
			}
		}
	}
}

// JackpotValues returns what a cabinet of hall shows: the progressive pools
// and every game's fixed jackpots per stake.
func (s *Links) JackpotValues(hall string) []JackpotValue {
	var out []JackpotValue
	if s.cfg.Jackpots != nil {
		out = append(out, s.cfg.Jackpots.Values(hall)...)
	}
	ids := make([]string, 0, len(s.games))
	for id := range s.games {
		ids = append(ids, string(id))
	}
	sort.Strings(ids)
	for _, id := range ids {
		g := s.games[engine.GameID(id)]
		fj, ok := g.(fixedJackpots)
		if !ok {
			if ws, isWS := g.(*wishstar.Game); isWS {
				fj, ok = wishstarFixed{ws}, true
			}
		}
		if !ok {
			continue
		}
		for _, stake := range g.Stakes() {
			m := fj.FixedJackpots(stake)
			for t := engine.Mini; t <= engine.Grand; t++ {
				if a, ok := m[t]; ok {
					out = append(out, JackpotValue{Pool: id + "." + tierNames[t], Name: tierNames[t], Game: g.ID(), Amount: a, Stake: stake, Tier: tierNames[t]})
				}
			}
		}
	}
	return out
}

func (s *Links) jackpotNotice(hall string) *pb.Notice {
	vals := s.JackpotValues(hall)
	jv := &pb.JackpotValues{Values: make([]*pb.JackpotValue, len(vals))}
	for i, v := range vals {
		jv.Values[i] = &pb.JackpotValue{Pool: v.Pool, Name: v.Name, Game: string(v.Game), Amount: int64(v.Amount), Stake: int64(v.Stake), Tier: v.Tier}
	}
	return &pb.Notice{Notice: &pb.Notice_Jackpots{Jackpots: jv}}
}

// PublishJackpots tells every subscriber to send the current values.
func (s *Links) PublishJackpots() {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	for sub := range s.subs {
		select {
		case sub.kick <- struct{}{}:
		default: // a send is already due; it will carry the newest values
		}
	}
}

func (s *Links) send(cabinet string, cmd *pb.Command) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	for sub := range s.subs {
		if cabinet != "" && sub.cabinet != cabinet {
			continue
		}
		select {
		case sub.cmds <- cmd:
		default:
			// A cabinet that does not read its commands is cut off; on
			// reconnecting it gets the state afresh.
			sub.cancel()
		}
	}
}

// SendTime sends the server time to every connected cabinet.
func (s *Links) SendTime() {
	s.send("", &pb.Command{Kind: pb.Command_TIME, ServerTimeUnixNano: s.now().UnixNano()})
}

// wishstarFixed reads Wish Upon a Star's fixed jackpots (WS-10) from the
// game's own model: factors in units of stake/wishstar.Unit.
type wishstarFixed struct{ g *wishstar.Game }

func (w wishstarFixed) FixedJackpots(stake engine.Money) map[engine.Jackpot]engine.Money {
	m := w.g.Model()
	if m == nil {
		return nil
	}
	out := map[engine.Jackpot]engine.Money{}
	for t := engine.Mini; t <= engine.Grand; t++ {
		if f, ok := m.Jackpots[wishstar.JackpotName(t)]; ok {
			out[t] = engine.Money(f * int64(stake) / wishstar.Unit)
		}
	}
	return out
}

// Connected lists the cabinets with a command stream open now (online).
func (s *Links) Connected() map[string]bool {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	out := map[string]bool{}
	for sub := range s.subs {
		out[sub.cabinet] = true
	}
	return out
}

package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/wishstar"
)

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

// Subscribe streams jackpot values and commands to one cabinet.
func (s *Server) Subscribe(_ *pb.SubscribeRequest, stream pb.Central_SubscribeServer) error {
	c, err := s.admit(stream.Context())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	sub := &subscriber{cabinet: c.id, hall: c.hall, kick: make(chan struct{}, 1), cmds: make(chan *pb.Command, 32), cancel: cancel, since: time.Now(), at: s.now()}
	s.closeMu.Lock()
	closed := s.closed
	s.closeMu.Unlock()
	if closed {
		return refuse(codes.Unavailable, refusal.Stopping, "server is stopping")
	}
	s.subMu.Lock()
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
	en, reason := s.cabinetState(c.id)
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
func (s *Server) JackpotValues(hall string) []JackpotValue {
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

func (s *Server) jackpotNotice(hall string) *pb.Notice {
	vals := s.JackpotValues(hall)
	jv := &pb.JackpotValues{Values: make([]*pb.JackpotValue, len(vals))}
	for i, v := range vals {
		jv.Values[i] = &pb.JackpotValue{Pool: v.Pool, Name: v.Name, Game: string(v.Game), Amount: int64(v.Amount), Stake: int64(v.Stake), Tier: v.Tier}
	}
	return &pb.Notice{Notice: &pb.Notice_Jackpots{Jackpots: jv}}
}

// PublishJackpots tells every subscriber to send the current values.
func (s *Server) PublishJackpots() {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	for sub := range s.subs {
		select {
		case sub.kick <- struct{}{}:
		default: // a send is already due; it will carry the newest values
		}
	}
}

func (s *Server) sendCommand(cabinet string, cmd *pb.Command) {
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

func (s *Server) setEnabled(ctx context.Context, cabinet string, enabled bool, reason string) error {
	now := s.now().UnixNano()
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		hall, ok := s.cfg.Halls[cabinet]
		if !ok {
			hall = s.cfg.DefaultHall
		}
		// A mistyped id must not report success: the cabinet is one that
		// connected, is configured, or has a registered certificate.
		var seen int
		if err := tx.QueryRow(`SELECT count(*) FROM cabinets WHERE id=?`, cabinet).Scan(&seen); err != nil {
			return err
		}
		if seen == 0 && !ok && (s.reg == nil || !s.reg.Has(cabinet)) {
			return fmt.Errorf("%w: %q has never connected, is not configured and has no registered certificate", ErrUnknownCabinet, cabinet)
		}
		en := 0
		if enabled {
			en = 1
		}
		_, err := tx.Exec(`INSERT INTO cabinets(id, hall, enabled, reason, first_seen, last_seen) VALUES(?,?,?,?,?,?)
			ON CONFLICT(id) DO UPDATE SET enabled=excluded.enabled, reason=excluded.reason`, cabinet, hall, en, reason, now, now)
		if err != nil {
			return err
		}
		s.cabMu.Lock()
		if c := s.cabs[cabinet]; c != nil {
			c.enabled, c.reason = enabled, reason
		}
		s.cabMu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	kind := pb.Command_DISABLE
	if enabled {
		kind = pb.Command_ENABLE
	}
	s.sendCommand(cabinet, &pb.Command{Kind: kind, Reason: reason, ServerTimeUnixNano: now})
	return nil
}

// ErrUnknownCabinet refuses Disable or Enable of a cabinet id nobody knows.
var ErrUnknownCabinet = errors.New("central server: unknown cabinet")

// Disable stops a cabinet from drawing new rounds (stored rounds are still
// answered) and tells it so on its stream. The state is durable.
func (s *Server) Disable(ctx context.Context, cabinet, reason string) error {
	return s.setEnabled(ctx, cabinet, false, reason)
}

// Enable lifts Disable.
func (s *Server) Enable(ctx context.Context, cabinet string) error {
	return s.setEnabled(ctx, cabinet, true, "")
}

// SendTime sends the server time to every connected cabinet.
func (s *Server) SendTime() {
	s.sendCommand("", &pb.Command{Kind: pb.Command_TIME, ServerTimeUnixNano: s.now().UnixNano()})
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

package server

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/polaris-vlt/polaris/central/players"
	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// Players are the registered players (central/players implements it): the
// server asks them before it draws a round and answers the cabinet's
// player calls, each inside a store write transaction.
type Players interface {
	// Setup runs once at start inside a store write transaction.
	Setup(tx *sql.Tx) error
	// Attach gives the operator's methods the store (the server).
	Attach(players.Store)
	Challenge(tx *sql.Tx, cabinet, card string) ([]byte, time.Time, error)
	Login(tx *sql.Tx, cabinet, card string, challenge, response []byte) (*players.State, *players.Refusal, error)
	Logout(tx *sql.Tx, cabinet, reason string) (*players.State, error)
	SessionState(tx *sql.Tx, cabinet string) (*players.State, error)
	// Wager is asked before a new round is drawn: a *players.Refusal
	// refuses the round; otherwise the bet is booked once per round.
	Wager(tx *sql.Tx, cabinet string, round uint64, stake int64) error
	// Win adds a drawn win to the round's bet.
	Win(tx *sql.Tx, cabinet string, round uint64, amount int64) error
	// RefusedWager records a refused round for the cabinet's player (a
	// write after the refused request's, which was rolled back).
	RefusedWager(tx *sql.Tx, cabinet string, round uint64, stake int64, reason string) error
}

// playerDesk is the server's side of the registered players: it gives the
// registry (Config.Players) the store, asks it before a round is drawn,
// books the drawn wins to the round's player and answers the cabinet's
// player calls, each inside a store write.
type playerDesk struct {
	base
}

// PlayersWrite runs fn in a store write transaction (players.Store): the
// operator's player commands go through the same single writer as rounds.
func (s *playerDesk) PlayersWrite(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.st.write(ctx, fn)
}

// setup runs the registry's Setup (the tables are the store's migration 2)
// and attaches it to the store.
func (s *playerDesk) setup() error {
	if s.cfg.Players == nil {
		return nil
	}
	if err := s.st.write(context.Background(), s.cfg.Players.Setup); err != nil {
		return err
	}
	s.cfg.Players.Attach(s)
	return nil
}

// playerRefused turns a players refusal into the status the cabinet shows.
func playerRefused(err error) error {
	var r *players.Refusal
	if !errors.As(err, &r) {
		return err
	}
	code := codes.FailedPrecondition
	if r.Reason == refusal.PlayerInvalid {
		code = codes.InvalidArgument
	}
	return refuse(code, r.Reason, "%s", r.Message)
}

// wager is the wager path's question: may this cabinet's player
// (or, where the market allows, no player) stake on round n?
func (s *playerDesk) wager(tx *sql.Tx, cab string, n uint64, stake int64) error {
	if s.cfg.Players == nil {
		return nil
	}
	if err := s.cfg.Players.Wager(tx, cab, n, stake); err != nil {
		if r, ok := players.AsRefusal(err); ok {
			s.log.Info("round refused for the player", "cabinet", cab, "round", n, "stake", stake, "err", err)
			// Queued behind the batch running this request (waiting
			// for it here would wait for the writer from the writer).
			go func() {
				if err := s.st.write(context.Background(), func(tx *sql.Tx) error {
					return s.cfg.Players.RefusedWager(tx, cab, n, stake, r.Error())
				}); err != nil && !errors.Is(err, errStoreClosed) {
					s.log.Error("refused round not in the player's log", "cabinet", cab, "round", n, "err", err)
				}
			}()
		}
		return playerRefused(err)
	}
	return nil
}

// win books a drawn win (round total or Risk change) to the round's player.
func (s *playerDesk) win(tx *sql.Tx, cab string, n uint64, amount int64) error {
	if s.cfg.Players == nil {
		return nil
	}
	return s.cfg.Players.Win(tx, cab, n, amount)
}

func (s *playerDesk) noPlayers() error {
	return refuse(codes.Unimplemented, refusal.BadRequest, "this central system keeps no player accounts")
}

// challenge gives a challenge for the card in the cabinet's reader.
func (s *playerDesk) challenge(ctx context.Context, c *cabinet, req *pb.PlayerChallengeRequest) (*pb.PlayerChallengeReply, error) {
	if s.cfg.Players == nil {
		return nil, s.noPlayers()
	}
	out := &pb.PlayerChallengeReply{}
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		ch, exp, err := s.cfg.Players.Challenge(tx, c.id, req.GetCardId())
		out.Challenge, out.ExpiresUnixNano = ch, exp.UnixNano()
		return err
	})
	if err != nil {
		return nil, storeErr(playerRefused(err))
	}
	return out, nil
}

// login opens the card's session at this cabinet.
func (s *playerDesk) login(ctx context.Context, c *cabinet, req *pb.PlayerLoginRequest) (*pb.PlayerState, error) {
	if s.cfg.Players == nil {
		return nil, s.noPlayers()
	}
	var st *players.State
	var refused *players.Refusal
	err := s.st.write(ctx, func(tx *sql.Tx) (err error) {
		st, refused, err = s.cfg.Players.Login(tx, c.id, req.GetCardId(), req.GetChallenge(), req.GetResponse())
		return err
	})
	if err == nil && refused != nil {
		err = refused
	}
	if err != nil {
		return nil, storeErr(playerRefused(err))
	}
	return statePB(st), nil
}

// logout ends the cabinet's session.
func (s *playerDesk) logout(ctx context.Context, c *cabinet, req *pb.PlayerLogoutRequest) (*pb.PlayerState, error) {
	return s.call(ctx, c, func(tx *sql.Tx) (*players.State, error) {
		return s.cfg.Players.Logout(tx, c.id, req.GetReason())
	})
}

// state answers the cabinet's session state.
func (s *playerDesk) state(ctx context.Context, c *cabinet) (*pb.PlayerState, error) {
	return s.call(ctx, c, func(tx *sql.Tx) (*players.State, error) {
		return s.cfg.Players.SessionState(tx, c.id)
	})
}

func (s *playerDesk) call(ctx context.Context, c *cabinet, fn func(tx *sql.Tx) (*players.State, error)) (*pb.PlayerState, error) {
	if s.cfg.Players == nil {
		return nil, s.noPlayers()
	}
	var st *players.State
	err := s.st.write(ctx, func(tx *sql.Tx) (err error) {
		st, err = fn(tx)
		return err
	})
	if err != nil {
		return nil, storeErr(playerRefused(err))
	}
	return statePB(st), nil
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func statePB(st *players.State) *pb.PlayerState {
	out := &pb.PlayerState{Active: st.Active, Session: st.Session, Account: st.Account, Name: st.Name, IdentityVerified: st.Verified,
		Market: st.Market, CardRequired: st.CardRequired, PlayedSeconds: int64(st.Played / time.Second),
		BreakAtUnixNano: unixNano(st.BreakAt), BreakUntilUnixNano: unixNano(st.BreakUntil), InBreak: st.InBreak,
		BreakWarning: st.BreakWarning, BreakCredit: st.BreakCredit}
	for _, l := range st.Limits {
		out.Limits = append(out.Limits, &pb.PlayerLimit{Kind: l.Kind, Decided: l.Decided, Set: l.Set, Amount: l.Amount, Used: l.Used,
			Left: l.Left, Pending: l.Pending, PendingSet: l.PendingSet, PendingAmount: l.PendingAmt, PendingFromUnixNano: unixNano(l.PendingFrom)})
	}
	return out
}

package server

import (
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/engine"
)

// Rounds draws, stores and signs the rounds and Risk cards, once per
// cabinet and number: a round asked again is answered with its stored
// bytes, a new one only strictly upwards and one open at a time. It books
// each draw in the credit mirror and the player's bets in the same
// transaction; the operator's void (void.go) settles a round it drew.
type Rounds struct {
	base
	games    map[engine.GameID]engine.Game
	src      engine.Source // used only by the store writer goroutine
	cabinets *Cabinets
	mirror   *Mirror
	players  *playerDesk
	alarms   *Alarms
}

// Body purposes: a signature over one kind of body can never pass as another.
const (
	PurposeOutcome = pb.PurposeOutcome
	PurposeRisk    = pb.PurposeRisk
)

var deterministic = proto.MarshalOptions{Deterministic: true}

func tapeToPB(t engine.Tape) []*pb.Draw {
	out := make([]*pb.Draw, len(t))
	for i, d := range t {
		out[i] = &pb.Draw{Value: d.Value, Range: d.Range}
	}
	return out
}

// storedRound is what a repeated request compares itself with.
type storedRound struct {
	game, model string
	stake       int64
	body, sig   []byte
	settled     bool
}

func (s *Rounds) loadRound(tx *sql.Tx, cab string, n uint64) (*storedRound, error) {
	var r storedRound
	var at sql.NullInt64
	err := s.st.queryRow(tx, `SELECT game, model_id, stake, body, sig, committed_at FROM rounds WHERE cabinet=? AND round=?`, cab, int64(n)).
		Scan(&r.game, &r.model, &r.stake, &r.body, &r.sig, &at)
	r.settled = at.Valid
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// lastRound is the cabinet's highest drawn round (0 and nil: none).
func (s *Rounds) lastRound(tx *sql.Tx, cab string) (uint64, *storedRound, error) {
	var r storedRound
	var n int64
	var at sql.NullInt64
	err := s.st.queryRow(tx, `SELECT round, game, model_id, stake, body, sig, committed_at FROM rounds WHERE cabinet=? ORDER BY round DESC LIMIT 1`, cab).
		Scan(&n, &r.game, &r.model, &r.stake, &r.body, &r.sig, &at)
	r.settled = at.Valid
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	return uint64(n), &r, nil
}

func (r *storedRound) answer(req *pb.OutcomeRequest, n uint64) (*pb.SignedBody, error) {
	if r.game != req.GetGame() || r.model != req.GetModelId() || r.stake != req.GetStake() {
		return nil, refuse(codes.AlreadyExists, refusal.RoundConflict,
			"round %d was drawn for %s/%s at stake %d, not %s/%s at stake %d",
			n, r.game, r.model, r.stake, req.GetGame(), req.GetModelId(), req.GetStake())
	}
	return &pb.SignedBody{Body: r.body, Signature: r.sig}, nil
}

// draw draws, stores and signs a whole round, once per (cabinet, n).
func (s *Rounds) draw(ctx context.Context, c *cabinet, req *pb.OutcomeRequest) (*pb.SignedBody, error) {
	n := req.GetRound()
	if n == 0 || n > 1<<62 {
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "round number %d out of range", n)
	}
	// Everything happens in the writer: a stored round is answered before
	// any check (a model upgrade must not refuse a round already drawn),
	// and a read inside the write transaction costs no file locking,
	// unlike a separate read transaction.
	if len(req.GetSettled()) > maxSettled {
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "%d settled rounds in one request, at most %d", len(req.GetSettled()), maxSettled)
	}
	var out *pb.SignedBody
	var committed []uint64
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		if err := s.st.lockCabinet(tx, c.id); err != nil {
			return err
		}
		// The commits the request carries, in its savepoint: refused, it
		// keeps none of them, and the cabinet sends them again.
		// On PostgreSQL they go with the read of the last round, which
		// sees them.
		committed = committed[:0]
		marked := make([]int64, len(req.GetSettled()))
		for i, k := range req.GetSettled() {
			if err := s.markCommitted(tx, c.id, k, &marked[i]); err != nil {
				return err
			}
		}
		// The cabinet's last round, in one read: mostly round n-1 (n is
		// new) or round n itself (asked again).
		last, r, err := s.lastRound(tx, c.id)
		if err != nil {
			return err
		}
		for i, k := range req.GetSettled() {
			found, _, err := s.committedNow(tx, c.id, k, marked[i])
			if err != nil {
				return err
			}
			if found {
				committed = append(committed, k)
			}
		}
		settled := r == nil || r.settled
		if last > n {
			if r, err = s.loadRound(tx, c.id, n); err != nil {
				return err
			}
		}
		if r != nil && last >= n {
			if r.settled {
				// A voided round is never answered with its bytes again,
				// at any stake: the cabinet refunds its wager on the refusal.
				if err := s.voided(tx, c.id, n); err != nil {
					return err
				}
			}
			out, err = r.answer(req, n)
			return err
		}
		// Strictly upwards, one open round: a copied key cannot draw
		// ahead, and a round once drawn is the one the cabinet plays.
		if !settled {
			return refuse(codes.FailedPrecondition, refusal.RoundOpen, "round %d is open: it is settled before round %d is drawn", last, n)
		}
		if err := checkSequence(n, last); err != nil {
			return err
		}
		g, ok := s.games[engine.GameID(req.GetGame())]
		if !ok {
			return refuse(codes.InvalidArgument, refusal.UnknownGame, "game %q is not played here", req.GetGame())
		}
		if g.ModelID() != req.GetModelId() {
			return refuse(codes.FailedPrecondition, refusal.ModelMismatch, "%s: cabinet model %s, central model %s", g.ID(), req.GetModelId(), g.ModelID())
		}
		if err := engine.CheckStake(g, engine.Money(req.GetStake())); err != nil {
			return refuse(codes.InvalidArgument, refusal.BadStake, "%v", err)
		}
		if en, reason := s.cabinets.state(c.id); !en {
			return refuse(codes.FailedPrecondition, refusal.CabinetDisabled, "cabinet %s is disabled: %s", c.id, reason)
		}
		stake := engine.Money(req.GetStake())
		if err := s.players.wager(tx, c.id, n, int64(stake)); err != nil {
			return err
		}
		round, tape, err := engine.Play(g, s.src, stake)
		if err != nil {
			return refuse(codes.InvalidArgument, refusal.BadStake, "%v", err)
		}
		rj, err := json.Marshal(round)
		if err != nil {
			return err
		}
		now := s.now().UnixNano()
		body := &pb.OutcomeBody{
			Purpose: PurposeOutcome, Cabinet: c.id, Round: n, Game: string(g.ID()), ModelId: g.ModelID(),
			Stake: int64(stake), Tape: tapeToPB(tape), RoundJson: rj, DrawnAtUnixNano: now,
		}
		contribution := Contribution{Cabinet: c.id, Hall: c.hall, Game: g.ID(), Round: n, Stake: stake}
		if s.cfg.Jackpots != nil {
			if err := s.cfg.Jackpots.Admits(contribution); err != nil {
				// Mostly configuration (a cabinet no pool takes): the
				// round is refused, not retried; nothing is stored.
				s.log.Error("jackpot refused a round", "cabinet", c.id, "round", n, "err", err)
				return refuse(codes.FailedPrecondition, refusal.Jackpot, "jackpot: %v", err)
			}
		}
		// The body signed as if no jackpot is hit, before the batch
		// lock: nearly every round is answered with it.
		b, err := deterministic.Marshal(body)
		if err != nil {
			return err
		}
		sig := ed25519.Sign(s.cfg.SigningKey, b)
		// The jackpot's part and the round's row at the batch's end
		// (store_tails.go): the pool is every node's.
		err = s.st.atBatchEnd(tx, c.id, contribution, func(tx *sql.Tx) error {
			var hit *JackpotHit
			var jtape []byte
			if s.cfg.Jackpots != nil {
				rec := &engine.Recorder{Src: s.src}
				var err error
				hit, err = s.cfg.Jackpots.Contribute(tx, contribution, rec)
				if s.st.transient(err) {
					return err // the database, not the round: asked again
				}
				if err != nil {
					// Admits said yes: a fault of the jackpot engine.
					s.log.Error("jackpot refused a round it admitted", "cabinet", c.id, "round", n, "err", err)
					return refuse(codes.FailedPrecondition, refusal.Jackpot, "jackpot: %v", err)
				}
				if jtape, err = json.Marshal(rec.Tape); err != nil {
					return err
				}
			}
			var pool string
			var amount int64
			b, sig := b, sig
			if hit != nil {
				pool, amount = hit.Pool, int64(hit.Amount)
				body.Jackpot = &pb.JackpotHit{Pool: hit.Pool, Name: hit.Name, Amount: amount}
				var err error
				if b, err = deterministic.Marshal(body); err != nil {
					return err
				}
				sig = ed25519.Sign(s.cfg.SigningKey, b)
			}
			if err := s.st.execLater(tx, `INSERT INTO rounds(cabinet, round, game, model_id, stake, total, risk_ok, jackpot_pool, jackpot_amount, jackpot_tape, body, sig, drawn_at)
			VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				c.id, int64(n), string(g.ID()), g.ModelID(), int64(stake), int64(round.Total), b2i(riskOK(g, round, hit)),
				pool, amount, string(jtape), b, sig, now); err != nil {
				return err
			}
			out = &pb.SignedBody{Body: b, Signature: sig}
			return nil
		})
		if err != nil {
			return err
		}
		// The wager is booked as it is drawn: the stake leaves the mirror
		// of the cabinet's credit, the win is there to be credited.
		if err := s.mirror.book(tx, c.id, int64(stake), int64(round.Total), 0, 0); err != nil {
			return err
		}
		return s.players.win(tx, c.id, n, int64(round.Total))
	})
	if err != nil {
		return nil, s.alarms.raised(c.id, storeErr(err))
	}
	if len(committed) > 0 {
		out = &pb.SignedBody{Body: out.Body, Signature: out.Signature, Committed: committed}
	}
	return out, nil
}

// maxSettled bounds the commits one RequestOutcome may carry.
const maxSettled = 64

// commitRound marks (cabinet, n) settled: found is false for a round never
// drawn, already true when it was committed before.
func (s *Rounds) commitRound(tx *sql.Tx, cab string, n uint64) (found, already bool, err error) {
	var marked int64
	if err := s.markCommitted(tx, cab, n, &marked); err != nil {
		return false, false, err
	}
	if err := s.st.flush(tx); err != nil {
		return false, false, err
	}
	return s.committedNow(tx, cab, n, marked)
}

// markCommitted marks (cabinet, n) settled if it was drawn and not yet
// settled; *marked is the rows changed (1 or 0) once the statement was
// sent (store.execCounted).
func (s *Rounds) markCommitted(tx *sql.Tx, cab string, n uint64, marked *int64) error {
	return s.st.execCounted(tx, marked, `UPDATE rounds SET committed_at=? WHERE cabinet=? AND round=? AND committed_at IS NULL`,
		s.now().UnixNano(), cab, int64(n))
}

// committedNow is commitRound's answer after markCommitted's statement was
// sent: a round it did not mark was committed before, or never drawn.
func (s *Rounds) committedNow(tx *sql.Tx, cab string, n uint64, marked int64) (found, already bool, err error) {
	if marked == 1 {
		return true, false, nil
	}
	var one int
	err = s.st.queryRow(tx, `SELECT 1 FROM rounds WHERE cabinet=? AND round=?`, cab, int64(n)).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, false, nil
	}
	return err == nil, err == nil, err
}

// riskOK says whether Risk may be started on the round's win (MS-9): a
// base-game win only, not after free spins or a jackpot, within the cap.
func riskOK(g engine.Game, r *engine.Round, hit *JackpotHit) bool {
	cap, has := riskCap(g, r.Stake)
	if !has || hit != nil || r.Capped {
		return false
	}
	for _, st := range r.Steps {
		if st.Kind != engine.StepBase {
			return false
		}
	}
	return engine.RiskAllowed(r.Total, cap)
}

// commit records that the cabinet settled round n; idempotent.
func (s *Rounds) commit(ctx context.Context, c *cabinet, req *pb.CommitRequest) (*pb.CommitReply, error) {
	n := req.GetRound()
	var already bool
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		found, a, err := s.commitRound(tx, c.id, n)
		if err == nil && !found {
			return refuse(codes.NotFound, refusal.RoundNotFound, "cabinet %s has no round %d", c.id, n)
		}
		already = a
		return err
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return &pb.CommitReply{Already: already}, nil
}

// risk draws one Risk card, once per (cabinet, round, step).
func (s *Rounds) risk(ctx context.Context, c *cabinet, req *pb.RiskRequest) (*pb.SignedBody, error) {
	n, step := req.GetRound(), req.GetStep()
	choice := engine.Colour(req.GetChoice())
	if choice != engine.Red && choice != engine.Black {
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "choice %v is neither red nor black", req.GetChoice())
	}
	if step < 1 || step > 64 {
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "risk step %d out of range", step)
	}
	var out *pb.SignedBody
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		if err := s.st.lockCabinet(tx, c.id); err != nil {
			return err
		}
		var prevChoice int
		var body, sig []byte
		err := tx.QueryRow(`SELECT choice, body, sig FROM risk_steps WHERE cabinet=? AND round=? AND step=?`, c.id, int64(n), step).
			Scan(&prevChoice, &body, &sig)
		if err == nil {
			if engine.Colour(prevChoice) != choice {
				return refuse(codes.AlreadyExists, refusal.RiskConflict, "round %d risk step %d was drawn for %v, not %v", n, step, engine.Colour(prevChoice), choice)
			}
			out = &pb.SignedBody{Body: body, Signature: sig}
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var game string
		var total, stake int64
		var ok int
		err = tx.QueryRow(`SELECT game, stake, total, risk_ok FROM rounds WHERE cabinet=? AND round=?`, c.id, int64(n)).Scan(&game, &stake, &total, &ok)
		if errors.Is(err, sql.ErrNoRows) {
			return refuse(codes.NotFound, refusal.RoundNotFound, "cabinet %s has no round %d", c.id, n)
		}
		if err != nil {
			return err
		}
		if last, settled, err := latestRound(s.st, tx, c.id); err != nil {
			return err
		} else if last != n || settled {
			return refuse(codes.FailedPrecondition, refusal.RiskNotOpen, "round %d is not the cabinet's open round (last drawn %d, settled %v)", n, last, settled)
		}
		if en, reason := s.cabinets.state(c.id); !en {
			return refuse(codes.FailedPrecondition, refusal.DisabledRisk, "cabinet %s is disabled (%s): no new Risk card", c.id, reason)
		}
		if ok == 0 {
			return refuse(codes.FailedPrecondition, refusal.RiskNotAllowed, "round %d's win may not be gambled", n)
		}
		before := engine.Money(total)
		if step > 1 {
			var after int64
			err := tx.QueryRow(`SELECT after FROM risk_steps WHERE cabinet=? AND round=? AND step=?`, c.id, int64(n), step-1).Scan(&after)
			if errors.Is(err, sql.ErrNoRows) {
				return refuse(codes.FailedPrecondition, refusal.RiskNotAllowed, "round %d has no risk step %d", n, step-1)
			}
			if err != nil {
				return err
			}
			before = engine.Money(after)
		}
		g, known := s.games[engine.GameID(game)]
		if !known {
			return refuse(codes.FailedPrecondition, refusal.UnknownGame, "game %q is no longer played here", game)
		}
		cap, _ := riskCap(g, engine.Money(stake))
		rec := &engine.Recorder{Src: s.src}
		rs, err := engine.PlayRisk(rec, int(step), before, choice, cap)
		if err != nil {
			return refuse(codes.FailedPrecondition, refusal.RiskNotAllowed, "%v", err)
		}
		sj, err := json.Marshal(rs)
		if err != nil {
			return err
		}
		now := s.now().UnixNano()
		b, err := deterministic.Marshal(&pb.RiskBody{
			Purpose: PurposeRisk, Cabinet: c.id, Round: n, Step: step, Tape: tapeToPB(rec.Tape),
			StepJson: sj, RoundCap: int64(cap), DrawnAtUnixNano: now,
		})
		if err != nil {
			return err
		}
		sig = ed25519.Sign(s.cfg.SigningKey, b)
		if _, err := tx.Exec(`INSERT INTO risk_steps(cabinet, round, step, choice, before, after, body, sig, drawn_at) VALUES(?,?,?,?,?,?,?,?,?)`,
			c.id, int64(n), step, int(choice), int64(rs.Before), int64(rs.After), b, sig, now); err != nil {
			return err
		}
		if err := s.mirror.book(tx, c.id, 0, int64(rs.After)-int64(rs.Before), 0, 0); err != nil {
			return err
		}
		if err := s.players.win(tx, c.id, n, int64(rs.After)-int64(rs.Before)); err != nil {
			return err
		}
		out = &pb.SignedBody{Body: b, Signature: sig}
		return nil
	})
	if err != nil {
		return nil, s.alarms.raised(c.id, storeErr(err))
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MaxRoundGap bounds how far above its last drawn round a cabinet may ask:
// the numbers between are rounds the cabinet refunded after a refusal that
// drew nothing (disabled, jackpot refused, ...). Without a bound one
// request could burn the number space (2^62) and lock the cabinet out.
const MaxRoundGap = 1024

// latestRound is the cabinet's highest drawn round (0: none) and whether
// it is settled. Rounds are drawn strictly upwards, so it is the only
// round that can be open.
func latestRound(st *store, tx *sql.Tx, cab string) (n uint64, settled bool, err error) {
	var r int64
	var at sql.NullInt64
	err = st.queryRow(tx, `SELECT round, committed_at FROM rounds WHERE cabinet=? ORDER BY round DESC LIMIT 1`, cab).Scan(&r, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, true, nil
	}
	return uint64(r), at.Valid, err
}

// checkSequence refuses a request for a round that is not stored: only a
// number above the cabinet's last drawn round (within MaxRoundGap) may be
// drawn. Anything else means another round of this cabinet was drawn (or
// the cabinet's journal and the store disagree): never a new draw.
func checkSequence(n, last uint64) error {
	if n <= last {
		return refuse(codes.FailedPrecondition, refusal.RoundSequence,
			"round %d is behind the cabinet's last drawn round %d", n, last)
	}
	if n > last+MaxRoundGap {
		return refuse(codes.FailedPrecondition, refusal.RoundSequence,
			"round %d is more than %d above the cabinet's last drawn round %d", n, MaxRoundGap, last)
	}
	return nil
}

// open answers the cabinet's latest drawn round with its stored bytes.
func (s *Rounds) open(ctx context.Context, c *cabinet, _ *pb.OpenRoundRequest) (*pb.OpenRoundReply, error) {
	out := &pb.OpenRoundReply{}
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		last, settled, err := latestRound(s.st, tx, c.id)
		if err != nil || last == 0 {
			return err
		}
		r, err := s.loadRound(tx, c.id, last)
		if err != nil || r == nil {
			return err
		}
		out.Round, out.Committed, out.LastRound = &pb.SignedBody{Body: r.body, Signature: r.sig}, settled, last
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}

func (s *Rounds) models() []*pb.GameModel {
	out := make([]*pb.GameModel, 0, len(s.games))
	for _, g := range s.games {
		out = append(out, &pb.GameModel{Game: string(g.ID()), ModelId: g.ModelID()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out
}

// checkModels refuses a cabinet whose games' models are not the ones
// played here: it would mirror none of their outcomes.
func (s *Rounds) checkModels(models []*pb.GameModel) error {
	var diffs []string
	for _, m := range models {
		g, ok := s.games[engine.GameID(m.GetGame())]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s: not played here", m.GetGame()))
		case g.ModelID() != m.GetModelId():
			diffs = append(diffs, fmt.Sprintf("%s: cabinet model %s, central model %s", m.GetGame(), m.GetModelId(), g.ModelID()))
		}
	}
	if len(diffs) > 0 {
		return refuse(codes.FailedPrecondition, refusal.ModelMismatch, "%s", strings.Join(diffs, "; "))
	}
	return nil
}

// lastDrawn is the cabinet's highest drawn round (0: none).
func (s *Rounds) lastDrawn(tx *sql.Tx, cab string) (uint64, error) {
	var last sql.NullInt64
	err := tx.QueryRow(`SELECT max(round) FROM rounds WHERE cabinet=?`, cab).Scan(&last)
	return uint64(last.Int64), err
}

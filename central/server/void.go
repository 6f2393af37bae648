package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// Operator actions on a cabinet's rounds and credit mirror. Each is one
// write transaction that also stores its audit row (table alarms, with who
// and why), so an action is never done without its record nor recorded
// without being done; the log line and the count follow the commit.

// Errors of the operator actions: each changes nothing.
var (
	ErrNoRound      = errors.New("central server: no such round")
	ErrRoundSettled = errors.New("central server: round settled")
	ErrNotVoidable  = errors.New("central server: round cannot be voided")
	ErrNoReport     = errors.New("central server: no Hello report")
	ErrMirrorBusy   = errors.New("central server: cabinet busy")
	ErrActionArgs   = errors.New("central server: operator and reason required")
)

// Audit reasons (alarm rows that are an operator's action, not a refusal).
const (
	ReasonRoundVoided    = "ROUND_VOIDED"
	ReasonOutcomeRefused = "OUTCOME_REFUSED" // the cabinet refused a drawn outcome: it waits for a void
	EventOutcomeRefused  = "outcome_refused" // the cabinet's event kind that raises it
)

// Void is what Rounds.Void did.
type Void struct {
	Cabinet string `json:"cabinet"`
	Round   uint64 `json:"round"`
	Stake   int64  `json:"stake"`   // back in the mirror; the cabinet refunds it
	Win     int64  `json:"win"`     // the drawn win, never paid, out of the mirror
	Jackpot int64  `json:"jackpot"` // a mystery hit drawn with it: not paid, not restored to its pool
	Before  int64  `json:"mirrorBefore"`
	After   int64  `json:"mirrorAfter"`
}

// Void voids cabinet's open round n: a round the cabinet could not
// accept (its outcome did not mirror or verify, or it was drawn by a copy
// of the cabinet's key at another stake). Only the open round (drawn, not
// settled, no Risk card drawn on it) can be voided: the void settles it,
// gives its stake back to the credit mirror and takes its win out; asked
// for again the round is answered FAILED_PRECONDITION / ROUND_VOID, on
// which the cabinet refunds its wager (once: the ledger closes the round).
// by and reason are required and kept in the audit row.
func (s *Rounds) Void(ctx context.Context, cab string, n uint64, by, reason string) (Void, error) {
	v := Void{Cabinet: cab, Round: n}
	if by == "" || reason == "" {
		return v, ErrActionArgs
	}
	var text string
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		var at sql.NullInt64
		err := s.st.queryRow(tx, `SELECT stake, total, jackpot_amount, committed_at FROM rounds WHERE cabinet=? AND round=?`, cab, int64(n)).
			Scan(&v.Stake, &v.Win, &v.Jackpot, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: cabinet %q has no round %d", ErrNoRound, cab, n)
		}
		if err != nil {
			return err
		}
		if at.Valid {
			// Settled by the cabinet (paid) or voided before: never
			// undone here.
			return fmt.Errorf("%w: round %d of %s is settled (or void already)", ErrRoundSettled, n, cab)
		}
		var risk int
		if err := s.st.queryRow(tx, `SELECT count(*) FROM risk_steps WHERE cabinet=? AND round=?`, cab, int64(n)).Scan(&risk); err != nil {
			return err
		}
		if risk > 0 {
			// The cabinet accepted the round and gambled its win: it is
			// played to its end, not voided.
			return fmt.Errorf("%w: round %d of %s has %d Risk cards drawn", ErrNotVoidable, n, cab, risk)
		}
		m, err := s.mirror.load(tx, cab)
		if err != nil {
			return err
		}
		v.Before = m.credit()
		now := s.now().UnixNano()
		if _, err := s.st.exec(tx, `INSERT INTO voids(cabinet, round, at, by, reason, stake, total) VALUES(?,?,?,?,?,?,?)`,
			cab, int64(n), now, by, reason, v.Stake, v.Win); err != nil {
			return err
		}
		if _, err := s.st.exec(tx, `UPDATE rounds SET committed_at=? WHERE cabinet=? AND round=?`, now, cab, int64(n)); err != nil {
			return err
		}
		if err := s.mirror.book(tx, cab, -v.Stake, -v.Win, 0, 0); err != nil {
			return err
		}
		m.stakes, m.wins = m.stakes-v.Stake, m.wins-v.Win
		v.After = m.credit()
		text = fmt.Sprintf("round %d voided by %s: %s; stake %d back, win %d withdrawn, mirror %d -> %d", n, by, reason, v.Stake, v.Win, v.Before, v.After)
		if v.Jackpot > 0 {
			text += fmt.Sprintf("; its jackpot hit of %d is not paid and not restored to the pool", v.Jackpot)
		}
		return s.alarms.audit(tx, cab, ReasonRoundVoided, text)
	})
	if err != nil {
		return v, actionErr(err)
	}
	s.alarms.logAudit(cab, ReasonRoundVoided, text)
	return v, nil
}

// actionErr keeps the operator errors as they are (they are not the
// store's failure) and names the others.
func actionErr(err error) error {
	for _, e := range []error{ErrNoRound, ErrRoundSettled, ErrNotVoidable, ErrNoReport, ErrMirrorBusy, ErrActionArgs} {
		if errors.Is(err, e) {
			return err
		}
	}
	return fmt.Errorf("central store: %w", err)
}

// voided is the answer to a request for a voided round: the refusal on
// which the cabinet refunds its wager; nil when the round is not void.
func (s *Rounds) voided(tx *sql.Tx, cab string, n uint64) error {
	var by, reason string
	err := s.st.queryRow(tx, `SELECT by, reason FROM voids WHERE cabinet=? AND round=?`, cab, int64(n)).Scan(&by, &reason)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return refuse(codes.FailedPrecondition, refusal.RoundVoid, "round %d was voided by %s: %s", n, by, reason)
}

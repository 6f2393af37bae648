package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

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

// audit stores an audit row in tx; logAudit logs and counts it once the
// transaction committed.
func (s *Server) audit(tx *sql.Tx, cab, reason, text string) error {
	_, err := s.st.exec(tx, `INSERT INTO alarms(cabinet, at, reason, text) VALUES(?,?,?,?)`, cab, s.now().UnixNano(), reason, text)
	return err
}

func (s *Server) logAudit(cab, reason, text string) {
	s.log.Warn("central audit", "cabinet", cab, "reason", reason, "detail", text)
	s.alarms.mu.Lock()
	if s.alarms.n == nil {
		s.alarms.n = map[[2]string]int64{}
	}
	s.alarms.n[[2]string{cab, reason}]++
	s.alarms.mu.Unlock()
}

// Void is what VoidRound did.
type Void struct {
	Cabinet string `json:"cabinet"`
	Round   uint64 `json:"round"`
	Stake   int64  `json:"stake"`   // back in the mirror; the cabinet refunds it
	Win     int64  `json:"win"`     // the drawn win, never paid, out of the mirror
	Jackpot int64  `json:"jackpot"` // a mystery hit drawn with it: not paid, not restored to its pool
	Before  int64  `json:"mirrorBefore"`
	After   int64  `json:"mirrorAfter"`
}

// VoidRound voids cabinet's open round n: a round the cabinet could not
// accept (its outcome did not mirror or verify, or it was drawn by a copy
// of the cabinet's key at another stake). Only the open round (drawn, not
// settled, no Risk card drawn on it) can be voided: the void settles it,
// gives its stake back to the credit mirror and takes its win out; asked
// for again the round is answered FAILED_PRECONDITION / ROUND_VOID, on
// which the cabinet refunds its wager (once: the ledger closes the round).
// by and reason are required and kept in the audit row.
func (s *Server) VoidRound(ctx context.Context, cab string, n uint64, by, reason string) (Void, error) {
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
		m, err := s.loadMirror(tx, cab)
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
		if err := s.book(tx, cab, -v.Stake, -v.Win, 0, 0); err != nil {
			return err
		}
		m.stakes, m.wins = m.stakes-v.Stake, m.wins-v.Win
		v.After = m.credit()
		text = fmt.Sprintf("round %d voided by %s: %s; stake %d back, win %d withdrawn, mirror %d -> %d", n, by, reason, v.Stake, v.Win, v.Before, v.After)
		if v.Jackpot > 0 {
			text += fmt.Sprintf("; its jackpot hit of %d is not paid and not restored to the pool", v.Jackpot)
		}
		return s.audit(tx, cab, ReasonRoundVoided, text)
	})
	if err != nil {
		return v, actionErr(err)
	}
	s.logAudit(cab, ReasonRoundVoided, text)
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
func (s *Server) voided(tx *sql.Tx, cab string, n uint64) error {
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

// keepHelloMeters stores what the cabinet reported at Hello, also when the
// report was refused: "mirror reconcile" starts from it.
func (s *Server) keepHelloMeters(tx *sql.Tx, cab string, at time.Time, credit, base, bills, wtc, cancelled int64) error {
	_, err := s.st.exec(tx, `INSERT INTO hello_meters(cabinet, at, credit, base, bills_in, wins_to_credit, cancelled) VALUES(?,?,?,?,?,?,?)
		ON CONFLICT(cabinet) DO UPDATE SET at=excluded.at, credit=excluded.credit, base=excluded.base, bills_in=excluded.bills_in,
		wins_to_credit=excluded.wins_to_credit, cancelled=excluded.cancelled`, cab, at.UnixNano(), credit, base, bills, wtc, cancelled)
	return err
}

// MirrorChange is what SetMirror or ReconcileMirror did.
type MirrorChange struct {
	Cabinet string `json:"cabinet"`
	Before  int64  `json:"before"`
	After   int64  `json:"after"`
	// Meters the mirror starts from again (the cabinet's at its last
	// Hello): after a RAM clear they are lower than the ones kept.
	Meters string `json:"meters"`
}

// SetMirror sets cabinet's credit mirror to credit, from the meters the
// cabinet reported at its last Hello (a RAM clear resets the cabinet's
// meters: they are taken as the new baseline, and later reports count up
// from them). Refused while the cabinet has an open round or played after
// that Hello (rounds drawn, vouchers issued or redeemed since): the mirror
// would lose them; reconcile after its next Hello.
func (s *Server) SetMirror(ctx context.Context, cab string, credit int64, by, reason string) (MirrorChange, error) {
	return s.rebaseline(ctx, cab, &credit, by, reason)
}

// ReconcileMirror sets the mirror to the credit the cabinet reported at
// its last Hello (see SetMirror).
func (s *Server) ReconcileMirror(ctx context.Context, cab, by, reason string) (MirrorChange, error) {
	return s.rebaseline(ctx, cab, nil, by, reason)
}

func (s *Server) rebaseline(ctx context.Context, cab string, target *int64, by, reason string) (MirrorChange, error) {
	mc := MirrorChange{Cabinet: cab}
	if by == "" || reason == "" {
		return mc, ErrActionArgs
	}
	var text string
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		var at, credit, base, bills, wtc, cancelled int64
		err := s.st.queryRow(tx, `SELECT at, credit, base, bills_in, wins_to_credit, cancelled FROM hello_meters WHERE cabinet=?`, cab).
			Scan(&at, &credit, &base, &bills, &wtc, &cancelled)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: cabinet %q never reported its meters at Hello", ErrNoReport, cab)
		}
		if err != nil {
			return err
		}
		last, settled, err := s.latestRound(tx, cab)
		if err != nil {
			return err
		}
		if !settled {
			return fmt.Errorf("%w: cabinet %s has round %d open: settle or void it first", ErrMirrorBusy, cab, last)
		}
		var since int
		if err := s.st.queryRow(tx, `SELECT (SELECT count(*) FROM rounds WHERE cabinet=? AND drawn_at>?) +
			(SELECT count(*) FROM vouchers WHERE cabinet=? AND issued_at>?) +
			(SELECT count(*) FROM vouchers WHERE hold_cabinet=? AND redeemed_at>?)`, cab, at, cab, at, cab, at).Scan(&since); err != nil {
			return err
		}
		if since > 0 {
			return fmt.Errorf("%w: cabinet %s played after its last Hello (%s): reconcile after its next Hello",
				ErrMirrorBusy, cab, time.Unix(0, at).UTC().Format(time.RFC3339))
		}
		m, err := s.loadMirror(tx, cab)
		if err != nil {
			return err
		}
		mc.Before = m.credit()
		want := credit
		if target != nil {
			want = *target
		}
		// The new baseline: the reported meters, every win so far counted
		// as credited (wins = wins_to_credit keeps min() exact for the
		// wins drawn from now on), the rest in tickets in or vouchers out.
		nm := mirror{base: base, billsIn: bills, winsToCredit: wtc, wins: wtc, cancelled: cancelled, reported: true}
		if d := want - nm.credit(); d >= 0 {
			nm.ticketsIn = d
		} else {
			nm.vouchers = -d
		}
		if _, err := s.st.exec(tx, `INSERT INTO credit(cabinet, stakes, wins, tickets_in, vouchers, base, bills_in, wins_to_credit, cancelled, reported)
			VALUES(?,?,?,?,?,?,?,?,?,1) ON CONFLICT(cabinet) DO UPDATE SET stakes=excluded.stakes, wins=excluded.wins,
			tickets_in=excluded.tickets_in, vouchers=excluded.vouchers, base=excluded.base, bills_in=excluded.bills_in,
			wins_to_credit=excluded.wins_to_credit, cancelled=excluded.cancelled, reported=1`,
			cab, nm.stakes, nm.wins, nm.ticketsIn, nm.vouchers, nm.base, nm.billsIn, nm.winsToCredit, nm.cancelled); err != nil {
			return err
		}
		mc.After, mc.Meters = nm.credit(), describeMirror(&nm)
		how := "reconciled"
		if target != nil {
			how = "set"
		}
		text = fmt.Sprintf("mirror %s by %s: %s; credit %d -> %d (cabinet reported %d at its Hello of %s); was %s, now %s",
			how, by, reason, mc.Before, mc.After, credit, time.Unix(0, at).UTC().Format(time.RFC3339), describeMirror(m), mc.Meters)
		return s.audit(tx, cab, ReasonMirrorAdjusted, text)
	})
	if err != nil {
		return mc, actionErr(err)
	}
	s.logAudit(cab, ReasonMirrorAdjusted, text)
	return mc, nil
}

// AlarmRow is one stored alarm or audit row.
type AlarmRow struct {
	ID      int64  `json:"id"`
	Cabinet string `json:"cabinet"`
	At      string `json:"at"`
	Reason  string `json:"reason"`
	Text    string `json:"text"`
}

// ListAlarms is AlarmList as the admin socket answers it (JSON, times as
// RFC 3339): of one cabinet ("" all), at most limit of them (0: 100).
func (s *Server) ListAlarms(ctx context.Context, cab string, limit int) ([]AlarmRow, error) {
	recs, err := AlarmList(ctx, s.DB(), AlarmFilter{Cabinet: cab, Limit: limit})
	if err != nil {
		return nil, actionErr(err)
	}
	out := make([]AlarmRow, 0, len(recs))
	for _, a := range recs {
		out = append(out, AlarmRow{ID: a.ID, Cabinet: a.Cabinet, At: time.Unix(0, a.At).UTC().Format(time.RFC3339Nano), Reason: a.Reason, Text: a.Text})
	}
	return out, nil
}

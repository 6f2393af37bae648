package players

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// The self-limits (standards §1.16, check 36): bets and net losses (bets
// minus wins) per calendar day and per calendar month of the market's zone.
const (
	BetsDay   = "bets_day"
	BetsMonth = "bets_month"
	LossDay   = "loss_day"
	LossMonth = "loss_month"
)

// Kinds are the four limit kinds, in display order.
var Kinds = []string{BetsDay, BetsMonth, LossDay, LossMonth}

func validKind(k string) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Limit is one limit's state at a moment.
type Limit struct {
	Kind    string `json:"kind"`
	Decided bool   `json:"decided"` // set or explicitly refused
	Set     bool   `json:"set"`     // false: refused (no limit)
	Amount  int64  `json:"amount,omitempty"`
	Used    int64  `json:"used"` // in the current day or month
	Left    int64  `json:"left,omitempty"`
	// A milder value asked for, in force from PendingFrom.
	Pending     bool      `json:"pending,omitempty"`
	PendingSet  bool      `json:"pendingSet,omitempty"`
	PendingAmt  int64     `json:"pendingAmount,omitempty"`
	PendingFrom time.Time `json:"pendingFrom,omitzero"`
}

type limitRow struct {
	amount     sql.NullInt64
	pending    bool
	pendingAmt sql.NullInt64
	pendingAt  int64
}

// milder: b is a weaker limit than a (nil = no limit).
func milder(a, b sql.NullInt64) bool {
	if !a.Valid {
		return false
	}
	return !b.Valid || b.Int64 > a.Int64
}

// loadLimits returns the account's limits in force at now, applying a
// pending milder value whose time has come.
func loadLimits(tx *sql.Tx, account string, now time.Time) (map[string]*limitRow, error) {
	rows, err := tx.Query(`SELECT kind, amount, pending, pending_amount, pending_from FROM player_limits WHERE account=?`, account)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*limitRow{}
	for rows.Next() {
		var k string
		var l limitRow
		var p int
		if err := rows.Scan(&k, &l.amount, &p, &l.pendingAmt, &l.pendingAt); err != nil {
			return nil, err
		}
		l.pending = p != 0
		if l.pending && now.UnixNano() >= l.pendingAt {
			l.amount, l.pending, l.pendingAmt = l.pendingAmt, false, sql.NullInt64{}
		}
		out[k] = &l
	}
	return out, rows.Err()
}

// SetLimit sets a limit (amount >= 0) or records that the player refused
// it (amount nil). A stricter value applies at once and cancels a pending
// milder one; a milder value (higher, or refused) applies after
// LoosenWait, and never within ClosedGrace of the closing of an earlier
// account of the same person that had the stricter limit.
func (r *Registry) SetLimit(ctx context.Context, account, kind string, amount *int64) (*Limit, error) {
	if !validKind(kind) {
		return nil, refusef(refusal.PlayerInvalid, "limit kind %q: one of %v", kind, Kinds)
	}
	if amount != nil && *amount < 0 {
		return nil, refusef(refusal.PlayerInvalid, "limit %s of %d: negative", kind, *amount)
	}
	var want sql.NullInt64
	if amount != nil {
		want = sql.NullInt64{Int64: *amount, Valid: true}
	}
	now := r.cfg.Now()
	var out *Limit
	err := r.write(ctx, func(tx *sql.Tx) error {
		a, err := loadAccount(tx, account)
		if err != nil {
			return err
		}
		if a.closed {
			return refusef(refusal.PlayerBlocked, "account %s is closed", account)
		}
		ls, err := loadLimits(tx, account, now)
		if err != nil {
			return err
		}
		cur, had := ls[kind]
		switch {
		case !had || !milder(cur.amount, want):
			// First decision, or at least as strict: at once.
			_, err = tx.Exec(`INSERT INTO player_limits(account, kind, amount, set_at, pending, pending_amount, pending_from) VALUES(?,?,?,?,0,NULL,0)
				ON CONFLICT(account, kind) DO UPDATE SET amount=excluded.amount, set_at=excluded.set_at, pending=0, pending_amount=NULL, pending_from=0`,
				account, kind, want, now.UnixNano())
		default:
			from := now.Add(r.cfg.Profile.LoosenWait)
			if until, err := r.graceUntil(tx, a, kind, want); err != nil {
				return err
			} else if until.After(from) {
				from = until
			}
			_, err = tx.Exec(`UPDATE player_limits SET amount=?, pending=1, pending_amount=?, pending_from=? WHERE account=? AND kind=?`,
				cur.amount, want, from.UnixNano(), account, kind)
		}
		if err != nil {
			return err
		}
		if err := logf(tx, account, now, "limit", "%s %s", kind, fmtAmount(want)); err != nil {
			return err
		}
		st, err := r.limits(tx, account, now)
		if err != nil {
			return err
		}
		for i := range st {
			if st[i].Kind == kind {
				out = &st[i]
			}
		}
		return nil
	})
	return out, err
}

func fmtAmount(v sql.NullInt64) string {
	if !v.Valid {
		return "refused"
	}
	return fmt.Sprint(v.Int64)
}

// graceUntil is when a milder value of kind may apply because of an
// account of the same person (samePersonClosed, not only the same
// document) closed with a stricter one (zero: no such account).
func (r *Registry) graceUntil(tx *sql.Tx, a *acct, kind string, want sql.NullInt64) (time.Time, error) {
	var until time.Time
	ids, err := r.samePersonClosed(tx, a, 0)
	if err != nil {
		return until, err
	}
	for _, id := range ids {
		var closed int64
		var amt sql.NullInt64
		err := tx.QueryRow(`SELECT p.closed_at, l.amount FROM player_accounts p JOIN player_limits l ON l.account=p.id WHERE p.id=? AND l.kind=?`, id, kind).Scan(&closed, &amt)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return until, err
		}
		if t := time.Unix(0, closed).Add(r.cfg.Profile.ClosedGrace); milder(amt, want) && t.After(until) {
			until = t
		}
	}
	return until, nil
}

// takeLimits gives the account the strictest limit of each kind of the
// accounts from (the person's accounts closed within ClosedGrace), at
// once, where its own is milder or not decided.
func (r *Registry) takeLimits(tx *sql.Tx, account string, from []string, now time.Time) error {
	strict := map[string]int64{}
	for _, id := range from {
		rows, err := tx.Query(`SELECT kind, amount FROM player_limits WHERE account=? AND amount IS NOT NULL`, id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var k string
			var v int64
			if err := rows.Scan(&k, &v); err != nil {
				rows.Close()
				return err
			}
			if old, ok := strict[k]; !ok || v < old {
				strict[k] = v
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	if len(strict) == 0 {
		return nil
	}
	own, err := loadLimits(tx, account, now)
	if err != nil {
		return err
	}
	for _, k := range Kinds {
		v, ok := strict[k]
		if !ok {
			continue
		}
		if cur, had := own[k]; had && !milder(sql.NullInt64{Int64: v, Valid: true}, cur.amount) {
			continue
		}
		if _, err := tx.Exec(`INSERT INTO player_limits(account, kind, amount, set_at, pending, pending_amount, pending_from) VALUES(?,?,?,?,0,NULL,0)
			ON CONFLICT(account, kind) DO UPDATE SET amount=excluded.amount, set_at=excluded.set_at, pending=0, pending_amount=NULL, pending_from=0`,
			account, k, v, now.UnixNano()); err != nil {
			return err
		}
		if err := logf(tx, account, now, "limit", "%s %d taken over from the person's account closed within %s", k, v, r.cfg.Profile.ClosedGrace); err != nil {
			return err
		}
	}
	return nil
}

// periods returns the start of the day and of the month of now in the
// market's zone.
func (r *Registry) periods(now time.Time) (day, month time.Time) {
	l := now.In(r.cfg.Profile.Location)
	day = time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, r.cfg.Profile.Location)
	month = time.Date(l.Year(), l.Month(), 1, 0, 0, 0, 0, r.cfg.Profile.Location)
	return day, month
}

// usage is the account's bets and net losses of the day and month.
func (r *Registry) usage(tx *sql.Tx, account string, now time.Time) (map[string]int64, error) {
	day, month := r.periods(now)
	var bd, ld, bm, lm int64
	// CAST: PostgreSQL's sum of BIGINT is NUMERIC; SQLite's an integer either way.
	err := tx.QueryRow(`SELECT CAST(coalesce(sum(CASE WHEN at>=? THEN stake ELSE 0 END),0) AS BIGINT), CAST(coalesce(sum(CASE WHEN at>=? THEN stake-win ELSE 0 END),0) AS BIGINT),
		CAST(coalesce(sum(stake),0) AS BIGINT), CAST(coalesce(sum(stake-win),0) AS BIGINT) FROM player_bets WHERE account=? AND at>=?`,
		day.UnixNano(), day.UnixNano(), account, month.UnixNano()).Scan(&bd, &ld, &bm, &lm)
	return map[string]int64{BetsDay: bd, LossDay: ld, BetsMonth: bm, LossMonth: lm}, err
}

// limits is the account's four limits with what is used and left.
func (r *Registry) limits(tx *sql.Tx, account string, now time.Time) ([]Limit, error) {
	ls, err := loadLimits(tx, account, now)
	if err != nil {
		return nil, err
	}
	used, err := r.usage(tx, account, now)
	if err != nil {
		return nil, err
	}
	out := make([]Limit, 0, len(Kinds))
	for _, k := range Kinds {
		l := Limit{Kind: k, Used: used[k]}
		if row, ok := ls[k]; ok {
			l.Decided, l.Set, l.Amount = true, row.amount.Valid, row.amount.Int64
			if l.Set {
				l.Left = max(0, l.Amount-l.Used)
			}
			if row.pending {
				l.Pending, l.PendingSet, l.PendingAmt, l.PendingFrom = true, row.pendingAmt.Valid, row.pendingAmt.Int64, time.Unix(0, row.pendingAt)
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// checkLimits refuses a stake that would take a limit over its amount (the
// one that reaches it exactly is taken; a net loss counts the stake as
// lost until the round is drawn).
func (r *Registry) checkLimits(tx *sql.Tx, account string, stake int64, now time.Time) error {
	ls, err := r.limits(tx, account, now)
	if err != nil {
		return err
	}
	for _, l := range ls {
		if !l.Decided && r.cfg.Profile.LimitsRequired {
			return refusef(refusal.PlayerLimitsUndecided, "limit %s is neither set nor refused: the operator records the player's choice first", l.Kind)
		}
		if l.Set && l.Used+stake > l.Amount {
			return refusef(refusal.PlayerLimit, "limit %s %d: used %d, a stake of %d would exceed it", l.Kind, l.Amount, l.Used, stake)
		}
	}
	return nil
}

package players

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// Card is one card of an account.
type Card struct {
	ID        string    `json:"id"`
	IssuedAt  time.Time `json:"issuedAt"`
	Blocked   bool      `json:"blocked,omitempty"`
	BlockedAt time.Time `json:"blockedAt,omitzero"`
	Reason    string    `json:"reason,omitempty"`
}

// Info is an account as `players show` and the back office see it.
type Info struct {
	Account  Account  `json:"account"`
	Cards    []Card   `json:"cards"`
	Limits   []Limit  `json:"limits"`
	Excluded bool     `json:"excluded"`
	InReview bool     `json:"inReview,omitempty"` // a probable match waits for staff: no play
	Reviews  []Review `json:"reviews,omitempty"`  // the account's, open and decided
	Session  *State   `json:"session,omitempty"`  // the active session, if any
}

// Show returns an account with its cards, limits (used and left now),
// exclusion and active session.
func (r *Registry) Show(ctx context.Context, account string) (*Info, error) {
	now := r.cfg.Now()
	var out *Info
	err := r.write(ctx, func(tx *sql.Tx) error {
		a, err := loadAccount(tx, account)
		if err != nil {
			return err
		}
		in := &Info{}
		var vat, oat int64
		var closed sql.NullInt64
		if err := tx.QueryRow(`SELECT verified_by, verified_at, opened_at, closed_at FROM player_accounts WHERE id=?`, account).Scan(&in.Account.VerifiedBy, &vat, &oat, &closed); err != nil {
			return err
		}
		in.Account.ID, in.Account.Name, in.Account.BirthDate, in.Account.Blocked = a.id, a.name, a.birth, a.blocked
		in.Account.VerifiedAt, in.Account.OpenedAt, in.Account.Closed = time.Unix(0, vat).UTC(), time.Unix(0, oat).UTC(), closed.Valid
		rows, err := tx.Query(`SELECT card, issued_at, blocked_at, blocked_reason FROM player_cards WHERE account=? ORDER BY issued_at, card`, account)
		if err != nil {
			return err
		}
		for rows.Next() {
			var c Card
			var iat int64
			var bat sql.NullInt64
			if err := rows.Scan(&c.ID, &iat, &bat, &c.Reason); err != nil {
				rows.Close()
				return err
			}
			c.IssuedAt, c.Blocked = time.Unix(0, iat).UTC(), bat.Valid
			if bat.Valid {
				c.BlockedAt = time.Unix(0, bat.Int64).UTC()
			}
			in.Cards = append(in.Cards, c)
		}
		rows.Close()
		if in.Limits, err = r.limits(tx, account, now); err != nil {
			return err
		}
		ex, err := r.exclusion(tx, a, now)
		if err != nil {
			return err
		}
		in.Excluded = ex == matchCertain
		if in.InReview, err = openReviews(tx, a.id); err != nil {
			return err
		}
		if in.Reviews, err = reviews(tx, `WHERE account=?`, a.id); err != nil {
			return err
		}
		var sid int64
		var cab string
		err = tx.QueryRow(`SELECT id, cabinet FROM player_sessions WHERE account=? AND ended_at IS NULL`, account).Scan(&sid, &cab)
		if err == nil {
			if in.Session, err = r.state(tx, a, sid, cab, now); err != nil {
				return err
			}
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		out = in
		return nil
	})
	return out, err
}

// Entry is one line of a player's history: a bet (with its win), a
// session, or an account event.
type Entry struct {
	At      time.Time `json:"at"`
	Kind    string    `json:"kind"` // bet, session, or the log kind (registered, card, limit, login, refused, ...)
	Cabinet string    `json:"cabinet,omitempty"`
	Round   uint64    `json:"round,omitempty"`
	Session int64     `json:"session,omitempty"`
	Stake   int64     `json:"stake,omitempty"`
	Win     int64     `json:"win,omitempty"`
	Ended   time.Time `json:"ended,omitzero"`
	Text    string    `json:"text,omitempty"`
}

// History returns the account's bets, sessions and events from since to
// until, oldest first.
func (r *Registry) History(ctx context.Context, account string, since, until time.Time) ([]Entry, error) {
	var out []Entry
	err := r.write(ctx, func(tx *sql.Tx) error {
		if _, err := loadAccount(tx, account); err != nil {
			return err
		}
		s, u := since.UnixNano(), until.UnixNano()
		rows, err := tx.Query(`SELECT at, 'bet', cabinet, round, session, stake, win, 0, '' FROM player_bets WHERE account=? AND at>=? AND at<?
			UNION ALL SELECT started_at, 'session', cabinet, 0, id, 0, 0, coalesce(ended_at, 0), end_reason FROM player_sessions WHERE account=? AND started_at>=? AND started_at<?
			UNION ALL SELECT at, kind, '', 0, 0, 0, 0, 0, text FROM player_log WHERE account=? AND at>=? AND at<?
			ORDER BY 1, 2`, account, s, u, account, s, u, account, s, u)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e Entry
			var at, ended, round int64
			if err := rows.Scan(&at, &e.Kind, &e.Cabinet, &round, &e.Session, &e.Stake, &e.Win, &ended, &e.Text); err != nil {
				return err
			}
			e.At, e.Round = time.Unix(0, at).UTC(), uint64(round)
			if ended != 0 {
				e.Ended = time.Unix(0, ended).UTC()
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

// RoundPlayer is the verified account that played a cabinet's round (nil:
// an anonymous round): the jackpot payout form (MS-18) is filled from it.
func (r *Registry) RoundPlayer(ctx context.Context, cabinet string, round uint64) (*Account, error) {
	var out *Account
	err := r.write(ctx, func(tx *sql.Tx) error {
		var id string
		err := tx.QueryRow(`SELECT account FROM player_bets WHERE cabinet=? AND round=?`, cabinet, int64(round)).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		var a Account
		var vat, oat int64
		var closed sql.NullInt64
		if err := tx.QueryRow(`SELECT id, name, birth_date, verified_by, verified_at, opened_at, closed_at, blocked FROM player_accounts WHERE id=?`, id).
			Scan(&a.ID, &a.Name, &a.BirthDate, &a.VerifiedBy, &vat, &oat, &closed, &a.Blocked); err != nil {
			return err
		}
		a.VerifiedAt, a.OpenedAt, a.Closed = time.Unix(0, vat).UTC(), time.Unix(0, oat).UTC(), closed.Valid
		out = &a
		return nil
	})
	return out, err
}

// Search finds open and closed accounts whose id or one of whose card ids
// begins with q (the back office's search; never by name or document, so
// a search box is no way to probe who is registered), at most limit.
func (r *Registry) Search(ctx context.Context, q string, limit int) ([]Account, error) {
	var out []Account
	q = strings.TrimSpace(q)
	if q == "" || limit <= 0 {
		return nil, nil
	}
	err := r.write(ctx, func(tx *sql.Tx) error {
		esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q) + "%"
		rows, err := tx.Query(`SELECT id, name, birth_date, verified_by, verified_at, opened_at, closed_at, blocked FROM player_accounts
			WHERE id LIKE ? ESCAPE '\' OR id IN (SELECT account FROM player_cards WHERE card LIKE ? ESCAPE '\') ORDER BY id LIMIT ?`, esc, esc, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a Account
			var vat, oat int64
			var closed sql.NullInt64
			if err := rows.Scan(&a.ID, &a.Name, &a.BirthDate, &a.VerifiedBy, &vat, &oat, &closed, &a.Blocked); err != nil {
				return err
			}
			a.VerifiedAt, a.OpenedAt, a.Closed = time.Unix(0, vat).UTC(), time.Unix(0, oat).UTC(), closed.Valid
			out = append(out, a)
		}
		return rows.Err()
	})
	return out, err
}

// ExclusionStatus is the register of excluded persons in force.
type ExclusionStatus struct {
	Date       string    `json:"date,omitempty"` // "": never imported
	Serial     uint64    `json:"serial,omitempty"`
	Entries    int64     `json:"entries"`
	ImportedAt time.Time `json:"importedAt,omitzero"`
	Stale      bool      `json:"stale"` // older than the profile allows: logins are refused
}

// Exclusions is the status of the register of excluded persons.
func (r *Registry) Exclusions(ctx context.Context) (*ExclusionStatus, error) {
	out := &ExclusionStatus{}
	now := r.cfg.Now()
	err := r.write(ctx, func(tx *sql.Tx) error {
		var at int64
		err := tx.QueryRow(`SELECT i.register_date, coalesce(s.serial, 0), i.entries, i.imported_at FROM player_exclusion_imports i
			LEFT JOIN player_exclusion_serials s ON s.import_id=i.id ORDER BY i.id DESC LIMIT 1`).Scan(&out.Date, &out.Serial, &out.Entries, &at)
		if errors.Is(err, sql.ErrNoRows) {
			out.Stale = r.registerFresh(tx, now) != nil
			return nil
		}
		if err != nil {
			return err
		}
		out.ImportedAt = time.Unix(0, at).UTC()
		out.Stale = r.registerFresh(tx, now) != nil
		return nil
	})
	return out, err
}

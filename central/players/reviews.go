package players

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// Review kinds: what a probable match is with.
const (
	ReviewExclusion = "exclusion" // an entry of the register of excluded persons
	ReviewDuplicate = "duplicate" // another account, open or closed within ClosedGrace
)

// Decisions on a review.
const (
	DecisionSame      = "same"      // the same person: excluded, or the account is closed / takes the other's limits
	DecisionDifferent = "different" // another person: the match no longer holds the account
)

// Review is a probable match waiting for, or decided by, the staff.
type Review struct {
	ID        int64     `json:"id"`
	Account   string    `json:"account"`
	Kind      string    `json:"kind"`
	Subject   string    `json:"subject"` // the other account, or the register entry's keyed hash
	Detail    string    `json:"detail"`
	OpenedAt  time.Time `json:"openedAt"`
	Decided   bool      `json:"decided"`
	Decision  string    `json:"decision,omitempty"`
	DecidedBy string    `json:"decidedBy,omitempty"`
	DecidedAt time.Time `json:"decidedAt,omitzero"`
	Note      string    `json:"note,omitempty"`
}

// openReview puts a probable match in the queue once (the same account
// and subject again is the same review, decided or not).
func (r *Registry) openReview(tx *sql.Tx, account, kind, subject, detail string, now time.Time) error {
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM player_reviews WHERE account=? AND kind=? AND subject=?`, account, kind, subject).Scan(&n); err != nil || n > 0 {
		return err
	}
	id, err := nextID(tx, "player_reviews", "id")
	if err != nil {
		return err
	}
	if _, err := tx.Exec(`INSERT INTO player_reviews(id, account, kind, subject, opened_at, detail) VALUES(?,?,?,?,?,?)`,
		id, account, kind, subject, now.UnixNano(), detail); err != nil {
		return err
	}
	r.cfg.Log.Warn("player match for review", "review", id, "account", account, "kind", kind)
	return logf(tx, account, now, "review", "review %d opened (%s): %s; no play until staff decide", id, kind, detail)
}

// openReviews says whether the account has a review not decided yet.
func openReviews(tx *sql.Tx, account string) (bool, error) {
	var n int
	err := tx.QueryRow(`SELECT count(*) FROM player_reviews WHERE account=? AND decided_at IS NULL`, account).Scan(&n)
	return n > 0, err
}

// Reviews lists the reviews, the open ones only unless all.
func (r *Registry) Reviews(ctx context.Context, all bool) ([]Review, error) {
	var out []Review
	err := r.write(ctx, func(tx *sql.Tx) error {
		where := ``
		if !all {
			where = `WHERE decided_at IS NULL`
		}
		var err error
		out, err = reviews(tx, where)
		return err
	})
	return out, err
}

// reviews are the reviews where says (with args), oldest first.
func reviews(tx *sql.Tx, where string, args ...any) ([]Review, error) {
	rows, err := tx.Query(`SELECT id, account, kind, subject, detail, opened_at, decided_at, decision, decided_by, note FROM player_reviews `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Review
	for rows.Next() {
		var v Review
		var opened int64
		var decided sql.NullInt64
		if err := rows.Scan(&v.ID, &v.Account, &v.Kind, &v.Subject, &v.Detail, &opened, &decided, &v.Decision, &v.DecidedBy, &v.Note); err != nil {
			return nil, err
		}
		v.OpenedAt, v.Decided = time.Unix(0, opened).UTC(), decided.Valid
		if decided.Valid {
			v.DecidedAt = time.Unix(0, decided.Int64).UTC()
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// DecideReview records a named staff member's decision on an open review,
// in the account's log. Same person: for a register entry, the account is
// excluded while the entry is in the register; for an open account, the
// newer account is closed (one account per person); for a closed one, the
// newer account takes its limits where they are stricter. Another person:
// the match no longer holds the account (nor does it at later imports).
func (r *Registry) DecideReview(ctx context.Context, id int64, decision, by, note string) (*Review, error) {
	if decision != DecisionSame && decision != DecisionDifferent {
		return nil, refusef(refusal.PlayerInvalid, "decision %q: %s or %s", decision, DecisionSame, DecisionDifferent)
	}
	if by == "" {
		return nil, refusef(refusal.PlayerNotVerified, "a review is decided by a named member of staff")
	}
	now := r.cfg.Now()
	var out Review
	err := r.write(ctx, func(tx *sql.Tx) error {
		var decided sql.NullInt64
		err := tx.QueryRow(`SELECT id, account, kind, subject, detail, decided_at FROM player_reviews WHERE id=?`, id).
			Scan(&out.ID, &out.Account, &out.Kind, &out.Subject, &out.Detail, &decided)
		if errors.Is(err, sql.ErrNoRows) {
			return refusef(refusal.PlayerNotFound, "no review %d", id)
		}
		if err != nil {
			return err
		}
		if decided.Valid {
			return refusef(refusal.PlayerDuplicate, "review %d was already decided", id)
		}
		if _, err := tx.Exec(`UPDATE player_reviews SET decided_at=?, decision=?, decided_by=?, note=? WHERE id=?`, now.UnixNano(), decision, by, note, id); err != nil {
			return err
		}
		out.Decided, out.Decision, out.DecidedBy, out.DecidedAt, out.Note = true, decision, by, now, note
		if err := logf(tx, out.Account, now, "review", "review %d (%s) decided by %s: %s person; %s", id, out.Kind, by, decision, note); err != nil {
			return err
		}
		if out.Kind != ReviewDuplicate || decision != DecisionSame {
			return nil
		}
		other, err := loadAccount(tx, out.Subject)
		if err != nil {
			return err
		}
		if !other.closed {
			return r.closeAccount(tx, out.Account, now, "the same person as the open account "+other.id+" (review decided)")
		}
		return r.takeLimits(tx, out.Account, []string{other.id}, now)
	})
	if err != nil {
		return nil, err
	}
	r.cfg.Log.Info("player review decided", "review", id, "account", out.Account, "decision", decision, "by", by)
	return &out, nil
}

package players

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/polaris-vlt/polaris/cardauth"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"golang.org/x/text/transform"
)

// CardVerifier checks a player card's answer to a challenge (the card
// scheme: a per-card key derived from the operator's master key). A copy of
// the card number without the card's key cannot answer.
type CardVerifier interface {
	// Verify returns nil when response is card's genuine answer to challenge.
	Verify(card string, challenge, response []byte) error
}

// Store runs fn inside a write transaction of the central store (the
// server's single writer): *server.Server satisfies it with PlayersWrite.
type Store interface {
	PlayersWrite(ctx context.Context, fn func(tx *sql.Tx) error) error
}

// Config configures a Registry.
type Config struct {
	Profile Profile
	// HashKey keys the hashes of identity data (HMAC-SHA256, at least 32
	// bytes). It is kept outside the database: a copy of the store alone
	// does not tell whose document number a hash is.
	HashKey []byte
	Cards   CardVerifier
	// RegisterKey checks the signature of the exclusion register file.
	RegisterKey ed25519.PublicKey
	Now         func() time.Time
	Log         *slog.Logger
}

// Registry is the player accounts of one operator.
type Registry struct {
	cfg Config
	st  Store
}

// New checks cfg. Attach (done by server.New) gives it the store.
func New(cfg Config) (*Registry, error) {
	if cfg.Profile.Market == "" {
		return nil, errors.New("players: no market profile")
	}
	if cfg.Profile.Location == nil {
		cfg.Profile.Location = time.UTC
	}
	if cfg.Profile.ChallengeTTL == 0 {
		cfg.Profile.ChallengeTTL = 30 * time.Second
	}
	if len(cfg.HashKey) < 32 {
		return nil, errors.New("players: the identity hash key must be at least 32 bytes")
	}
	if cfg.Cards == nil {
		return nil, errors.New("players: no card verifier")
	}
	if len(cfg.RegisterKey) != ed25519.PublicKeySize {
		return nil, errors.New("players: no Ed25519 key for the exclusion register")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Registry{cfg: cfg}, nil
}

// Attach gives the registry the store its operator methods write through.
func (r *Registry) Attach(st Store) { r.st = st }

// Profile is the market profile in force.
func (r *Registry) Profile() Profile { return r.cfg.Profile }

// Setup checks the players' tables are there (a store write transaction
// at start): the store creates them on either backend, its migration 2
// (central/server/store_schema_rooms.go), before any room's Setup.
func (r *Registry) Setup(tx *sql.Tx) error {
	_, err := tx.Exec(`SELECT count(*) FROM player_accounts WHERE id = ''`)
	return err
}

func (r *Registry) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if r.st == nil {
		return errors.New("players: registry not attached to a store")
	}
	return r.st.PlayersWrite(ctx, fn)
}

// Refusal is a request the rules refuse: nothing it asked for changed. Its
// reason is one of refusal's (the Player*, Card* and ExclusionsStale
// reasons), where the cabinet's decision on each is kept.
type Refusal struct {
	Reason  refusal.Reason
	Message string
}

func (e *Refusal) Error() string { return string(e.Reason) + ": " + e.Message }

func refusef(reason refusal.Reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// AsRefusal returns err's Refusal, if it is one.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

// keyed is the keyed hash of one identity datum.
func (r *Registry) keyed(kind, v string) string {
	m := hmac.New(sha256.New, r.cfg.HashKey)
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write([]byte(v))
	return hex.EncodeToString(m.Sum(nil))
}

// normDoc folds a document number as names are folded (full-width
// characters, case, marks) and keeps its letters and digits, so
// "AB 123-456", "ab123456" and "ＡＢ１２３４５６" are the same document.
func normDoc(s string) string {
	f, _, err := transform.String(folder, s)
	if err != nil {
		f = s
	}
	var b strings.Builder
	for _, c := range strings.ToUpper(f) {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func (r *Registry) docHash(doc string) string { return r.keyed("doc", normDoc(doc)) }
func (r *Registry) personHash(name, birth string) string {
	return r.keyed("person", normName(name)+"\x00"+birth)
}

// Registration is what the operator's clerk enters after seeing the
// person's identity document.
type Registration struct {
	Name             string // as on the document
	BirthDate        string // YYYY-MM-DD
	DocumentNumber   string // hashed at once, never stored
	IdentityVerified bool   // the clerk saw the document and the person
	VerifiedBy       string // the clerk
}

// Account is a player account as the operator sees it.
type Account struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	BirthDate  string    `json:"birthDate"`
	VerifiedBy string    `json:"verifiedBy"`
	VerifiedAt time.Time `json:"verifiedAt"`
	OpenedAt   time.Time `json:"openedAt"`
	Closed     bool      `json:"closed"`
	Blocked    string    `json:"blocked,omitempty"`
}

var birthRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// age in whole years at the calendar day of now.
func age(birth time.Time, now time.Time) int {
	y := now.Year() - birth.Year()
	if now.Month() < birth.Month() || (now.Month() == birth.Month() && now.Day() < birth.Day()) {
		y--
	}
	return y
}

// Register opens an account: identity verified, of age, no other open
// account of the same document, and none of the same person by name and
// birth date (README "Matching names": a certain match is refused, a
// probable one opens the account held for a review). A person who closed
// an account with limits within ClosedGrace gets those limits on the new
// account.
func (r *Registry) Register(ctx context.Context, g Registration) (*Account, error) {
	name := strings.Join(strings.Fields(g.Name), " ")
	if name == "" || len(name) > 200 {
		return nil, refusef(refusal.PlayerInvalid, "name missing or longer than 200 bytes")
	}
	words := nameWords(name)
	if len(words) < 2 {
		return nil, refusef(refusal.PlayerInvalid, "name %q: a surname and at least one given name, as on the document", name)
	}
	if !birthRE.MatchString(g.BirthDate) {
		return nil, refusef(refusal.PlayerInvalid, "birth date %q is not YYYY-MM-DD", g.BirthDate)
	}
	birth, err := time.ParseInLocation("2006-01-02", g.BirthDate, r.cfg.Profile.Location)
	if err != nil {
		return nil, refusef(refusal.PlayerInvalid, "birth date %q: %v", g.BirthDate, err)
	}
	doc := normDoc(g.DocumentNumber)
	if len(doc) < 4 || len(doc) > 40 {
		return nil, refusef(refusal.PlayerInvalid, "identity document number must have 4 to 40 letters or digits")
	}
	if !g.IdentityVerified || strings.TrimSpace(g.VerifiedBy) == "" {
		return nil, refusef(refusal.PlayerNotVerified, "the identity must be verified by a named clerk before an account is opened")
	}
	now := r.cfg.Now()
	if a := age(birth, now.In(r.cfg.Profile.Location)); a < r.cfg.Profile.MinAge {
		return nil, refusef(refusal.PlayerUnderage, "born %s: %d years old, at least %d required", g.BirthDate, a, r.cfg.Profile.MinAge)
	}
	dh, ph := r.docHash(doc), r.personHash(name, g.BirthDate)
	var out *Account
	err = r.write(ctx, func(tx *sql.Tx) error {
		var other string
		err := tx.QueryRow(`SELECT id FROM player_accounts WHERE doc_hash=? AND closed_at IS NULL`, dh).Scan(&other)
		if err == nil {
			return refusef(refusal.PlayerDuplicate, "this identity document already has the open account %s", other)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		// The same person with another document (a passport, a new card).
		same, err := r.sameBirth(tx, words, g.BirthDate, "")
		if err != nil {
			return err
		}
		var review []string
		for _, o := range same {
			switch {
			case !o.closed && o.level == matchCertain:
				return refusef(refusal.PlayerDuplicate, "the person (name and birth date) already has the open account %s", o.id)
			case o.level == matchProbable && (!o.closed || o.closedAt >= now.Add(-r.cfg.Profile.ClosedGrace).UnixNano()):
				review = append(review, o.id)
			}
		}
		n, err := nextID(tx, "player_accounts", "CAST(substr(id, 2) AS INTEGER)")
		if err != nil {
			return err
		}
		id := fmt.Sprintf("P%012d", n)
		if _, err := tx.Exec(`INSERT INTO player_accounts(id, name, birth_date, doc_hash, person_hash, verified_by, verified_at, opened_at)
			VALUES(?,?,?,?,?,?,?,?)`, id, name, g.BirthDate, dh, ph, g.VerifiedBy, now.UnixNano(), now.UnixNano()); err != nil {
			return err
		}
		out = &Account{ID: id, Name: name, BirthDate: g.BirthDate, VerifiedBy: g.VerifiedBy, VerifiedAt: now, OpenedAt: now}
		if err := logf(tx, id, now, "registered", "account opened, identity verified by %s", g.VerifiedBy); err != nil {
			return err
		}
		a, err := loadAccount(tx, id)
		if err != nil {
			return err
		}
		closed, err := r.samePersonClosed(tx, a, now.Add(-r.cfg.Profile.ClosedGrace).UnixNano())
		if err != nil {
			return err
		}
		if err := r.takeLimits(tx, id, closed, now); err != nil {
			return err
		}
		for _, o := range review {
			if err := r.openReview(tx, id, ReviewDuplicate, o, "probably the same person (name and birth date) as account "+o, now); err != nil {
				return err
			}
		}
		// A probable entry of the register opens its review now, not at the
		// first login.
		_, err = r.exclusion(tx, a, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	r.cfg.Log.Info("player registered", "account", out.ID)
	return out, nil
}

// other is an account of the same birth date and how its name matches.
type other struct {
	id       string
	closed   bool
	closedAt int64
	level    int
}

// sameBirth are the accounts (but except) born on birth whose name
// matches words at least probably.
func (r *Registry) sameBirth(tx *sql.Tx, words []string, birth, except string) ([]other, error) {
	rows, err := tx.Query(`SELECT id, name, closed_at FROM player_accounts WHERE birth_date=? AND id<>? ORDER BY id`, birth, except)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []other
	for rows.Next() {
		var o other
		var name string
		var closed sql.NullInt64
		if err := rows.Scan(&o.id, &name, &closed); err != nil {
			return nil, err
		}
		o.closed, o.closedAt = closed.Valid, closed.Int64
		if o.level = matchNames(words, nameWords(name), 0, 0); o.level > matchNone {
			out = append(out, o)
		}
	}
	return out, rows.Err()
}

// samePersonClosed are the person's closed accounts (closed at or after
// since): the same document, a certain match of name and birth date, or
// one a review decided to be the same person.
func (r *Registry) samePersonClosed(tx *sql.Tx, a *acct, since int64) ([]string, error) {
	var out []string
	rows, err := tx.Query(`SELECT id FROM player_accounts WHERE closed_at IS NOT NULL AND closed_at>=? AND id<>? AND (doc_hash=? OR id IN
		(SELECT subject FROM player_reviews WHERE account=? AND kind=? AND decision=?)) ORDER BY id`, since, a.id, a.docHash, a.id, ReviewDuplicate, DecisionSame)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	same, err := r.sameBirth(tx, nameWords(a.name), a.birth, a.id)
	if err != nil {
		return nil, err
	}
	for _, o := range same {
		if o.closed && o.closedAt >= since && o.level == matchCertain && !slices.Contains(out, o.id) {
			out = append(out, o.id)
		}
	}
	return out, nil
}

// nextID is one above the highest id of table (portable: no
// autoincrement; every write goes through the one writer).
func nextID(tx *sql.Tx, table, expr string) (int64, error) {
	var n int64
	err := tx.QueryRow(`SELECT coalesce(max(` + expr + `), 0) FROM ` + table).Scan(&n)
	return n + 1, err
}

func logf(tx *sql.Tx, account string, at time.Time, kind, format string, args ...any) error {
	id, err := nextID(tx, "player_log", "id")
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO player_log(id, account, at, kind, text) VALUES(?,?,?,?,?)`, id, account, at.UnixNano(), kind, fmt.Sprintf(format, args...))
	return err
}

// account loads one account row.
type acct struct {
	id, name, birth, docHash, personHash, blocked string
	closed                                        bool
	playSince, lastActive                         int64
}

func loadAccount(tx *sql.Tx, id string) (*acct, error) {
	var a acct
	var closed sql.NullInt64
	err := tx.QueryRow(`SELECT id, name, birth_date, doc_hash, person_hash, blocked, closed_at, play_since, last_active FROM player_accounts WHERE id=?`, id).
		Scan(&a.id, &a.name, &a.birth, &a.docHash, &a.personHash, &a.blocked, &closed, &a.playSince, &a.lastActive)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, refusef(refusal.PlayerNotFound, "no account %s", id)
	}
	a.closed = closed.Valid
	return &a, err
}

// validCard says whether card is a number the card scheme can
// authenticate (cardauth: 16 digits); no other card is ever issued.
func validCard(card string) error {
	if err := cardauth.CheckID(card); err != nil {
		return refusef(refusal.PlayerInvalid, "card id %q: %d digits", card, cardauth.IDLen)
	}
	return nil
}

// IssueCard binds a new card to an open account. A card id is issued once
// ever: a blocked card is never bound again.
func (r *Registry) IssueCard(ctx context.Context, account, card string) error {
	if err := validCard(card); err != nil {
		return err
	}
	now := r.cfg.Now()
	return r.write(ctx, func(tx *sql.Tx) error {
		a, err := loadAccount(tx, account)
		if err != nil {
			return err
		}
		if a.closed {
			return refusef(refusal.PlayerBlocked, "account %s is closed", account)
		}
		var other string
		err = tx.QueryRow(`SELECT account FROM player_cards WHERE card=?`, card).Scan(&other)
		if err == nil {
			return refusef(refusal.PlayerDuplicate, "card %s was already issued (account %s)", card, other)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO player_cards(card, account, issued_at) VALUES(?,?,?)`, card, account, now.UnixNano()); err != nil {
			return err
		}
		return logf(tx, account, now, "card", "card %s issued", card)
	})
}

// BlockCard blocks a card for good (lost, stolen, copied); an active
// session on it ends.
func (r *Registry) BlockCard(ctx context.Context, card, reason string) error {
	now := r.cfg.Now()
	return r.write(ctx, func(tx *sql.Tx) error {
		var account string
		var blocked sql.NullInt64
		err := tx.QueryRow(`SELECT account, blocked_at FROM player_cards WHERE card=?`, card).Scan(&account, &blocked)
		if errors.Is(err, sql.ErrNoRows) {
			return refusef(refusal.CardUnknown, "no card %s", card)
		}
		if err != nil || blocked.Valid {
			return err
		}
		if _, err := tx.Exec(`UPDATE player_cards SET blocked_at=?, blocked_reason=? WHERE card=?`, now.UnixNano(), reason, card); err != nil {
			return err
		}
		if err := endSessions(tx, now, "card blocked", `card=?`, card); err != nil {
			return err
		}
		return logf(tx, account, now, "card_blocked", "card %s blocked: %s", card, reason)
	})
}

// Block blocks (reason non-empty) or unblocks (reason "") an account; a
// block ends its active session.
func (r *Registry) Block(ctx context.Context, account, reason string) error {
	now := r.cfg.Now()
	return r.write(ctx, func(tx *sql.Tx) error {
		if _, err := loadAccount(tx, account); err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE player_accounts SET blocked=? WHERE id=?`, reason, account); err != nil {
			return err
		}
		if reason == "" {
			return logf(tx, account, now, "blocked", "account unblocked")
		}
		if err := endSessions(tx, now, "account blocked", `account=?`, account); err != nil {
			return err
		}
		return logf(tx, account, now, "blocked", "account blocked: %s", reason)
	})
}

// Close closes an account at the player's request: its cards are blocked,
// its session ends; its limits bind a new account of the same person for
// ClosedGrace.
func (r *Registry) Close(ctx context.Context, account string) error {
	now := r.cfg.Now()
	return r.write(ctx, func(tx *sql.Tx) error {
		return r.closeAccount(tx, account, now, "")
	})
}

// closeAccount closes an open account (why: "" at the player's request).
func (r *Registry) closeAccount(tx *sql.Tx, account string, now time.Time, why string) error {
	a, err := loadAccount(tx, account)
	if err != nil || a.closed {
		return err
	}
	if err := endSessions(tx, now, "account closed", `account=?`, account); err != nil {
		return err
	}
	if _, err := tx.Exec(`UPDATE player_cards SET blocked_at=?, blocked_reason='account closed' WHERE account=? AND blocked_at IS NULL`, now.UnixNano(), account); err != nil {
		return err
	}
	if _, err := tx.Exec(`UPDATE player_accounts SET closed_at=? WHERE id=?`, now.UnixNano(), account); err != nil {
		return err
	}
	if why != "" {
		return logf(tx, account, now, "closed", "account closed: %s", why)
	}
	return logf(tx, account, now, "closed", "account closed")
}

// endSessions ends the active sessions matching where (with args).
func endSessions(tx *sql.Tx, now time.Time, reason, where string, args ...any) error {
	_, err := tx.Exec(`UPDATE player_sessions SET ended_at=?, end_reason=? WHERE ended_at IS NULL AND `+where, append([]any{now.UnixNano(), reason}, args...)...)
	return err
}

package players

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// SessionIdle ends a session that saw no login, wager or state request for
// this long (a cabinet that died with a card in it): the cabinet asks for
// the state at least every minute while a player is logged in.
const SessionIdle = 15 * time.Minute

// State is what the cabinet shows: the session, the limits with what is
// left of them, and the break.
type State struct {
	Active       bool          `json:"active"`
	Session      int64         `json:"session,omitempty"`
	Account      string        `json:"account,omitempty"`
	Name         string        `json:"name,omitempty"` // for the jackpot form (MS-18): a verified identity
	Verified     bool          `json:"verified,omitempty"`
	Cabinet      string        `json:"cabinet,omitempty"`
	Market       string        `json:"market"`
	CardRequired bool          `json:"cardRequired"`
	Limits       []Limit       `json:"limits,omitempty"`
	Played       time.Duration `json:"played,omitempty"` // continuous play so far
	BreakAt      time.Time     `json:"breakAt,omitzero"`
	BreakUntil   time.Time     `json:"breakUntil,omitzero"`
	InBreak      bool          `json:"inBreak,omitempty"`
	BreakWarning bool          `json:"breakWarning,omitempty"` // within Warn of BreakAt
	BreakCredit  string        `json:"breakCredit,omitempty"`  // "keep" or "payout"
}

// ChallengeLen is the length of a card challenge (the card scheme's).
const ChallengeLen = 32

// Challenge is a fresh random challenge for card at cabinet, answerable
// once within ChallengeTTL.
func (r *Registry) Challenge(tx *sql.Tx, cabinet, card string) ([]byte, time.Time, error) {
	if err := validCard(card); err != nil {
		return nil, time.Time{}, err
	}
	now := r.cfg.Now()
	c := make([]byte, ChallengeLen)
	if _, err := rand.Read(c); err != nil {
		return nil, time.Time{}, err
	}
	exp := now.Add(r.cfg.Profile.ChallengeTTL)
	if _, err := tx.Exec(`DELETE FROM player_challenges WHERE expires_at<?`, now.UnixNano()); err != nil {
		return nil, time.Time{}, err
	}
	if _, err := tx.Exec(`INSERT INTO player_challenges(nonce, card, cabinet, expires_at) VALUES(?,?,?,?)`, hex.EncodeToString(c), card, cabinet, exp.UnixNano()); err != nil {
		return nil, time.Time{}, err
	}
	return c, exp, nil
}

// Login opens a session for the card at cabinet. A refusal is returned as
// refused (err nil) so that the transaction keeps what it must: the
// challenge used up, the refused attempt in the player's log.
func (r *Registry) Login(tx *sql.Tx, cabinet, card string, challenge, response []byte) (st *State, refused *Refusal, err error) {
	now := r.cfg.Now()
	// A challenge is answered once. The same login asked again (its reply
	// lost to a cut connection) is answered with its session, while active.
	nonce := hex.EncodeToString(challenge)
	var used int64
	err = tx.QueryRow(`SELECT used FROM player_challenges WHERE nonce=? AND card=? AND cabinet=? AND expires_at>=?`,
		nonce, card, cabinet, now.UnixNano()).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, refusef(refusal.CardAuth, "no open challenge for card %s at this cabinet (expired or never given)", card), nil
	}
	if err != nil {
		return nil, nil, err
	}
	if used != 0 {
		if sid, a, c, err := r.active(tx, cabinet, now); err != nil {
			return nil, nil, err
		} else if used > 0 && sid == used && c == card && r.cfg.Cards.Verify(card, challenge, response) == nil {
			st, err := r.state(tx, a, sid, cabinet, now)
			return st, nil, err
		}
		return nil, refusef(refusal.CardAuth, "the challenge for card %s was already answered", card), nil
	}
	if _, err := tx.Exec(`UPDATE player_challenges SET used=-1 WHERE nonce=?`, nonce); err != nil {
		return nil, nil, err
	}
	var account string
	var blocked sql.NullInt64
	err = tx.QueryRow(`SELECT account, blocked_at FROM player_cards WHERE card=?`, card).Scan(&account, &blocked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, refusef(refusal.CardUnknown, "card %s was not issued here", card), nil
	}
	if err != nil {
		return nil, nil, err
	}
	refuse := func(f *Refusal) (*State, *Refusal, error) {
		r.cfg.Log.Warn("player login refused", "cabinet", cabinet, "card", card, "account", account, "reason", f.Reason, "detail", f.Message)
		if err := logf(tx, account, now, "refused", "login at %s with card %s: %s", cabinet, card, f.Error()); err != nil {
			return nil, nil, err
		}
		return nil, f, nil
	}
	if blocked.Valid {
		return refuse(refusef(refusal.CardBlocked, "card %s is blocked", card))
	}
	if err := r.cfg.Cards.Verify(card, challenge, response); err != nil {
		// The number without the card's key: a copied card.
		return refuse(refusef(refusal.CardAuth, "card %s did not prove its key: %v", card, err))
	}
	a, err := loadAccount(tx, account)
	if err != nil {
		return nil, nil, err
	}
	if f := r.mayPlay(tx, a, now); f != nil {
		if _, ok := AsRefusal(f); !ok {
			return nil, nil, f
		}
		rf, _ := AsRefusal(f)
		return refuse(rf)
	}
	if err := r.registerFresh(tx, now); err != nil {
		if rf, ok := AsRefusal(err); ok {
			return refuse(rf)
		}
		return nil, nil, err
	}
	if r.cfg.Profile.LimitsRequired {
		ls, err := r.limits(tx, a.id, now)
		if err != nil {
			return nil, nil, err
		}
		for _, l := range ls {
			if !l.Decided {
				return refuse(refusef(refusal.PlayerLimitsUndecided, "limit %s is neither set nor refused: the operator records the player's choice first", l.Kind))
			}
		}
	}
	// One active session per player and per cabinet: a login elsewhere
	// moves the session (the card can be in one reader only), the play
	// clock goes on.
	var sid int64
	var scab string
	err = tx.QueryRow(`SELECT id, cabinet FROM player_sessions WHERE account=? AND ended_at IS NULL`, a.id).Scan(&sid, &scab)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		sid = 0
	case err != nil:
		return nil, nil, err
	case scab != cabinet:
		if err := endSessions(tx, now, "moved to "+cabinet, `id=?`, sid); err != nil {
			return nil, nil, err
		}
		sid = 0
	}
	if err := endSessions(tx, now, "another card at the cabinet", `cabinet=? AND account<>?`, cabinet, a.id); err != nil {
		return nil, nil, err
	}
	r.clock(a, now)
	if sid == 0 {
		if sid, err = nextID(tx, "player_sessions", "id"); err != nil {
			return nil, nil, err
		}
		if _, err := tx.Exec(`INSERT INTO player_sessions(id, account, card, cabinet, started_at, last_at) VALUES(?,?,?,?,?,?)`,
			sid, a.id, card, cabinet, now.UnixNano(), now.UnixNano()); err != nil {
			return nil, nil, err
		}
		if err := logf(tx, a.id, now, "login", "session %d at %s with card %s", sid, cabinet, card); err != nil {
			return nil, nil, err
		}
	}
	if _, err := tx.Exec(`UPDATE player_challenges SET used=? WHERE nonce=?`, sid, nonce); err != nil {
		return nil, nil, err
	}
	if err := r.touch(tx, a, sid, now); err != nil {
		return nil, nil, err
	}
	st, err = r.state(tx, a, sid, cabinet, now)
	return st, nil, err
}

// mayPlay refuses a blocked, closed or excluded account, and one held for
// a review.
func (r *Registry) mayPlay(tx *sql.Tx, a *acct, now time.Time) error {
	if a.closed {
		return refusef(refusal.PlayerBlocked, "account %s is closed", a.id)
	}
	if a.blocked != "" {
		return refusef(refusal.PlayerBlocked, "account %s is blocked: %s", a.id, a.blocked)
	}
	ex, err := r.exclusion(tx, a, now)
	if err != nil {
		return err
	}
	if ex == matchCertain {
		return refusef(refusal.PlayerExcluded, "the player is in the register of excluded persons")
	}
	// A probable match holds the account until staff decide. The cabinet
	// shows it as blocked (ask the staff), not as excluded: it may be
	// another person.
	held, err := openReviews(tx, a.id)
	if err != nil {
		return err
	}
	if held || ex == matchProbable {
		return refusef(refusal.PlayerBlocked, "account %s is held for a staff review of a probable match (name and birth date)", a.id)
	}
	return nil
}

// clock moves the account's stretch of continuous play on to now: a pause
// of at least Break starts a new one, and so does the end of a break.
func (r *Registry) clock(a *acct, now time.Time) {
	p := r.cfg.Profile
	if p.MaxPlay == 0 {
		return
	}
	n := now.UnixNano()
	if a.lastActive == 0 || n-a.lastActive >= int64(p.Break) {
		a.playSince = n
	}
	cycle := int64(p.MaxPlay + p.Break)
	if n-a.playSince >= cycle {
		// Breaks passed while logged in (the cabinet showed information
		// only): the stretch began when the last one ended.
		a.playSince += (n - a.playSince) / cycle * cycle
	}
}

// touch records activity now on the account and its session.
func (r *Registry) touch(tx *sql.Tx, a *acct, sid int64, now time.Time) error {
	a.lastActive = now.UnixNano()
	if _, err := tx.Exec(`UPDATE player_accounts SET play_since=?, last_active=? WHERE id=?`, a.playSince, a.lastActive, a.id); err != nil {
		return err
	}
	_, err := tx.Exec(`UPDATE player_sessions SET last_at=? WHERE id=?`, a.lastActive, sid)
	return err
}

// breakTimes of the account's current stretch (zero without a break rule).
func (r *Registry) breakTimes(a *acct) (at, until time.Time) {
	p := r.cfg.Profile
	if p.MaxPlay == 0 {
		return
	}
	at = time.Unix(0, a.playSince).Add(p.MaxPlay)
	return at, at.Add(p.Break)
}

func (r *Registry) state(tx *sql.Tx, a *acct, sid int64, cabinet string, now time.Time) (*State, error) {
	p := r.cfg.Profile
	st := &State{Active: true, Session: sid, Account: a.id, Name: a.name, Verified: true, Cabinet: cabinet,
		Market: p.Market, CardRequired: p.CardRequired, BreakCredit: p.BreakCredit}
	ls, err := r.limits(tx, a.id, now)
	if err != nil {
		return nil, err
	}
	st.Limits = ls
	if p.MaxPlay > 0 {
		st.BreakAt, st.BreakUntil = r.breakTimes(a)
		st.Played = min(now.Sub(time.Unix(0, a.playSince)), p.MaxPlay)
		st.InBreak = !now.Before(st.BreakAt) && now.Before(st.BreakUntil)
		st.BreakWarning = !st.InBreak && !now.Before(st.BreakAt.Add(-p.Warn))
	}
	return st, nil
}

// active is the cabinet's active session and its account (nil: none). A
// session idle for SessionIdle is ended first.
func (r *Registry) active(tx *sql.Tx, cabinet string, now time.Time) (sid int64, a *acct, card string, err error) {
	var last int64
	var account string
	err = tx.QueryRow(`SELECT id, account, card, last_at FROM player_sessions WHERE cabinet=? AND ended_at IS NULL`, cabinet).Scan(&sid, &account, &card, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, "", nil
	}
	if err != nil {
		return 0, nil, "", err
	}
	if now.UnixNano()-last >= int64(SessionIdle) {
		_, err := tx.Exec(`UPDATE player_sessions SET ended_at=?, end_reason='idle' WHERE id=?`, last, sid)
		return 0, nil, "", err
	}
	a, err = loadAccount(tx, account)
	return sid, a, card, err
}

// Logout ends the cabinet's session (card out, or the player's choice).
func (r *Registry) Logout(tx *sql.Tx, cabinet, reason string) (*State, error) {
	now := r.cfg.Now()
	sid, a, _, err := r.active(tx, cabinet, now)
	if err != nil || a == nil {
		return r.idle(), err
	}
	r.clock(a, now)
	if err := r.touch(tx, a, sid, now); err != nil {
		return nil, err
	}
	if reason == "" {
		reason = "logout"
	}
	if err := endSessions(tx, now, reason, `id=?`, sid); err != nil {
		return nil, err
	}
	return r.idle(), logf(tx, a.id, now, "logout", "session %d at %s ended: %s", sid, cabinet, reason)
}

func (r *Registry) idle() *State {
	return &State{Market: r.cfg.Profile.Market, CardRequired: r.cfg.Profile.CardRequired}
}

// SessionState is the cabinet's session state now (and keeps it alive).
func (r *Registry) SessionState(tx *sql.Tx, cabinet string) (*State, error) {
	now := r.cfg.Now()
	sid, a, _, err := r.active(tx, cabinet, now)
	if err != nil || a == nil {
		return r.idle(), err
	}
	r.clock(a, now)
	if err := r.touch(tx, a, sid, now); err != nil {
		return nil, err
	}
	return r.state(tx, a, sid, cabinet, now)
}

// Wager is asked, inside the transaction that would draw the round, for
// every new round of a cabinet: refused (a *Refusal), nothing is drawn;
// taken, the bet is booked against the player once per (cabinet, round).
func (r *Registry) Wager(tx *sql.Tx, cabinet string, round uint64, stake int64) error {
	now := r.cfg.Now()
	sid, a, card, err := r.active(tx, cabinet, now)
	if err != nil {
		return err
	}
	if a == nil {
		if r.cfg.Profile.CardRequired {
			return refusef(refusal.PlayerNoSession, "no player is logged in at cabinet %s: insert the player card", cabinet)
		}
		return nil
	}
	var blocked sql.NullInt64
	if err := tx.QueryRow(`SELECT blocked_at FROM player_cards WHERE card=?`, card).Scan(&blocked); err != nil {
		return err
	}
	if blocked.Valid {
		return refusef(refusal.CardBlocked, "card %s is blocked", card)
	}
	if err := r.mayPlay(tx, a, now); err != nil {
		return err
	}
	r.clock(a, now)
	if at, until := r.breakTimes(a); !at.IsZero() && !now.Before(at) {
		// The stretch is over: the break first (the time still moves on).
		if err := r.touch(tx, a, sid, now); err != nil {
			return err
		}
		return refusef(refusal.PlayerBreak, "%s of continuous play: a break until %s", r.cfg.Profile.MaxPlay, until.In(r.cfg.Profile.Location).Format("15:04"))
	}
	if err := r.checkLimits(tx, a.id, stake, now); err != nil {
		return err
	}
	if _, err := tx.Exec(`INSERT INTO player_bets(cabinet, round, account, session, stake, at) VALUES(?,?,?,?,?,?) ON CONFLICT(cabinet, round) DO NOTHING`,
		cabinet, int64(round), a.id, sid, stake, now.UnixNano()); err != nil {
		return err
	}
	return r.touch(tx, a, sid, now)
}

// Win adds a drawn win (a round's total, a Risk card's change) to the
// player's bet of (cabinet, round); a round without a player is not booked.
func (r *Registry) Win(tx *sql.Tx, cabinet string, round uint64, amount int64) error {
	if amount == 0 {
		return nil
	}
	_, err := tx.Exec(`UPDATE player_bets SET win=win+? WHERE cabinet=? AND round=?`, amount, cabinet, int64(round))
	return err
}

// RefusedWager records a refused round in the player's log (the refused
// request's own transaction was rolled back, so this is a write of its
// own, after it). Without a session at the cabinet there is no player to
// record it for.
func (r *Registry) RefusedWager(tx *sql.Tx, cabinet string, round uint64, stake int64, reason string) error {
	now := r.cfg.Now()
	var account string
	err := tx.QueryRow(`SELECT account FROM player_sessions WHERE cabinet=? AND ended_at IS NULL`, cabinet).Scan(&account)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return logf(tx, account, now, "refused", "round %d at %s, stake %d: %s", round, cabinet, stake, reason)
}

package jackpot

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	// Which games feed a pool is their engine.Layout's to say: the games
	// must be registered wherever a pool is played.
	_ "github.com/polaris-vlt/polaris/engine/games"
)

// UnitsPerCrown is the pool's resolution: 1 unit = 1/10 000 CZK. With the
// contribution rate in basis points a game contributes exactly
// stake × rate_bp units, so no contribution is ever rounded.
const UnitsPerCrown = 10_000

// Units is an amount in 1/10 000 CZK.
type Units int64

// Crowns returns the whole crowns in u (rounded down) and the rest.
func (u Units) Crowns() (crowns int64, rest Units) {
	return int64(u) / UnitsPerCrown, u % UnitsPerCrown
}

func (u Units) String() string {
	c, r := u.Crowns()
	return fmt.Sprintf("%d.%04d CZK", c, r)
}

// DBTX is what Play needs of the caller's transaction; *sql.Tx has it. It
// must be a transaction that holds SQLite's write lock from its start
// (BEGIN IMMEDIATE, e.g. the modernc DSN parameter _txlock=immediate, or a
// pool of one connection), so that two games cannot read the same pool
// value.
type DBTX interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Game is one paid game as the jackpot sees it.
type Game struct {
	Cabinet string
	// Hall is the cabinet's hall as the caller knows it (the server's
	// cabinet register). The configuration's own [[hall]] cabinet lists take
	// precedence; Hall is used for a cabinet they do not list.
	Hall  string
	Round uint64 // the cabinet's round number n; (Cabinet, Round) names it forever
	Game  engine.GameID
	Stake engine.Money // whole CZK
}

// Outcome is a game's jackpot effect.
type Outcome struct {
	Pool         string // "" for a game that does not take part (not Magic Stars)
	Hall         string // the cabinet's hall, "" if it is in none
	Contribution Units
	Hit          bool
	// Paid is the whole crowns the winner is paid by the attendant (MS-18);
	// the fraction of a crown stays in the pool.
	Paid engine.Money
	// Value is the pool after this game (after the reset, on a hit).
	Value Units
	// Replayed is set when the game was already stored and its stored
	// effect is returned; nothing was drawn or changed.
	Replayed bool
}

// RouteError says a cabinet feeds no pool: it is in no hall with a pool and
// there is no system pool.
type RouteError struct{ Cabinet, Hall string }

func (e *RouteError) Error() string {
	if e.Hall != "" {
		return fmt.Sprintf("jackpot: cabinet %q (hall %q) feeds no pool", e.Cabinet, e.Hall)
	}
	return fmt.Sprintf("jackpot: cabinet %q is in no hall and there is no system pool", e.Cabinet)
}

// GameError refuses a game: bad stake, empty cabinet id, a round number
// that does not fit, or a round asked again with another stake or game.
type GameError struct {
	Game    Game
	Problem string
}

func (e *GameError) Error() string {
	return fmt.Sprintf("jackpot: cabinet %q round %d: %s", e.Game.Cabinet, e.Game.Round, e.Problem)
}

// Jackpot routes games to pools and keeps the pools in the caller's SQLite
// database. It holds only the configuration; all state is in the database,
// so any number of goroutines may use it.
type Jackpot struct {
	cfg         *Config
	pools       map[string]PoolConfig
	order       []string
	cabinetHall map[string]string
	hallPool    map[string]string
	system      string
	now         func() time.Time
	stmts       atomic.Pointer[prepared]
	pgChannel   string // PostgreSQL (postgres.go); "" SQLite
	batch       batchCache
}

// New checks cfg and returns a Jackpot; now stamps hits and updates.
func New(cfg *Config, now func() time.Time) (*Jackpot, error) {
	if cfg == nil {
		return nil, &ConfigError{Problem: "no configuration"}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	j := &Jackpot{
		cfg:         cfg,
		pools:       map[string]PoolConfig{},
		cabinetHall: map[string]string{},
		hallPool:    map[string]string{},
		now:         now,
	}
	for _, p := range cfg.Pools {
		j.pools[p.ID] = p
		j.order = append(j.order, p.ID)
		if p.Scope == ScopeSystem {
			j.system = p.ID
		}
		for _, h := range p.Halls {
			j.hallPool[h] = p.ID
		}
	}
	for _, h := range cfg.Halls {
		for _, c := range h.Cabinets {
			j.cabinetHall[c] = h.ID
		}
	}
	return j, nil
}

// Config returns the configuration j was made with.
func (j *Jackpot) Config() *Config { return j.cfg }

// Pool returns a configured pool's parameters.
func (j *Jackpot) Pool(id string) (PoolConfig, bool) {
	p, ok := j.pools[id]
	return p, ok
}

// PoolIDs lists the configured pools in file order.
func (j *Jackpot) PoolIDs() []string { return append([]string(nil), j.order...) }

// Route names the pool and hall a cabinet's games feed: the hall is the one
// the configuration lists the cabinet in, else the given hall; the pool is
// that hall's pool, else the system pool.
func (j *Jackpot) Route(cabinet, hall string) (pool, inHall string, err error) {
	if h, ok := j.cabinetHall[cabinet]; ok {
		hall = h
	}
	if p, ok := j.hallPool[hall]; ok && hall != "" {
		return p, hall, nil
	}
	if j.system != "" {
		return j.system, hall, nil
	}
	return "", hall, &RouteError{Cabinet: cabinet, Hall: hall}
}

const schema = `
CREATE TABLE IF NOT EXISTS jackpot_pool (
	id          TEXT PRIMARY KEY,
	name        TEXT    NOT NULL,
	scope       TEXT    NOT NULL,
	seed        INTEGER NOT NULL, -- units, applies at the next reset
	must_hit_by INTEGER NOT NULL, -- units
	rate_bp     INTEGER NOT NULL,
	value       INTEGER NOT NULL, -- units
	opened      INTEGER NOT NULL, -- units: the seed the pool was opened with
	seeded      INTEGER NOT NULL, -- units: opened + every reset's seed
	contributed INTEGER NOT NULL, -- units
	paid        INTEGER NOT NULL, -- units, whole crowns only
	games       INTEGER NOT NULL,
	hits        INTEGER NOT NULL,
	updated_ns  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS jackpot_game (
	cabinet      TEXT    NOT NULL,
	round        INTEGER NOT NULL,
	pool         TEXT    NOT NULL,
	stake        INTEGER NOT NULL, -- CZK
	contribution INTEGER NOT NULL, -- units
	value_before INTEGER NOT NULL, -- units
	hit          INTEGER NOT NULL,
	paid         INTEGER NOT NULL, -- units
	reseeded     INTEGER NOT NULL, -- units added by the reset after a hit
	value_after  INTEGER NOT NULL, -- units
	seq          INTEGER NOT NULL, -- the pool's game number, 1, 2, …
	PRIMARY KEY (cabinet, round),
	UNIQUE (pool, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS jackpot_hit (
	pool       TEXT    NOT NULL,
	cabinet    TEXT    NOT NULL,
	round      INTEGER NOT NULL,
	hall       TEXT    NOT NULL,
	amount     INTEGER NOT NULL, -- whole CZK paid to the winner (MS-18)
	pool_value INTEGER NOT NULL, -- units the pool held when hit
	carried    INTEGER NOT NULL, -- units of the fraction left in the pool
	at_ns      INTEGER NOT NULL,
	PRIMARY KEY (cabinet, round)
);
`

// Init creates the tables if needed and brings each configured pool's
// parameters up to date. A new pool opens at its seed; an existing pool
// keeps its value: a changed rate and ceiling apply from the next game, a
// changed seed from the next reset. Pass a *sql.DB or a *sql.Tx.
func (j *Jackpot) Init(ctx context.Context, db DBTX) error {
	ddl := []string{schema}
	if j.postgres() {
		ddl = statements(schemaPostgres)
	}
	for _, q := range ddl {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("jackpot: create tables: %w", err)
		}
	}
	now := j.now().UnixNano()
	for _, id := range j.order {
		p := j.pools[id]
		seed := p.Seed * UnitsPerCrown
		_, err := db.ExecContext(ctx, `
INSERT INTO jackpot_pool (id, name, scope, seed, must_hit_by, rate_bp, value, opened, seeded, contributed, paid, games, hits, updated_ns)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, ?)
ON CONFLICT (id) DO UPDATE SET name = excluded.name, scope = excluded.scope, seed = excluded.seed,
	must_hit_by = excluded.must_hit_by, rate_bp = excluded.rate_bp`,
			p.ID, p.Name, string(p.Scope), seed, p.MustHitBy*UnitsPerCrown, p.RateBP, seed, seed, seed, now)
		if err != nil {
			return fmt.Errorf("jackpot: open pool %q: %w", p.ID, err)
		}
	}
	return nil
}

// pooled: the game's rounds feed a progressive pool (Magic Stars,
// MS-16..MS-19).
func pooled(id engine.GameID) bool {
	l, _ := engine.LayoutOf(id)
	return l.Jackpot == engine.ProgressiveJackpot
}

// Admits says whether Play would take g, without the database: nil for a
// game without a progressive jackpot, else the *GameError or *RouteError
// that Play would return before reading its pool.
func (j *Jackpot) Admits(g Game) error {
	if !pooled(g.Game) {
		return nil
	}
	_, _, err := j.route(g)
	return err
}

// route checks g and finds its pool.
func (j *Jackpot) route(g Game) (pool, hall string, err error) {
	switch {
	case g.Cabinet == "":
		return "", "", &GameError{Game: g, Problem: "empty cabinet id"}
	case g.Round > math.MaxInt64:
		return "", "", &GameError{Game: g, Problem: "round number out of range"}
	case g.Stake < 1 || g.Stake > MaxStake:
		return "", "", &GameError{Game: g, Problem: fmt.Sprintf("stake %d CZK out of range 1..%d", g.Stake, MaxStake)}
	}
	return j.Route(g.Cabinet, g.Hall)
}

// Play applies one paid game to its pool inside tx, the transaction that
// stores the round: the contribution, the mystery draw from src (MS-17),
// and on a hit the payment record (MS-19) and the reset. A game without a
// progressive jackpot returns a zero Outcome and draws nothing. A (cabinet, round)
// already stored returns its stored Outcome with Replayed set and draws
// nothing. Errors (*GameError, *RouteError, database errors) leave tx as it
// was; the caller rolls back.
func (j *Jackpot) Play(ctx context.Context, tx DBTX, g Game, src engine.Source) (Outcome, error) {
	if !pooled(g.Game) {
		return Outcome{}, nil
	}
	poolID, hall, err := j.route(g)
	if err != nil {
		return Outcome{}, err
	}
	// The pool and the game, if stored, in one read (one round trip on
	// PostgreSQL, where the pool's row is locked by it).
	before, seq, st, ok := j.fromPrefetch(tx, poolID, g)
	if !ok {
		q := qPoolGame
		if j.postgres() {
			q = qPoolGameLocked
		}
		if err := j.scan(ctx, tx, q, []any{g.Cabinet, int64(g.Round), poolID}, &before, &seq,
			&st.pool, &st.stake, &st.contribution, &st.hit, &st.paid, &st.value); err != nil {
			return Outcome{}, fmt.Errorf("jackpot: read pool %q (was Init called?): %w", poolID, err)
		}
	}
	if st.pool.Valid {
		return st.outcome(g, hall)
	}
	p := j.pools[poolID]
	c := Units(int64(g.Stake) * p.RateBP)
	after := before + c
	hit := Hits(src, before, c, Units(p.MustHitBy*UnitsPerCrown))

	out := Outcome{Pool: poolID, Hall: hall, Contribution: c, Hit: hit, Value: after}
	var paid, reseeded, carried Units
	if hit {
		crowns, rest := after.Crowns()
		paid, carried = Units(crowns*UnitsPerCrown), rest
		reseeded = Units(p.Seed * UnitsPerCrown)
		out.Paid = engine.Money(crowns)
		out.Value = reseeded + carried
	}
	now := j.now().UnixNano()
	hits := 0
	if hit {
		hits = 1
	}
	// A prefetched pool's row is written once, by Finish.
	if !ok {
		if _, err := j.exec(ctx, tx, qUpdate,
			int64(out.Value), int64(reseeded), int64(c), int64(paid), hits, now, poolID); err != nil {
			return Outcome{}, fmt.Errorf("jackpot: update pool %q: %w", poolID, err)
		}
		if j.postgres() {
			if _, err := j.exec(ctx, tx, qNotify, j.pgChannel, poolID); err != nil {
				return Outcome{}, fmt.Errorf("jackpot: notify: %w", err)
			}
		}
	}
	if _, err := j.exec(ctx, tx, qGame,
		g.Cabinet, int64(g.Round), poolID, int64(g.Stake), int64(c), int64(before), hits, int64(paid), int64(reseeded), int64(out.Value), seq); err != nil {
		return Outcome{}, fmt.Errorf("jackpot: record game: %w", err)
	}
	if hit {
		if _, err := j.exec(ctx, tx, qHit,
			poolID, g.Cabinet, int64(g.Round), hall, int64(out.Paid), int64(after), int64(carried), now); err != nil {
			return Outcome{}, fmt.Errorf("jackpot: record hit: %w", err)
		}
	}
	if ok {
		j.played(tx, poolID, g, storedGame{pool: sql.NullString{String: poolID, Valid: true},
			stake: valid(int64(g.Stake)), contribution: valid(int64(c)), hit: valid(int64(hits)),
			paid: valid(int64(paid)), value: valid(int64(out.Value))}, reseeded, now)
	}
	return out, nil
}

func valid(v int64) sql.NullInt64 { return sql.NullInt64{Int64: v, Valid: true} }

// The statements of Play, prepared once per connection after Prepare:
// parsing them again for every game would cost more than running them.
const (
	// The pool's value and the game's row if it was played already
	// (a request asked again): one read.
	qPoolGame = `SELECT p.value, p.games + 1, g.pool, g.stake, g.contribution, g.hit, g.paid, g.value_after
FROM jackpot_pool p LEFT JOIN jackpot_game g ON g.cabinet = ? AND g.round = ? WHERE p.id = ?`
	qUpdate = `UPDATE jackpot_pool SET value = ?, seeded = seeded + ?, contributed = contributed + ?, paid = paid + ?,
	games = games + 1, hits = hits + ?, updated_ns = ? WHERE id = ?`
	qGame = `INSERT INTO jackpot_game (cabinet, round, pool, stake, contribution, value_before, hit, paid, reseeded, value_after, seq)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qHit = `INSERT INTO jackpot_hit (pool, cabinet, round, hall, amount, pool_value, carried, at_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
)

// Prepare prepares Play's statements on db, the database whose
// transactions Play will be given (after Init). Optional: without it Play
// works the same, only slower. Safe to call concurrently with Play.
func (j *Jackpot) Prepare(ctx context.Context, db *sql.DB) error {
	m := map[string]*sql.Stmt{}
	qs := []string{qPoolGame, qUpdate, qGame, qHit}
	if j.postgres() {
		qs = append(qs, qPoolGameLocked, qNotify)
	}
	for _, q := range qs {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			for _, s := range m {
				s.Close()
			}
			return fmt.Errorf("jackpot: prepare: %w", err)
		}
		m[q] = st
	}
	j.stmts.Store(&prepared{db: db, m: m})
	return nil
}

type prepared struct {
	db *sql.DB
	m  map[string]*sql.Stmt
}

// stmt returns q prepared for tx, if Prepare was called.
func (j *Jackpot) stmt(ctx context.Context, tx DBTX, q string) *sql.Stmt {
	t, ok := tx.(*sql.Tx)
	p := j.stmts.Load()
	if !ok || p == nil {
		return nil
	}
	return t.StmtContext(ctx, p.m[q])
}

// errOtherDB is database/sql's refusal of a statement prepared on another
// *sql.DB than the transaction's: then Prepare was given the wrong
// database, and Play goes back to unprepared statements.
const errOtherDB = "statement from different database"

func (j *Jackpot) exec(ctx context.Context, tx DBTX, q string, args ...any) (sql.Result, error) {
	if st := j.stmt(ctx, tx, q); st != nil {
		res, err := st.ExecContext(ctx, args...)
		if err == nil || !strings.Contains(err.Error(), errOtherDB) {
			return res, err
		}
		j.stmts.Store(nil)
	}
	return tx.ExecContext(ctx, q, args...)
}

func (j *Jackpot) scan(ctx context.Context, tx DBTX, q string, args []any, dest ...any) error {
	if st := j.stmt(ctx, tx, q); st != nil {
		err := st.QueryRowContext(ctx, args...).Scan(dest...)
		if err == nil || !strings.Contains(err.Error(), errOtherDB) {
			return err
		}
		j.stmts.Store(nil)
	}
	return tx.QueryRowContext(ctx, q, args...).Scan(dest...)
}

// storedGame is a jackpot_game row read beside its pool (NULLs: none).
type storedGame struct {
	pool                                  sql.NullString
	stake, contribution, hit, paid, value sql.NullInt64
}

// outcome is the stored game's Outcome, as stored returns it.
func (s storedGame) outcome(g Game, hall string) (Outcome, error) {
	if s.stake.Int64 != int64(g.Stake) {
		return Outcome{}, &GameError{Game: g, Problem: fmt.Sprintf("already played at stake %d CZK, asked again at %d", s.stake.Int64, g.Stake)}
	}
	return Outcome{Pool: s.pool.String, Hall: hall, Contribution: Units(s.contribution.Int64), Hit: s.hit.Int64 != 0,
		Value: Units(s.value.Int64), Paid: engine.Money(Units(s.paid.Int64) / UnitsPerCrown), Replayed: true}, nil
}

// Hits draws whether a game that takes the pool from before to before+c is
// the hit, for a pool that must be hit by ceiling (all in units).
//
// The hit model is a mystery trigger T drawn uniformly from the integer
// units in (v0, ceiling], v0 being the value after the last reset, and the
// pool is hit by the game whose contribution carries it to T or past it.
// Drawing T at the reset and hiding it would work, but MS-17 wants the
// chance drawn at each Start, so the same law is drawn game by game: given
// that no hit has happened, T is uniform on (before, ceiling], and
//
//	P(hit) = P(T ≤ before+c | T > before) = min(c, ceiling−before) / (ceiling−before)
//
// which is exactly "x < c" for x uniform in [0, ceiling−before). A miss
// leaves T uniform on (before+c, ceiling], so by induction every game sees
// the same conditional law as the hidden-trigger model, and the pool is
// always hit at the latest by the game that reaches the ceiling. A pool
// already at or above its ceiling (the ceiling was lowered) is hit without
// a draw.
func Hits(src engine.Source, before, c, ceiling Units) bool {
	m := int64(ceiling - before)
	if m <= int64(c) {
		return true
	}
	return below(src, m) < int64(c)
}

// below draws uniformly from [0, m) for m ≥ 1 through Intn, whose range is
// below 2^32: small ranges take one draw; larger ones join two 31-bit
// draws into a 62-bit word and reject the incomplete top block, so the
// remainder is exactly uniform.
func below(src engine.Source, m int64) int64 {
	if m < 1<<32 {
		return int64(src.Intn(int(m)))
	}
	limit := (1 << 62) / m * m
	for {
		x := int64(src.Intn(1<<31))<<31 | int64(src.Intn(1<<31))
		if x < limit {
			return x % m
		}
	}
}

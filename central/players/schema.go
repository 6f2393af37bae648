package players

// Schema is the players' DDL, run by Setup inside a store write transaction
// at start (CREATE ... IF NOT EXISTS: safe on every start). It lives beside
// central/server's own schema in the same database, in portable SQL (no
// WITHOUT ROWID, no INSERT OR REPLACE, `?` placeholders in the queries) so
// that the PostgreSQL backend can run it too. Times are Unix nanoseconds,
// money integer minor units; an absent limit is NULL. Numbers are BIGINT
// (64-bit in PostgreSQL, INTEGER affinity in SQLite); ids are assigned by
// the code (nextID), not by an autoincrement.
const Schema = `
CREATE TABLE IF NOT EXISTS player_accounts(
	id TEXT PRIMARY KEY,                 -- P + 12 digits, the operator's account number
	name TEXT NOT NULL,                  -- as on the identity document: the jackpot form (MS-18), the exclusion check
	birth_date TEXT NOT NULL,            -- YYYY-MM-DD: 18+ check, the exclusion check
	doc_hash TEXT NOT NULL,              -- keyed hash of the identity document number (never the number)
	person_hash TEXT NOT NULL,           -- keyed hash of normalised name + birth date
	verified_by TEXT NOT NULL,           -- the operator's clerk who saw the document
	verified_at BIGINT NOT NULL,
	opened_at BIGINT NOT NULL,
	closed_at BIGINT,                   -- NULL while open
	blocked TEXT NOT NULL DEFAULT '',    -- reason; '' = not blocked
	play_since BIGINT NOT NULL DEFAULT 0,  -- start of the current stretch of continuous play
	last_active BIGINT NOT NULL DEFAULT 0  -- last login, wager, state or logout
);
CREATE UNIQUE INDEX IF NOT EXISTS player_accounts_open_doc ON player_accounts(doc_hash) WHERE closed_at IS NULL;
CREATE INDEX IF NOT EXISTS player_accounts_person ON player_accounts(person_hash);
CREATE TABLE IF NOT EXISTS player_cards(
	card TEXT PRIMARY KEY,
	account TEXT NOT NULL,
	issued_at BIGINT NOT NULL,
	blocked_at BIGINT,                  -- NULL: valid
	blocked_reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS player_cards_account ON player_cards(account);
CREATE TABLE IF NOT EXISTS player_limits(
	account TEXT NOT NULL,
	kind TEXT NOT NULL,                  -- bets_day, bets_month, loss_day, loss_month
	amount BIGINT,                      -- NULL: the player refused this limit
	set_at BIGINT NOT NULL,
	pending BIGINT NOT NULL DEFAULT 0,  -- 1: a milder value waits for pending_from
	pending_amount BIGINT,
	pending_from BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY(account, kind)
);
CREATE TABLE IF NOT EXISTS player_challenges(
	nonce TEXT PRIMARY KEY,              -- hex; used once
	card TEXT NOT NULL,
	cabinet TEXT NOT NULL,
	expires_at BIGINT NOT NULL,
	used BIGINT NOT NULL DEFAULT 0      -- the session it opened (a repeated login answers it); -1 refused
);
CREATE TABLE IF NOT EXISTS player_sessions(
	id BIGINT PRIMARY KEY,
	account TEXT NOT NULL,
	card TEXT NOT NULL,
	cabinet TEXT NOT NULL,
	started_at BIGINT NOT NULL,
	last_at BIGINT NOT NULL,
	ended_at BIGINT,                    -- NULL while active
	end_reason TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS player_sessions_active ON player_sessions(account) WHERE ended_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS player_sessions_cabinet ON player_sessions(cabinet) WHERE ended_at IS NULL;
CREATE TABLE IF NOT EXISTS player_bets(
	cabinet TEXT NOT NULL,
	round BIGINT NOT NULL,
	account TEXT NOT NULL,
	session BIGINT NOT NULL,
	stake BIGINT NOT NULL,
	win BIGINT NOT NULL DEFAULT 0,      -- round total, plus Risk results
	at BIGINT NOT NULL,
	PRIMARY KEY(cabinet, round)
);
CREATE INDEX IF NOT EXISTS player_bets_account ON player_bets(account, at);
CREATE TABLE IF NOT EXISTS player_exclusions(
	kind TEXT NOT NULL,                  -- doc or person
	hash TEXT NOT NULL,                  -- keyed hash, as in player_accounts
	PRIMARY KEY(kind, hash)
);
CREATE TABLE IF NOT EXISTS player_exclusion_imports(
	id BIGINT PRIMARY KEY,
	register_date TEXT NOT NULL,         -- YYYY-MM-DD, from the file
	body_sha256 TEXT NOT NULL,
	entries BIGINT NOT NULL,
	imported_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS player_log(
	id BIGINT PRIMARY KEY,
	account TEXT NOT NULL,
	at BIGINT NOT NULL,
	kind TEXT NOT NULL,                  -- registered, card, card_blocked, blocked, limit, login, logout, refused, closed
	text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS player_log_account ON player_log(account, at);
`

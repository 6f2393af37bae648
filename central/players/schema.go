package players

// Schema is the players' DDL, run by Setup inside a store write transaction
// at start (CREATE ... IF NOT EXISTS: safe on every start). It lives beside
// central/server's own schema in the same database, in portable SQL (no
// WITHOUT ROWID, no INSERT OR REPLACE, `?` placeholders in the queries) so
// that the PostgreSQL backend can run it too. Times are Unix nanoseconds,
// money integer minor units; an absent limit is NULL.
const Schema = `
CREATE TABLE IF NOT EXISTS player_accounts(
	id TEXT PRIMARY KEY,                 -- P + 12 digits, the operator's account number
	name TEXT NOT NULL,                  -- as on the identity document: the jackpot form (MS-18), the exclusion check
	birth_date TEXT NOT NULL,            -- YYYY-MM-DD: 18+ check, the exclusion check
	doc_hash TEXT NOT NULL,              -- keyed hash of the identity document number (never the number)
	person_hash TEXT NOT NULL,           -- keyed hash of normalised name + birth date
	verified_by TEXT NOT NULL,           -- the operator's clerk who saw the document
	verified_at INTEGER NOT NULL,
	opened_at INTEGER NOT NULL,
	closed_at INTEGER,                   -- NULL while open
	blocked TEXT NOT NULL DEFAULT '',    -- reason; '' = not blocked
	play_since INTEGER NOT NULL DEFAULT 0,  -- start of the current stretch of continuous play
	last_active INTEGER NOT NULL DEFAULT 0  -- last login, wager, state or logout
);
CREATE UNIQUE INDEX IF NOT EXISTS player_accounts_open_doc ON player_accounts(doc_hash) WHERE closed_at IS NULL;
CREATE INDEX IF NOT EXISTS player_accounts_person ON player_accounts(person_hash);
CREATE TABLE IF NOT EXISTS player_cards(
	card TEXT PRIMARY KEY,
	account TEXT NOT NULL,
	issued_at INTEGER NOT NULL,
	blocked_at INTEGER,                  -- NULL: valid
	blocked_reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS player_cards_account ON player_cards(account);
CREATE TABLE IF NOT EXISTS player_limits(
	account TEXT NOT NULL,
	kind TEXT NOT NULL,                  -- bets_day, bets_month, loss_day, loss_month
	amount INTEGER,                      -- NULL: the player refused this limit
	set_at INTEGER NOT NULL,
	pending INTEGER NOT NULL DEFAULT 0,  -- 1: a milder value waits for pending_from
	pending_amount INTEGER,
	pending_from INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY(account, kind)
);
CREATE TABLE IF NOT EXISTS player_challenges(
	nonce TEXT PRIMARY KEY,              -- hex; used once
	card TEXT NOT NULL,
	cabinet TEXT NOT NULL,
	expires_at INTEGER NOT NULL,
	used INTEGER NOT NULL DEFAULT 0      -- the session it opened (a repeated login answers it); -1 refused
);
CREATE TABLE IF NOT EXISTS player_sessions(
	id INTEGER PRIMARY KEY,
	account TEXT NOT NULL,
	card TEXT NOT NULL,
	cabinet TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	last_at INTEGER NOT NULL,
	ended_at INTEGER,                    -- NULL while active
	end_reason TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS player_sessions_active ON player_sessions(account) WHERE ended_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS player_sessions_cabinet ON player_sessions(cabinet) WHERE ended_at IS NULL;
CREATE TABLE IF NOT EXISTS player_bets(
	cabinet TEXT NOT NULL,
	round INTEGER NOT NULL,
	account TEXT NOT NULL,
	session INTEGER NOT NULL,
	stake INTEGER NOT NULL,
	win INTEGER NOT NULL DEFAULT 0,      -- round total, plus Risk results
	at INTEGER NOT NULL,
	PRIMARY KEY(cabinet, round)
);
CREATE INDEX IF NOT EXISTS player_bets_account ON player_bets(account, at);
CREATE TABLE IF NOT EXISTS player_exclusions(
	kind TEXT NOT NULL,                  -- doc or person
	hash TEXT NOT NULL,                  -- keyed hash, as in player_accounts
	PRIMARY KEY(kind, hash)
);
CREATE TABLE IF NOT EXISTS player_exclusion_imports(
	id INTEGER PRIMARY KEY,
	register_date TEXT NOT NULL,         -- YYYY-MM-DD, from the file
	body_sha256 TEXT NOT NULL,
	entries INTEGER NOT NULL,
	imported_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS player_log(
	id INTEGER PRIMARY KEY,
	account TEXT NOT NULL,
	at INTEGER NOT NULL,
	kind TEXT NOT NULL,                  -- registered, card, card_blocked, blocked, limit, login, logout, refused, closed
	text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS player_log_account ON player_log(account, at);
`

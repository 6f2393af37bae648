package server

// The rooms' tables (central/players, central/backoffice) in the central
// store, as migrations of store_schema.go: created at start on both
// backends, each once, before the rooms' Setup. The rooms' queries use
// them; only their DDL lives here, where the store applies it.

// playersSchema is central/players' tables (migration 2). Portable as it
// is: BIGINT and TEXT only, ids assigned by the code (players.nextID,
// under the store's one writer per batch and, on PostgreSQL, the batch
// lock every node takes), partial unique indexes, no WITHOUT ROWID.
// Times are Unix nanoseconds, money integer minor units; an absent limit
// is NULL.
const playersSchema = `
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

// backofficeSQLite is central/backoffice's tables (migration 3). bo_audit
// is append-only: the triggers refuse UPDATE and DELETE whoever asks.
const backofficeSQLite = `
CREATE TABLE IF NOT EXISTS bo_users(
	name TEXT PRIMARY KEY,
	role TEXT NOT NULL,
	halls TEXT NOT NULL DEFAULT '',  -- comma-separated; managers and attendants only
	salt BLOB NOT NULL,
	hash BLOB NOT NULL,              -- argon2id(password, salt)
	created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS bo_sessions(
	id_hash TEXT PRIMARY KEY,        -- SHA-256 of the cookie's random id
	user_name TEXT NOT NULL,
	csrf TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS bo_audit(
	seq INTEGER PRIMARY KEY,
	at INTEGER NOT NULL,
	actor TEXT NOT NULL,
	address TEXT NOT NULL,
	action TEXT NOT NULL,
	object TEXT NOT NULL,
	before_value TEXT NOT NULL,
	after_value TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS bo_audit_no_update BEFORE UPDATE ON bo_audit
	BEGIN SELECT RAISE(ABORT, 'bo_audit is append-only'); END;
CREATE TRIGGER IF NOT EXISTS bo_audit_no_delete BEFORE DELETE ON bo_audit
	BEGIN SELECT RAISE(ABORT, 'bo_audit is append-only'); END;
CREATE TABLE IF NOT EXISTS bo_jackpot_payouts(
	cabinet TEXT NOT NULL,
	round INTEGER NOT NULL,
	paid_at INTEGER NOT NULL,
	attendant TEXT NOT NULL,
	form_number TEXT NOT NULL,
	winner_name TEXT NOT NULL,
	winner_document TEXT NOT NULL,
	recorded_by TEXT NOT NULL,
	PRIMARY KEY(cabinet, round)
);
CREATE TABLE IF NOT EXISTS bo_voucher_voids(
	number TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	requested_by TEXT NOT NULL,
	requested_at INTEGER NOT NULL,
	approved_by TEXT NOT NULL DEFAULT '',
	approved_at INTEGER NOT NULL DEFAULT 0
);
`

// backofficePostgres is backofficeSQLite in PostgreSQL's types. The
// audit log's refusal is a PL/pgSQL trigger raising the same message as
// SQLite's RAISE(ABORT), for rows (UPDATE, DELETE) and for TRUNCATE,
// which skips row triggers.
const backofficePostgres = `
CREATE TABLE IF NOT EXISTS bo_users(
	name TEXT PRIMARY KEY,
	role TEXT NOT NULL,
	halls TEXT NOT NULL DEFAULT '',
	salt BYTEA NOT NULL,
	hash BYTEA NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS bo_sessions(
	id_hash TEXT PRIMARY KEY,
	user_name TEXT NOT NULL,
	csrf TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	expires_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS bo_audit(
	seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	at BIGINT NOT NULL,
	actor TEXT NOT NULL,
	address TEXT NOT NULL,
	action TEXT NOT NULL,
	object TEXT NOT NULL,
	before_value TEXT NOT NULL,
	after_value TEXT NOT NULL
);
CREATE OR REPLACE FUNCTION bo_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'bo_audit is append-only';
END
$$;
CREATE TRIGGER bo_audit_no_update BEFORE UPDATE ON bo_audit
	FOR EACH ROW EXECUTE FUNCTION bo_audit_append_only();
CREATE TRIGGER bo_audit_no_delete BEFORE DELETE ON bo_audit
	FOR EACH ROW EXECUTE FUNCTION bo_audit_append_only();
CREATE TRIGGER bo_audit_no_truncate BEFORE TRUNCATE ON bo_audit
	FOR EACH STATEMENT EXECUTE FUNCTION bo_audit_append_only();
CREATE TABLE IF NOT EXISTS bo_jackpot_payouts(
	cabinet TEXT NOT NULL,
	round BIGINT NOT NULL,
	paid_at BIGINT NOT NULL,
	attendant TEXT NOT NULL,
	form_number TEXT NOT NULL,
	winner_name TEXT NOT NULL,
	winner_document TEXT NOT NULL,
	recorded_by TEXT NOT NULL,
	PRIMARY KEY(cabinet, round)
);
CREATE TABLE IF NOT EXISTS bo_voucher_voids(
	number TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	requested_by TEXT NOT NULL,
	requested_at BIGINT NOT NULL,
	approved_by TEXT NOT NULL DEFAULT '',
	approved_at BIGINT NOT NULL DEFAULT 0
);
`

// playersV6 is central/players' matching (migration 6, issue 33): the
// register kept as keyed hashes of its name and document keys (one row a
// key; no name, no number), the staff's review queue for probable
// matches, and the register's serial, which only grows.
const playersV6 = `
CREATE TABLE IF NOT EXISTS player_register_keys(
	hash TEXT NOT NULL,                  -- keyed hash of one key of an entry (players.registerKeys)
	entry TEXT NOT NULL,                 -- keyed hash of the entry's normalised name and birth date
	split BIGINT NOT NULL,               -- which reading of the entry's name
	given BIGINT NOT NULL                -- how many given names that reading has
);
CREATE INDEX IF NOT EXISTS player_register_keys_hash ON player_register_keys(hash);
CREATE TABLE IF NOT EXISTS player_reviews(
	id BIGINT PRIMARY KEY,
	account TEXT NOT NULL,
	kind TEXT NOT NULL,                  -- exclusion (a register entry) or duplicate (another account)
	subject TEXT NOT NULL,               -- the entry's hash or the other account's id
	opened_at BIGINT NOT NULL,
	detail TEXT NOT NULL,
	decided_at BIGINT,                  -- NULL: open, the account does not play
	decision TEXT NOT NULL DEFAULT '',   -- same or different
	decided_by TEXT NOT NULL DEFAULT '',
	note TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS player_reviews_subject ON player_reviews(account, kind, subject);
CREATE INDEX IF NOT EXISTS player_accounts_birth ON player_accounts(birth_date);
CREATE TABLE IF NOT EXISTS player_exclusion_serials(
	import_id BIGINT PRIMARY KEY,        -- player_exclusion_imports.id (a table of its own: no ALTER)
	serial BIGINT NOT NULL               -- the file's serial; an import without a row: 0
);
`

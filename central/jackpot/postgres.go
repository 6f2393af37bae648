package jackpot

import "strings"

// PostgreSQL: the same tables in PostgreSQL's types (BIGINT: nanosecond
// times and units overflow its 32-bit INTEGER; no WITHOUT ROWID), the
// pool's row locked while a game reads and changes it (several central
// nodes play into one pool: without the lock two would read the same value
// and one contribution would be lost), and a notification on the server's
// channel in the game's transaction (delivered when it commits), so every
// node reloads its values for the hall page and the cabinet streams.

const schemaPostgres = `
CREATE TABLE IF NOT EXISTS jackpot_pool (
	id TEXT PRIMARY KEY, name TEXT NOT NULL, scope TEXT NOT NULL,
	seed BIGINT NOT NULL, must_hit_by BIGINT NOT NULL, rate_bp BIGINT NOT NULL,
	value BIGINT NOT NULL, opened BIGINT NOT NULL, seeded BIGINT NOT NULL,
	contributed BIGINT NOT NULL, paid BIGINT NOT NULL, games BIGINT NOT NULL,
	hits BIGINT NOT NULL, updated_ns BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS jackpot_game (
	cabinet TEXT NOT NULL, round BIGINT NOT NULL, pool TEXT NOT NULL,
	stake BIGINT NOT NULL, contribution BIGINT NOT NULL, value_before BIGINT NOT NULL,
	hit BIGINT NOT NULL, paid BIGINT NOT NULL, reseeded BIGINT NOT NULL,
	value_after BIGINT NOT NULL, seq BIGINT NOT NULL,
	PRIMARY KEY (cabinet, round),
	UNIQUE (pool, seq)
);
CREATE TABLE IF NOT EXISTS jackpot_hit (
	pool TEXT NOT NULL, cabinet TEXT NOT NULL, round BIGINT NOT NULL, hall TEXT NOT NULL,
	amount BIGINT NOT NULL, pool_value BIGINT NOT NULL, carried BIGINT NOT NULL, at_ns BIGINT NOT NULL,
	PRIMARY KEY (cabinet, round)
)`

const (
	qPoolGameLocked = qPoolGame + ` FOR UPDATE OF p`
	qNotify         = `SELECT pg_notify(?, ?)`
)

// UsePostgres tells j its store is PostgreSQL and the channel the central
// nodes listen on for pool changes; before Init.
func (j *Jackpot) UsePostgres(channel string) {
	j.pgChannel = channel
}

func (j *Jackpot) postgres() bool { return j.pgChannel != "" }

func statements(ddl string) []string {
	var out []string
	for _, s := range strings.Split(ddl, ";") {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

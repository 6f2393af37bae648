package jackpot

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"slices"
	"sync"
)

// Prefetch: the pools a PostgreSQL transaction's games will play into,
// locked and read before the first game, with the games already stored,
// in one statement. A central node plays its batch's rounds into
// the pools at the batch's end, under a lock the other nodes wait for; a
// read and an update per game there were round trips and row versions per
// round inside that lock. Play then takes a prefetched pool's value and a
// game's stored row from memory and keeps the pool's changes there, and
// Finish writes each pool's row once, with its notification. SQLite reads
// its own file: there Prefetch does nothing.

// TxQuerier is what Prefetch reads through (a *sql.Tx, or the central
// server's pipelined one): the transaction Play is then given.
type TxQuerier interface {
	DBTX
	Querier
}

// prefetched is one transaction's pools and stored games.
type prefetched struct {
	tx    DBTX
	pools map[string]*poolRead
	games map[gameKey]storedGame
}

type poolRead struct {
	value Units
	seq   int64 // the next game's sequence number in the pool
	// What the games since Prefetch added, for Finish.
	games, hits               int64
	seeded, contributed, paid Units
	updated                   int64 // ns
}

type gameKey struct {
	cabinet string
	round   int64
}

// batchCache holds the newest Prefetch: Play runs on the store's writer,
// one transaction at a time.
type batchCache struct {
	mu sync.Mutex
	p  *prefetched
}

// qPrefetch locks the pools in id order (so two transactions cannot
// deadlock on them) and reads them, and the games already stored: one
// round trip, rows of kind 'p' (pool id, value, next sequence number) and
// 'g' (cabinet, round, and the stored game).
const qPrefetch = `WITH p AS (SELECT id, value, games + 1 AS seq FROM jackpot_pool WHERE id = ANY(?) ORDER BY id FOR UPDATE)
SELECT 'p', id, value, seq, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint FROM p
UNION ALL
SELECT 'g', g.cabinet, g.round, NULL::bigint, g.pool, g.stake, g.contribution, g.hit, g.paid, g.value_after
FROM jackpot_game g JOIN unnest(?::text[], ?::bigint[]) AS k(cabinet, round) ON g.cabinet = k.cabinet AND g.round = k.round`

// Prefetch locks and reads, in tx, the pools games will play into (in id
// order, so that two transactions cannot deadlock on them) and the games
// among them already stored; Play in the same tx then reads neither, and
// Finish must follow the last game (see Finish). Only
// on PostgreSQL; elsewhere, and for games without a progressive jackpot
// or without a pool, it does nothing (Play reads as it always does).
func (j *Jackpot) Prefetch(ctx context.Context, tx TxQuerier, games []Game) error {
	if !j.postgres() {
		return nil
	}
	var ids, cabs []string
	var rounds []int64
	for _, g := range games {
		if !pooled(g.Game) {
			continue
		}
		pool, _, err := j.route(g)
		if err != nil {
			continue // Play refuses it
		}
		ids = append(ids, pool)
		cabs, rounds = append(cabs, g.Cabinet), append(rounds, int64(g.Round))
	}
	j.batch.mu.Lock()
	j.batch.p = nil
	j.batch.mu.Unlock()
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	p := &prefetched{tx: tx, pools: map[string]*poolRead{}, games: map[gameKey]storedGame{}}
	rows, err := tx.QueryContext(ctx, qPrefetch, ids, cabs, rounds)
	if err != nil {
		return fmt.Errorf("jackpot: lock pools %v: %w", ids, err)
	}
	for rows.Next() {
		var kind, key string
		var n1 int64
		var n2 sql.NullInt64
		var st storedGame
		if err := rows.Scan(&kind, &key, &n1, &n2, &st.pool, &st.stake, &st.contribution, &st.hit, &st.paid, &st.value); err != nil {
			rows.Close()
			return fmt.Errorf("jackpot: lock pools: %w", err)
		}
		if kind == "p" {
			p.pools[key] = &poolRead{value: Units(n1), seq: n2.Int64}
		} else {
			p.games[gameKey{key, n1}] = st
		}
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("jackpot: lock pools: %w", err)
	}
	j.batch.mu.Lock()
	j.batch.p = p
	j.batch.mu.Unlock()
	return nil
}

// fromPrefetch is what Prefetch read in tx for a game of pool: the pool's
// value, the game's sequence number and its stored row; ok false when tx
// prefetched nothing for that pool.
func (j *Jackpot) fromPrefetch(tx DBTX, pool string, g Game) (before Units, seq int64, st storedGame, ok bool) {
	j.batch.mu.Lock()
	defer j.batch.mu.Unlock()
	p := j.batch.p
	if p == nil || !sameTx(p.tx, tx) {
		return 0, 0, storedGame{}, false
	}
	r, ok := p.pools[pool]
	if !ok {
		return 0, 0, storedGame{}, false
	}
	return r.value, r.seq, p.games[gameKey{g.Cabinet, int64(g.Round)}], true
}

// played keeps a prefetched pool's value after a game in tx changed it,
// and what Finish adds to the pool's row.
func (j *Jackpot) played(tx DBTX, pool string, g Game, st storedGame, reseeded Units, now int64) {
	j.batch.mu.Lock()
	defer j.batch.mu.Unlock()
	p := j.batch.p
	if p == nil || !sameTx(p.tx, tx) {
		return
	}
	r := p.pools[pool]
	r.value = Units(st.value.Int64)
	r.seq++
	r.games++
	r.hits += st.hit.Int64
	r.seeded += reseeded
	r.contributed += Units(st.contribution.Int64)
	r.paid += Units(st.paid.Int64)
	r.updated = now
	p.games[gameKey{g.Cabinet, int64(g.Round)}] = st
}

// qFinish is qUpdate for a batch of games.
const qFinish = `UPDATE jackpot_pool SET value = ?, seeded = seeded + ?, contributed = contributed + ?, paid = paid + ?,
	games = games + ?, hits = hits + ?, updated_ns = ? WHERE id = ?`

// Finish writes, in tx, what the games played since tx's Prefetch did to
// their pools: one update and one notification per pool. It must run after
// the last such game and before the commit: without it the games are
// stored and their pools are not changed (the audit fails). Nothing to do
// without a Prefetch in tx.
func (j *Jackpot) Finish(ctx context.Context, tx DBTX) error {
	j.batch.mu.Lock()
	p := j.batch.p
	if p != nil && sameTx(p.tx, tx) {
		j.batch.p = nil
	} else {
		p = nil
	}
	j.batch.mu.Unlock()
	if p == nil {
		return nil
	}
	ids := make([]string, 0, len(p.pools))
	for id, r := range p.pools {
		if r.games > 0 {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		r := p.pools[id]
		if _, err := tx.ExecContext(ctx, qFinish, int64(r.value), int64(r.seeded), int64(r.contributed), int64(r.paid),
			r.games, r.hits, r.updated, id); err != nil {
			return fmt.Errorf("jackpot: update pool %q: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, qNotify, j.pgChannel, id); err != nil {
			return fmt.Errorf("jackpot: notify: %w", err)
		}
	}
	return nil
}

// sameTx compares two transactions; one that cannot be compared is never
// the same.
func sameTx(a, b DBTX) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta == tb && ta != nil && ta.Comparable() && a == b
}

package jackpot

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Querier reads; *sql.DB, *sql.Conn and *sql.Tx have it.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// PoolValue is a pool's current state.
type PoolValue struct {
	ID    string
	Name  string
	Scope Scope
	Halls []string // the halls it serves (none listed for the system pool)
	Value Units
	Games int64
	Hits  int64
}

// Values reads the configured pools' values, in configuration order.
func (j *Jackpot) Values(ctx context.Context, db Querier) ([]PoolValue, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, value, games, hits FROM jackpot_pool`)
	if err != nil {
		return nil, fmt.Errorf("jackpot: read pools: %w", err)
	}
	defer rows.Close()
	got := map[string]PoolValue{}
	for rows.Next() {
		var v PoolValue
		if err := rows.Scan(&v.ID, &v.Value, &v.Games, &v.Hits); err != nil {
			return nil, fmt.Errorf("jackpot: read pools: %w", err)
		}
		got[v.ID] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("jackpot: read pools: %w", err)
	}
	out := make([]PoolValue, 0, len(j.order))
	for _, id := range j.order {
		v, ok := got[id]
		if !ok {
			return nil, fmt.Errorf("jackpot: pool %q is not in the database (was Init called?)", id)
		}
		p := j.pools[id]
		v.Name, v.Scope, v.Halls = p.Name, p.Scope, p.Halls
		out = append(out, v)
	}
	return out, nil
}

// AuditLine is one pool's books: the counters kept on the pool row and the
// same figures recomputed from the journal of games and hits.
type AuditLine struct {
	Pool                             string
	Value, Seeded, Contributed, Paid Units
	Games, Hits                      int64
	Problems                         []string
}

// OK reports whether the line balances.
func (a AuditLine) OK() bool { return len(a.Problems) == 0 }

func (a AuditLine) String() string {
	s := fmt.Sprintf("jackpot pool %s: seed %d + contributions %d − hits %d = %d units; pool holds %d units (%s); %d games, %d hits",
		a.Pool, a.Seeded, a.Contributed, a.Paid, a.Seeded+a.Contributed-a.Paid, a.Value, a.Value, a.Games, a.Hits)
	if a.OK() {
		return s + ": EXACT"
	}
	return s + ": MISMATCH: " + strings.Join(a.Problems, "; ")
}

// Audit checks every pool in the database, configured or not:
//   - seeded + contributed − paid = value on the pool row;
//   - the row's counters equal the sums over its journal of games (seeded
//     being the opening seed plus every reset's seed);
//   - the games form one unbroken chain: game k starts from the value game
//     k−1 left, and the last one left the pool's value;
//   - every game balances: before + contribution − paid + reseeded = after;
//   - paid amounts are whole crowns and match the hit records.
//
// Read it inside one transaction, or on a quiet database, for one picture.
func Audit(ctx context.Context, db Querier) ([]AuditLine, error) {
	rows, err := db.QueryContext(ctx, `
SELECT p.id, p.value, p.opened, p.seeded, p.contributed, p.paid, p.games, p.hits,
	COALESCE(g.reseeded, 0), COALESCE(g.contribution, 0), COALESCE(g.paid, 0), COALESCE(g.n, 0),
	COALESCE(g.hits, 0), COALESCE(g.maxseq, 0), COALESCE(g.unbalanced, 0), COALESCE(g.fractions, 0),
	COALESCE((SELECT value_after FROM jackpot_game WHERE pool = p.id AND seq = p.games), p.opened),
	(SELECT COUNT(*) FROM jackpot_game a JOIN jackpot_game b ON b.pool = a.pool AND b.seq = a.seq + 1
		WHERE a.pool = p.id AND b.value_before <> a.value_after),
	COALESCE((SELECT value_before FROM jackpot_game WHERE pool = p.id AND seq = 1), p.opened),
	COALESCE(h.n, 0), COALESCE(h.amount, 0)
FROM jackpot_pool p
LEFT JOIN (SELECT pool, SUM(reseeded) AS reseeded, SUM(contribution) AS contribution, SUM(paid) AS paid,
		COUNT(*) AS n, SUM(hit) AS hits, MAX(seq) AS maxseq,
		SUM(CASE WHEN value_before + contribution - paid + reseeded <> value_after THEN 1 ELSE 0 END) AS unbalanced,
		SUM(CASE WHEN paid % 10000 <> 0 THEN 1 ELSE 0 END) AS fractions
	FROM jackpot_game GROUP BY pool) g ON g.pool = p.id
LEFT JOIN (SELECT pool, COUNT(*) AS n, SUM(amount) AS amount FROM jackpot_hit GROUP BY pool) h ON h.pool = p.id
ORDER BY p.id`)
	if err != nil {
		return nil, fmt.Errorf("jackpot: audit: %w", err)
	}
	defer rows.Close()
	var out []AuditLine
	for rows.Next() {
		var a AuditLine
		var opened, jReseeded, jContributed, jPaid, lastAfter, firstBefore Units
		var jGames, jHits, maxSeq, unbalanced, fractions, breaks, hitRows, hitCZK int64
		if err := rows.Scan(&a.Pool, &a.Value, &opened, &a.Seeded, &a.Contributed, &a.Paid, &a.Games, &a.Hits,
			&jReseeded, &jContributed, &jPaid, &jGames, &jHits, &maxSeq, &unbalanced, &fractions,
			&lastAfter, &breaks, &firstBefore, &hitRows, &hitCZK); err != nil {
			return nil, fmt.Errorf("jackpot: audit: %w", err)
		}
		bad := func(format string, args ...any) { a.Problems = append(a.Problems, fmt.Sprintf(format, args...)) }
		if a.Seeded+a.Contributed-a.Paid != a.Value {
			bad("seeded + contributed − paid = %d ≠ value %d", a.Seeded+a.Contributed-a.Paid, a.Value)
		}
		if opened+jReseeded != a.Seeded {
			bad("journal seeds %d ≠ seeded %d", opened+jReseeded, a.Seeded)
		}
		if jContributed != a.Contributed {
			bad("journal contributions %d ≠ contributed %d", jContributed, a.Contributed)
		}
		if jPaid != a.Paid {
			bad("journal payments %d ≠ paid %d", jPaid, a.Paid)
		}
		if jGames != a.Games || maxSeq != a.Games {
			bad("journal has %d games numbered up to %d, pool counts %d", jGames, maxSeq, a.Games)
		}
		if jHits != a.Hits || hitRows != a.Hits {
			bad("journal hits %d, hit records %d, pool counts %d", jHits, hitRows, a.Hits)
		}
		if Units(hitCZK*UnitsPerCrown) != a.Paid {
			bad("hit records pay %d CZK, pool paid %s", hitCZK, a.Paid)
		}
		if unbalanced != 0 {
			bad("%d games do not balance", unbalanced)
		}
		if fractions != 0 {
			bad("%d payments hold a fraction of a crown", fractions)
		}
		if breaks != 0 {
			bad("the chain of games breaks %d times", breaks)
		}
		if firstBefore != opened {
			bad("first game starts from %d, the pool opened at %d", firstBefore, opened)
		}
		if lastAfter != a.Value {
			bad("last game left %d, pool holds %d", lastAfter, a.Value)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("jackpot: audit: %w", err)
	}
	return out, nil
}

// HitRecord is one paid jackpot as MS-19 archives it.
type HitRecord struct {
	Pool, Cabinet, Hall string
	Round               uint64
	Amount              int64 // whole CZK paid to the winner by the attendant (MS-18)
	PoolValue           Units // what the pool held when hit
	Carried             Units // the fraction of a crown left in the pool
	At                  time.Time
}

// HitRecords lists the hits from since on, oldest first: the operator's
// archive of paid jackpots (MS-19).
func HitRecords(ctx context.Context, db Querier, since time.Time) ([]HitRecord, error) {
	rows, err := db.QueryContext(ctx, `
SELECT pool, cabinet, hall, round, amount, pool_value, carried, at_ns FROM jackpot_hit
WHERE at_ns >= ? ORDER BY at_ns, pool, cabinet, round`, since.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("jackpot: hits: %w", err)
	}
	defer rows.Close()
	var out []HitRecord
	for rows.Next() {
		var h HitRecord
		var round, at int64
		if err := rows.Scan(&h.Pool, &h.Cabinet, &h.Hall, &round, &h.Amount, &h.PoolValue, &h.Carried, &at); err != nil {
			return nil, fmt.Errorf("jackpot: hits: %w", err)
		}
		h.Round, h.At = uint64(round), time.Unix(0, at).UTC()
		out = append(out, h)
	}
	return out, rows.Err()
}

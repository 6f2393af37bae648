package jpserver

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

type seeded struct{ r *rand.Rand }

func (s seeded) Intn(n int) int { return s.r.IntN(n) }

type noDraws struct{ t *testing.T }

func (n noDraws) Intn(int) int { n.t.Fatal("drew for a stored game"); return 0 }

// countingTx counts the single-row reads Play makes.
type countingTx struct {
	*sql.Tx
	reads *int
}

func (c countingTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	*c.reads++
	return c.Tx.QueryRowContext(ctx, q, args...)
}

// A PostgreSQL batch's games played after one Prefetch and written by one
// Finish (as a central node plays its batch's rounds) give exactly what the
// same games played one transaction each give, draw for draw: the same
// outcomes, hits and pool values, the same pool rows, books that balance;
// and Play read nothing more from the database.
func TestPrefetchPlaysAsWithout(t *testing.T) {
	cfg, err := jackpot.ParseTOML([]byte(`
[[pool]]
id = "system"
scope = "system"
seed = 1000
must_hit_by = 1004
rate_bp = 500
[[pool]]
id = "h1"
scope = "hall"
halls = ["hall-1"]
seed = 500
must_hit_by = 502
rate_bp = 500
[[hall]]
id = "hall-1"
cabinets = ["c1", "c2"]
`))
	if err != nil {
		t.Fatal(err)
	}
	cl := pgcluster.ForTest(t)
	ctx := context.Background()
	open := func(name string) (*jackpot.Jackpot, *sql.DB) {
		url, err := cl.CreateDatabase(name)
		if err != nil {
			t.Fatal(err)
		}
		db, err := server.OpenPostgres(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		j, err := jackpot.New(cfg, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		j.UsePostgres("pool_changes")
		if err := j.Init(ctx, db); err != nil {
			t.Fatal(err)
		}
		return j, db
	}
	jA, dbA := open("prefetch_a")
	jB, dbB := open("prefetch_b")
	var games []jackpot.Game
	for i := 0; i < 60; i++ {
		cab := []string{"c1", "c2", "x1"}[i%3] // c1, c2: hall-1's pool; x1: the system pool
		games = append(games, jackpot.Game{Cabinet: cab, Hall: "", Round: uint64(i/3 + 1), Game: engine.MagicStars, Stake: engine.Money(1 + i%7*3)})
	}
	// finish writes the prefetched pools and commits, as the server's
	// batch does.
	finish := func(tx *sql.Tx, q jackpot.TxQuerier) {
		t.Helper()
		if err := jA.Finish(ctx, q); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	// A: one transaction, one Prefetch, then every game.
	srcA, srcB := seeded{rand.New(rand.NewPCG(7, 7))}, seeded{rand.New(rand.NewPCG(7, 7))}
	tx, err := dbA.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	reads := 0
	ctx2 := countingTx{tx, &reads}
	if err := jA.Prefetch(ctx, ctx2, games); err != nil {
		t.Fatal(err)
	}
	var outA []jackpot.Outcome
	for _, g := range games {
		o, err := jA.Play(ctx, ctx2, g, srcA)
		if err != nil {
			t.Fatal(err)
		}
		outA = append(outA, o)
	}
	// A game asked again in the same transaction is its stored outcome.
	again, err := jA.Play(ctx, ctx2, games[4], srcA)
	if err != nil || !again.Replayed || again.Value != outA[4].Value || again.Hit != outA[4].Hit {
		t.Fatalf("game asked again: %+v, %v; first %+v", again, err, outA[4])
	}
	finish(tx, ctx2)
	if reads != 0 {
		t.Errorf("Play read the database %d times after Prefetch", reads)
	}
	// Games stored by an earlier transaction, prefetched again: their
	// stored outcomes, nothing drawn, the pools unchanged.
	tx, err = dbA.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx2 = countingTx{tx, &reads}
	if err := jA.Prefetch(ctx, ctx2, games[:5]); err != nil {
		t.Fatal(err)
	}
	for i, g := range games[:5] {
		o, err := jA.Play(ctx, ctx2, g, noDraws{t})
		if err != nil || !o.Replayed || o.Value != outA[i].Value || o.Hit != outA[i].Hit || o.Paid != outA[i].Paid {
			t.Fatalf("game %d asked again in a new transaction: %+v, %v; first %+v", i, o, err, outA[i])
		}
	}
	finish(tx, ctx2)
	if reads != 0 {
		t.Errorf("Play read the database %d times after the second Prefetch", reads)
	}
	// B: a transaction per game, no Prefetch.
	hits := 0
	for i, g := range games {
		tx, err := dbB.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		o, err := jB.Play(ctx, tx, g, srcB)
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if o != outA[i] {
			t.Errorf("game %d (%s round %d): %+v with Prefetch, %+v without", i, g.Cabinet, g.Round, outA[i], o)
		}
		if o.Hit {
			hits++
		}
	}
	if hits < 3 {
		t.Errorf("%d hits: the test needs some", hits)
	}
	var books [2][]jackpot.AuditLine
	for i, db := range []*sql.DB{dbA, dbB} {
		lines, err := jackpot.Audit(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if !l.OK() {
				t.Errorf("%s", fmt.Sprint(l))
			}
		}
		books[i] = lines
	}
	if len(books[0]) != 2 || len(books[1]) != 2 {
		t.Fatalf("pools %v / %v", books[0], books[1])
	}
	for i, a := range books[0] {
		b := books[1][i]
		if a.Pool != b.Pool || a.Value != b.Value || a.Seeded != b.Seeded || a.Contributed != b.Contributed ||
			a.Paid != b.Paid || a.Games != b.Games || a.Hits != b.Hits {
			t.Errorf("pool rows differ:\n with Prefetch %v\n without      %v", a, b)
		}
	}
}

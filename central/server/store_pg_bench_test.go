package server_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// BenchmarkPostgres is one round on the PostgreSQL store beside its
// floors, on one throwaway cluster (fsync and synchronous_commit on, as
// the nodes run it):
//
//   - select1: a bare `SELECT 1` round trip, what every statement a round
//     sends in turn costs at least;
//   - commit: one round-sized row (~1.5 KB) inserted and committed alone,
//     a WAL flush (fsync) per op;
//   - round: RequestOutcome over loopback mutual TLS, the previous round's
//     commit carried by the request, one cabinet (every round its own
//     batch: its statements plus a commit);
//   - round-parallel: 128 cabinets at once on one node, the writer's
//     group commit at work (ns/op per round).
func BenchmarkPostgres(b *testing.B) {
	c := pgcluster.ForTest(b)
	n := 0
	database := func(b *testing.B) string {
		n++
		url, err := c.CreateDatabase(fmt.Sprintf("bench_%d", n))
		if err != nil {
			b.Fatal(err)
		}
		return url
	}
	open := func(b *testing.B) *sql.DB {
		db, err := server.OpenPostgres(database(b))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		return db
	}
	b.Run("select1", func(b *testing.B) {
		db := open(b)
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		var one int
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := conn.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("commit", func(b *testing.B) {
		db := open(b)
		ctx := context.Background()
		if _, err := db.Exec(`CREATE TABLE r(cabinet TEXT, round BIGINT, body BYTEA, PRIMARY KEY(cabinet, round))`); err != nil {
			b.Fatal(err)
		}
		body := make([]byte, 1500)
		rand.Read(body)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tx.Exec(`INSERT INTO r VALUES(?, ?, ?)`, "cab-1", i, body); err != nil {
				b.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("round", func(b *testing.B) {
		url := database(b)
		e := testenv.Start(b, func(cfg *server.Config) { cfg.DBPath = url })
		ob := &link.MemOutbox{}
		cl := e.Client("bench-1", func(cfg *link.Config) { cfg.Outbox, cfg.CarryCommits = ob, true })
		ctx := context.Background()
		b.ResetTimer()
		for i := 1; i <= b.N; i++ {
			if _, err := cl.RequestOutcome(ctx, uint64(i), testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
				b.Fatal(err)
			}
			link.EnqueueCommit(ob, uint64(i))
		}
	})
	b.Run("round-parallel", func(b *testing.B) {
		url := database(b)
		e := testenv.Start(b, func(cfg *server.Config) { cfg.DBPath = url })
		benchRoundsParallel(b, e)
	})
}

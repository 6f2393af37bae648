package loadtest

import (
	"crypto/rand"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

// BenchmarkGroupCommit measures what the disk allows the central store: one
// durable (WAL, synchronous=FULL) transaction per batch of round-sized rows
// (~1.5 KB: body, signature, tape). ns/op is per row; rows/s = 1e9/ns/op.
// It bounds outcomes/s from above, whatever the server does around it.
func BenchmarkGroupCommit(b *testing.B) {
	for _, batch := range []int{1, 16, 64, 256} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "s.db")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate")
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`CREATE TABLE r(cabinet TEXT, round INTEGER, body BLOB, PRIMARY KEY(cabinet, round)) WITHOUT ROWID`); err != nil {
				b.Fatal(err)
			}
			body := make([]byte, 1500)
			rand.Read(body)
			b.ResetTimer()
			for i := 0; i < b.N; {
				tx, err := db.Begin()
				if err != nil {
					b.Fatal(err)
				}
				for k := 0; k < batch && i < b.N; k++ {
					if _, err := tx.Exec(`INSERT INTO r VALUES(?, ?, ?)`, fmt.Sprintf("cab-%d", i%1000), i, body); err != nil {
						b.Fatal(err)
					}
					i++
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

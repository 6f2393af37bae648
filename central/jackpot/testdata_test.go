package jackpot

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// openDB opens a real SQLite file the way a server should: WAL, full sync,
// a busy timeout, and transactions that take the write lock at BEGIN.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	dsn := fmt.Sprintf("file:%s?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(20000)&_txlock=immediate",
		filepath.Join(t.TempDir(), "central.db"))
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func fixedClock() func() time.Time {
	at := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	return func() time.Time { return at }
}

// script is a Source that answers the given draws in order and fails the
// test on any draw it was not given, or one with an unexpected range.
type script struct {
	t      testing.TB
	draws  []int
	ranges []int // optional: the range each draw must have
	n      int
}

func (s *script) Intn(n int) int {
	s.t.Helper()
	if s.n >= len(s.draws) {
		s.t.Fatalf("unexpected draw #%d (range %d)", s.n, n)
	}
	if s.ranges != nil && s.ranges[s.n] != n {
		s.t.Fatalf("draw #%d: range %d, want %d", s.n, n, s.ranges[s.n])
	}
	v := s.draws[s.n]
	s.n++
	return v
}

// noDraw fails the test if anything is drawn.
type noDraw struct{ t testing.TB }

func (s noDraw) Intn(n int) int {
	s.t.Fatalf("drew from range %d where nothing may be drawn", n)
	return 0
}

const testConfig = `
czk_per_eur_centi = 2500

[[pool]]
id = "system"
name = "Magic Stars — all halls"
scope = "system"
seed = 10000
must_hit_by = 50000
rate_bp = 100

[[pool]]
id = "praha"
name = "Praha Centrum"
scope = "hall"
halls = ["praha-1"]
seed = 1000
must_hit_by = 1010
rate_bp = 250

[[pool]]
id = "morava"
name = "Morava group"
scope = "group"
halls = ["brno-1", "olomouc-1"]
seed = 5000
must_hit_by = 20000
rate_bp = 50

[[hall]]
id = "praha-1"
name = "Praha Centrum"
cabinets = ["CAB-P1", "CAB-P2"]

[[hall]]
id = "brno-1"
cabinets = ["CAB-B1"]

[[hall]]
id = "olomouc-1"
cabinets = ["CAB-O1"]

[[hall]]
id = "ostrava-1"
cabinets = ["CAB-X1"]
`

func newTest(t testing.TB, cfgText string) (*Jackpot, *sql.DB) {
	t.Helper()
	cfg, err := ParseTOML([]byte(cfgText))
	if err != nil {
		t.Fatal(err)
	}
	j, err := New(cfg, fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	if err := j.Init(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return j, db
}

// play runs one game in its own transaction and commits it.
func play(t testing.TB, j *Jackpot, db *sql.DB, g Game, src interface{ Intn(int) int }) Outcome {
	t.Helper()
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := j.Play(ctx, tx, g, src)
	if err != nil {
		tx.Rollback()
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return out
}

func audit(t testing.TB, db *sql.DB) []AuditLine {
	t.Helper()
	lines, err := Audit(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if !l.OK() {
			t.Errorf("%v", l)
		}
	}
	return lines
}

package server

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// A job's tail runs at its batch's end on PostgreSQL (inline on SQLite),
// and a later job of the same cabinet in that batch is carried to the next
// batch, where it sees what the tail wrote; a failed job's tail is dropped.
func TestBatchTails(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		st, err := openStore(filepath.Join(t.TempDir(), "c.db"), "", false)
		if err != nil {
			t.Fatal(err)
		}
		defer st.close()
		// Inline: X's tail runs, and is rolled back with X.
		testBatchTails(t, st, []string{"A", "A-tail", "B sees A-tail", "X", "X-tail", "C", "C-tail"})
	})
	t.Run("postgres", func(t *testing.T) {
		url, err := pgcluster.ForTest(t).CreateDatabase("tails")
		if err != nil {
			t.Fatal(err)
		}
		st, err := openStore(url, "", false)
		if err != nil {
			t.Fatal(err)
		}
		defer st.close()
		testBatchTails(t, st, []string{"A", "B carried", "X", "C", "A-tail", "C-tail", "B sees A-tail"})
	})
}

func testBatchTails(t *testing.T, st *store, want []string) {
	for _, c := range []string{"a", "c"} {
		if _, err := st.db.Exec(`INSERT INTO cabinets(id, hall, first_seen, last_seen) VALUES(?, 'h', 0, 0)`, c); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var got []string
	note := func(s string) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	}
	mark := func(tx *sql.Tx, key string) error {
		return st.execLater(tx, `INSERT INTO meta(key, value) VALUES(?, 'x')`, key)
	}
	withTail := func(cab, name string) func(tx *sql.Tx) error {
		return func(tx *sql.Tx) error {
			if err := st.lockCabinet(tx, cab); err != nil {
				return err
			}
			note(name)
			return st.atBatchEnd(tx, cab, nil, func(tx *sql.Tx) error {
				note(name + "-tail")
				return mark(tx, name+"-tail")
			})
		}
	}
	// The writer is held by a first job while the others queue behind it,
	// in order, so that they make one batch.
	running, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- st.write(context.Background(), func(*sql.Tx) error { close(running); <-release; return nil })
	}()
	<-running
	fns := []func(tx *sql.Tx) error{
		withTail("a", "A"),
		func(tx *sql.Tx) error {
			if err := st.lockCabinet(tx, "a"); err != nil {
				note("B carried")
				return err
			}
			var v string
			if err := st.queryRow(tx, `SELECT value FROM meta WHERE key='A-tail'`).Scan(&v); err != nil {
				return err
			}
			note("B sees A-tail")
			return nil
		},
		// A failed job's tail does not run, and its cabinet is free.
		func(tx *sql.Tx) error {
			if err := withTail("c", "X")(tx); err != nil {
				return err
			}
			return errors.New("refused")
		},
		withTail("c", "C"),
	}
	dones := make([]chan error, len(fns))
	for i, fn := range fns {
		dones[i] = make(chan error, 1)
		st.jobs <- job{fn: fn, done: dones[i]}
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	for i, d := range dones {
		err := <-d
		if (err != nil) != (i == 2) {
			t.Errorf("job %d: %v", i, err)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
	var n int
	if err := st.db.QueryRow(`SELECT COUNT(*) FROM meta WHERE key IN ('A-tail', 'C-tail', 'X-tail')`).Scan(&n); err != nil || n != 2 {
		t.Errorf("%d tails stored (%v), want A's and C's", n, err)
	}
}

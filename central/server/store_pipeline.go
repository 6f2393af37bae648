package server

import (
	"context"
	"database/sql"
	"errors"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// The PostgreSQL writer's pipeline. Every statement of a batch is a round
// trip to the database, and a batch's round trips are paid one after
// another by its writer (and its tails' inside the batch lock,
// store_tails.go): a round's dozen statements sent one by one cost a dozen
// round trips, and the round trips, not the database's work, were what
// bounded a system of several nodes. So the statements whose answer the
// job does not read (the savepoint, the row locks, the carried commits with
// their row counts, the inserts, the credit mirror, the pools' updates and
// notifications) are queued on the writer's connection and go in one pgx
// pipeline (one write, one Sync) with the next statement that is read, at
// the end of the job with its RELEASE, or with the COMMIT. Order is kept:
// the connection sends its queue before any other statement and before the
// commit (rebindConn), so a statement run on the transaction by any code
// sees everything queued before it. A failed queued statement is the error
// of the statement (or job end, or commit) that sent it: the same job,
// whose savepoint is then rolled back as before.

// laterStmt is one queued statement, `?` placeholders.
type laterStmt struct {
	q    string
	args []any
	rows *int64 // if set, gets the rows the statement affected
}

// pgxConn is the pgx connection under a rebindConn.
func (r *rebindConn) pgxConn() *pgx.Conn { return r.c.(*stdlib.Conn).Conn() }

// flush sends the queued statements.
func (r *rebindConn) flush(ctx context.Context) error {
	if len(r.later) == 0 {
		return nil
	}
	_, err := r.pipe(ctx, "", nil, nil)
	return err
}

// pipe sends the queued statements and then q (none if q is ""), in one
// pipeline; q's rows go to scan (nil: q is executed, its command tag
// returned). The first error is returned: a failed statement makes
// PostgreSQL skip the rest of the pipeline.
func (r *rebindConn) pipe(ctx context.Context, q string, args []any, scan []any) (pgconn.CommandTag, error) {
	later := r.later
	r.later = r.later[:0]
	b := &pgx.Batch{}
	for _, l := range later {
		b.Queue(rebind(l.q), l.args...)
	}
	if q != "" {
		b.Queue(rebind(q), args...)
	}
	br := r.pgxConn().SendBatch(ctx, b)
	var first error
	for _, l := range later {
		tag, err := br.Exec()
		if err != nil && first == nil {
			first = err
		}
		if l.rows != nil {
			*l.rows = tag.RowsAffected()
		}
	}
	var tag pgconn.CommandTag
	if q != "" {
		var err error
		if scan != nil {
			err = br.QueryRow().Scan(scan...)
		} else {
			tag, err = br.Exec()
		}
		if first == nil {
			first = err
		}
	}
	if err := br.Close(); err != nil && first == nil {
		first = err
	}
	return tag, first
}

// piped reports whether statements on tx go through the writer's
// pipeline: the PostgreSQL writer's own batch transaction.
func (st *store) piped(tx *sql.Tx) bool {
	return st.backend == backendPostgres && tx != nil && tx == st.tx
}

// onWriterConn runs f with the writer connection's rebindConn.
func (st *store) onWriterConn(f func(r *rebindConn) error) error {
	return st.conn.Raw(func(dc any) error {
		r, ok := dc.(*rebindConn)
		if !ok {
			return errors.New("central store: writer connection is not PostgreSQL's")
		}
		return f(r)
	})
}

// execLater runs q in tx, queued in the writer's pipeline when tx is its
// batch (PostgreSQL): for statements whose answer is not read, only
// whether they failed, which the job learns by its end at the latest.
func (st *store) execLater(tx *sql.Tx, q string, args ...any) error {
	if !st.piped(tx) {
		_, err := st.exec(tx, q, args...)
		return err
	}
	return st.onWriterConn(func(r *rebindConn) error {
		r.later = append(r.later, laterStmt{q: q, args: args})
		return nil
	})
}

// execCounted runs q in tx like execLater and sets *rows to the rows it
// affected: at once outside the writer's pipeline, else once the statement
// was sent (by the job's next read, or its end), which the caller waits for
// before reading *rows.
func (st *store) execCounted(tx *sql.Tx, rows *int64, q string, args ...any) error {
	if !st.piped(tx) {
		res, err := st.exec(tx, q, args...)
		if err == nil {
			*rows, err = res.RowsAffected()
		}
		return err
	}
	return st.onWriterConn(func(r *rebindConn) error {
		r.later = append(r.later, laterStmt{q, args, rows})
		return nil
	})
}

// pipedResult is a piped statement's sql.Result.
type pipedResult struct{ tag pgconn.CommandTag }

func (p pipedResult) LastInsertId() (int64, error) {
	return 0, errors.New("central store: no LastInsertId on PostgreSQL")
}
func (p pipedResult) RowsAffected() (int64, error) { return p.tag.RowsAffected(), nil }

func (st *store) pipeExec(q string, args []any) (sql.Result, error) {
	var tag pgconn.CommandTag
	err := st.onWriterConn(func(r *rebindConn) (err error) {
		tag, err = r.pipe(context.Background(), q, args, nil)
		return err
	})
	return pipedResult{tag}, err
}

// pipedRow is a piped query's row: the pipeline is sent when it is
// scanned (sql.ErrNoRows as database/sql's: pgx's wraps it).
type pipedRow struct {
	st   *store
	q    string
	args []any
}

func (p pipedRow) Scan(dest ...any) error {
	return p.st.onWriterConn(func(r *rebindConn) error {
		_, err := r.pipe(context.Background(), p.q, p.args, dest)
		return err
	})
}

// flush sends what is queued on tx (the writer's batch; elsewhere
// nothing is queued).
func (st *store) flush(tx *sql.Tx) error {
	if !st.piped(tx) {
		return nil
	}
	return st.onWriterConn(func(r *rebindConn) error { return r.flush(context.Background()) })
}

// flushJob sends the job's queued statements and its RELEASE.
func (st *store) flushJob() error {
	return st.onWriterConn(func(r *rebindConn) error {
		r.later = append(r.later, laterStmt{q: "RELEASE job"})
		return r.flush(context.Background())
	})
}

// dropJob forgets the failed job's statements not yet sent; sent reports
// whether its SAVEPOINT went (else nothing of the job reached the
// database, and there is no savepoint to roll back to).
func (st *store) dropJob() (sent bool) {
	st.onWriterConn(func(r *rebindConn) error {
		sent = len(r.later) == 0 || r.later[0].q != "SAVEPOINT job"
		r.later = r.later[:0]
		return nil
	})
	return sent
}

// Pipelined is tx for code that writes into a store transaction through
// its own statements (the jackpot engine): on the PostgreSQL writer's
// batch its ExecContext queues the statement in the writer's pipeline
// (the result's RowsAffected is 0: for statements whose answer is not
// read), and QueryRowContext and QueryContext run after what was queued. Any other tx is
// returned as it is.
func Pipelined(tx *sql.Tx) interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
} {
	if v, ok := batches.Load(tx); ok {
		return pipedTx{tx, v.(*store)}
	}
	return tx
}

// batches maps the PostgreSQL writers' open batch transactions to their
// stores (for Pipelined).
var batches sync.Map

type pipedTx struct {
	*sql.Tx
	st *store
}

func (p pipedTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return pipedResult{}, p.st.execLater(p.Tx, q, args...)
}

package server

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// The store's two backends. Every query in the project is written once,
// with SQLite's `?` placeholders; the PostgreSQL backend's connections
// rewrite them to `$1, $2, …` (rebind) as database/sql hands them over, so
// a *sql.Tx or *sql.DB of either backend takes the same SQL. DDL differs
// (types, WITHOUT ROWID, identity columns) and is given per backend in
// the migrations (store_schema.go).

type backend int

const (
	backendSQLite backend = iota
	backendPostgres
)

func (b backend) String() string {
	if b == backendPostgres {
		return "postgres"
	}
	return "sqlite"
}

// IsPostgresURL reports whether a store location (Config.DBPath) names a
// PostgreSQL database ("postgres://…" or "postgresql://…") rather than a
// SQLite file.
func IsPostgresURL(loc string) bool {
	return strings.HasPrefix(loc, "postgres://") || strings.HasPrefix(loc, "postgresql://")
}

// OpenPostgres opens a PostgreSQL database whose connections take `?`
// placeholders, as every query of the project is written: for reports and
// audits of a PostgreSQL store (OpenReadOnly is SQLite's).
func OpenPostgres(url string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(rebindConnector{stdlib.GetConnector(*cfg)}), nil
}

var rebound sync.Map // query -> its $n form

// rebind rewrites the `?` placeholders of q outside string literals,
// quoted identifiers and comments to PostgreSQL's `$n`.
func rebind(q string) string {
	if v, ok := rebound.Load(q); ok {
		return v.(string)
	}
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) && q[j] != c {
				j++
			}
			if j >= len(q) {
				j = len(q) - 1
			}
			b.WriteString(q[i : j+1])
			i = j
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i - 1
			}
			b.WriteString(q[i : i+j+1])
			i += j
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			j := strings.Index(q[i+2:], "*/")
			end := len(q)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			b.WriteString(q[i:end])
			i = end - 1
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	out := b.String()
	rebound.Store(q, out)
	return out
}

// rebindConnector wraps pgx's database/sql connector.
type rebindConnector struct{ c driver.Connector }

func (r rebindConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := r.c.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rebindConn{c: c}, nil
}

func (r rebindConnector) Driver() driver.Driver { return r.c.Driver() }

// rebindConn is a pgx connection that takes `?` placeholders. pgx's
// stdlib connection has every interface forwarded here. It also holds the
// statements the store's writer queued on it (later, store_pipeline.go):
// every statement run on the connection, and a commit, sends them first,
// so they run in the order they were written whoever runs the next one.
type rebindConn struct {
	c     driver.Conn
	later []laterStmt
}

var (
	_ driver.ConnPrepareContext = (*rebindConn)(nil)
	_ driver.ExecerContext      = (*rebindConn)(nil)
	_ driver.QueryerContext     = (*rebindConn)(nil)
	_ driver.ConnBeginTx        = (*rebindConn)(nil)
	_ driver.Pinger             = (*rebindConn)(nil)
	_ driver.SessionResetter    = (*rebindConn)(nil)
	_ driver.Validator          = (*rebindConn)(nil)
	_ driver.NamedValueChecker  = (*rebindConn)(nil)
)

func (r *rebindConn) Prepare(q string) (driver.Stmt, error) {
	return r.PrepareContext(context.Background(), q)
}

func (r *rebindConn) Close() error {
	r.later = nil
	return r.c.Close()
}

func (r *rebindConn) Begin() (driver.Tx, error) {
	return r.BeginTx(context.Background(), driver.TxOptions{})
}

func (r *rebindConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	s, err := r.c.(driver.ConnPrepareContext).PrepareContext(ctx, rebind(q))
	if err != nil {
		return nil, err
	}
	return &rebindStmt{s, r}, nil
}

func (r *rebindConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if err := r.flush(ctx); err != nil {
		return nil, err
	}
	return r.c.(driver.ExecerContext).ExecContext(ctx, rebind(q), args)
}

func (r *rebindConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if err := r.flush(ctx); err != nil {
		return nil, err
	}
	return r.c.(driver.QueryerContext).QueryContext(ctx, rebind(q), args)
}

func (r *rebindConn) BeginTx(ctx context.Context, o driver.TxOptions) (driver.Tx, error) {
	r.later = nil
	tx, err := r.c.(driver.ConnBeginTx).BeginTx(ctx, o)
	if err != nil {
		return nil, err
	}
	return &rebindTx{tx, r}, nil
}

// rebindTx sends the queued statements before its commit: a failed one
// fails the commit (the transaction is rolled back), as it would have
// failed the statement after it. With statements queued, the COMMIT goes
// in their pipeline: one round trip, not two (the writer's batch holds the
// batch lock through it).
type rebindTx struct {
	tx driver.Tx
	r  *rebindConn
}

func (t *rebindTx) Commit() error {
	if len(t.r.later) == 0 {
		return t.tx.Commit()
	}
	tag, err := t.r.pipe(context.Background(), "COMMIT", nil, nil)
	if err != nil {
		t.tx.Rollback()
		return err
	}
	// PostgreSQL answers ROLLBACK to the COMMIT of a transaction that
	// had failed (none does here: a failed job's savepoint is rolled back).
	if tag.String() != "COMMIT" {
		t.tx.Rollback()
		return fmt.Errorf("central store: commit answered %q", tag.String())
	}
	return nil
}

func (t *rebindTx) Rollback() error {
	t.r.later = nil
	return t.tx.Rollback()
}

// rebindStmt is a prepared statement of a rebindConn: it runs after the
// connection's queued statements.
type rebindStmt struct {
	s driver.Stmt
	r *rebindConn
}

func (s *rebindStmt) Close() error  { return s.s.Close() }
func (s *rebindStmt) NumInput() int { return s.s.NumInput() }

func (s *rebindStmt) Exec(args []driver.Value) (driver.Result, error) {
	return nil, errors.New("rebindStmt.Exec: use ExecContext")
}

func (s *rebindStmt) Query(args []driver.Value) (driver.Rows, error) {
	return nil, errors.New("rebindStmt.Query: use QueryContext")
}

func (s *rebindStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if err := s.r.flush(ctx); err != nil {
		return nil, err
	}
	return s.s.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s *rebindStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if err := s.r.flush(ctx); err != nil {
		return nil, err
	}
	return s.s.(driver.StmtQueryContext).QueryContext(ctx, args)
}

func (r *rebindConn) Ping(ctx context.Context) error {
	if p, ok := r.c.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (r *rebindConn) ResetSession(ctx context.Context) error {
	r.later = nil
	if s, ok := r.c.(driver.SessionResetter); ok {
		return s.ResetSession(ctx)
	}
	return nil
}

func (r *rebindConn) IsValid() bool {
	if v, ok := r.c.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (r *rebindConn) CheckNamedValue(v *driver.NamedValue) error {
	if c, ok := r.c.(driver.NamedValueChecker); ok {
		return c.CheckNamedValue(v)
	}
	return driver.ErrSkip
}

// retryable: PostgreSQL's answer to two nodes racing to insert the same
// row (a round, a Risk step, a voucher): a unique key another transaction
// committed first. The job that got it is run again in the same
// transaction after its savepoint's rollback: in READ COMMITTED its next
// statements see what the winner committed and answer from it. A
// deadlock victim or a serialisation failure is not run again here (the
// batch still holds the locks its other jobs took, so the same wait would
// come back): the request is refused UNAVAILABLE and the cabinet asks
// again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// batchLock keys the advisory lock a PostgreSQL batch takes for its tails
// (store_tails.go) and its commit: the nodes' tails, which write the
// jackpot pools every node's batches share, run one batch after another.
// Row locks alone keep rounds, Risk steps and vouchers exactly once, but
// pool rows locked in request order deadlock across nodes (batch A holds
// pool 1 and wants pool 2, batch B the reverse), which PostgreSQL breaks
// only after deadlock_timeout (1 s) by failing one. One lock for the tails
// cannot deadlock with another: a batch takes it after its cabinets' row
// locks and wants no cabinet after it. What each cabinet owns alone (its
// rounds, its credit mirror, its vouchers) runs before it, beside the
// other nodes' batches.
const batchLock = 0x706f6c62 // "polb"

// transient reports whether err is the database failing rather than a
// request's fault (PostgreSQL: a lost connection, a restart, a failover,
// a lock conflict): the request is answered UNAVAILABLE and asked again,
// never refused for good.
func (st *store) transient(err error) bool {
	if st.backend != backendPostgres || err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code[:2] {
		case "08", "40", "53", "57", "58", "23":
			return true
		}
		return false
	}
	// No answer of the server: the connection failed.
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.As(err, &ne) || errors.As(err, &ce) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || pgconn.Timeout(err) ||
		strings.Contains(err.Error(), "conn closed")
}

// maxJobRetries bounds the runs of one job in one batch.
const maxJobRetries = 4

// lockCabinet takes the cabinet's row lock for the rest of the
// transaction (PostgreSQL; SQLite has one writer, the store's, and needs
// none): a job that reads a cabinet's rounds and then draws runs alone
// for that cabinet across every node on the database, so two nodes never
// both see "no round n" (the second waits, then reads the first's round
// and answers it) nor open two rounds.
func (st *store) lockCabinet(tx *sql.Tx, cab string) error {
	if st.backend != backendPostgres {
		return nil
	}
	if st.piped(tx) && st.tailCabinet[cab] {
		return errCarry
	}
	// Queued (store_pipeline.go): the lock is taken, in order, before
	// the job's first statement that reads.
	return st.execLater(tx, `SELECT 1 FROM cabinets WHERE id=? FOR UPDATE`, cab)
}

// lockVoucher takes the voucher's row lock (PostgreSQL): its state is
// read, checked and changed by one node at a time.
func (st *store) lockVoucher(tx *sql.Tx, number string) error {
	if st.backend != backendPostgres {
		return nil
	}
	return st.execLater(tx, `SELECT 1 FROM vouchers WHERE number=? FOR UPDATE`, number)
}

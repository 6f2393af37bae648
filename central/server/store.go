package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	_ "modernc.org/sqlite"
)

const schema = `
CREATE TABLE IF NOT EXISTS cabinets(
	id TEXT PRIMARY KEY,
	hall TEXT NOT NULL,
	enabled INTEGER NOT NULL DEFAULT 1,
	reason TEXT NOT NULL DEFAULT '',
	models TEXT NOT NULL DEFAULT '',
	first_seen INTEGER NOT NULL,
	last_seen INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rounds(
	cabinet TEXT NOT NULL,
	round INTEGER NOT NULL,
	game TEXT NOT NULL,
	model_id TEXT NOT NULL,
	stake INTEGER NOT NULL,
	total INTEGER NOT NULL,
	risk_ok INTEGER NOT NULL,
	jackpot_pool TEXT NOT NULL DEFAULT '',
	jackpot_amount INTEGER NOT NULL DEFAULT 0,
	jackpot_tape TEXT NOT NULL DEFAULT '',
	body BLOB NOT NULL,
	sig BLOB NOT NULL,
	drawn_at INTEGER NOT NULL,
	committed_at INTEGER,
	PRIMARY KEY(cabinet, round)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS risk_steps(
	cabinet TEXT NOT NULL,
	round INTEGER NOT NULL,
	step INTEGER NOT NULL,
	choice INTEGER NOT NULL,
	before INTEGER NOT NULL,
	after INTEGER NOT NULL,
	body BLOB NOT NULL,
	sig BLOB NOT NULL,
	drawn_at INTEGER NOT NULL,
	PRIMARY KEY(cabinet, round, step)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vouchers(
	number TEXT PRIMARY KEY,
	cabinet TEXT NOT NULL,
	sequence INTEGER NOT NULL,
	amount INTEGER NOT NULL,
	issued_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL,
	state TEXT NOT NULL,            -- issued, held, redeemed
	hold TEXT NOT NULL DEFAULT '',
	hold_cabinet TEXT NOT NULL DEFAULT '',
	hold_until INTEGER NOT NULL DEFAULT 0,
	redeemed_at INTEGER NOT NULL DEFAULT 0,
	UNIQUE(cabinet, sequence)
);
CREATE INDEX IF NOT EXISTS vouchers_held ON vouchers(hold_cabinet) WHERE state='held';
CREATE TABLE IF NOT EXISTS credit(
	cabinet TEXT PRIMARY KEY,
	stakes INTEGER NOT NULL DEFAULT 0,      -- booked at every draw
	wins INTEGER NOT NULL DEFAULT 0,        -- drawn (round totals, Risk results)
	tickets_in INTEGER NOT NULL DEFAULT 0,  -- vouchers redeemed at the cabinet
	vouchers INTEGER NOT NULL DEFAULT 0,    -- vouchers issued to the cabinet
	base INTEGER NOT NULL DEFAULT 0,        -- reported by the cabinet from here on
	bills_in INTEGER NOT NULL DEFAULT 0,
	wins_to_credit INTEGER NOT NULL DEFAULT 0,
	cancelled INTEGER NOT NULL DEFAULT 0,
	reported INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS alarms(
	id INTEGER PRIMARY KEY,
	cabinet TEXT NOT NULL,
	at INTEGER NOT NULL,
	reason TEXT NOT NULL,
	text TEXT NOT NULL
);
-- Rounds an operator voided (issue 14: no refund ever follows a drawn round
-- without one): the round is settled by the void, its stake and win leave the
-- credit mirror, and the cabinet refunds its wager when it is answered
-- ROUND_VOID. A table of its own, so a store made before it needs no ALTER.
CREATE TABLE IF NOT EXISTS voids(
	cabinet TEXT NOT NULL,
	round INTEGER NOT NULL,
	at INTEGER NOT NULL,
	by TEXT NOT NULL,        -- the operator, as the admin socket saw them
	reason TEXT NOT NULL,
	stake INTEGER NOT NULL,  -- given back to the mirror
	total INTEGER NOT NULL,  -- the drawn win, taken out of the mirror
	PRIMARY KEY(cabinet, round)
) WITHOUT ROWID;
-- The cabinet's credit and meters as it reported them at its last Hello,
-- kept even when refused (a RAM clear resets them): what "mirror reconcile"
-- takes the mirror to.
CREATE TABLE IF NOT EXISTS hello_meters(
	cabinet TEXT PRIMARY KEY,
	at INTEGER NOT NULL,
	credit INTEGER NOT NULL,
	base INTEGER NOT NULL,
	bills_in INTEGER NOT NULL,
	wins_to_credit INTEGER NOT NULL,
	cancelled INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta(
	key TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages(
	cabinet TEXT NOT NULL,
	message_id INTEGER NOT NULL,
	kind TEXT NOT NULL,
	received_at INTEGER NOT NULL,
	PRIMARY KEY(cabinet, message_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events(
	cabinet TEXT NOT NULL,
	message_id INTEGER NOT NULL,
	seq INTEGER NOT NULL,
	at INTEGER NOT NULL,
	kind TEXT NOT NULL,
	text TEXT NOT NULL,
	amount INTEGER NOT NULL,
	data BLOB
);
CREATE TABLE IF NOT EXISTS meters(
	cabinet TEXT NOT NULL,
	message_id INTEGER NOT NULL,
	at INTEGER NOT NULL,
	name TEXT NOT NULL,
	value INTEGER NOT NULL
);
`

// errStoreFailed marks a batch whose commit failed; the server then stops
// answering (fail closed): it can no longer promise that a reply is durable.
var errStoreFailed = errors.New("central store: commit failed")

// prepared returns q prepared once on the pool (SQLite parses a statement
// every time otherwise: a good part of a round's cost), bound to tx if set.
func (st *store) prepared(tx *sql.Tx, q string) (*sql.Stmt, error) {
	v, ok := st.stmts.Load(q)
	if !ok {
		s, err := st.db.Prepare(q)
		if err != nil {
			return nil, err
		}
		if v, ok = st.stmts.LoadOrStore(q, s); ok {
			s.Close()
		}
	}
	s := v.(*sql.Stmt)
	if tx != nil {
		return tx.Stmt(s), nil
	}
	return s, nil
}

func (st *store) exec(tx *sql.Tx, q string, args ...any) (sql.Result, error) {
	if st.piped(tx) {
		return st.pipeExec(q, args)
	}
	s, err := st.prepared(tx, q)
	if err != nil {
		return nil, err
	}
	return s.Exec(args...)
}

type rowScanner interface{ Scan(...any) error }

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

func (st *store) queryRow(tx *sql.Tx, q string, args ...any) rowScanner {
	if st.piped(tx) {
		return pipedRow{st, q, args}
	}
	s, err := st.prepared(tx, q)
	if err != nil {
		return errRow{err}
	}
	return s.QueryRow(args...)
}

type job struct {
	fn   func(tx *sql.Tx) error
	done chan error
}

// store is the SQLite database with a single writer goroutine. Reads go
// straight to the pool (WAL lets them run beside the writer).
type store struct {
	db     *sql.DB
	jobs   chan job
	quit   chan struct{}
	exited chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	broken error
	stmts  sync.Map  // query -> *sql.Stmt
	conn   *sql.Conn // the writer's own connection (writer goroutine only)
	tx     *sql.Tx   // the writer's open batch (writer goroutine only)
	// The open batch's tails (atBatchEnd) in job order, and the cabinets
	// they belong to (writer goroutine only).
	tails       []tail
	tailCabinet map[string]bool
	// Run before the first and after the last of a batch's tails (set
	// before the first write).
	beforeTails func(tx *sql.Tx, payloads []any) error
	afterTails  func(tx *sql.Tx) error
	// Hooks for in-memory state that mirrors the store (the jackpot engine).
	committed, rolledBack func()
	files                 storeFiles
	onBroken              func(error) // told once, when the store fails
	id                    string      // the store id (meta), as in the marker
	backend               backend
}

func openStore(path, marker string, init bool) (*store, error) {
	if IsPostgresURL(path) {
		return openPostgresStore(path, marker, init)
	}
	if err := checkStoreBefore(path, marker, init); err != nil {
		return nil, err
	}
	// temp_store=MEMORY keeps the per-request savepoints' statement
	// journals off the disk; synchronous=FULL makes every commit durable;
	// an 8 MiB page cache per connection holds the hot end of the rounds
	// table. The cache is SQLite's own memory, outside the Go heap: it fills
	// as the store grows and is never given back, so its size is the bound
	// (8 connections · 8 MiB = 64 MiB of resident memory at most; at 64 MiB
	// a connection the bound was 512 MiB and a soak saw resident memory
	// grow by 2.5 KiB a round until it got there).
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)&_pragma=temp_store(2)&_pragma=cache_size(-8192)&_pragma=wal_autocheckpoint(8192)&_txlock=immediate"
	// Only this first open may create the file: the pool's connections
	// open it mode=rw, so one opened after the file was deleted fails
	// instead of making an empty store at the same path.
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		c, err := sql.Open("sqlite", dsn+"&mode=rwc")
		if err == nil {
			_, err = c.Exec(schema)
			c.Close()
		}
		if err != nil {
			return nil, fmt.Errorf("central store: create: %w", err)
		}
	}
	db, err := sql.Open("sqlite", dsn+"&mode=rw")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("central store: schema: %w", err)
	}
	if err := migrate(context.Background(), db, backendSQLite); err != nil {
		db.Close()
		return nil, err
	}
	st := &store{db: db, jobs: make(chan job, 1024), quit: make(chan struct{}), exited: make(chan struct{}), files: storeFiles{path: path}}
	if st.id, err = checkStoreAfter(db, marker, init); err != nil {
		db.Close()
		return nil, err
	}
	if err := st.files.snapshot(); err != nil {
		db.Close()
		return nil, fmt.Errorf("central store: %w", err)
	}
	st.start()
	return st, nil
}

func (st *store) start() {
	st.wg.Add(2)
	go st.writer()
	go st.watch()
}

// openPostgresStore opens the store on a PostgreSQL database (url), shared
// by every central node pointed at it: the same single writer per node,
// its batch one PostgreSQL transaction. A failed statement or commit does
// not break the store for good, as SQLite's does (a file gone is a store
// gone, a PostgreSQL connection lost is a database restarting or failing
// over): the batch's requests are refused UNAVAILABLE (the cabinets ask
// again, and exactly-once answers them from what did commit), the writer's
// connection is dropped, and the next batch opens a new one.
func openPostgresStore(url, marker string, init bool) (*store, error) {
	db, err := OpenPostgres(url)
	if err != nil {
		return nil, fmt.Errorf("central store: %w", err)
	}
	db.SetMaxOpenConns(8)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := migrate(ctx, db, backendPostgres); err != nil {
		db.Close()
		return nil, err
	}
	st := &store{db: db, jobs: make(chan job, 1024), quit: make(chan struct{}), exited: make(chan struct{}), backend: backendPostgres}
	if st.id, err = checkStoreAfter(db, marker, init); err != nil {
		db.Close()
		return nil, err
	}
	st.start()
	return st, nil
}

// watch checks the store's files every storeFilesCheckEvery, also while no
// request comes (runBatch checks them before every batch).
func (st *store) watch() {
	defer st.wg.Done()
	t := time.NewTicker(storeFilesCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-st.quit:
			return
		case <-t.C:
			// Through the writer, which checks the files before a batch
			// and rescues what the open files still hold.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			st.probe(ctx)
			cancel()
			if err := st.files.check(true); err != nil {
				st.breakOn(err)
			}
		}
	}
}

// breakOn fails the store for good and says why, once.
func (st *store) breakOn(err error) error {
	st.mu.Lock()
	first := st.broken == nil
	if first {
		st.broken = fmt.Errorf("%w: %v", errStoreFailed, err)
	}
	broken := st.broken
	st.mu.Unlock()
	if first && st.onBroken != nil {
		st.onBroken(broken)
	}
	return broken
}

// write runs fn in the writer's transaction, in its own savepoint, and
// returns once the transaction holding it is committed (or fn's error: then
// nothing fn did is kept).
func (st *store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	j := job{fn: fn, done: make(chan error, 1)}
	select {
	case st.jobs <- j:
	case <-st.quit:
		return errStoreClosed
	}
	// The job is queued: wait for it even if ctx ends, so the caller never
	// reports failure for a write that then commits.
	select {
	case err := <-j.done:
		return err
	case <-st.exited:
		select {
		case err := <-j.done:
			return err
		default:
			return errStoreClosed
		}
	}
}

var errStoreClosed = errors.New("central store: closed")

// probe runs an empty job through the writer (a transaction that changes
// nothing, so no fsync): nil when the writer answers before ctx ends and
// the store has not failed.
func (st *store) probe(ctx context.Context) error {
	j := job{fn: func(*sql.Tx) error { return nil }, done: make(chan error, 1)}
	select {
	case st.jobs <- j:
	case <-st.quit:
		return errStoreClosed
	case <-ctx.Done():
		return fmt.Errorf("central store: writer queue full: %w", ctx.Err())
	}
	select {
	case err := <-j.done:
		return err
	case <-st.exited:
		return errStoreClosed
	case <-ctx.Done():
		return fmt.Errorf("central store: writer did not answer: %w", ctx.Err())
	}
}

const maxBatch = 256

func (st *store) writer() {
	defer st.wg.Done()
	defer close(st.exited)
	// One connection for every write transaction: SQLite drops a
	// connection's page cache whenever another connection wrote to the WAL
	// since its last transaction, so writes that hopped between pooled
	// connections re-read (and re-allocated) their pages every batch.
	conn, err := st.db.Conn(context.Background())
	switch {
	case err == nil:
		st.conn = conn
	case st.backend == backendSQLite:
		st.mu.Lock()
		st.broken = fmt.Errorf("%w: %v", errStoreFailed, err)
		st.mu.Unlock()
	}
	defer func() {
		if st.conn != nil {
			st.conn.Close()
		}
	}()
	batch := make([]job, 0, maxBatch)
	var carried []job
	for {
		batch = append(batch[:0], carried...)
		if len(batch) == 0 {
			var first job
			select {
			case first = <-st.jobs:
			case <-st.quit:
				// Drain what is queued so no caller waits forever.
				for {
					select {
					case j := <-st.jobs:
						j.done <- errStoreClosed
					default:
						return
					}
				}
			}
			batch = append(batch, first)
		}
	more:
		for len(batch) < maxBatch {
			select {
			case j := <-st.jobs:
				batch = append(batch, j)
			default:
				break more
			}
		}
		carried = append(carried[:0], st.runBatch(batch)...)
	}
}

// runBatch runs batch in one transaction and answers its jobs, but for the
// ones it returns, to run at the head of the next batch: jobs for a
// cabinet whose round is still to be finished in this one (errCarry).
func (st *store) runBatch(batch []job) (carry []job) {
	st.mu.Lock()
	broken := st.broken
	st.mu.Unlock()
	if broken != nil {
		for _, j := range batch {
			j.done <- broken
		}
		return nil
	}
	errs := make([]error, len(batch))
	fail := func(err error) {
		broken := st.breakOn(err)
		for _, j := range batch {
			j.done <- broken
		}
	}
	// The files as opened, or nothing is answered: a reply from a store
	// that is no longer on disk would be lost at the next start.
	if err := st.files.check(false); err != nil {
		fail(fmt.Errorf("%v; %s", err, st.rescue()))
		return nil
	}
	if st.backend == backendPostgres {
		fail = st.pgFail(batch)
		if st.conn == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			c, err := st.db.Conn(ctx)
			cancel()
			if err != nil {
				fail(err)
				return nil
			}
			st.conn = c
		}
	}
	tx, err := st.conn.BeginTx(context.Background(), nil)
	if err != nil {
		fail(err)
		return nil
	}
	// PostgreSQL: the batch's statements go through the writer's
	// pipeline (store_pipeline.go), and its tails wait for the end.
	pg := st.backend == backendPostgres
	if pg {
		st.tx = tx
		st.tails = st.tails[:0]
		clear(st.tailCabinet)
		batches.Store(tx, st)
		defer func() {
			batches.Delete(tx)
			st.tx = nil
		}()
	}
	for i, j := range batch {
		tails := len(st.tails)
		if pg {
			err = st.execLater(tx, "SAVEPOINT job")
		} else {
			_, err = st.exec(tx, "SAVEPOINT job")
		}
		if err != nil {
			tx.Rollback()
			fail(err)
			return nil
		}
		// released: the job's RELEASE went with its statements.
		released := false
		for try := 1; ; try++ {
			errs[i] = j.fn(tx)
			if errs[i] == nil && pg {
				// The job's queued statements fail it as its own would.
				errs[i] = st.flushJob()
				released = errs[i] == nil
			}
			if errs[i] == nil {
				break
			}
			st.dropTails(tails)
			if !pg || st.dropJob() {
				if _, err := st.exec(tx, "ROLLBACK TO job"); err != nil {
					tx.Rollback()
					fail(err)
					return nil
				}
			} else if err := st.execLater(tx, "SAVEPOINT job"); err != nil {
				// Nothing of the job was sent, its savepoint neither.
				tx.Rollback()
				fail(err)
				return nil
			}
			if st.rolledBack != nil {
				st.rolledBack()
			}
			if try >= maxJobRetries || !retryable(errs[i]) {
				break
			}
		}
		if released {
			continue
		}
		if _, err := st.exec(tx, "RELEASE job"); err != nil {
			tx.Rollback()
			fail(err)
			return nil
		}
	}
	if err := st.runTails(tx); err != nil {
		tx.Rollback()
		fail(err)
		return nil
	}
	if err := tx.Commit(); err != nil {
		fail(err)
		return nil
	}
	if st.committed != nil {
		st.committed()
	}
	for i, j := range batch {
		if errors.Is(errs[i], errCarry) {
			carry = append(carry, j)
			continue
		}
		j.done <- errs[i]
	}
	return carry
}

// rescue saves what the writer's open files still hold when the files on
// disk are gone: with the database file still in place (its WAL deleted)
// a checkpoint moves the committed rounds into it; with the database file
// deleted or replaced, VACUUM INTO copies the whole store beside it for
// the operator. Writer goroutine only, outside a transaction.
func (st *store) rescue() string {
	if st.conn == nil {
		return "nothing rescued (no writer connection)"
	}
	ctx := context.Background()
	if cur, err := os.Stat(st.files.path); err == nil && os.SameFile(cur, st.files.db) {
		if _, err := st.conn.ExecContext(ctx, "PRAGMA wal_checkpoint(FULL)"); err != nil {
			return "checkpoint into the database file failed: " + err.Error()
		}
		return "the committed rounds were checkpointed into " + st.files.path
	}
	to := fmt.Sprintf("%s.rescued-%d", st.files.path, time.Now().UnixNano())
	if _, err := st.conn.ExecContext(ctx, "VACUUM INTO ?", to); err != nil {
		return "copy of the store failed: " + err.Error()
	}
	return "the store as the server had it was copied to " + to
}

// pgFail is a PostgreSQL batch's failure: its requests are refused
// (UNAVAILABLE, asked again by the cabinets) and the writer's connection
// is dropped for a new one, but the store stays open (see
// openPostgresStore). A commit whose answer was lost may have committed:
// the repeated request then finds what it stored.
func (st *store) pgFail(batch []job) func(error) {
	return func(err error) {
		if st.conn != nil {
			st.conn.Close()
			st.conn = nil
		}
		err = fmt.Errorf("%w: %v", errStoreUnavailable, err)
		for _, j := range batch {
			j.done <- err
		}
	}
}

// errStoreUnavailable marks a PostgreSQL batch that failed (the database
// unreachable, restarting or failing over); the next batch tries again.
var errStoreUnavailable = errors.New("central store: database unavailable")

func (st *store) close() error {
	close(st.quit)
	st.wg.Wait()
	st.stmts.Range(func(_, v any) bool { v.(*sql.Stmt).Close(); return true })
	return st.db.Close()
}

package ledger

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver "sqlite"
)

// File names inside a copy's directory. The copy is ledger.db together with
// its -wal and -shm files.
const (
	DBName      = "ledger.db"
	markerName  = "RAMERROR"
	rebuildName = "ledger.db.rebuild"
	createName  = "ledger.db.new"
)

const schema = `
CREATE TABLE IF NOT EXISTS state(k TEXT PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chain(seq INTEGER PRIMARY KEY, prev BLOB NOT NULL, entry BLOB NOT NULL, digest BLOB NOT NULL, hash BLOB NOT NULL);
`

// dsn opens a copy with full sync and WAL, and a page cache of 512 KiB per
// connection. The cache is SQLite's own memory, outside the Go heap and
// never given back: at SQLite's default of 2 MiB it filled for an hour of
// play as pages of the 1–2.5 MiB database and WAL were touched (the soak's
// resident memory grew by it), where the hot pages of a money transaction
// are a few dozen; 512 KiB fills within minutes and bounds the cabinet's
// ledger caches at 2 MiB for the two copies and their readers.
func dsn(path string) string {
	return path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)" +
		"&_pragma=cell_size_check(1)&_pragma=cache_size(-512)&_txlock=immediate"
}

// chainRow is one sealed transaction.
type chainRow struct {
	Seq    uint64
	Prev   [32]byte
	Entry  []byte
	Digest [32]byte
	Hash   [32]byte
}

// store is one copy: an open SQLite database in its directory.
type store struct {
	name string // "A" or "B"
	dir  string
	db   *sql.DB
	ins  *sql.Stmt
	del  *sql.Stmt
	cins *sql.Stmt
	cdel *sql.Stmt

	// fingerprint of ledger.db and -wal taken after the last clean check;
	// valid until the next write.
	fp      [32]byte
	fpValid bool
}

func (s *store) path() string { return filepath.Join(s.dir, DBName) }

// openDB opens path; create makes the tables (a reader must not write).
func openDB(path string, create bool) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	if create {
		if _, err := db.Exec(schema); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// open opens the copy's database for writing (it must exist).
func (s *store) open() error {
	if _, err := os.Stat(s.path()); err != nil {
		return err
	}
	db, err := openDB(s.path(), false)
	if err != nil {
		return err
	}
	s.db = db
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = db.Prepare(q)
		return st
	}
	s.ins = prep(`INSERT OR REPLACE INTO state(k, v) VALUES(?, ?)`)
	s.del = prep(`DELETE FROM state WHERE k = ?`)
	s.cins = prep(`INSERT INTO chain(seq, prev, entry, digest, hash) VALUES(?, ?, ?, ?, ?)`)
	s.cdel = prep(`DELETE FROM chain WHERE seq <= ?`)
	if err != nil {
		s.close()
		return err
	}
	return nil
}

func (s *store) close() {
	for _, st := range []*sql.Stmt{s.ins, s.del, s.cins, s.cdel} {
		if st != nil {
			st.Close()
		}
	}
	s.ins, s.del, s.cins, s.cdel = nil, nil, nil, nil
	if s.db != nil {
		s.db.Close()
		s.db = nil
	}
	s.fpValid = false
}

type kvWrite struct {
	k string
	v []byte // nil = delete
}

// commit writes one transaction: its rows and its chain row, pruning chain
// rows older than keep, in one SQLite transaction.
func (s *store) commit(writes []kvWrite, row chainRow, keep int) error {
	if s.db == nil {
		return fmt.Errorf("copy %s is not open", s.name)
	}
	s.fpValid = false
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	for _, w := range writes {
		if w.v == nil {
			_, err = tx.Stmt(s.del).Exec(w.k)
		} else {
			_, err = tx.Stmt(s.ins).Exec(w.k, w.v)
		}
		if err != nil {
			tx.Rollback()
			return err
		}
	}
	if _, err = tx.Stmt(s.cins).Exec(int64(row.Seq), row.Prev[:], row.Entry, row.Digest[:], row.Hash[:]); err != nil {
		tx.Rollback()
		return err
	}
	if int64(row.Seq) > int64(keep) {
		if _, err = tx.Stmt(s.cdel).Exec(int64(row.Seq) - int64(keep)); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// undo takes transaction seq back out of this copy, after the other copy
// failed it: every row it wrote gets its value from before (old, the
// memory that did not take it; absent = deleted) and its chain row goes.
// The chain row its commit pruned is not put back: this copy's chain
// window is one row shorter until the next commit prunes the other copy
// to the same start, and no check compares the windows' lengths.
func (s *store) undo(writes []kvWrite, old map[string][]byte, seq uint64) error {
	if s.db == nil {
		return fmt.Errorf("copy %s is not open", s.name)
	}
	s.fpValid = false
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	for _, w := range writes {
		if v, ok := old[w.k]; ok {
			_, err = tx.Stmt(s.ins).Exec(w.k, v)
		} else {
			_, err = tx.Stmt(s.del).Exec(w.k)
		}
		if err != nil {
			tx.Rollback()
			return err
		}
	}
	if _, err = tx.Exec(`DELETE FROM chain WHERE seq = ?`, int64(seq)); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// copyImage is what a copy holds, as read from its files.
type copyImage struct {
	kv     map[string][]byte
	chain  []chainRow
	dig    *digester
	digest [32]byte
	head   chainRow
}

// errMissing: the copy's database file does not exist.
var errMissing = errors.New("copy missing")

// readImage reads a copy through db and checks it: SQLite's own check
// (check is "quick_check", "integrity_check" or ""), every chain link, and
// the digest of the rows against the digest sealed in the last chain row.
// On a failed check the image read so far is still returned (for suspect
// reads) with the error.
func readImage(db *sql.DB, check string) (*copyImage, error) {
	if err := sqliteCheck(db, check); err != nil {
		return nil, err
	}
	img := &copyImage{kv: map[string][]byte{}}
	rows, err := db.Query(`SELECT k, v FROM state`)
	if err != nil {
		return nil, fmt.Errorf("read state: %w", err)
	}
	for rows.Next() {
		var k string
		var v []byte
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return img, fmt.Errorf("read state: %w", err)
		}
		if v == nil {
			v = []byte{}
		}
		img.kv[k] = v
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return img, fmt.Errorf("read state: %w", err)
	}
	rows, err = db.Query(`SELECT seq, prev, entry, digest, hash FROM chain ORDER BY seq`)
	if err != nil {
		return img, fmt.Errorf("read chain: %w", err)
	}
	for rows.Next() {
		var r chainRow
		var seq int64
		var prev, dg, h []byte
		if err := rows.Scan(&seq, &prev, &r.Entry, &dg, &h); err != nil {
			rows.Close()
			return img, fmt.Errorf("read chain: %w", err)
		}
		if len(prev) != 32 || len(dg) != 32 || len(h) != 32 || seq <= 0 {
			rows.Close()
			return img, fmt.Errorf("chain row %d malformed", seq)
		}
		r.Seq = uint64(seq)
		copy(r.Prev[:], prev)
		copy(r.Digest[:], dg)
		copy(r.Hash[:], h)
		img.chain = append(img.chain, r)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return img, fmt.Errorf("read chain: %w", err)
	}
	img.dig = newDigester(img.kv)
	img.digest = img.dig.total()
	if len(img.chain) == 0 {
		return img, errors.New("chain is empty")
	}
	for i, r := range img.chain {
		if i > 0 {
			p := img.chain[i-1]
			if r.Seq != p.Seq+1 {
				return img, fmt.Errorf("chain gap after %d", p.Seq)
			}
			if r.Prev != p.Hash {
				return img, fmt.Errorf("chain link broken at %d", r.Seq)
			}
		}
		if chainHash(r.Prev, r.Seq, r.Entry, r.Digest) != r.Hash {
			return img, fmt.Errorf("chain hash wrong at %d", r.Seq)
		}
	}
	img.head = img.chain[len(img.chain)-1]
	if img.head.Digest != img.digest {
		return img, fmt.Errorf("state digest does not match the seal of transaction %d", img.head.Seq)
	}
	return img, nil
}

// readCopyFresh opens the copy in dir on a fresh connection (so nothing is
// served from an old page cache), reads and checks it, and closes it.
func readCopyFresh(dir, check string) (*copyImage, error) {
	p := filepath.Join(dir, DBName)
	if _, err := os.Stat(p); err != nil {
		if os.IsNotExist(err) {
			return nil, errMissing
		}
		return nil, err
	}
	db, err := openDB(p, false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return readImage(db, check)
}

// fingerprint hashes the bytes of ledger.db and ledger.db-wal.
//
// Verify fingerprints both copies before and after every game: the file
// is read through one pooled buffer, not a new 32 KiB one per file (the
// struct hides *os.File's WriteTo, which would allocate its own).
func fingerprint(dir string) ([32]byte, error) {
	buf := fingerprintBuf.Get().(*[]byte)
	defer fingerprintBuf.Put(buf)
	h := sha256.New()
	for _, n := range []string{DBName, DBName + "-wal"} {
		f, err := os.Open(filepath.Join(dir, n))
		if err != nil {
			if os.IsNotExist(err) {
				h.Write([]byte("absent:" + n))
				continue
			}
			return [32]byte{}, err
		}
		h.Write([]byte("file:" + n))
		_, err = io.CopyBuffer(h, struct{ io.Reader }{f}, *buf)
		f.Close()
		if err != nil {
			return [32]byte{}, err
		}
	}
	var out [32]byte
	h.Sum(out[:0])
	return out, nil
}

var fingerprintBuf = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// snapshotTo writes a consistent copy of the database open in db to
// dir/ledger.db, replacing what is there: VACUUM INTO a temporary file,
// fsync, remove the old WAL and SHM, rename, fsync the directory. A crash at
// any point leaves either the old files or the new one, never a mix with
// the old WAL.
func snapshotTo(db *sql.DB, dir, tmpName string) error {
	tmp := filepath.Join(dir, tmpName)
	os.Remove(tmp)
	if _, err := db.Exec(`VACUUM INTO ?`, tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("vacuum into: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	for _, n := range []string{DBName + "-wal", DBName + "-shm"} {
		if err := os.Remove(filepath.Join(dir, n)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	if err := os.Rename(tmp, filepath.Join(dir, DBName)); err != nil {
		return err
	}
	return syncDir(dir)
}

func sameImage(a, b *copyImage) bool {
	return a != nil && b != nil && a.head.Seq == b.head.Seq && a.head.Hash == b.head.Hash &&
		a.digest == b.digest && bytes.Equal(a.head.Entry, b.head.Entry)
}

package server

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The store fails closed, loudly: the server keeps the identity of the
// database file and its WAL as opened and checks them before every batch
// and every second; a file deleted, replaced or unreadable breaks the
// store (every request is then UNAVAILABLE / STORE_FAILED, and the reason
// is logged), because replies could no longer be promised durable. And a
// store that was initialised (its id written to Config.StoreMarker) is
// never silently created again: a missing or another database at start
// is refused unless Config.InitStore says to make a new one.

// ErrStoreMissing refuses to start on a missing or replaced store.
var ErrStoreMissing = errors.New("central store: missing or replaced")

// storeFilesCheckEvery spaces the checks made while no request comes.
const storeFilesCheckEvery = time.Second

type storeFiles struct {
	path    string
	db, wal os.FileInfo
}

func (f *storeFiles) snapshot() error {
	st, err := os.Stat(f.path)
	if err != nil {
		return err
	}
	f.db = st
	if w, err := os.Stat(f.path + "-wal"); err == nil {
		f.wal = w
	}
	return nil
}

// check compares the files with what was opened; readable also opens the
// database file for reading (the periodic check).
func (f *storeFiles) check(readable bool) error {
	if f.path == "" {
		return nil // PostgreSQL: no file of the server's own
	}
	st, err := os.Stat(f.path)
	if err != nil {
		return fmt.Errorf("database file: %w", err)
	}
	if !os.SameFile(st, f.db) {
		return fmt.Errorf("database file %s was replaced", f.path)
	}
	if f.wal != nil {
		w, err := os.Stat(f.path + "-wal")
		if err != nil {
			return fmt.Errorf("write-ahead log: %w", err)
		}
		if !os.SameFile(w, f.wal) {
			return fmt.Errorf("write-ahead log %s-wal was replaced", f.path)
		}
	}
	if readable {
		r, err := os.Open(f.path)
		if err != nil {
			return fmt.Errorf("database file unreadable: %w", err)
		}
		r.Close()
	}
	return nil
}

// storeIdentity checks the store against its marker before it is opened
// (a marker but no database: refused) and after (another store id:
// refused), and writes the marker the first time.
func checkStoreBefore(path, marker string, init bool) error {
	if marker == "" || init {
		return nil
	}
	id, err := os.ReadFile(marker)
	if errors.Is(err, os.ErrNotExist) {
		return nil // never initialised: the first start makes it
	}
	if err != nil {
		return fmt.Errorf("central store marker: %w", err)
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: %s does not exist, but %s says store %s was initialised here; an explicit init makes a new one",
			ErrStoreMissing, path, marker, strings.TrimSpace(string(id)))
	}
	return nil
}

func checkStoreAfter(db *sql.DB, marker string, init bool) (string, error) {
	var id string
	err := db.QueryRow(`SELECT value FROM meta WHERE key='store_id'`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		// Nodes starting together on one PostgreSQL: the first id stays.
		if _, err := db.Exec(`INSERT INTO meta(key, value) VALUES('store_id', ?) ON CONFLICT(key) DO NOTHING`, hex.EncodeToString(b[:])); err != nil {
			return "", err
		}
		if err := db.QueryRow(`SELECT value FROM meta WHERE key='store_id'`).Scan(&id); err != nil {
			return "", err
		}
	} else if err != nil {
		return "", err
	}
	if marker == "" {
		return id, nil
	}
	old, err := os.ReadFile(marker)
	switch {
	case err == nil && strings.TrimSpace(string(old)) == id:
		return id, nil
	case err == nil && !init:
		return "", fmt.Errorf("%w: the database is store %s, but %s says store %s; an explicit init adopts it", ErrStoreMissing, id, marker, strings.TrimSpace(string(old)))
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("central store marker: %w", err)
	}
	// A temporary file of its own: nodes sharing a marker may start
	// together (they write the same id).
	f, err := os.CreateTemp(filepath.Dir(marker), filepath.Base(marker)+".tmp-*")
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(id + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), marker)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return id, nil
}

package ledger

import (
	"path/filepath"
	"testing"
)

// Every ledger connection's page cache is bounded at 512 KiB (dsn): the
// cache is memory SQLite keeps, outside the Go heap.
func TestCopyPageCacheBounded(t *testing.T) {
	db, err := openDB(filepath.Join(t.TempDir(), DBName), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var kib int
	if err := db.QueryRow(`PRAGMA cache_size`).Scan(&kib); err != nil || kib != -512 {
		t.Fatalf("cache_size %d (%v), want -512 (KiB)", kib, err)
	}
}

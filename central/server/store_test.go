package server

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// The watchdog's probe fails when the writer is stuck, when the store has
// failed a commit, and once the store is closed; it passes otherwise.
func TestStoreProbe(t *testing.T) {
	st, err := openStore(filepath.Join(t.TempDir(), "c.db"), "", false)
	if err != nil {
		t.Fatal(err)
	}
	quick := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		return st.probe(ctx)
	}
	if err := quick(); err != nil {
		t.Fatalf("healthy store: %v", err)
	}
	release := make(chan struct{})
	stuck := make(chan error, 1)
	go func() {
		stuck <- st.write(context.Background(), func(*sql.Tx) error { <-release; return nil })
	}()
	time.Sleep(20 * time.Millisecond)
	if err := quick(); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("stuck writer: %v", err)
	}
	close(release)
	if err := <-stuck; err != nil {
		t.Fatal(err)
	}
	if err := quick(); err != nil {
		t.Fatalf("writer free again: %v", err)
	}
	st.mu.Lock()
	st.broken = errStoreFailed
	st.mu.Unlock()
	if err := quick(); !errors.Is(err, errStoreFailed) {
		t.Fatalf("failed store: %v", err)
	}
	st.close()
	if err := quick(); !errors.Is(err, errStoreClosed) {
		t.Fatalf("closed store: %v", err)
	}
}

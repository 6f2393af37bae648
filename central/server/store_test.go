package server

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// The watchdog's probe fails when the writer is stuck, when the store has
// failed a commit, and once the store is closed; it passes otherwise.
func TestStoreProbe(t *testing.T) {
	st, err := openStore(filepath.Join(t.TempDir(), "c.db"), "", false)
	if err != nil {
		t.Fatal(err)
	}
	quick := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(200*time.Millisecond))
		defer cancel()
		return st.probe(ctx)
	}
	if err := quick(); err != nil {
		t.Fatalf("healthy store: %v", err)
	}
	release := make(chan struct{})
	stuck := make(chan error, 1)
	inside := make(chan struct{})
	go func() {
		stuck <- st.write(context.Background(), func(*sql.Tx) error { close(inside); <-release; return nil })
	}()
	// The writer holds the store once its transaction's function runs.
	select {
	case <-inside:
	case err := <-stuck:
		t.Fatalf("the writer returned before it was released: %v", err)
	case <-poll.After(5 * time.Second):
		t.Fatal("the writer never got the store")
	}
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

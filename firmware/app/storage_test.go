package app

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The free space reported is the file system's (as statfs gives it, for the
// fuller of the two copies' file systems); a missing directory is an error
// the cabinet shows as a tilt.
func TestStorageHealthReadsTheFileSystem(t *testing.T) {
	a, b := t.TempDir(), "/dev/shm"
	if _, err := os.Stat(b); err != nil {
		b = t.TempDir()
	}
	h := storageHealth(a, b)
	if h.Err != nil {
		t.Fatal(h.Err)
	}
	for _, d := range []string{a, b} {
		var st syscall.Statfs_t
		if err := syscall.Statfs(d, &st); err != nil {
			t.Fatal(err)
		}
		if free := int64(st.Bavail) * int64(st.Bsize); h.Free > free+1<<20 {
			t.Fatalf("free %d, more than %s has (%d)", h.Free, d, free)
		}
	}
	if h.Free <= 0 {
		t.Fatalf("free %d", h.Free)
	}
	if h := storageHealth(a, filepath.Join(a, "missing")); h.Err == nil {
		t.Fatal("a missing ledger directory reads as healthy")
	}
}

package ledger

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// stRdonly is statfs's ST_RDONLY: the file system is mounted read-only
// (also when the kernel remounted it so after an error).
const stRdonly = 1

// health says whether the copy's file system can take a transaction now:
// statfs answers, it is not mounted read-only, at least reserve bytes are
// free to an unprivileged writer (reserve ≤ 0: not checked), and the
// directory and the database files may be written. access(2) is asked
// rather than the mode bits because root passes those: it also refuses an
// immutable file (chattr +i) and a read-only mount. All of it is a few
// system calls, beside a commit's two fsyncs.
func (s *store) health(reserve int64) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(s.dir, &st); err != nil {
		return fmt.Errorf("statfs %s: %w", s.dir, err)
	}
	if st.Flags&stRdonly != 0 {
		return fmt.Errorf("%s: %w", s.dir, syscall.EROFS)
	}
	if free := int64(st.Bavail) * int64(st.Bsize); reserve > 0 && free < reserve {
		return &SpaceError{Free: free, Reserve: reserve}
	}
	for _, p := range []string{s.dir, s.path(), s.path() + "-wal"} {
		if err := syscall.Access(p, 2 /* W_OK */); err != nil {
			if err == syscall.ENOENT && p != s.dir {
				continue // made by SQLite (the WAL) or a rebuild when needed
			}
			return &os.PathError{Op: "access for writing", Path: filepath.Clean(p), Err: err}
		}
	}
	return nil
}

package ledger

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/polaris-vlt/polaris/internal/hosttools"
	"golang.org/x/sys/unix"
)

// These tests put one copy on a file system of its own that they can fill
// or make read-only (a small tmpfs) or kill (an ext4 loop image), mounted
// as root (CI runs as root).

const (
	faultFS      = 12 << 20 // the small file system's size
	faultReserve = 2 << 20  // Options.FreeReserve on it
)

// smallFS mounts a tmpfs of size bytes and returns its directory; it is
// unmounted when the test ends (after the ledger is closed).
func smallFS(t *testing.T, size int64) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: mounts a small tmpfs for one ledger copy (CI runs as root)")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0700", size)); err != nil {
		t.Fatalf("mount tmpfs on %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			syscall.Unmount(dir, syscall.MNT_DETACH)
		}
	})
	return dir
}

// fill writes dir/fill until the file system is full.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "fill")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// large writes first, then ever smaller ones, to the last free byte
	for size := 64 << 10; size > 0; size /= 4 {
		buf := make([]byte, size)
		for {
			if _, err := f.Write(buf); err != nil {
				if errors.Is(err, syscall.ENOSPC) {
					break
				}
				t.Fatal(err)
			}
		}
	}
	return p
}

// setImmutable sets or clears chattr +i on path: root may still open a
// 0444 file for writing, not an immutable one.
func setImmutable(t *testing.T, path string, on bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		t.Fatalf("FS_IOC_GETFLAGS %s: %v", path, err)
	}
	const immutable = 0x10 // FS_IMMUTABLE_FL
	if on {
		flags |= immutable
	} else {
		flags &^= immutable
	}
	if err := unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(flags)); err != nil {
		t.Fatalf("FS_IOC_SETFLAGS %s: %v", path, err)
	}
}

func remount(t *testing.T, dir string, ro bool) {
	t.Helper()
	flags := uintptr(syscall.MS_REMOUNT)
	if ro {
		flags |= syscall.MS_RDONLY
	}
	if err := syscall.Mount("", dir, "", flags, ""); err != nil {
		t.Fatalf("remount %s (ro=%v): %v", dir, ro, err)
	}
}

// faultOptions puts copy `on` ("A" or "B") on a small tmpfs.
func faultOptions(t *testing.T, on string, reserve int64) Options {
	o := testOptions(t)
	fs := smallFS(t, faultFS)
	if on == "A" {
		o.DirA = filepath.Join(fs, "a")
	} else {
		o.DirB = filepath.Join(fs, "b")
	}
	o.FreeReserve = reserve
	return o
}

// books is what the test acknowledged: the credit and coin in/out the
// ledger must show, nothing lost or doubled.
type books struct{ credit, bills, in, out int64 }

func (b *books) check(t *testing.T, l *Ledger) {
	t.Helper()
	c, suspect := l.Credit()
	m, _ := l.Meters(ScopeCabinet)
	if suspect || c != b.credit || m[BillsInValue] != b.bills || m[CoinIn] != b.in || m[CoinOut] != b.out {
		t.Fatalf("credit %d (suspect %v), bills %d, coin in %d, coin out %d; acknowledged: credit %d, bills %d, coin in %d, coin out %d",
			c, suspect, m[BillsInValue], m[CoinIn], m[CoinOut], b.credit, b.bills, b.in, b.out)
	}
	if st := l.Status(); !st.InvariantOK {
		t.Fatalf("invariant: %s", st.Invariant)
	}
}

// bill stacks a note; a refused one changes nothing.
func (b *books) bill(l *Ledger, value int64) error {
	id := l.NextDocID()
	if err := l.Escrow(id, DocBill, value, ""); err != nil {
		return err
	}
	if err := l.Stacked(id, value); err != nil {
		return err
	}
	b.credit += value
	b.bills += value
	return nil
}

// round plays one round, each step acknowledged or refused whole; a round
// left open by a refused step is finished by the next call (as the cabinet
// finishes it after the fault).
func (b *books) round(l *Ledger, stake, win int64) error {
	n := l.NextRound()
	if r, ok := l.OpenRound(); ok {
		n = r.Number
	} else {
		if err := l.Wager(Wager{Round: n, Game: "wishstar", Denom: 1, Stake: stake, Choices: []byte(`{}`)}); err != nil {
			return err
		}
		b.credit -= stake
		b.in += stake
	}
	r, _ := l.OpenRound()
	if r.Status == RoundWagered {
		if err := l.Outcome(n, win, []byte(`{"tape":[1]}`)); err != nil {
			return err
		}
	}
	r, _ = l.OpenRound()
	if err := l.Settle(n, Settlement{Credit: r.PendingWin}); err != nil {
		return err
	}
	b.credit += r.PendingWin
	b.out += r.PendingWin
	return nil
}

// copyHoldsAll reads the copy in dir on its own and checks it holds
// exactly what memory holds: every committed transaction, no other.
func copyHoldsAll(t *testing.T, l *Ledger, dir string) {
	t.Helper()
	img, err := readCopyFresh(dir, "integrity_check")
	if err != nil {
		t.Fatalf("copy in %s: %v", dir, err)
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if img.head.Seq != l.head.Seq || img.head.Hash != l.head.Hash || img.digest != l.digest {
		t.Fatalf("copy in %s at transaction %d, memory at %d (or rows differ)", dir, img.head.Seq, l.head.Seq)
	}
}

func wantFault(t *testing.T, l *Ledger, err error, copyName string, cause error) *CopyFault {
	t.Helper()
	var cf *CopyFault
	if !errors.Is(err, ErrCopyFault) || !errors.As(err, &cf) {
		t.Fatalf("want a copy fault on copy %s, got %v", copyName, err)
	}
	if cf.Copy != copyName {
		t.Fatalf("fault names copy %s, want %s: %v", cf.Copy, copyName, cf)
	}
	if cause != nil && cf.Err != nil && !errors.Is(err, cause) {
		t.Fatalf("fault cause %v, want %v", cf.Err, cause)
	}
	if l.RAMError() != nil {
		t.Fatalf("RAM error: %v", l.RAMError())
	}
	if fs := l.Faults(); len(fs) != 1 || fs[0].Copy != copyName {
		t.Fatalf("Faults() = %+v", fs)
	}
	return cf
}

// refusedWhileFaulted: every write is refused with the fault and changes
// nothing; reads are not suspect; Verify reports the fault.
func refusedWhileFaulted(t *testing.T, l *Ledger, b *books, copyName string) {
	t.Helper()
	seq := l.Seq()
	wantFault(t, l, b.bill(l, 500), copyName, nil)
	wantFault(t, l, l.LogEvent("door_open", "main", "x", 0, nil), copyName, nil)
	if _, err := l.Verify("during the fault"); !errors.Is(err, ErrCopyFault) {
		t.Fatalf("Verify during the fault: %v", err)
	}
	if l.Seq() != seq {
		t.Fatalf("a refused write moved the ledger from %d to %d", seq, l.Seq())
	}
	b.check(t, l)
}

// repairAndPlay repairs, checks the events and that play resumes with
// every count exact, and that a reopened ledger agrees.
func repairAndPlay(t *testing.T, l *Ledger, o Options, b *books) {
	t.Helper()
	if err := l.Repair("technician 7"); err != nil {
		t.Fatalf("repair: %v", err)
	}
	if fs := l.Faults(); len(fs) != 0 || l.RAMError() != nil {
		t.Fatalf("after repair: faults %+v, RAM error %v", fs, l.RAMError())
	}
	if !hasEvent(l, EventCopyFault) || !hasEvent(l, EventCopyRebuilt) {
		t.Fatal("the fault and the rebuild are not in the event log")
	}
	for _, d := range []string{o.DirA, o.DirB} {
		if _, err := os.Stat(filepath.Join(d, faultName)); !os.IsNotExist(err) {
			t.Fatalf("fault marker left in %s (%v)", d, err)
		}
	}
	must(t, b.bill(l, 2000))
	for range 5 {
		must(t, b.round(l, 100, 150))
	}
	b.check(t, l)
	if _, err := l.Verify("after repair"); err != nil {
		t.Fatal(err)
	}
	copyHoldsAll(t, l, o.DirA)
	copyHoldsAll(t, l, o.DirB)
	must(t, l.Close())
	l2, err := Open(o)
	must(t, err)
	defer l2.Close()
	if l2.RAMError() != nil || len(l2.Faults()) != 0 {
		t.Fatalf("reopened: RAM error %v, faults %+v", l2.RAMError(), l2.Faults())
	}
	b.check(t, l2)
}

// A copy's file system fills up: the check before the transaction finds it
// below the reserve, so nothing is even attempted on either copy.
func TestCopyFaultFullDisk(t *testing.T) {
	for _, on := range []string{"A", "B"} {
		t.Run("copy "+on, func(t *testing.T) {
			o := faultOptions(t, on, faultReserve)
			l, err := Create(o, "installer")
			must(t, err)
			t.Cleanup(func() { l.Close() })
			var b books
			must(t, b.bill(l, 10000))
			for range 5 {
				must(t, b.round(l, 100, 40))
			}
			dir := o.DirA
			if on == "B" {
				dir = o.DirB
			}
			p := fill(t, filepath.Dir(dir))
			err = b.bill(l, 1000)
			cf := wantFault(t, l, err, on, ErrLowSpace)
			if cf.Op != "escrow" {
				t.Fatalf("fault on op %q", cf.Op)
			}
			b.check(t, l)
			copyHoldsAll(t, l, map[string]string{"A": o.DirB, "B": o.DirA}[on])
			refusedWhileFaulted(t, l, &b, on)
			if err := l.Repair("technician 7"); !errors.Is(err, ErrLowSpace) || l.RAMError() != nil {
				t.Fatalf("repair while still full: %v (RAM error %v)", err, l.RAMError())
			}
			must(t, os.Remove(p))
			repairAndPlay(t, l, o, &b)
		})
	}
}

// With the reserve check off the write itself fails (SQLite: disk full)
// part-way through the copies: on copy A before copy B is written, on copy
// B after copy A took the transaction, which copy A then takes back. Both
// orders and the parallel commit: refused whole, nothing half-written.
func TestCopyFaultWriteFails(t *testing.T) {
	for _, c := range []struct {
		on       string
		parallel bool
	}{{"A", false}, {"B", false}, {"A", true}, {"B", true}} {
		t.Run(fmt.Sprintf("copy %s parallel %v", c.on, c.parallel), func(t *testing.T) {
			o := faultOptions(t, c.on, -1)
			o.Parallel = c.parallel
			l, err := Create(o, "installer")
			must(t, err)
			t.Cleanup(func() { l.Close() })
			var b books
			must(t, b.bill(l, 1_000_000))
			dir := map[string]string{"A": o.DirA, "B": o.DirB}[c.on]
			p := fill(t, filepath.Dir(dir))
			// the WAL may still have room for some transactions: play until one is refused
			var refused error
			for i := 0; i < 5000 && refused == nil; i++ {
				refused = b.round(l, 100, int64(i%3)*100)
			}
			cf := wantFault(t, l, refused, c.on, nil)
			t.Logf("refused %s: %v", cf.Op, cf.Cause)
			b.check(t, l)
			copyHoldsAll(t, l, map[string]string{"A": o.DirB, "B": o.DirA}[c.on])
			refusedWhileFaulted(t, l, &b, c.on)
			must(t, os.Remove(p))
			repairAndPlay(t, l, o, &b)
		})
	}
}

// Copy A's database file made read-only (immutable: root ignores 0444)
// while the cabinet runs, then the whole file system remounted read-only.
func TestCopyFaultReadOnly(t *testing.T) {
	t.Run("immutable file", func(t *testing.T) {
		o := faultOptions(t, "A", faultReserve)
		l, err := Create(o, "installer")
		must(t, err)
		t.Cleanup(func() { l.Close() })
		var b books
		must(t, b.bill(l, 5000))
		must(t, b.round(l, 100, 0))
		db := filepath.Join(o.DirA, DBName)
		setImmutable(t, db, true)
		t.Cleanup(func() { setImmutable(t, db, false) })
		wantFault(t, l, b.round(l, 100, 300), "A", syscall.EPERM)
		b.check(t, l)
		copyHoldsAll(t, l, o.DirB)
		refusedWhileFaulted(t, l, &b, "A")
		if err := l.Repair("technician 7"); !errors.Is(err, ErrCopyFault) {
			t.Fatalf("repair while still read-only: %v", err)
		}
		setImmutable(t, db, false)
		repairAndPlay(t, l, o, &b)
	})
	t.Run("read-only mount", func(t *testing.T) {
		o := faultOptions(t, "A", faultReserve)
		l, err := Create(o, "installer")
		must(t, err)
		t.Cleanup(func() { l.Close() })
		var b books
		must(t, b.bill(l, 5000))
		must(t, b.round(l, 100, 0))
		// The kernel refuses a read-only remount while SQLite holds
		// the files open for writing (it does so itself after an
		// error): the fault closes copy A, so the technician's remount
		// goes through.
		setImmutable(t, filepath.Join(o.DirA, DBName), true)
		wantFault(t, l, b.bill(l, 100), "A", nil)
		setImmutable(t, filepath.Join(o.DirA, DBName), false)
		fs := filepath.Dir(o.DirA)
		remount(t, fs, true)
		if err := l.Repair("technician 7"); !errors.Is(err, syscall.EROFS) {
			t.Fatalf("repair on a read-only mount: %v", err)
		}
		refusedWhileFaulted(t, l, &b, "A")
		remount(t, fs, false)
		repairAndPlay(t, l, o, &b)
	})
}

// A restart during the fault opens in the fault (not a RAM error), with
// the values of the good copy; the fault's first time and write are kept.
func TestCopyFaultAcrossRestart(t *testing.T) {
	for _, how := range []string{"full", "read-only mount"} {
		t.Run(how, func(t *testing.T) {
			o := faultOptions(t, "A", faultReserve)
			l, err := Create(o, "installer")
			must(t, err)
			var b books
			must(t, b.bill(l, 7000))
			must(t, b.round(l, 200, 500))
			fs := filepath.Dir(o.DirA)
			var p string
			if how == "full" {
				p = fill(t, fs)
				wantFault(t, l, b.round(l, 100, 0), "A", ErrLowSpace)
			}
			must(t, l.Close())
			if how != "full" {
				remount(t, fs, true)
			}
			for restart := range 2 {
				l, err = Open(o)
				must(t, err)
				if l.RAMError() != nil {
					t.Fatalf("restart %d: RAM error %v", restart, l.RAMError())
				}
				fsList := l.Faults()
				if len(fsList) != 1 || fsList[0].Copy != "A" {
					t.Fatalf("restart %d: faults %+v", restart, fsList)
				}
				if how == "full" && fsList[0].Op != "wager" {
					t.Fatalf("restart %d: the fault's first write %q is not kept", restart, fsList[0].Op)
				}
				b.check(t, l)
				refusedWhileFaulted(t, l, &b, "A")
				if restart == 0 {
					must(t, l.Close())
				}
			}
			t.Cleanup(func() { l.Close() })
			if how == "full" {
				must(t, os.Remove(p))
			} else {
				remount(t, fs, false)
			}
			repairAndPlay(t, l, o, &b)
			// the first round's open wager, if refused, was finished by repairAndPlay's rounds
		})
	}
}

// Both copies on one file system that fills: both faulted by the check
// before the write (nothing was written to either, so it is no RAM error),
// and the repair reads both back against memory.
func TestCopyFaultBothCopiesFull(t *testing.T) {
	o := testOptions(t)
	fs := smallFS(t, faultFS)
	o.DirA, o.DirB, o.FreeReserve = filepath.Join(fs, "a"), filepath.Join(fs, "b"), faultReserve
	l, err := Create(o, "installer")
	must(t, err)
	t.Cleanup(func() { l.Close() })
	var b books
	must(t, b.bill(l, 3000))
	p := fill(t, fs)
	err = b.round(l, 100, 0)
	if !errors.Is(err, ErrCopyFault) || l.RAMError() != nil || len(l.Faults()) != 2 {
		t.Fatalf("both below the reserve: %v, faults %+v, RAM error %v", err, l.Faults(), l.RAMError())
	}
	b.check(t, l)
	must(t, os.Remove(p))
	must(t, l.Repair("technician 7"))
	var texts []string
	for _, e := range l.Events(10) {
		texts = append(texts, e.Kind+": "+e.Text)
	}
	if !strings.Contains(strings.Join(texts, "\n"), "read back equal to memory") {
		t.Fatalf("events after the repair:\n%s", strings.Join(texts, "\n"))
	}
	must(t, b.round(l, 100, 0))
	b.check(t, l)
	copyHoldsAll(t, l, o.DirA)
	copyHoldsAll(t, l, o.DirB)
}

// Verify finds copy A damaged while its directory is read-only (immutable),
// so the copy cannot be rebuilt where it stands: a copy fault (copy B was
// just found equal to memory), not a RAM error; writable again, Repair
// rebuilds it.
func TestCopyFaultVerifyCannotRebuild(t *testing.T) {
	o := faultOptions(t, "A", faultReserve)
	l, err := Create(o, "installer")
	must(t, err)
	t.Cleanup(func() { l.Close() })
	var b books
	must(t, b.bill(l, 4000))
	must(t, b.round(l, 100, 200))
	if _, err := l.Verify("before"); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(o.DirA, DBName), os.O_RDWR, 0)
	must(t, err)
	one := []byte{0}
	_, err = f.ReadAt(one, 4096+200)
	must(t, err)
	one[0] ^= 0x10
	_, err = f.WriteAt(one, 4096+200)
	must(t, err)
	must(t, f.Close())
	setImmutable(t, o.DirA, true)
	t.Cleanup(func() { setImmutable(t, o.DirA, false) })
	_, err = l.Verify("after a game")
	cf := wantFault(t, l, err, "A", nil) // SQLite's "unable to open" names no errno
	if cf.Op != "verify (after a game)" {
		t.Fatalf("fault op %q: %v", cf.Op, cf)
	}
	b.check(t, l)
	copyHoldsAll(t, l, o.DirB)
	refusedWhileFaulted(t, l, &b, "A")
	setImmutable(t, o.DirA, false)
	repairAndPlay(t, l, o, &b)
}

// ext4Shutdown is EXT4_IOC_SHUTDOWN (_IOR('X', 125, __u32)); with
// EXT4_GOING_FLAGS_NOLOGFLUSH every later I/O of the file system fails
// with EIO until it is mounted again: a medium that died.
const (
	ext4Shutdown   = 0x8004587D
	ext4NoLogFlush = 2
)

// loopExt4 mounts a fresh ext4 image of size bytes on a loop device and
// returns its directory and a function that mounts it again (unmounting
// first): what a technician does after the medium failed.
func loopExt4(t *testing.T, size int64) (dir string, remountMedium func()) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: mounts an ext4 loop image for one ledger copy (CI runs as root)")
	}
	mkfs := hosttools.Need(t, "mkfs.ext4")
	mount, umount := hosttools.Need(t, "mount"), hosttools.Need(t, "umount")
	img := filepath.Join(t.TempDir(), "copy-a.img")
	dir = t.TempDir()
	must(t, os.WriteFile(img, nil, 0o600))
	must(t, os.Truncate(img, size))
	run := func(name string, args ...string) error {
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, out)
		}
		return nil
	}
	must(t, run(mkfs, "-q", "-F", img))
	must(t, run(mount, "-o", "loop", img, dir))
	mounted := true
	t.Cleanup(func() {
		if mounted {
			run(umount, dir)
		}
	})
	return dir, func() {
		t.Helper()
		mounted = false
		must(t, run(umount, dir)) // fails (busy) if the ledger still held the faulted copy open
		must(t, run(mount, "-o", "loop", img, dir))
		mounted = true
	}
}

// Copy A's medium fails outright (every I/O an EIO) while the cabinet
// plays: a copy fault, the copy closed so the medium can be unmounted,
// and after it is mounted again Repair rebuilds the copy.
func TestCopyFaultIOError(t *testing.T) {
	fs, remountMedium := loopExt4(t, 32<<20)
	o := testOptions(t)
	o.DirA, o.FreeReserve = filepath.Join(fs, "a"), faultReserve
	l, err := Create(o, "installer")
	must(t, err)
	t.Cleanup(func() { l.Close() })
	var b books
	must(t, b.bill(l, 20000))
	for range 3 {
		must(t, b.round(l, 100, 250))
	}
	root, err := os.Open(fs)
	must(t, err)
	err = unix.IoctlSetPointerInt(int(root.Fd()), ext4Shutdown, ext4NoLogFlush)
	root.Close()
	if err != nil {
		t.Fatalf("EXT4_IOC_SHUTDOWN: %v", err)
	}
	var refused error
	for i := 0; i < 50 && refused == nil; i++ {
		refused = b.round(l, 100, 250)
	}
	cf := wantFault(t, l, refused, "A", nil)
	t.Logf("refused %s: %s", cf.Op, cf.Cause)
	b.check(t, l)
	copyHoldsAll(t, l, o.DirB)
	refusedWhileFaulted(t, l, &b, "A")
	if err := l.Repair("technician 7"); !errors.Is(err, ErrCopyFault) {
		t.Fatalf("repair on the dead medium: %v", err)
	}
	remountMedium()
	repairAndPlay(t, l, o, &b)
}

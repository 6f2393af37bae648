package ledger

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/polaris-vlt/polaris/clock"
)

// ErrReadOnly: a write on an inspection.
var ErrReadOnly = errors.New("ledger: read-only inspection")

// CopyInfo is what one copy holds, judged on its own.
type CopyInfo struct {
	Name    string
	Dir     string
	Present bool
	Valid   bool   // SQLite integrity check, chain and state digest all good
	Problem string // why not
	Seq     uint64 // last sealed transaction (when readable)
	Head    string // its hash, hex
	Marker  *RAMError
}

// Inspection is a read-only view of a ledger directory pair for the
// technician's dump: it never writes to the copies (it reads snapshots of
// their files taken into a temporary directory), so it works on read-only
// media and beside a running cabinet. Its reads are those of a Ledger;
// writes fail with ErrReadOnly.
type Inspection struct {
	*Ledger
	Copies  [2]CopyInfo
	Chosen  string // copy the values come from
	Verdict string // what Open would do
	// What each copy's rows say (nil when unreadable), so a technician
	// can see which suspect values both copies agree on.
	CopyMeters [2]map[Scope]map[Meter]int64
	CopyCredit [2]*int64
}

// Inspect reads both copies without changing them. Values are suspect
// unless a copy verifies and Open would not need a RAM clear.
func Inspect(dirA, dirB string) (*Inspection, error) {
	o, err := Options{DirA: dirA, DirB: dirB, Clock: clock.System{}}.withDefaults()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "polaris-ledger-inspect-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	in := &Inspection{Ledger: newLedger(o)}
	l := in.Ledger
	l.readonly = true
	var imgs [2]*copyImage
	var errs [2]error
	for i, dir := range []string{o.DirA, o.DirB} {
		ci := &in.Copies[i]
		ci.Name, ci.Dir = l.stores[i].name, dir
		if b, err := os.ReadFile(filepath.Join(dir, markerName)); err == nil {
			ci.Marker = &RAMError{Reason: string(b)}
		}
		if _, err := os.Stat(filepath.Join(dir, DBName)); err != nil {
			errs[i] = errMissing
			ci.Problem = "missing"
			continue
		}
		ci.Present = true
		snap := filepath.Join(tmp, ci.Name)
		if err := snapshotFiles(dir, snap); err != nil {
			errs[i] = err
			ci.Problem = err.Error()
			continue
		}
		imgs[i], errs[i] = readCopyFresh(snap, "integrity_check")
		if imgs[i] != nil && len(imgs[i].chain) > 0 {
			h := imgs[i].chain[len(imgs[i].chain)-1]
			ci.Seq, ci.Head = h.Seq, hex.EncodeToString(h.Hash[:])
		}
		if imgs[i] != nil && len(imgs[i].kv) > 0 {
			in.CopyMeters[i] = allMeters(imgs[i].kv)
			c := intOf(imgs[i].kv, "credit")
			in.CopyCredit[i] = &c
		}
		if errs[i] != nil {
			ci.Problem = errs[i].Error()
		} else {
			ci.Valid = true
		}
	}
	marker := in.Copies[0].Marker != nil || in.Copies[1].Marker != nil
	good, notes, rebuild, _, rerr := reconcile(imgs, errs)
	switch {
	case rerr != nil:
		in.Verdict = "RAM error: " + rerr.Error()
		l.suspect = true
		for i, img := range imgs {
			if img != nil && len(img.kv) > 0 {
				l.kv, in.Chosen = img.kv, in.Copies[i].Name+" (unverified)"
				break
			}
		}
	default:
		l.setMemory(imgs[good])
		in.Chosen = in.Copies[good].Name
		in.Verdict = "both copies good and equal"
		for i := range rebuild {
			if rebuild[i] {
				in.Verdict = "at the next open: " + notes[i]
			}
		}
		if marker {
			l.suspect = true
		}
	}
	if marker {
		in.Verdict = "RAM error persisted (marker present); " + in.Verdict
	}
	for _, f := range l.readFaults() {
		if f != nil {
			in.Verdict += fmt.Sprintf("; copy %s faulted since %s at transaction %d (%s): at the next open rebuilt from the other copy if its medium takes writes again, else writes stay refused",
				f.Copy, f.Since, f.Seq, f.Cause)
		}
	}
	if l.kv == nil {
		l.kv = map[string][]byte{}
	}
	if needsMigration(l.kv) {
		in.Verdict += "; at the next open: resume state converted from schema 1"
		l.migrateInMemory(func(key string, err error) {
			in.Verdict += fmt.Sprintf("; resume state %s unreadable (%v): dropped then", key, err)
		})
	}
	return in, nil
}

// migrateInMemory shows an inspection the resume state as the next Open
// will convert it, without writing anything.
func (l *Ledger) migrateInMemory(unreadable func(key string, err error)) {
	kv := make(map[string][]byte, len(l.kv))
	for k, v := range l.kv {
		kv[k] = v
	}
	l.kv = kv
	if l.dig == nil {
		l.dig = newDigester(kv)
	}
	t := newTx(l)
	migrateResume(t, unreadable)
	for k, v := range t.w {
		if v == nil {
			delete(kv, k)
		} else {
			kv[k] = v
		}
	}
}

// snapshotFiles copies ledger.db and its WAL into dir.
func snapshotFiles(from, to string) error {
	if err := os.MkdirAll(to, 0o700); err != nil {
		return err
	}
	for _, n := range []string{DBName, DBName + "-wal"} {
		src, err := os.Open(filepath.Join(from, n))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		dst, err := os.Create(filepath.Join(to, n))
		if err == nil {
			_, err = io.Copy(dst, src)
			if cerr := dst.Close(); err == nil {
				err = cerr
			}
		}
		src.Close()
		if err != nil {
			return fmt.Errorf("snapshot %s: %w", n, err)
		}
	}
	return nil
}

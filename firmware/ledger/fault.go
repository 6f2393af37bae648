package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// DefaultFreeReserve is the free space a copy's file system must keep
// before a transaction is written. It covers a rebuild of the copy (a whole
// ledger.db, 1–2.5 MiB, written beside the old one before the rename) and
// the WAL's growth between checkpoints, so the copy can still be repaired
// where it stands once the reserve is crossed.
const DefaultFreeReserve = 8 << 20

// faultName is the copy-fault marker: the faults in force, kept (fsynced)
// in every copy directory that takes it, so a restart during the fault
// opens in the same state and never takes the faulted copy's files for
// the truth (a write that failed its fsync may still show up in them).
const faultName = "COPYFAULT"

var (
	// ErrCopyFault is matched (errors.Is) by every write refused because a
	// copy cannot be written. The other copy holds every committed
	// transaction; Repair ends it once the medium works again.
	ErrCopyFault = errors.New("ledger: copy fault")
	// ErrLowSpace is matched by a copy fault whose cause is free space
	// below Options.FreeReserve (a *SpaceError).
	ErrLowSpace = errors.New("ledger: free space below the reserve")
)

// SpaceError: a copy's file system has less free space than the reserve.
type SpaceError struct {
	Free, Reserve int64 // bytes
}

func (e *SpaceError) Error() string {
	return fmt.Sprintf("%d KiB free, below the reserve of %d KiB", e.Free>>10, e.Reserve>>10)
}

// Is makes errors.Is(err, ErrLowSpace) true.
func (e *SpaceError) Is(target error) bool { return target == ErrLowSpace }

// CopyFault is one copy that cannot be written (its file system full or
// below the reserve, read-only, an I/O error, a rebuild that does not read
// back) while the ledger still has a good copy. It is not a RAM error:
// nothing is lost, because a transaction is committed only when both copies
// took it (the one that hit the fault was refused on both), and every write
// is refused with the fault until Repair has rebuilt the copy.
type CopyFault struct {
	Copy  string // "A" or "B"
	Dir   string
	Op    string // the write refused when it was found; "open" at Open, "repair" on a repair
	Seq   uint64 // the last transaction: every good copy holds it
	Since string // wall time, RFC 3339
	Cause string // why, as text (what the marker keeps of Err)
	Err   error  `json:"-"` // why (nil when read back from the marker)
}

func (e *CopyFault) Error() string {
	return fmt.Sprintf("ledger: copy %s (%s) cannot be written since %s (%s): %s; writes refused until it is repaired, nothing lost (transaction %d)",
		e.Copy, e.Dir, e.Since, e.Op, e.Cause, e.Seq)
}

// Is makes errors.Is(err, ErrCopyFault) true.
func (e *CopyFault) Is(target error) bool { return target == ErrCopyFault }

// Unwrap gives the cause (errors.Is(err, ErrLowSpace), an errno).
func (e *CopyFault) Unwrap() error { return e.Err }

// Faults lists the copies that cannot be written, A before B; none when
// the ledger writes normally. The cabinet shows each as a technician's
// tilt naming the copy and offers Repair.
func (l *Ledger) Faults() []CopyFault {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var out []CopyFault
	for _, f := range l.faults {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// fault is the first fault in force, nil if none.
func (l *Ledger) fault() *CopyFault {
	for _, f := range l.faults {
		if f != nil {
			return f
		}
	}
	return nil
}

func (l *Ledger) faulted() bool { return l.fault() != nil }

// precheck is run before a transaction is written: a copy whose file
// system cannot take it is faulted now, before a write can fail part-way.
func (l *Ledger) precheck(op string) error {
	var bad [2]error
	for i, s := range l.stores {
		bad[i] = s.health(l.o.FreeReserve)
	}
	if bad[0] == nil && bad[1] == nil {
		return nil
	}
	for i, err := range bad {
		if err != nil {
			l.setFault(i, op, err)
		}
	}
	return l.persistFaults()
}

// setFault records copy i as faulted and closes it, so its medium can be
// unmounted or replaced while the cabinet runs.
func (l *Ledger) setFault(i int, op string, err error) {
	s := l.stores[i]
	s.close()
	l.faults[i] = &CopyFault{Copy: s.name, Dir: s.dir, Op: op, Seq: l.head.Seq,
		Since: l.wall().Format(time.RFC3339), Cause: err.Error(), Err: err}
}

// persistFaults writes the fault marker into every copy directory and
// returns the error for the refused write. A good copy's directory that
// does not take it is no better than a full one: that copy is faulted too
// (memory still holds the truth, and Repair compares both copies with it
// before writing again). Where no directory takes it a restart would not
// know of the fault; a RAM error could not be recorded there either.
func (l *Ledger) persistFaults() error {
	for {
		var list []CopyFault
		for _, f := range l.faults {
			if f != nil {
				list = append(list, *f)
			}
		}
		b, _ := json.Marshal(list)
		again := false
		for i, s := range l.stores {
			err := writeFileSynced(s.dir, faultName, b)
			if err != nil && l.faults[i] == nil {
				l.setFault(i, "fault marker", fmt.Errorf("the other copy's fault cannot be recorded here: %w", err))
				again = true
			}
		}
		if !again {
			return l.fault()
		}
	}
}

// readFaults reads the fault marker of either directory.
func (l *Ledger) readFaults() [2]*CopyFault {
	var out [2]*CopyFault
	for _, s := range l.stores {
		b, err := os.ReadFile(filepath.Join(s.dir, faultName))
		if err != nil {
			continue
		}
		var list []CopyFault
		if json.Unmarshal(b, &list) != nil {
			// unreadable: whatever it named is unknown, so both copies
			// are read as usual and must agree
			continue
		}
		for _, f := range list {
			for i, t := range l.stores {
				if f.Copy == t.name && out[i] == nil {
					out[i] = &f
				}
			}
		}
	}
	return out
}

func (l *Ledger) removeFaultMarkers() {
	for _, s := range l.stores {
		if os.Remove(filepath.Join(s.dir, faultName)) == nil {
			syncDir(s.dir)
		}
	}
}

// faultEvents are the events that record a fault once it is over (they
// could not be written during it): when it began, on which write and why.
func faultEvents(fs [2]*CopyFault, how string) []Event {
	var out []Event
	for _, f := range fs {
		if f == nil {
			continue
		}
		out = append(out, Event{Kind: EventCopyFault, Source: "copy " + f.Copy,
			Text: fmt.Sprintf("copy %s (%s) could not be written from %s at transaction %d (%s): %s; writes were refused until %s",
				f.Copy, f.Dir, f.Since, f.Seq, f.Op, f.Cause, how)})
	}
	return out
}

// Repair is the technician's retry after a copy fault (and may be called
// periodically): each faulted copy's file system must take writes again
// (writable, free space above the reserve); the copy is then rebuilt from
// the good one, read back with integrity_check and compared with memory,
// the fault and the rebuild are logged as events, and writes resume. With
// both copies faulted (both failed the check before a write, or a good
// copy's directory refused the fault marker) each is read back and
// compared with memory instead, and one that differs is rebuilt from the
// other. It returns
// nil when no fault remains, the *CopyFault (with its new cause) when a
// copy is still unfit, or the *RAMError when no good copy is left. who
// names the technician (the events' source).
func (l *Ledger) Repair(who string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.readonly {
		return ErrReadOnly
	}
	if l.closed {
		return ErrClosed
	}
	if l.ram != nil {
		return l.ram
	}
	if !l.faulted() {
		return nil
	}
	if who == "" {
		return invalid("a repair needs the technician's name")
	}
	still := func(i int, err error) error {
		f := l.faults[i]
		f.Cause, f.Err = err.Error(), err
		for j, f := range l.faults {
			if f != nil {
				l.stores[j].close() // its medium stays free to unmount
			}
		}
		return l.persistFaults()
	}
	for i, f := range l.faults {
		if f == nil {
			continue
		}
		os.MkdirAll(l.stores[i].dir, 0o700) // a replaced medium comes back empty; health says if it failed
		if err := l.stores[i].health(l.o.FreeReserve); err != nil {
			return still(i, err)
		}
	}
	src := -1
	for i, f := range l.faults {
		if f == nil && l.stores[i].db != nil {
			src = i
			break
		}
	}
	var texts []string
	if src < 0 {
		// Both faulted: each must still equal memory (a copy that took a
		// refused write took it back, one that failed it may not have
		// rolled it back and is rebuilt from the other).
		var bad [2]error
		for i, s := range l.stores {
			s.close()
			if bad[i] = s.open(); bad[i] == nil {
				_, bad[i] = l.checkStore(s)
			}
		}
		switch {
		case bad[0] != nil && bad[1] != nil:
			l.enterRAMError(fmt.Sprintf("repair: no copy equals memory: A: %v; B: %v", bad[0], bad[1]), [2]*copyImage{})
			return l.ram
		case bad[0] != nil || bad[1] != nil:
			i := 0
			if bad[1] != nil {
				i = 1
			}
			if err := l.rebuild(i, 1-i); err != nil {
				return still(i, fmt.Errorf("rebuild from copy %s: %w", l.stores[1-i].name, err))
			}
			texts = append(texts, fmt.Sprintf("copy %s differed from memory (%v); rebuilt from copy %s by %s and verified equal",
				l.stores[i].name, bad[i], l.stores[1-i].name, who))
		}
		for i := range l.faults {
			if bad[i] == nil {
				texts = append(texts, fmt.Sprintf("copy %s writable again; read back equal to memory by %s", l.stores[i].name, who))
			}
		}
	} else {
		for i, f := range l.faults {
			if f == nil {
				continue
			}
			if err := l.rebuild(i, src); err != nil {
				return still(i, fmt.Errorf("rebuild from copy %s: %w", l.stores[src].name, err))
			}
			texts = append(texts, fmt.Sprintf("copy %s rebuilt from copy %s by %s and verified equal (transaction %d)",
				l.stores[i].name, l.stores[src].name, who, l.head.Seq))
		}
	}
	old := l.faults
	events := append(l.deferred, faultEvents(old, "repaired by "+who)...)
	for _, text := range texts {
		events = append(events, Event{Kind: EventCopyRebuilt, Source: who, Text: text})
	}
	l.faults = [2]*CopyFault{}
	l.deferred = nil
	if err := l.logEvents(events); err != nil {
		// the events' own write met a fault (or worse): keep them
		l.deferred = events
		return err
	}
	l.removeFaultMarkers()
	return l.migrate()
}

// logEvents writes events in one transaction.
func (l *Ledger) logEvents(events []Event) error {
	if len(events) == 0 {
		return nil
	}
	return l.exec("event", events, func(t *tx) error {
		for _, e := range events {
			t.event(e.Kind, e.Source, e.Text, 0, nil)
		}
		return nil
	})
}

// writeFileSynced writes dir/name through a temporary file, fsynced and
// renamed into place.
func writeFileSynced(dir, name string, b []byte) error {
	tmp := filepath.Join(dir, name+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := syncFile(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

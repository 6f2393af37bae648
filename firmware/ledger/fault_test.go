package ledger

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func writeFaultMarker(t *testing.T, dir string, fs ...CopyFault) {
	t.Helper()
	b, err := json.Marshal(fs)
	must(t, err)
	must(t, writeFileSynced(dir, faultName, b))
}

func countEvents(l *Ledger, kind string) int {
	n := 0
	for _, e := range l.Events(EventsKeep) {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// Copy A failed a write whose data still reached its files (an fsync that
// failed after the WAL got the frames): after a restart copy A is one
// transaction ahead of copy B, which without the marker is an interrupted
// write rolled forward. With the marker naming copy A the refused
// transaction stays refused: copy A is rebuilt from copy B.
func TestCopyFaultMarkerBeatsRollForward(t *testing.T) {
	l, o := newTestLedger(t)
	insertBill(t, l, 5000)
	playRound(t, l, "wishstar", 1, 100, 300)
	want := snapshot(l)
	seq := l.Seq()
	d := t.TempDir()
	oldB := filepath.Join(d, "oldB")
	image(t, o.DirB, oldB)
	insertBill(t, l, 2000) // the write copy A "failed" but kept
	o2 := o
	o2.DirA, o2.DirB = filepath.Join(d, "a"), filepath.Join(d, "b")
	image(t, o.DirA, o2.DirA)
	must(t, os.Rename(oldB, o2.DirB))
	writeFaultMarker(t, o2.DirB, CopyFault{Copy: "A", Dir: o2.DirA, Op: "escrow", Seq: seq,
		Since: "2026-11-29T12:00:00Z", Cause: "disk I/O error"})

	l2, err := Open(o2)
	must(t, err)
	defer l2.Close()
	if l2.RAMError() != nil || len(l2.Faults()) != 0 {
		t.Fatalf("RAM error %v, faults %+v", l2.RAMError(), l2.Faults())
	}
	sameState(t, withoutEvents(want), withoutEvents(snapshot(l2)))
	if hasEvent(l2, EventInterrupted) || !hasEvent(l2, EventCopyFault) || !hasEvent(l2, EventCopyRebuilt) {
		t.Fatalf("events: interrupted %v, copy fault %v, rebuilt %v",
			hasEvent(l2, EventInterrupted), hasEvent(l2, EventCopyFault), hasEvent(l2, EventCopyRebuilt))
	}
	for _, dir := range []string{o2.DirA, o2.DirB} {
		if _, err := os.Stat(filepath.Join(dir, faultName)); !os.IsNotExist(err) {
			t.Fatalf("marker left in %s", dir)
		}
	}
	if _, err := l2.Verify("test"); err != nil {
		t.Fatal(err)
	}
}

// Repair logged the fault's events and stopped before removing the
// marker: the next Open finds both copies equal and past the marker's
// transaction, removes it and logs the fault no second time.
func TestCopyFaultStaleMarker(t *testing.T) {
	l, o := newTestLedger(t)
	insertBill(t, l, 5000)
	seq := l.Seq()
	must(t, l.LogEvent(EventCopyFault, "copy A", "logged by the repair", 0, nil))
	must(t, l.Close())
	writeFaultMarker(t, o.DirA, CopyFault{Copy: "A", Dir: o.DirA, Op: "wager", Seq: seq,
		Since: "2026-11-29T12:00:00Z", Cause: "disk full"})
	l2, err := Open(o)
	must(t, err)
	defer l2.Close()
	if l2.RAMError() != nil || len(l2.Faults()) != 0 {
		t.Fatalf("RAM error %v, faults %+v", l2.RAMError(), l2.Faults())
	}
	if n := countEvents(l2, EventCopyFault); n != 1 {
		t.Fatalf("%d copy_fault events", n)
	}
	if _, err := os.Stat(filepath.Join(o.DirA, faultName)); !os.IsNotExist(err) {
		t.Fatal("stale marker left")
	}
}

// A marker naming copy A at the head both copies hold (a fault found by
// the check before a write, nothing written): the copies are equal, so
// the next Open ends the fault without a rebuild, and logs it.
func TestCopyFaultMarkerCopiesEqual(t *testing.T) {
	l, o := newTestLedger(t)
	insertBill(t, l, 5000)
	seq := l.Seq()
	must(t, l.Close())
	writeFaultMarker(t, o.DirB, CopyFault{Copy: "A", Dir: o.DirA, Op: "wager", Seq: seq,
		Since: "2026-11-29T12:00:00Z", Cause: "below the reserve"})
	l2, err := Open(o)
	must(t, err)
	defer l2.Close()
	if l2.RAMError() != nil || len(l2.Faults()) != 0 {
		t.Fatalf("RAM error %v, faults %+v", l2.RAMError(), l2.Faults())
	}
	if countEvents(l2, EventCopyFault) != 1 || hasEvent(l2, EventCopyRebuilt) {
		t.Fatal("want the fault logged once and no rebuild")
	}
	if c, _ := l2.Credit(); c != 5000 {
		t.Fatalf("credit %d", c)
	}
}

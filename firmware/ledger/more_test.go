package ledger

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// testExec runs fn as a real ledger transaction (tests only).
func testExec(t testing.TB, l *Ledger, fn func(*tx) error) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	must(t, l.exec("test", nil, fn))
}

// A meter at its maximum rolls over to 0, and the meter invariant (kept
// modulo the meter size) still holds across the rollover.
func TestMeterRollsOverAtMaximum(t *testing.T) {
	l, _ := newTestLedger(t)
	insertBill(t, l, 10000)
	max := MeterModulus - 1
	testExec(t, l, func(t *tx) error {
		cab := t.meterMap(ScopeCabinet)
		g := t.meterMap(GameScope("wish"))
		// set coin in to 999 999 999 950 and keep the invariant: the
		// base absorbs the 999 999 999 950 the meter gained
		t.putJSON("inv/base", int64(max-49))
		cab[CoinIn], g[CoinIn] = max-49, max-49
		t.dirty[ScopeCabinet], t.dirty[GameScope("wish")] = true, true
		return nil
	})
	if !l.Status().InvariantOK {
		t.Fatalf("setup broke the invariant: %s", l.Status().Invariant)
	}
	playRound(t, l, "wish", 1, 40, 0) // 999 999 999 990
	if m, _ := l.Meters(ScopeCabinet); m[CoinIn] != max-9 {
		t.Fatalf("coin in %d", m[CoinIn])
	}
	playRound(t, l, "wish", 1, 25, 0) // past the maximum: 15
	cab, _ := l.Meters(ScopeCabinet)
	g, _ := l.Meters(GameScope("wish"))
	if cab[CoinIn] != 15 || g[CoinIn] != 15 {
		t.Fatalf("after rollover coin in cabinet %d game %d, want 15", cab[CoinIn], g[CoinIn])
	}
	if !l.Status().InvariantOK || hasEvent(l, EventInvariantBroken) {
		t.Fatalf("invariant across rollover: %s", l.Status().Invariant)
	}
	if c, _ := l.Credit(); c != 10000-65 {
		t.Fatalf("credit %d", c)
	}
	if fmt.Sprint(MeterModulus-1) != "999999999999" {
		t.Fatal("meters must have 12 digits")
	}
}

// A transaction that breaks the meter invariant is logged as an event, and
// so is its repair.
func TestInvariantBreakLogged(t *testing.T) {
	l, _ := newTestLedger(t)
	insertBill(t, l, 1000)
	testExec(t, l, func(t *tx) error { t.addCredit(7); return nil }) // credit out of nowhere
	st := l.Status()
	if st.InvariantOK || !strings.Contains(st.Invariant, "credit 1007") {
		t.Fatalf("status %+v", st)
	}
	if e := l.Events(1); len(e) != 1 || e[0].Kind != EventInvariantBroken {
		t.Fatalf("events %+v", e)
	}
	insertBill(t, l, 500) // still broken: logged once, not per transaction
	n := 0
	for _, e := range l.Events(100) {
		if e.Kind == EventInvariantBroken {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d invariant events", n)
	}
	testExec(t, l, func(t *tx) error { t.addCredit(-7); return nil })
	if !l.Status().InvariantOK || l.Events(1)[0].Kind != EventInvariantOK {
		t.Fatal("repair not logged")
	}
}

func TestOutbox(t *testing.T) {
	l, o := newTestLedger(t)
	ob := l
	id1, err := ob.Enqueue("meters", []byte("m1"))
	must(t, err)
	id2, err := ob.Enqueue("events", []byte("e1"))
	must(t, err)
	if id2 <= id1 {
		t.Fatal("ids must increase")
	}
	if _, err := ob.Enqueue("", nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty kind: %v", err)
	}
	// a settlement queues its commit message in the same transaction
	insertBill(t, l, 100)
	n := l.NextRound()
	must(t, l.Wager(Wager{Round: n, Game: "wish", Denom: 1, Stake: 10}))
	must(t, l.Outcome(n, 0, []byte("o")))
	must(t, l.Settle(n, Settlement{Commit: []byte("commit-1")}))
	msgs, err := ob.Pending(10)
	must(t, err)
	if len(msgs) != 3 || msgs[0].ID != id1 || string(msgs[1].Payload) != "e1" || msgs[2].Kind != "commit" {
		t.Fatalf("pending %+v", msgs)
	}
	must(t, ob.Ack(id1))
	must(t, ob.Ack(id1)) // replayed ack
	if err := ob.Ack(999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown ack: %v", err)
	}
	l.Close()
	l2, err := Open(o) // survives a restart, in order
	must(t, err)
	defer l2.Close()
	msgs, err = l2.Pending(1)
	must(t, err)
	if len(msgs) != 1 || msgs[0].ID != id2 {
		t.Fatalf("after restart %+v", msgs)
	}
	// events go to the outbox in the same transaction when asked
	l2.Close()
	o.EventMessage = func(e Event) (string, []byte, error) { return "events", []byte(e.Kind + " " + e.Text), nil }
	l3, err := Open(o)
	must(t, err)
	defer l3.Close()
	must(t, l3.DoorOpened("main"))
	msgs, _ = l3.Pending(10)
	if last := msgs[len(msgs)-1]; last.Kind != "events" || !strings.Contains(string(last.Payload), "door_open") {
		t.Fatalf("event not queued: %+v", last)
	}
}

// The histories keep exactly their limits, newest first.
func TestHistoryLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("many transactions")
	}
	o := testOptions(t)
	l := fullLedger(t, o)
	defer l.Close()
	if r := l.Recall(1000); len(r) != RecallKeep || r[0].Number != l.NextRound()-1 || len(r[0].Outcome) == 0 {
		t.Fatalf("recall %d", len(r))
	}
	if e := l.Events(5000); len(e) != EventsKeep || e[0].Seq <= e[1].Seq {
		t.Fatalf("events %d", len(e))
	}
	if d := l.DocsIn(); len(d) != DocsInKeep || d[0].ID <= d[1].ID {
		t.Fatalf("docs in %d", len(d))
	}
	out := l.DocsOut()
	if len(out) != DocsOutKeep || out[0].MaskedNumber() != "**************5678" {
		t.Fatalf("docs out %d %q", len(out), out[0].MaskedNumber())
	}
}

// Readers on other goroutines (the technician's screen, the dump) run
// safely beside the writer; run with -race.
func TestConcurrentReads(t *testing.T) {
	l, _ := newTestLedger(t)
	insertBill(t, l, 100000)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, _ := l.Credit()
				m, _ := l.Meters(ScopeCabinet)
				if c < 0 || m[CoinIn] < 0 {
					t.Error("bad read")
				}
				l.Recall(5)
				l.Events(5)
				l.Status()
			}
		}()
	}
	for i := 0; i < 20; i++ {
		playRound(t, l, "wish", 1, 10, 5)
	}
	close(stop)
	wg.Wait()
}

// Bad input changes nothing and says why.
func TestBadInputChangesNothing(t *testing.T) {
	l, _ := newTestLedger(t)
	insertBill(t, l, 1000)
	before := l.Status().Seq
	cases := []error{
		l.Wager(Wager{Round: l.NextRound(), Game: "", Denom: 1, Stake: 1}),
		l.Wager(Wager{Round: l.NextRound(), Game: "wish", Denom: 5, Stake: 7}),
		l.Outcome(1, 5, []byte("x")),
		l.Escrow(l.NextDocID(), DocBill, -5, ""),
		l.Escrow(l.NextDocID()+3, DocBill, 500, ""),
		l.VoucherPrinting(l.NextDocID(), 5000, "1"),
		l.HandpayPaid(1, ""),
		l.SetConfig("", "x", "me"),
		l.LogEvent("", "", "", 0, nil),
	}
	wantIs := []error{ErrInvalid, ErrInvalid, ErrNotFound, ErrInvalid, ErrConflict, ErrInsufficientCredit, ErrInvalid, ErrInvalid, ErrInvalid}
	for i, err := range cases {
		if !errors.Is(err, wantIs[i]) {
			t.Errorf("case %d: %v, want %v", i, err, wantIs[i])
		}
	}
	if l.Status().Seq != before {
		t.Fatal("refused requests wrote to the ledger")
	}
}

func TestCreateAndOpenRules(t *testing.T) {
	o := testOptions(t)
	if _, err := Open(o); !errors.Is(err, ErrNoLedger) {
		t.Fatalf("open of nothing: %v", err)
	}
	l, err := Create(o, "installer")
	must(t, err)
	l.Close()
	if _, err := Create(o, "installer"); !errors.Is(err, ErrConflict) {
		t.Fatalf("second create: %v", err)
	}
	bad := o
	bad.DirB = o.DirA
	if _, err := Open(bad); !errors.Is(err, ErrInvalid) {
		t.Fatalf("same dir twice: %v", err)
	}
	// one copy deleted: rebuilt from the other at open
	must(t, os.Remove(filepath.Join(o.DirB, DBName)))
	l, err = Open(o)
	must(t, err)
	defer l.Close()
	if l.RAMError() != nil || len(l.Findings()) != 1 {
		t.Fatalf("%v %v", l.RAMError(), l.Findings())
	}
}

// Both copies damaged while the cabinet was off: RAM error at open.
func TestBothCopiesBadAtOpen(t *testing.T) {
	l, o := busyLedger(t, 3)
	l.Close()
	for _, d := range []string{o.DirA, o.DirB} {
		p := filepath.Join(d, DBName)
		st, _ := os.Stat(p)
		must(t, os.Truncate(p, st.Size()/2))
	}
	l2, err := Open(o)
	must(t, err)
	defer l2.Close()
	if l2.RAMError() == nil || !errors.Is(l2.PowerUp(), ErrRAMError) {
		t.Fatal("expected RAM error")
	}
	if _, suspect := l2.Credit(); !suspect {
		t.Fatal("values must be flagged suspect")
	}
}

// Inspect reads without writing a byte, even to a read-only copy.
func TestInspectIsReadOnly(t *testing.T) {
	l, o := busyLedger(t, 3)
	want, _ := l.Credit()
	fpA, _ := fingerprint(o.DirA)
	fpB, _ := fingerprint(o.DirB)
	in, err := Inspect(o.DirA, o.DirB)
	must(t, err)
	if c, suspect := in.Credit(); c != want || suspect || in.Verdict != "both copies good and equal" {
		t.Fatalf("inspection credit %d suspect %v verdict %s", c, suspect, in.Verdict)
	}
	if err := in.PowerUp(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write on inspection: %v", err)
	}
	if _, err := in.Verify("x"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("verify on inspection: %v", err)
	}
	a2, _ := fingerprint(o.DirA)
	b2, _ := fingerprint(o.DirB)
	if a2 != fpA || b2 != fpB {
		t.Fatal("inspection changed the copies")
	}
}

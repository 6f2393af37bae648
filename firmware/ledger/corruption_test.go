package ledger

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// image copies a copy's files as a power cut would leave them on disk:
// ledger.db and its WAL (the shared-memory index is rebuilt by SQLite).
func image(t testing.TB, from, to string) {
	t.Helper()
	must(t, os.MkdirAll(to, 0o700))
	for _, n := range []string{DBName, DBName + "-wal"} {
		b, err := os.ReadFile(filepath.Join(from, n))
		if os.IsNotExist(err) {
			continue
		}
		must(t, err)
		must(t, os.WriteFile(filepath.Join(to, n), b, 0o600))
	}
}

// busyLedger makes a ledger with some history and returns it open.
func busyLedger(t testing.TB, rounds int) (*Ledger, Options) {
	l, o := newTestLedger(t)
	must(t, l.PowerUp())
	insertBill(t, l, 100000)
	for i := 0; i < rounds; i++ {
		playRound(t, l, "wish", 1, 20, int64(i%3)*15)
	}
	must(t, l.SetConfig("market", "at", "tech"))
	return l, o
}

func imageOptions(t testing.TB, o Options) Options {
	d := t.TempDir()
	o2 := o
	o2.DirA, o2.DirB = filepath.Join(d, "a"), filepath.Join(d, "b")
	image(t, o.DirA, o2.DirA)
	image(t, o.DirB, o2.DirB)
	return o2
}

func flipByte(t testing.TB, path string, rng *rand.Rand) int64 {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	must(t, err)
	defer f.Close()
	st, err := f.Stat()
	must(t, err)
	if st.Size() == 0 {
		t.Fatalf("%s is empty", path)
	}
	off := rng.Int63n(st.Size())
	b := make([]byte, 1)
	_, err = f.ReadAt(b, off)
	must(t, err)
	b[0] ^= byte(1 << rng.Intn(8))
	_, err = f.WriteAt(b, off)
	must(t, err)
	return off
}

func hasEvent(l *Ledger, kind string) bool {
	for _, e := range l.Events(EventsKeep) {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// The copy behind by one transaction (killed between the two commits) is
// brought up to date at the next open, and the event says so.
func TestInterruptedWriteRollsForward(t *testing.T) {
	l, o := busyLedger(t, 3)
	d := t.TempDir()
	oldB := filepath.Join(d, "oldB")
	image(t, o.DirB, oldB)
	must(t, l.LogEvent("tilt", "printer", "paper low", 0, nil))
	want := snapshot(l)
	o2 := o
	o2.DirA, o2.DirB = filepath.Join(d, "a"), filepath.Join(d, "b")
	image(t, o.DirA, o2.DirA)
	must(t, os.Rename(oldB, o2.DirB))
	l2, err := Open(o2)
	must(t, err)
	defer l2.Close()
	if l2.RAMError() != nil {
		t.Fatal(l2.RAMError())
	}
	if f := l2.Findings(); len(f) != 1 || !strings.Contains(f[0], "behind") {
		t.Fatalf("findings %v", f)
	}
	sameState(t, withoutEvents(want), withoutEvents(snapshot(l2))) // the open logged its finding
	if !hasEvent(l2, EventInterrupted) {
		t.Fatal("no interrupted-write event")
	}
	if _, err := l2.Verify("test"); err != nil {
		t.Fatal(err)
	}
}

// Torn writes: one copy's database or WAL truncated at a random byte (a
// cut in the middle of a transaction) recovers from the other copy with
// the same credit and meters. Phase 1: a long WAL; phase 2: the database
// file just checkpointed (every cut must be noticed); phase 3: a WAL holding
// one round, cut inside it.
func TestTornWritesRecover(t *testing.T) {
	l, o := busyLedger(t, 40)
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 24; i++ {
		phase := i / 8
		if i == 8 {
			_, err := l.Verify("fold the WAL into the database") // checkpoints both copies
			must(t, err)
		}
		if i == 16 {
			playRound(t, l, "wish", 1, 20, 0)
		}
		credit, _ := l.Credit()
		cab, _ := l.Meters(ScopeCabinet)
		o2 := imageOptions(t, o)
		dir := o2.DirA
		if i%2 == 1 {
			dir = o2.DirB
		}
		name := DBName
		if phase == 2 || (phase == 0 && i%4 >= 2) {
			name += "-wal"
		}
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cut := rng.Int63n(st.Size())
		must(t, os.Truncate(p, cut))
		l2, err := Open(o2)
		must(t, err)
		if l2.RAMError() != nil {
			t.Fatalf("%s cut at %d: %v", name, cut, l2.RAMError())
		}
		c2, _ := l2.Credit()
		m2, _ := l2.Meters(ScopeCabinet)
		if c2 != credit || m2[CoinIn] != cab[CoinIn] || m2[CoinOut] != cab[CoinOut] || m2[GamesPlayed] != cab[GamesPlayed] {
			t.Fatalf("%s cut at %d: credit %d meters %v, want %d %v", name, cut, c2, m2, credit, cab)
		}
		if _, err := l2.Verify("after torn write"); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s of copy %s cut at %d/%d: %v", name, filepath.Base(dir), cut, st.Size(), l2.Findings())
		if phase > 0 && len(l2.Findings()) == 0 {
			t.Fatalf("cut of %s at %d not noticed", name, cut)
		}
		l2.Close()
	}
}

// A random byte flipped in one copy (database or WAL, while the cabinet
// runs) is found by the next Verify and the copy rebuilt; values stay.
func TestByteFlipDetectedAndRepaired(t *testing.T) {
	l, o := busyLedger(t, 30)
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 24; i++ {
		if _, err := l.Verify("before game"); err != nil {
			t.Fatal(err)
		}
		want := snapshot(l)
		dir := o.DirA
		if i%2 == 1 {
			dir = o.DirB
		}
		name := DBName
		if i%3 == 2 {
			if st, err := os.Stat(filepath.Join(dir, DBName+"-wal")); err == nil && st.Size() > 0 {
				name += "-wal"
			}
		}
		off := flipByte(t, filepath.Join(dir, name), rng)
		rep, err := l.Verify("after game")
		if err != nil {
			t.Fatalf("flip %s@%d: %v", name, off, err)
		}
		if len(rep.Rebuilt) != 1 {
			t.Fatalf("flip %s@%d not detected: %+v", name, off, rep)
		}
		sameState(t, withoutEvents(want), withoutEvents(snapshot(l)))
		playRound(t, l, "wish", 1, 20, 0)
	}
	if !hasEvent(l, EventCopyRebuilt) {
		t.Fatal("no rebuild event")
	}
}

// Flips that land in live data are also found after further writes (no
// file fingerprint to rely on) and at the next open.
func TestByteFlipFoundAtOpen(t *testing.T) {
	l, o := busyLedger(t, 30)
	credit, _ := l.Credit()
	rng := rand.New(rand.NewSource(11))
	detected := 0
	for i := 0; i < 20; i++ {
		o2 := imageOptions(t, o)
		flipByte(t, filepath.Join(o2.DirA, DBName+"-wal"), rng)
		l2, err := Open(o2)
		must(t, err)
		if l2.RAMError() != nil {
			t.Fatal(l2.RAMError())
		}
		if len(l2.Findings()) > 0 {
			detected++
		}
		if c, _ := l2.Credit(); c != credit {
			t.Fatalf("credit %d want %d", c, credit)
		}
		_, err = l2.Verify("x")
		must(t, err)
		l2.Close()
	}
	t.Logf("%d/20 WAL flips changed live data and were repaired at open", detected)
}

// Both copies damaged: RAM error, surviving restarts; writes refused; meters
// readable and flagged suspect; only the logged RAM clear ends it.
func TestRAMErrorSurvivesUntilClear(t *testing.T) {
	l, o := busyLedger(t, 5)
	credit, _ := l.Credit()
	_, err := l.Verify("baseline")
	must(t, err)
	rng := rand.New(rand.NewSource(1))
	flipByte(t, filepath.Join(o.DirA, DBName), rng)
	flipByte(t, filepath.Join(o.DirB, DBName), rng)
	if _, err := l.Verify("door closed"); !errors.Is(err, ErrRAMError) {
		t.Fatalf("verify: %v", err)
	}
	check := func(l *Ledger) {
		t.Helper()
		if l.RAMError() == nil {
			t.Fatal("not in RAM error")
		}
		err := l.Wager(Wager{Round: l.NextRound(), Game: "wish", Denom: 1, Stake: 1})
		var re *RAMError
		if !errors.Is(err, ErrRAMError) || !errors.As(err, &re) {
			t.Fatalf("wager in RAM error: %v", err)
		}
		if err := l.Escrow(l.NextDocID(), DocBill, 500, ""); !errors.Is(err, ErrRAMError) {
			t.Fatalf("escrow in RAM error: %v", err)
		}
		if _, err := l.Pending(10); !errors.Is(err, ErrRAMError) {
			t.Fatalf("outbox in RAM error: %v", err)
		}
		c, suspect := l.Credit()
		if !suspect || c != credit {
			t.Fatalf("credit %d suspect %v", c, suspect)
		}
		if m, suspect := l.Meters(ScopeCabinet); !suspect || m[GamesPlayed] != 5 {
			t.Fatalf("meters %v suspect %v", m, suspect)
		}
	}
	check(l)
	l.Close()
	for i := 0; i < 2; i++ { // restarts
		l2, err := Open(o)
		must(t, err)
		check(l2)
		l2.Close()
	}
	l3, err := Open(o)
	must(t, err)
	defer l3.Close()
	if err := l3.RAMClear("", "x"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("anonymous RAM clear: %v", err)
	}
	must(t, l3.RAMClear("tech-42", "both copies corrupt"))
	if l3.RAMError() != nil {
		t.Fatal(l3.RAMError())
	}
	if c, suspect := l3.Credit(); c != 0 || suspect {
		t.Fatalf("after clear credit %d suspect %v", c, suspect)
	}
	m, _ := l3.Meters(ScopeCabinet)
	if m[RAMClears] != 2 || m[GamesPlayed] != 0 {
		t.Fatalf("after clear %v", m)
	}
	ev := l3.Events(5)
	if len(ev) == 0 || ev[len(ev)-1].Kind != EventRAMClear || !strings.Contains(ev[len(ev)-1].Text, "tech-42") ||
		!strings.Contains(string(ev[len(ev)-1].Data), "games_played") {
		t.Fatalf("events %+v", ev)
	}
	insertBill(t, l3, 500)
	must(t, l3.Close())
	l4, err := Open(o)
	must(t, err)
	defer l4.Close()
	if l4.RAMError() != nil {
		t.Fatal(l4.RAMError())
	}
	if c, _ := l4.Credit(); c != 500 {
		t.Fatalf("credit %d", c)
	}
	old, _ := filepath.Glob(filepath.Join(o.DirA, "cleared-*"))
	if len(old) == 0 {
		t.Fatal("the cleared copy was not kept")
	}
}

// The -shm file (SQLite's WAL index) is part of a copy too: random damage
// to it must never yield wrong values — SQLite rebuilds a bad index, and
// whatever it misreads is caught by the digest and repaired.
func TestSHMDamageNeverMisleads(t *testing.T) {
	l, o := busyLedger(t, 10)
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 12; i++ {
		_, err := l.Verify("before")
		must(t, err)
		c0, _ := l.Credit()
		dir := o.DirA
		if i%2 == 1 {
			dir = o.DirB
		}
		for j := 0; j < 8; j++ {
			flipByte(t, filepath.Join(dir, DBName+"-shm"), rng)
		}
		playRound(t, l, "wish", 1, 20, 10)
		if _, err := l.Verify("after"); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if c, _ := l.Credit(); c != c0-10 {
			t.Fatalf("credit %d want %d", c, c0-10)
		}
		for _, d := range []string{o.DirA, o.DirB} {
			img, err := readCopyFresh(d, "quick_check")
			must(t, err)
			if img.digest != l.digest {
				t.Fatalf("copy %s differs from memory after shm damage", d)
			}
		}
	}
}

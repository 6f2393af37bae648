package ledger

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestResumeStateWithItsStep: each piece of resume state moves in the
// transaction of its step — a tilt with its event, a door with its meter
// and event, a ticket's hold with its escrow and then its stack — and
// survives a restart; replays write nothing; bad input is refused.
func TestResumeStateWithItsStep(t *testing.T) {
	l, o := newTestLedger(t)
	seq := func() uint64 { return l.Seq() }

	s0 := seq()
	must(t, l.SetTilt("acceptor", "jam", false))
	if seq() != s0+1 || l.Events(1)[0].Kind != "tilt" || l.Events(1)[0].Source != "acceptor" {
		t.Fatalf("tilt: %d transactions, last event %+v", seq()-s0, l.Events(1)[0])
	}
	must(t, l.SetTilt("acceptor", "jam", false))
	if seq() != s0+1 {
		t.Fatal("the same tilt again wrote a transaction")
	}
	must(t, l.SetTilt("ledger", "refused", true))
	must(t, l.ClearTilt("acceptor", "acceptor", ""))
	if e := l.Events(1)[0]; e.Kind != "tilt_cleared" {
		t.Fatalf("clear logged %+v", e)
	}

	s0 = seq()
	must(t, l.DoorOpened("main"))
	ms, _ := l.Meters(DoorScope("main"))
	if seq() != s0+1 || !l.Resume().Doors["main"] || ms[DoorOpens] != 1 {
		t.Fatalf("door open: %d transactions, doors %v, meter %d", seq()-s0, l.Resume().Doors, ms[DoorOpens])
	}
	must(t, l.DoorOpened("cashbox"))
	must(t, l.DoorClosed("cashbox"))

	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	must(t, l.Heartbeat(at))
	must(t, l.AcceptSoftware("sha256:a", "cabinet"))
	must(t, l.AcceptSoftware("sha256:a", "cabinet"))
	must(t, l.AcceptSoftware("sha256:b", "technician"))
	if e := l.Events(2); e[0].Kind != "software_accepted" || e[0].Text != "old sha256:a new sha256:b" || e[1].Kind != "software_installed" {
		t.Fatalf("software events %+v", e)
	}

	id := l.NextDocID()
	must(t, l.Escrow(id, DocTicketIn, 0, "123456789012345678"))
	if err := l.HoldTicket(id+1, "h", 500); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a hold without its escrow: %v", err)
	}
	must(t, l.HoldTicket(id, "h", 500))
	must(t, l.HoldTicket(id, "h", 500))
	if err := l.HoldTicket(id, "other", 500); !errors.Is(err, ErrConflict) {
		t.Fatalf("a second hold: %v", err)
	}
	if err := l.HoldSettled(id); !errors.Is(err, ErrConflict) {
		t.Fatalf("settled while in escrow: %v", err)
	}
	if err := l.Stacked(id, 400); !errors.Is(err, ErrInvalid) {
		t.Fatalf("stacked for another amount than its hold: %v", err)
	}
	s0 = seq()
	must(t, l.Stacked(id, 500))
	if h := l.Resume().Holds[id]; seq() != s0+1 || h.Result != DocStacked || h.Number != "123456789012345678" {
		t.Fatalf("stack: %d transactions, hold %+v", seq()-s0, h)
	}
	must(t, l.HardMeterPulsed("in", 3))
	must(t, l.HardMeterPulsed("in", 2))
	for _, bad := range []error{l.SetTilt("", "x", true), l.DoorOpened("a/b"), l.Heartbeat(time.Time{}),
		l.AcceptSoftware("", "x"), l.HoldTicket(id, "", 1), l.HardMeterPulsed("in", 0)} {
		if !errors.Is(bad, ErrInvalid) {
			t.Fatalf("bad input: %v", bad)
		}
	}

	want := Resume{Tilts: map[string]Tilt{"ledger": {"refused", true}}, Doors: map[string]bool{"main": true}, Beat: at,
		SoftwareID: "sha256:b", Holds: map[uint64]TicketHold{id: {Doc: id, Number: "123456789012345678", Hold: "h", Amount: 500, Result: DocStacked}},
		HardMeters: map[string]int64{"in": 5}}
	must(t, l.Close())
	l2, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if got := l2.Resume(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a restart\n got %+v\nwant %+v", got, want)
	}
	if n := l2.HardMeterPulses("in"); n != 5 {
		t.Fatalf("hard meter pulses %d, want 5", n)
	}
	must(t, l2.HoldSettled(id))
	must(t, l2.HoldSettled(id)) // a replay
	if len(l2.Resume().Holds) != 0 {
		t.Fatal("settled hold kept")
	}
}

// TestSchema1LedgerMigrates opens a ledger pair written by the schema-1
// code (testdata/schema1: resume state as the cabinet's "sw/" blobs; made
// by that code, not by this test): the rows are converted once, in one
// transaction, and dropped; a row no cabinet wrote is dropped with an
// event; the migrated ledger verifies, and reopens without migrating again.
func TestSchema1LedgerMigrates(t *testing.T) {
	o := testOptions(t)
	copySchema1(t, o.DirA, o.DirB)

	in, err := Inspect(o.DirA, o.DirB)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(in.Verdict, "schema 1") || in.Resume().SoftwareID == "" {
		t.Fatalf("inspection of a schema-1 ledger: verdict %q, resume %+v", in.Verdict, in.Resume())
	}

	l, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	want := Resume{
		Tilts: map[string]Tilt{"acceptor": {"ticket stacked without validation", true}, "printer": {"printer: paper out", false}},
		Doors: map[string]bool{"main": true}, Beat: at, SoftwareID: "sha256:0123456789abcdef0123",
		Holds: map[uint64]TicketHold{
			1: {Doc: 1, Number: "111111111111111111", Hold: "h1", Amount: 500, Result: DocStacked},
			2: {Doc: 2, Number: "222222222222222222", Hold: "h2", Amount: 700, Result: DocReturned},
			3: {Doc: 3, Number: "333333333333333333", Hold: "h3", Amount: 900},
		},
		HardMeters: map[string]int64{"in": 5}}
	if got := l.Resume(); !reflect.DeepEqual(got, want) {
		t.Fatalf("migrated\n got %+v\nwant %+v", got, want)
	}
	if n := l.HardMeterPulses("in"); n != 5 {
		t.Fatalf("hard meter pulses %d, want 5", n)
	}
	rows := snapshot(l)
	for k := range rows {
		if strings.HasPrefix(k, "sw/") {
			t.Errorf("old row %s kept", k)
		}
	}
	if rows["meta/schema"] != schemaVersion {
		t.Errorf("schema %q", rows["meta/schema"])
	}
	if e := l.Events(1)[0]; e.Kind != "resume_state_unreadable" || !strings.HasPrefix(e.Text, "stale_key: ") {
		t.Errorf("last event %+v, want the dropped row", e)
	}
	if _, err := l.Verify("after migration"); err != nil {
		t.Fatal(err)
	}
	seq := l.Seq()
	must(t, l.Close())
	l2, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if l2.Seq() != seq || !reflect.DeepEqual(l2.Resume(), want) {
		t.Fatalf("reopened: transaction %d (want %d), resume %+v", l2.Seq(), seq, l2.Resume())
	}
	// the ticket still in escrow resumes with its hold
	must(t, l2.Stacked(3, 900))
	if c, _ := l2.Credit(); c != 500+900 {
		t.Fatalf("credit %d", c)
	}
}

// TestSchema1UnreadableRow: a schema-1 row that does not decode is dropped
// with an event naming it, and the rest is converted.
func TestSchema1UnreadableRow(t *testing.T) {
	l, o := newTestLedger(t)
	must(t, l.do("software_state", nil, func(t *tx) error {
		t.put("meta/schema", []byte("1"))
		t.put("sw/tilts", []byte("{not json"))
		t.put("sw/software_id", []byte("sha256:x"))
		return nil
	}))
	must(t, l.Close())
	l2, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if e := l2.Events(1)[0]; e.Kind != "resume_state_unreadable" || !strings.HasPrefix(e.Text, "tilts: ") {
		t.Fatalf("last event %+v", e)
	}
	if r := l2.Resume(); len(r.Tilts) != 0 || r.SoftwareID != "sha256:x" {
		t.Fatalf("resume %+v", r)
	}
}

// copySchema1 puts the schema-1 test ledger into the two directories.
func copySchema1(t testing.TB, dirA, dirB string) {
	t.Helper()
	for i, dir := range []string{dirA, dirB} {
		must(t, os.MkdirAll(dir, 0o700))
		src, err := os.Open(filepath.Join("testdata", "schema1", string(rune('a'+i)), DBName))
		must(t, err)
		dst, err := os.Create(filepath.Join(dir, DBName))
		must(t, err)
		_, err = io.Copy(dst, src)
		must(t, err)
		src.Close()
		must(t, dst.Close())
	}
}

// A ticket credited and not yet confirmed to the central system (its hold
// "to confirm") is in the credit state until the confirm is settled.
func TestCreditStateTicketsToConfirm(t *testing.T) {
	l, _ := newTestLedger(t)
	id := l.NextDocID()
	must(t, l.Escrow(id, DocTicketIn, 0, "123456789012345678"))
	must(t, l.HoldTicket(id, "h", 700))
	if cs, err := l.CreditState(16); err != nil || cs.TicketsToConfirm != 0 {
		t.Fatalf("in escrow: %+v %v", cs, err)
	}
	must(t, l.Stacked(id, 700))
	if cs, err := l.CreditState(16); err != nil || cs.TicketsToConfirm != 700 || cs.Credit != 700 {
		t.Fatalf("credited, not confirmed: %+v %v", cs, err)
	}
	must(t, l.HoldSettled(id))
	if cs, err := l.CreditState(16); err != nil || cs.TicketsToConfirm != 0 || cs.Credit != 700 {
		t.Fatalf("confirmed: %+v %v", cs, err)
	}
}

package emulator

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// logRig drives an acceptor with a document log through its request
// handler on a hand-moved clock; "a power cut" is a new acceptor on the
// same log.
type logRig struct {
	t    *testing.T
	path string
	now  time.Time
	a    *Acceptor
}

func newLogRig(t *testing.T) *logRig {
	r := &logRig{t: t, path: filepath.Join(t.TempDir(), "acceptor.jsonl"), now: time.Unix(1_800_000_000, 0)}
	r.powerUp()
	return r
}

func (r *logRig) powerUp() {
	r.t.Helper()
	r.a = New(nil, Config{Log: r.path, Now: func() time.Time { return r.now }})
	if err := r.a.LogError(); err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { r.a.CloseLog() })
}

// status polls and returns the status code.
func (r *logRig) status() byte { return r.a.answer(request{code: 0x11})[2] }

func (r *logRig) send(code byte, data ...byte) { r.a.answer(request{code: code, data: data}) }

func (r *logRig) pass(d time.Duration) { r.now = r.now.Add(d) }

// start resets the acceptor and enables it, as a host does at power-up.
func (r *logRig) start() {
	r.t.Helper()
	r.send(0x40)
	r.pass(2 * time.Second)
	r.send(0xC3, 0x00)
	if st := r.status(); st != stIdling {
		r.t.Fatalf("status %02X after start, want IDLING", st)
	}
}

// escrowNote inserts a 10 € note and waits for escrow.
func (r *logRig) escrowNote() {
	r.t.Helper()
	if err := r.a.InsertNote(0x63); err != nil {
		r.t.Fatal(err)
	}
	if st := r.status(); st != stAccepting { // a host polls through the transport
		r.t.Fatalf("status %02X, want ACCEPTING", st)
	}
	r.pass(time.Second)
	if st := r.status(); st != stEscrow {
		r.t.Fatalf("status %02X, want ESCROW", st)
	}
}

func (r *logRig) stacked() int { return len(r.a.StackedDocs()) }

func TestLogStackedWithoutAckIsInTheStackerAfterThePowerCut(t *testing.T) {
	r := newLogRig(t)
	r.start()
	r.escrowNote()
	r.send(0x41)
	r.pass(time.Second)
	if st := r.status(); st != stVendValid {
		t.Fatalf("status %02X, want VEND VALID", st)
	}
	r.powerUp() // the host never acknowledged
	if st := r.status(); st != stPowerUpStk {
		t.Fatalf("power-up status %02X, want 42 (bill in stacker)", st)
	}
	if n := r.stacked(); n != 1 {
		t.Fatalf("%d notes in the cash box, want 1", n)
	}
	r.start() // RESET: the host has seen 42
	r.powerUp()
	if st := r.status(); st != stPowerUp {
		t.Fatalf("second power-up status %02X, want 40", st)
	}
	if n := r.stacked(); n != 1 {
		t.Fatalf("%d notes in the cash box after two power cuts, want 1", n)
	}
}

func TestLogAcknowledgedStackPowersUpEmpty(t *testing.T) {
	r := newLogRig(t)
	r.start()
	r.escrowNote()
	r.send(0x41)
	r.pass(time.Second)
	r.status()
	r.send(0x50) // ACK
	r.powerUp()
	if st := r.status(); st != stPowerUp {
		t.Fatalf("power-up status %02X, want 40", st)
	}
	if n := r.stacked(); n != 1 {
		t.Fatalf("%d notes in the cash box, want 1", n)
	}
}

func TestLogNoteCaughtMidStackIsReturned(t *testing.T) {
	r := newLogRig(t)
	r.start()
	r.escrowNote()
	r.send(0x41)
	r.pass(100 * time.Millisecond) // still STACKING: not yet irrevocably in
	r.powerUp()
	if st := r.status(); st != stPowerUpAcc {
		t.Fatalf("power-up status %02X, want 41", st)
	}
	r.start()
	entries, err := ReadLog(r.path)
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.Event != LogReturned || last.Code != 0x63 || r.stacked() != 0 {
		t.Fatalf("last log entry %+v, cash box %v", last, r.a.StackedDocs())
	}
}

func TestLogNoteInEscrowIsReturnedAfterThePowerCut(t *testing.T) {
	r := newLogRig(t)
	r.start()
	r.escrowNote()
	r.powerUp()
	if st := r.status(); st != stPowerUpAcc {
		t.Fatalf("power-up status %02X, want 41 (bill in acceptor)", st)
	}
	r.start()
	rec := r.a.Record()
	if len(rec) != 1 || rec[0].Outcome != Returned || r.stacked() != 0 {
		t.Fatalf("record %+v, want the note returned and an empty cash box", rec)
	}
}

func TestLogTornLastLineIsIgnoredDamageElsewhereRefused(t *testing.T) {
	r := newLogRig(t)
	r.start()
	r.escrowNote()
	r.send(0x41)
	r.pass(time.Second)
	r.status()
	r.send(0x50)
	r.a.CloseLog()
	f, err := os.OpenFile(r.path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":99,"event":"sta`)
	f.Close()
	r.powerUp()
	if n := r.stacked(); n != 1 {
		t.Fatalf("%d notes after a torn last line, want 1", n)
	}
	r.start()
	r.escrowNote() // logged after the cut-off line
	entries, err := ReadLog(r.path)
	if err != nil || entries[len(entries)-1].Event != LogInserted {
		t.Fatalf("log after the torn line: %v, %v", entries, err)
	}

	b, _ := os.ReadFile(r.path)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, append([]byte("not json\n"), b...), 0o600)
	if _, err := ReadLog(bad); err == nil {
		t.Fatal("a damaged first line was accepted")
	}
	if err := New(nil, Config{Log: bad}).LogError(); err == nil {
		t.Fatal("an acceptor started on a damaged log")
	}
}

// A host that polls past the transport still sees ACCEPTING once: the
// emulator holds it until a poll has reported it, as a real unit's second
// of transport always shows its host.
func TestAcceptingHeldUntilPolled(t *testing.T) {
	r := newLogRig(t)
	r.start()
	if err := r.a.InsertNote(0x63); err != nil {
		t.Fatal(err)
	}
	r.pass(2 * time.Second) // no poll, well past AcceptTime
	if st := r.status(); st != stAccepting {
		t.Fatalf("first poll after the transport: status %02X, want ACCEPTING", st)
	}
	r.pass(time.Second)
	if st := r.status(); st != stEscrow {
		t.Fatalf("status %02X after ACCEPTING was seen, want ESCROW", st)
	}
}

package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/clock"
)

// Options configure a ledger.
type Options struct {
	// DirA and DirB hold the two copies (on a cabinet, two media). Each
	// holds ledger.db with its -wal and -shm files.
	DirA, DirB string
	// Clock stamps entries and events (wall time in UTC, and the time since
	// this ledger was opened: one power-up); defaults to the system clock.
	Clock clock.Clock
	// ChainKeep is how many sealed transactions each copy keeps (≥ 16).
	ChainKeep int
	// OpenCheck and VerifyCheck are the SQLite checks run at Open and on
	// Verify: "integrity_check", "quick_check" or "none".
	OpenCheck, VerifyCheck string
	// EventMessage, when set, queues every event for the central system
	// in the transaction that logs it, as the outbox message it returns:
	// the layer that knows the central system's wire format encodes it
	// (firmware/outbox), the ledger stores the bytes. An error queues
	// nothing for that event; the event is logged all the same.
	EventMessage func(Event) (kind string, payload []byte, err error)
	// Parallel commits a transaction to both copies at once instead of A
	// then B. Either way transaction n+1 starts only after both hold n.
	Parallel bool
	// FreeReserve is the free space (bytes) each copy's file system must
	// keep before a transaction is written; below it the copy is faulted
	// (a *CopyFault) and the transaction refused, before a write can fail.
	// 0 means DefaultFreeReserve; negative turns the check off.
	FreeReserve int64
}

func (o Options) withDefaults() (Options, error) {
	if o.DirA == "" || o.DirB == "" {
		return o, invalid("both copy directories are required")
	}
	a, errA := filepath.Abs(o.DirA)
	b, errB := filepath.Abs(o.DirB)
	if errA != nil || errB != nil || a == b {
		return o, invalid("copy directories must be two different paths")
	}
	o.DirA, o.DirB = a, b
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.ChainKeep == 0 {
		o.ChainKeep = 256
	}
	if o.FreeReserve == 0 {
		o.FreeReserve = DefaultFreeReserve
	}
	if o.ChainKeep < 16 {
		return o, invalid("ChainKeep %d < 16", o.ChainKeep)
	}
	if o.OpenCheck == "" {
		o.OpenCheck = "integrity_check"
	}
	if o.VerifyCheck == "" {
		o.VerifyCheck = "quick_check"
	}
	for _, c := range []*string{&o.OpenCheck, &o.VerifyCheck} {
		switch *c {
		case "integrity_check", "quick_check", "none":
		default:
			return o, invalid("unknown check %q", *c)
		}
	}
	return o, nil
}

// Ledger is the open critical memory. Writes come from one goroutine (the
// cabinet loop); reads may come from any.
type Ledger struct {
	mu     sync.RWMutex
	o      Options
	stores [2]*store
	start  time.Time // when opened: mono counts from it

	kv     map[string][]byte
	dig    *digester
	head   chainRow // Entry not kept
	digest [32]byte

	ram      *RAMError
	faults   [2]*CopyFault // copies that cannot be written (fault.go)
	deferred []Event       // events found while a copy was faulted, logged by Repair
	copies   [2]*copyImage // what each copy held, in RAM error (for the dump)
	closed   bool
	readonly bool // an Inspection
	suspect  bool // values not from a verified pair
	findings []string
}

func newLedger(o Options) *Ledger {
	return &Ledger{o: o, start: clock.Raw(o.Clock).Now(), stores: [2]*store{{name: "A", dir: o.DirA}, {name: "B", dir: o.DirB}}}
}

// wall is the time in UTC.
func (l *Ledger) wall() time.Time { return l.o.Clock.Now().UTC() }

// mono is the time since the ledger was opened (this power-up): the
// event log records it with the power-up count, so ordering across
// restarts is by sequence number. On the system clock it is read from the
// monotonic clock; on a disciplined clock from the one beneath, so a time
// change (check 38) never moves it back.
func (l *Ledger) mono() time.Duration { return clock.Raw(l.o.Clock).Now().Sub(l.start) }

// Open opens an existing ledger and reconciles its copies: a copy behind
// the other (an interrupted write) is brought up to date, a bad copy is
// rebuilt from the good one and checked, each with an event. With no good
// copy, or a RAM-error marker from before, the ledger opens in the RAM-error
// state (see RAMError): Open still returns it so meters can be read and a
// RAM clear done. Neither copy present is ErrNoLedger.
func Open(o Options) (*Ledger, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	l := newLedger(o)
	var dirErr [2]error
	for i, s := range l.stores {
		if dirErr[i] = os.MkdirAll(s.dir, 0o700); dirErr[i] != nil {
			// one medium gone: the other copy may still hold everything
			dirErr[i] = fmt.Errorf("%w: copy %s: %v", ErrStorage, s.name, dirErr[i])
			continue
		}
		os.Remove(filepath.Join(s.dir, rebuildName))
		os.Remove(filepath.Join(s.dir, createName))
	}
	if dirErr[0] != nil && dirErr[1] != nil {
		return nil, dirErr[0]
	}
	if m := l.readMarker(); m != nil {
		l.loadSuspect(m)
		return l, nil
	}
	marks := l.readFaults()
	var imgs [2]*copyImage
	var errs [2]error
	missing := 0
	for i, s := range l.stores {
		if dirErr[i] != nil {
			errs[i] = dirErr[i]
			continue
		}
		if _, err := os.Stat(s.path()); os.IsNotExist(err) {
			errs[i] = errMissing
			missing++
			continue
		}
		if err := s.open(); err != nil {
			errs[i] = err
			continue
		}
		imgs[i], errs[i] = readImage(s.db, o.OpenCheck)
	}
	if missing == 2 {
		return nil, ErrNoLedger
	}
	for i := range dirErr {
		if dirErr[i] != nil && errs[1-i] == errMissing {
			return nil, dirErr[i] // nothing to open: no ledger here, or not one we can reach
		}
	}
	for i, f := range marks {
		// A copy faulted before the restart is never the source: a write
		// it failed may still show in its files (a failed fsync). It
		// counts as good only when it equals the other copy.
		if f != nil && errs[i] == nil && marks[1-i] == nil && errs[1-i] == nil && !sameImage(imgs[i], imgs[1-i]) {
			errs[i] = fmt.Errorf("faulted since %s (%s) and differs from copy %s", f.Since, f.Cause, l.stores[1-i].name)
		}
	}
	good, notes, rebuild, interrupted, err := reconcile(imgs, errs)
	if err != nil {
		for _, s := range l.stores {
			s.close()
		}
		l.enterRAMError(err.Error(), imgs)
		return l, nil
	}
	l.setMemory(imgs[good])
	var events []Event
	for i, need := range rebuild {
		if !need {
			continue
		}
		if err := l.rebuild(i, good); err != nil {
			// the good copy holds everything: a fault, not a RAM error
			l.setFault(i, "open", fmt.Errorf("%s; rebuild failed: %w", notes[i], err))
			continue
		}
		kind := EventCopyRebuilt
		if interrupted[i] {
			kind = EventInterrupted
		}
		events = append(events, Event{Kind: kind, Source: "copy " + l.stores[i].name, Text: notes[i]})
	}
	for i, s := range l.stores {
		if l.faults[i] != nil {
			continue
		}
		if err := s.health(o.FreeReserve); err != nil {
			l.setFault(i, "open", err)
		}
	}
	for _, e := range events {
		l.findings = append(l.findings, e.Kind+": "+e.Source+": "+e.Text)
	}
	var unlogged [2]*CopyFault // marker faults whose events are not written yet
	for i, f := range marks {
		if f == nil || f.Seq != l.head.Seq {
			continue // none, or Repair logged it and stopped before removing the marker
		}
		if g := l.faults[i]; g != nil {
			g.Since, g.Op, g.Seq = f.Since, f.Op, f.Seq // the same fault goes on
		} else {
			unlogged[i] = f
		}
	}
	events = append(faultEvents(unlogged, "open"), events...)
	if l.faulted() {
		for _, f := range l.faults {
			if f != nil {
				l.findings = append(l.findings, EventCopyFault+": copy "+f.Copy+": "+f.Cause)
			}
		}
		l.deferred = events
		l.persistFaults()
		return l, nil
	}
	if err := l.logEvents(events); err != nil {
		return l, nil // a RAM error or a fault, set by exec
	}
	l.removeFaultMarkers()
	if err := l.migrate(); err != nil {
		return l, nil // RAM error set by exec
	}
	return l, nil
}

// reconcile decides which copy is good and which must be rebuilt.
func reconcile(imgs [2]*copyImage, errs [2]error) (good int, notes [2]string, rebuild [2]bool, interrupted [2]bool, err error) {
	name := [2]string{"A", "B"}
	ok0, ok1 := errs[0] == nil, errs[1] == nil
	switch {
	case !ok0 && !ok1:
		return 0, notes, rebuild, interrupted, fmt.Errorf("no good copy: A: %v; B: %v", errs[0], errs[1])
	case ok0 != ok1:
		good = 0
		if ok1 {
			good = 1
		}
		bad := 1 - good
		notes[bad] = fmt.Sprintf("copy %s bad (%v); rebuilt from copy %s", name[bad], errs[bad], name[good])
		rebuild[bad] = true
		return good, notes, rebuild, interrupted, nil
	}
	a, b := imgs[0], imgs[1]
	if sameImage(a, b) {
		return 0, notes, rebuild, interrupted, nil
	}
	hi, lo := 0, 1
	if b.head.Seq > a.head.Seq {
		hi, lo = 1, 0
	}
	H, L := imgs[hi], imgs[lo]
	if H.head.Seq == L.head.Seq {
		return 0, notes, rebuild, interrupted, fmt.Errorf("copies diverge at transaction %d", H.head.Seq)
	}
	for _, r := range H.chain {
		if r.Seq == L.head.Seq {
			if r.Hash != L.head.Hash {
				return 0, notes, rebuild, interrupted, fmt.Errorf("copies diverge at transaction %d", r.Seq)
			}
			if lag := H.head.Seq - L.head.Seq; lag == 1 {
				// the normal trace of a stop between the two commits
				notes[lo] = fmt.Sprintf("copy %s was 1 transaction behind copy %s (write interrupted); brought up to date",
					name[lo], name[hi])
				interrupted[lo] = true
			} else {
				notes[lo] = fmt.Sprintf("copy %s lost its last %d committed transactions (torn or truncated); rebuilt from copy %s",
					name[lo], lag, name[hi])
			}
			rebuild[lo] = true
			return hi, notes, rebuild, interrupted, nil
		}
	}
	notes[lo] = fmt.Sprintf("copy %s at transaction %d is older than copy %s's chain window (%d); rebuilt",
		name[lo], L.head.Seq, name[hi], H.head.Seq)
	rebuild[lo] = true
	return hi, notes, rebuild, interrupted, nil
}

func (l *Ledger) setMemory(img *copyImage) {
	l.kv = img.kv
	l.dig = img.dig
	l.digest = img.digest
	l.head = chainRow{Seq: img.head.Seq, Hash: img.head.Hash, Digest: img.head.Digest}
}

// rebuild replaces copy bad with a snapshot of copy good, then reads it back
// on a fresh connection with a full integrity check and compares it with
// memory, to catch a medium that does not keep what is written.
func (l *Ledger) rebuild(bad, good int) error {
	b, g := l.stores[bad], l.stores[good]
	b.close()
	if g.db == nil {
		return errors.New("good copy is not open")
	}
	if err := snapshotTo(g.db, b.dir, rebuildName); err != nil {
		return err
	}
	img, err := readCopyFresh(b.dir, "integrity_check")
	if err != nil {
		return fmt.Errorf("rebuilt copy does not verify: %w", err)
	}
	if img.head.Hash != l.head.Hash || img.digest != l.digest {
		return errors.New("rebuilt copy differs from the good copy")
	}
	return b.open()
}

// exec runs one transaction with l.mu held: fn stages writes on a tx; if
// it staged any, the entry is sealed and committed to both copies, then to
// memory. fn's error leaves everything unchanged.
func (l *Ledger) exec(op string, args any, fn func(*tx) error) error {
	if l.readonly {
		return ErrReadOnly
	}
	if l.closed {
		return ErrClosed
	}
	if l.ram != nil {
		return l.ram
	}
	if f := l.fault(); f != nil {
		return f
	}
	t := newTx(l)
	if err := fn(t); err != nil {
		return err
	}
	if len(t.w) == 0 {
		return nil // an idempotent replay: nothing to do
	}
	t.finish()
	argBytes, err := json.Marshal(args)
	if err != nil {
		return invalid("arguments: %v", err)
	}
	seq := l.head.Seq + 1
	entry, _ := json.Marshal(struct {
		Seq  uint64          `json:"seq"`
		Op   string          `json:"op"`
		Wall time.Time       `json:"wall"`
		Mono int64           `json:"mono"`
		Args json.RawMessage `json:"args"`
	}{seq, op, t.wall, int64(t.mono), argBytes})
	pd := l.dig.with(t.w)
	row := chainRow{Seq: seq, Prev: l.head.Hash, Entry: entry, Digest: pd.total}
	row.Hash = chainHash(row.Prev, seq, entry, pd.total)
	writes := make([]kvWrite, 0, len(t.w))
	for k, v := range t.w {
		writes = append(writes, kvWrite{k, v})
	}
	sort.Slice(writes, func(i, j int) bool { return writes[i].k < writes[j].k })

	if err := l.precheck(op); err != nil {
		return err
	}
	// A transaction is committed when both copies hold it. One copy that
	// fails it (full, read-only, I/O error) refuses it on both: the other
	// copy, if it took it, takes it back, and the copy is faulted. So the
	// cabinet never sees a refused step that happened anyway, and the good
	// copy holds exactly what was acknowledged.
	var errs [2]error
	var done [2]bool
	if l.o.Parallel {
		var wg sync.WaitGroup
		for i, s := range l.stores {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = s.commit(writes, row, l.o.ChainKeep) }()
		}
		wg.Wait()
		done = [2]bool{errs[0] == nil, errs[1] == nil}
	} else {
		for i, s := range l.stores {
			if errs[i] = s.commit(writes, row, l.o.ChainKeep); errs[i] != nil {
				break // the other copy is not written: nothing to take back
			}
			done[i] = true
		}
	}
	if errs[0] != nil && errs[1] != nil {
		l.enterRAMError(fmt.Sprintf("write to both copies failed: A: %v; B: %v", errs[0], errs[1]), [2]*copyImage{})
		return l.ram
	}
	for i, e := range errs {
		if e == nil {
			continue
		}
		g := l.stores[1-i]
		if done[1-i] {
			if err := g.undo(writes, l.kv, seq); err != nil {
				l.enterRAMError(fmt.Sprintf("copy %s failed a write (%v) and copy %s could not take it back: %v",
					l.stores[i].name, e, g.name, err), [2]*copyImage{})
				return l.ram
			}
			if _, err := l.checkStore(g); err != nil {
				l.enterRAMError(fmt.Sprintf("copy %s failed a write (%v) and copy %s differs from memory after taking it back: %v",
					l.stores[i].name, e, g.name, err), [2]*copyImage{})
				return l.ram
			}
		}
		l.setFault(i, op, e)
		return l.persistFaults()
	}
	for k, v := range t.w {
		if v == nil {
			delete(l.kv, k)
		} else {
			l.kv[k] = v
		}
	}
	l.dig.apply(pd)
	l.digest = pd.total
	l.head = chainRow{Seq: seq, Hash: row.Hash, Digest: pd.total}
	return nil
}

// do runs a write transaction from the API.
func (l *Ledger) do(op string, args any, fn func(*tx) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.exec(op, args, fn)
}

// enterRAMError stops all writes, persists the reason in both copy
// directories and keeps the best readable values for suspect reads.
func (l *Ledger) enterRAMError(reason string, imgs [2]*copyImage) {
	l.ram = &RAMError{Reason: reason, Since: l.wall().Format(time.RFC3339)}
	for _, s := range l.stores {
		s.close()
		writeMarker(s.dir, l.ram)
	}
	l.copies = imgs
	if l.kv == nil {
		for _, img := range imgs {
			if img != nil && len(img.kv) > 0 {
				l.kv = img.kv
				break
			}
		}
	}
	if l.kv == nil {
		l.kv = map[string][]byte{}
	}
}

// loadSuspect reads whatever each copy still holds, for suspect reads while
// in RAM error. It reads snapshots of the files so the evidence is never
// changed.
func (l *Ledger) loadSuspect(m *RAMError) {
	l.ram = m
	var imgs [2]*copyImage
	if tmp, err := os.MkdirTemp("", "polaris-ledger-suspect-"); err == nil {
		for i, s := range l.stores {
			snap := filepath.Join(tmp, s.name)
			if snapshotFiles(s.dir, snap) == nil {
				imgs[i], _ = readCopyFresh(snap, "none")
			}
		}
		os.RemoveAll(tmp)
	}
	l.copies = imgs
	l.kv = nil
	for _, img := range imgs {
		if img != nil && len(img.kv) > 0 {
			l.kv = img.kv
			break
		}
	}
	if l.kv == nil {
		l.kv = map[string][]byte{}
	}
}

func writeMarker(dir string, e *RAMError) error {
	b, _ := json.Marshal(e)
	tmp := filepath.Join(dir, markerName+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, markerName)); err != nil {
		return err
	}
	return syncDir(dir)
}

func (l *Ledger) readMarker() *RAMError {
	for _, s := range l.stores {
		b, err := os.ReadFile(filepath.Join(s.dir, markerName))
		if err != nil {
			continue
		}
		var e RAMError
		if json.Unmarshal(b, &e) != nil || e.Reason == "" {
			e = RAMError{Reason: "RAM-error marker present (unreadable)", Since: "?"}
		}
		return &e
	}
	return nil
}

// Close closes both copies. Reads after Close still see the last state.
func (l *Ledger) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.readonly {
		return nil
	}
	l.closed = true
	for _, s := range l.stores {
		s.close()
	}
	return nil
}

// RAMError is non-nil while the ledger has no good copy: every write is
// refused with it (errors.Is(err, ErrRAMError)) and reads are suspect.
func (l *Ledger) RAMError() *RAMError {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.ram
}

// Findings lists what Open found and repaired.
func (l *Ledger) Findings() []string {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return append([]string(nil), l.findings...)
}

// Status is the ledger's integrity summary.
type Status struct {
	Seq         uint64 // last sealed transaction
	Head        string // its chain hash, hex
	Digest      string // state digest, hex
	LedgerID    string
	RAMError    *RAMError
	Faults      []CopyFault // copies that cannot be written (writes refused)
	InvariantOK bool
	Invariant   string // why it is broken
}

// Seq is the number of the last sealed transaction: it moves with every
// committed write, so a reader that compares it learns cheaply that the
// ledger (its meters among it) changed.
func (l *Ledger) Seq() uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.head.Seq
}

// Status reports the chain head and integrity state.
func (l *Ledger) Status() Status {
	l.mu.RLock()
	defer l.mu.RUnlock()
	st := Status{Seq: l.head.Seq, Head: hex.EncodeToString(l.head.Hash[:]),
		Digest: hex.EncodeToString(l.digest[:]), RAMError: l.ram, InvariantOK: true}
	for _, f := range l.faults {
		if f != nil {
			st.Faults = append(st.Faults, *f)
		}
	}
	st.LedgerID = string(l.kv["meta/ledger_id"])
	if v, ok := l.kv["inv/broken"]; ok {
		st.InvariantOK = false
		st.Invariant = string(v)
	}
	return st
}

// newLedgerID names a ledger from what makes its creation unique: when,
// where, by whom and after how many clears. The name tells two ledgers
// apart on the audit page; it is no secret, so it needs no random source
// (the cabinet binary imports none: central determination, check 30).
func newLedgerID(o Options, wall time.Time, who, text string, clears int64) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d\x00%s\x00%s\x00%s\x00%s\x00%d\x00%d", wall.UnixNano(), o.DirA, o.DirB, who, text, clears, os.Getpid()))
	return hex.EncodeToString(h[:8])
}

package ledger

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// walCheckpointBytes: Verify folds the WAL back into the database when it
// has grown past this, so commits rarely pay for a checkpoint.
const walCheckpointBytes = 512 << 10

// VerifyReport says what a Verify found.
type VerifyReport struct {
	Reason  string
	Seq     uint64
	Fast    [2]bool  // copy's files unchanged since the last full check
	Rebuilt []string // copies found bad and rebuilt, with why
	Took    time.Duration
}

// Verify checks both copies against memory and repairs one bad copy. The
// cabinet calls it before and after every game, after every money
// transaction and after a door closes (reason says which).
//
// Per copy: if nothing was written since the last full check, the bytes of
// ledger.db and its WAL must be exactly what they were (any flipped byte,
// even in free space, is caught). Otherwise the copy is read on a fresh
// connection: VerifyCheck (quick_check by default), every chain link, and
// the state digest against memory and the chain head. One bad copy is
// rebuilt from the other and the rebuild read back; both bad is a RAM error.
func (l *Ledger) Verify(reason string) (VerifyReport, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	start := time.Now()
	rep := VerifyReport{Reason: reason, Seq: l.head.Seq}
	if l.readonly {
		return rep, ErrReadOnly
	}
	if l.closed {
		return rep, ErrClosed
	}
	if l.ram != nil {
		return rep, l.ram
	}
	if l.faulted() {
		// Play is stopped; the copy that still holds everything is
		// checked all the same, since losing it too is a RAM error.
		for i, s := range l.stores {
			if l.faults[i] != nil {
				continue
			}
			if _, err := l.checkStore(s); err != nil {
				l.enterRAMError(fmt.Sprintf("verify (%s): copy %s bad (%v) while copy %s is faulted (%s)",
					reason, s.name, err, l.stores[1-i].name, l.faults[1-i].Cause), [2]*copyImage{})
				return rep, l.ram
			}
		}
		return rep, l.fault()
	}
	var bad [2]error
	var wg sync.WaitGroup
	for i, s := range l.stores { // the copies are on two media: check both at once
		wg.Add(1)
		go func() { defer wg.Done(); rep.Fast[i], bad[i] = l.checkStore(s) }()
	}
	wg.Wait()
	if bad[0] != nil && bad[1] != nil {
		l.enterRAMError(fmt.Sprintf("verify (%s): no good copy: A: %v; B: %v", reason, bad[0], bad[1]), [2]*copyImage{})
		return rep, l.ram
	}
	for i := range l.stores {
		if bad[i] == nil {
			continue
		}
		s := l.stores[i]
		if err := l.rebuild(i, 1-i); err != nil {
			// the other copy was just found equal to memory: it holds
			// everything, so this is the copy's fault, not a RAM error
			l.setFault(i, "verify ("+reason+")", fmt.Errorf("copy bad (%v) and rebuild failed: %w", bad[i], err))
			return rep, l.persistFaults()
		}
		text := fmt.Sprintf("verify (%s): copy %s bad (%v); rebuilt from copy %s", reason, s.name, bad[i], l.stores[1-i].name)
		rep.Rebuilt = append(rep.Rebuilt, text)
		if err := l.exec("event", nil, func(t *tx) error {
			t.event(EventCopyRebuilt, "copy "+s.name, text, 0, nil)
			return nil
		}); err != nil {
			return rep, err
		}
		// the event was a write: check the pair once more from scratch
		for _, s := range l.stores {
			if _, err := l.checkStore(s); err != nil {
				l.enterRAMError(fmt.Sprintf("verify (%s): copy %s bad right after rebuild: %v", reason, s.name, err), [2]*copyImage{})
				return rep, l.ram
			}
		}
	}
	rep.Seq = l.head.Seq
	rep.Took = time.Since(start)
	return rep, nil
}

// checkStore checks one copy and, when it is good, records its file
// fingerprint for the next fast check.
func (l *Ledger) checkStore(s *store) (fast bool, err error) {
	if s.db == nil {
		return false, fmt.Errorf("copy %s is not open", s.name)
	}
	if s.fpValid {
		fp, err := fingerprint(s.dir)
		if err != nil {
			return true, err
		}
		if fp != s.fp {
			return true, fmt.Errorf("files of copy %s changed with no write", s.name)
		}
		return true, nil
	}
	if st, err := os.Stat(filepath.Join(s.dir, DBName+"-wal")); err == nil && st.Size() > walCheckpointBytes {
		// a checkpoint that cannot finish now (a reader) is no fault; a
		// damaged copy shows in the read below
		s.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	}
	head, digest, err := checkCopyFresh(s.dir, l.o.VerifyCheck)
	if err != nil {
		return false, err
	}
	if head.Seq != l.head.Seq || head.Hash != l.head.Hash {
		return false, fmt.Errorf("chain head is transaction %d, memory has %d", head.Seq, l.head.Seq)
	}
	if digest != l.digest {
		return false, fmt.Errorf("state differs from memory")
	}
	fp, err := fingerprint(s.dir)
	if err != nil {
		return false, err
	}
	s.fp, s.fpValid = fp, true
	return false, nil
}

// Create makes a new, empty ledger (first installation). It refuses if a
// copy or a RAM-error marker exists: an existing ledger ends only by RAMClear.
func Create(o Options, who string) (*Ledger, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if who == "" {
		return nil, invalid("who creates the ledger must be named")
	}
	for _, d := range []string{o.DirA, o.DirB} {
		for _, n := range []string{DBName, DBName + "-wal", markerName} {
			if _, err := os.Stat(filepath.Join(d, n)); err == nil {
				return nil, conflict("%s exists in %s", n, d)
			}
		}
	}
	if err := writeGenesis(o, who, "created", 0, nil, nil); err != nil {
		return nil, err
	}
	return Open(o)
}

// RAMClear is the technician's RAM clear: the only write allowed in RAM
// error (allowed at any time). The old copies are kept beside the new ones
// (ledger.db.cleared-<time>) for inspection; the new ledger starts with zero
// meters and credit, except RAM clears (the last readable value + 1), and
// its first event records who, when, why and the suspect meters it replaced.
func (l *Ledger) RAMClear(who, reason string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if who == "" {
		return invalid("RAM clear needs the technician's name")
	}
	if l.readonly {
		return ErrReadOnly
	}
	if l.closed {
		return ErrClosed
	}
	old := map[string]json.RawMessage{}
	for k, v := range l.kv {
		if len(k) > 7 && k[:7] == "meters/" {
			old[k[7:]] = v
		}
	}
	old["credit"] = l.kv["credit"]
	oldJSON, _ := json.Marshal(old)
	clears := int64(0)
	var cab map[Meter]int64
	if json.Unmarshal(l.kv["meters/"+string(ScopeCabinet)], &cab) == nil {
		clears = cab[RAMClears]
	}
	seqs := lastSequences(l.kv, l.copies)
	for _, s := range l.stores {
		s.close()
	}
	stamp := l.wall().Format("20060102T150405.000000000")
	for _, s := range l.stores {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return fmt.Errorf("%w: %v", ErrStorage, err)
		}
		for _, n := range []string{DBName, DBName + "-wal", DBName + "-shm"} {
			p := filepath.Join(s.dir, n)
			if _, err := os.Stat(p); err == nil {
				if err := os.Rename(p, filepath.Join(s.dir, "cleared-"+stamp+"-"+n)); err != nil {
					return fmt.Errorf("%w: archive %s: %v", ErrStorage, p, err)
				}
			}
		}
		syncDir(s.dir)
	}
	prev := "none"
	if l.ram != nil {
		prev = l.ram.Reason
	}
	text := fmt.Sprintf("RAM clear by %s: %s (RAM error: %s)", who, reason, prev)
	if err := writeGenesis(l.o, who, text, clears, oldJSON, seqs); err != nil {
		return err
	}
	for _, s := range l.stores {
		os.Remove(filepath.Join(s.dir, markerName))
		os.Remove(filepath.Join(s.dir, faultName)) // it named transactions of the old ledger
		syncDir(s.dir)
	}
	nl, err := Open(l.o)
	if err != nil {
		return err
	}
	nl.mu.Lock()
	l.stores, l.kv, l.dig, l.head, l.digest = nl.stores, nl.kv, nl.dig, nl.head, nl.digest
	l.ram, l.copies, l.findings = nl.ram, nl.copies, nl.findings
	l.faults, l.deferred = nl.faults, nl.deferred
	nl.mu.Unlock()
	if l.ram != nil {
		return l.ram
	}
	return nil
}

// lastSequences is the highest value of every counter (seq/…) that the
// state or either copy still shows. A RAM clear goes on from there: the
// central system knows this cabinet's vouchers, rounds and outbox messages
// by these numbers and answers a number it has seen with what it answered
// before (the old voucher's validation number, the old round's outcome, a
// duplicate message dropped). A gap is harmless, a repeat is not.
func lastSequences(kv map[string][]byte, copies [2]*copyImage) map[string]int64 {
	out := map[string]int64{}
	srcs := []map[string][]byte{kv}
	for _, c := range copies {
		if c != nil {
			srcs = append(srcs, c.kv)
		}
	}
	for _, src := range srcs {
		for k := range src {
			if strings.HasPrefix(k, "seq/") {
				if v := intOf(src, k); v > out[k] {
					out[k] = v
				}
			}
		}
	}
	return out
}

// writeGenesis writes transaction 1 of a new ledger into both directories,
// each through a temporary file renamed into place; seqs are the counters
// it goes on from (lastSequences).
func writeGenesis(o Options, who, text string, clears int64, oldMeters []byte, seqs map[string]int64) error {
	g := newLedger(o)
	g.kv = map[string][]byte{}
	g.dig = newDigester(g.kv)
	t := newTx(g)
	t.put("meta/ledger_id", []byte(newLedgerID(o, t.wall, who, text, clears)))
	t.put("meta/schema", []byte(schemaVersion))
	t.putJSON("meta/created", t.wall)
	t.putJSON("credit", int64(0))
	t.putJSON("inv/base", int64(0))
	t.add(RAMClears, clears+1, ScopeCabinet)
	for k, v := range seqs {
		t.putJSON(k, v)
	}
	kind := EventRAMClear
	if clears == 0 && oldMeters == nil {
		text = "ledger created by " + who
	}
	t.event(kind, who, text, 0, oldMeters)
	t.finish()
	args := map[string]string{"who": who, "text": text}
	argBytes, _ := json.Marshal(args)
	entry, _ := json.Marshal(struct {
		Seq  uint64          `json:"seq"`
		Op   string          `json:"op"`
		Wall time.Time       `json:"wall"`
		Mono int64           `json:"mono"`
		Args json.RawMessage `json:"args"`
	}{1, "genesis", t.wall, int64(t.mono), argBytes})
	pd := g.dig.with(t.w)
	row := chainRow{Seq: 1, Entry: entry, Digest: pd.total}
	row.Hash = chainHash(row.Prev, 1, entry, pd.total)
	var writes []kvWrite
	for k, v := range t.w {
		writes = append(writes, kvWrite{k, v})
	}
	for _, dir := range []string{o.DirA, o.DirB} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("%w: %v", ErrStorage, err)
		}
		tmp := filepath.Join(dir, createName)
		for _, n := range []string{"", "-wal", "-shm"} {
			os.Remove(tmp + n)
		}
		db, err := openDB(tmp, true)
		if err != nil {
			return fmt.Errorf("%w: create: %v", ErrStorage, err)
		}
		s := &store{name: "new", dir: dir, db: db}
		if s.ins, err = db.Prepare(`INSERT OR REPLACE INTO state(k, v) VALUES(?, ?)`); err == nil {
			if s.del, err = db.Prepare(`DELETE FROM state WHERE k = ?`); err == nil {
				if s.cins, err = db.Prepare(`INSERT INTO chain(seq, prev, entry, digest, hash) VALUES(?, ?, ?, ?, ?)`); err == nil {
					s.cdel, err = db.Prepare(`DELETE FROM chain WHERE seq <= ?`)
				}
			}
		}
		if err == nil {
			err = s.commit(writes, row, o.ChainKeep)
		}
		s.close()
		if err == nil {
			err = syncFile(tmp)
		}
		if err == nil {
			err = os.Rename(tmp, filepath.Join(dir, DBName))
		}
		if err == nil {
			err = syncDir(dir)
		}
		if err != nil {
			return fmt.Errorf("%w: create: %v", ErrStorage, err)
		}
	}
	return nil
}

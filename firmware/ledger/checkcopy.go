package ledger

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"
)

// checkCopyFresh is what a verification reads of a copy: on a fresh
// connection, the SQLite check, every chain link, and the state digest
// against the seal of the last chain row, as readCopyFresh, but hashing the
// rows as they stream by instead of keeping them. It returns the chain head
// (without its entry) and the state digest.
//
// Why not readCopyFresh: Verify runs before and after every game, and the
// image it read (every value cloned into a map, a digester of maps, every
// chain entry) was nine tenths of all the cabinet allocated, some 6 MB a
// round in the soak. That churn of short-lived objects of every size,
// among the ledger's long-lived ones, left the heap's spans ever more
// sparsely used: the heap in use grew while the live heap did not
// (issue 23). Here a row costs the driver's own copy of its value and
// nothing that outlives the loop.
func checkCopyFresh(dir, check string) (head chainRow, digest [32]byte, err error) {
	p := filepath.Join(dir, DBName)
	if _, err := os.Stat(p); err != nil {
		if os.IsNotExist(err) {
			return head, digest, errMissing
		}
		return head, digest, err
	}
	db, err := openDB(p, false)
	if err != nil {
		return head, digest, err
	}
	defer db.Close()
	if err := sqliteCheck(db, check); err != nil {
		return head, digest, err
	}
	digest, err = streamDigest(db)
	if errors.Is(err, errUnordered) {
		// Never seen (state is keyed by its primary key, WITHOUT ROWID):
		// the digest the slow way rather than a false alarm.
		img, err := readImage(db, "none")
		if err != nil {
			return head, digest, err
		}
		return chainRow{Seq: img.head.Seq, Prev: img.head.Prev, Digest: img.head.Digest, Hash: img.head.Hash}, img.digest, nil
	}
	if err != nil {
		return head, digest, err
	}
	if head, err = streamChain(db); err != nil {
		return head, digest, err
	}
	if head.Digest != digest {
		return head, digest, fmt.Errorf("state digest does not match the seal of transaction %d", head.Seq)
	}
	return head, digest, nil
}

// sqliteCheck runs PRAGMA check ("quick_check", "integrity_check"; "" or
// "none" runs nothing), which must answer "ok".
func sqliteCheck(db *sql.DB, check string) error {
	if check == "" || check == "none" {
		return nil
	}
	rows, err := db.Query("PRAGMA " + check)
	if err != nil {
		return fmt.Errorf("%s: %w", check, err)
	}
	var msgs []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			rows.Close()
			return fmt.Errorf("%s: %w", check, err)
		}
		msgs = append(msgs, m)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", check, err)
	}
	if len(msgs) != 1 || msgs[0] != "ok" {
		return fmt.Errorf("%s: %s", check, strings.Join(msgs, "; "))
	}
	return nil
}

// errUnordered: the state rows did not come in strictly ascending key
// order, which streamDigest relies on.
var errUnordered = errors.New("state rows out of key order")

// streamDigest is newDigester(rows).total() without the rows: the rows
// come in key order (SQLite's binary order of TEXT is Go's order of
// strings), so each group's keys come sorted, as groupDigest sorts them,
// and each group's hash is written as its rows pass.
func streamDigest(db *sql.DB) ([32]byte, error) {
	var out [32]byte
	rows, err := db.Query(`SELECT k, v FROM state ORDER BY k`)
	if err != nil {
		return out, fmt.Errorf("read state: %w", err)
	}
	defer rows.Close()
	groups := map[string]hash.Hash{}
	var k, v, prev sql.RawBytes // RawBytes: the driver's buffers, not a copy each
	first := true
	for rows.Next() {
		if err := rows.Scan(&k, &v); err != nil {
			return out, fmt.Errorf("read state: %w", err)
		}
		if !first && bytes.Compare(prev, k) >= 0 {
			return out, errUnordered
		}
		first = false
		prev = append(prev[:0], k...)
		g := k
		if i := bytes.IndexByte(k, '/'); i >= 0 {
			g = k[:i]
		}
		h := groups[string(g)]
		if h == nil {
			h = sha256.New()
			groups[string(g)] = h
		}
		ih := itemHash([]byte(k), v)
		h.Write(k)
		h.Write([]byte{0})
		h.Write(ih[:])
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("read state: %w", err)
	}
	sums := make(map[string][32]byte, len(groups))
	for g, h := range groups {
		var s [32]byte
		h.Sum(s[:0])
		sums[g] = s
	}
	return totalDigest(sums), nil
}

// streamChain checks every chain link as readImage does and returns the
// last row, without its entry.
func streamChain(db *sql.DB) (chainRow, error) {
	var head chainRow
	rows, err := db.Query(`SELECT seq, prev, entry, digest, hash FROM chain ORDER BY seq`)
	if err != nil {
		return head, fmt.Errorf("read chain: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var r chainRow
		var seq int64
		var prev, entry, dg, h sql.RawBytes
		if err := rows.Scan(&seq, &prev, &entry, &dg, &h); err != nil {
			return head, fmt.Errorf("read chain: %w", err)
		}
		if len(prev) != 32 || len(dg) != 32 || len(h) != 32 || seq <= 0 {
			return head, fmt.Errorf("chain row %d malformed", seq)
		}
		r.Seq = uint64(seq)
		copy(r.Prev[:], prev)
		copy(r.Digest[:], dg)
		copy(r.Hash[:], h)
		if n > 0 {
			if r.Seq != head.Seq+1 {
				return head, fmt.Errorf("chain gap after %d", head.Seq)
			}
			if r.Prev != head.Hash {
				return head, fmt.Errorf("chain link broken at %d", r.Seq)
			}
		}
		if chainHash(r.Prev, r.Seq, entry, r.Digest) != r.Hash {
			return head, fmt.Errorf("chain hash wrong at %d", r.Seq)
		}
		head = r
		n++
	}
	if err := rows.Err(); err != nil {
		return head, fmt.Errorf("read chain: %w", err)
	}
	if n == 0 {
		return head, errors.New("chain is empty")
	}
	return head, nil
}

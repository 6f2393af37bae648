package ledger

import (
	"crypto/sha256"
	"encoding/binary"
	"sort"
	"strings"
)

// The state digest covers every state row. Rows are grouped by key prefix
// (up to the first '/'); a transaction recomputes only the groups it
// touched. digest = SHA-256 over sorted (group, SHA-256 over sorted
// (key, SHA-256(key, value))).

type digester struct {
	items  map[string]map[string][32]byte // group → key → item hash
	groups map[string][32]byte
}

func groupOf(k string) string {
	if i := strings.IndexByte(k, '/'); i >= 0 {
		return k[:i]
	}
	return k
}

func itemHash[K string | []byte](k K, v []byte) [32]byte {
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(k)))
	h.Write(n[:])
	h.Write([]byte(k))
	binary.BigEndian.PutUint64(n[:], uint64(len(v)))
	h.Write(n[:])
	h.Write(v)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

func newDigester(kv map[string][]byte) *digester {
	d := &digester{items: map[string]map[string][32]byte{}, groups: map[string][32]byte{}}
	for k, v := range kv {
		g := groupOf(k)
		if d.items[g] == nil {
			d.items[g] = map[string][32]byte{}
		}
		d.items[g][k] = itemHash(k, v)
	}
	for g, it := range d.items {
		d.groups[g] = groupDigest(it)
	}
	return d
}

func groupDigest(items map[string][32]byte) [32]byte {
	keys := make([]string, 0, len(items))
	for k := range items {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		ih := items[k]
		h.Write([]byte(k))
		h.Write([]byte{0})
		h.Write(ih[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

func totalDigest(groups map[string][32]byte) [32]byte {
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, g := range names {
		gd := groups[g]
		h.Write([]byte(g))
		h.Write([]byte{0})
		h.Write(gd[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

func (d *digester) total() [32]byte { return totalDigest(d.groups) }

// pending is a digest computed for a write set without changing d.
type pendingDigest struct {
	items  map[string]map[string][32]byte // only touched groups, full copies
	groups map[string][32]byte            // all groups
	total  [32]byte
}

// with returns the digest d would have after writes (nil value = delete).
func (d *digester) with(writes map[string][]byte) pendingDigest {
	p := pendingDigest{items: map[string]map[string][32]byte{}, groups: make(map[string][32]byte, len(d.groups)+2)}
	for g, gd := range d.groups {
		p.groups[g] = gd
	}
	for k, v := range writes {
		g := groupOf(k)
		it, ok := p.items[g]
		if !ok {
			it = make(map[string][32]byte, len(d.items[g])+1)
			for kk, hh := range d.items[g] {
				it[kk] = hh
			}
			p.items[g] = it
		}
		if v == nil {
			delete(it, k)
		} else {
			it[k] = itemHash(k, v)
		}
	}
	for g, it := range p.items {
		if len(it) == 0 {
			delete(p.groups, g)
			continue
		}
		p.groups[g] = groupDigest(it)
	}
	p.total = totalDigest(p.groups)
	return p
}

func (d *digester) apply(p pendingDigest) {
	for g, it := range p.items {
		if len(it) == 0 {
			delete(d.items, g)
		} else {
			d.items[g] = it
		}
	}
	d.groups = p.groups
}

// chainHash seals one transaction: the previous hash, its sequence number,
// the canonical entry bytes and the digest of the state it produced.
func chainHash(prev [32]byte, seq uint64, entry []byte, digest [32]byte) [32]byte {
	h := sha256.New()
	h.Write(prev[:])
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], seq)
	h.Write(n[:])
	binary.BigEndian.PutUint64(n[:], uint64(len(entry)))
	h.Write(n[:])
	h.Write(entry)
	h.Write(digest[:])
	var out [32]byte
	h.Sum(out[:0])
	return out
}

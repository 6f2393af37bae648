package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Reads serve from memory (the state both copies were last verified to
// hold). In RAM error they serve the best readable copy and say suspect.

func intOf(kv map[string][]byte, k string) int64 {
	var v int64
	if b, ok := kv[k]; ok {
		json.Unmarshal(b, &v)
	}
	return v
}

// keysWithPrefix returns the keys of kv under prefix (which ends in '/'),
// sorted.
func keysWithPrefix(kv map[string][]byte, prefix string) []string {
	var ks []string
	for k := range kv {
		if strings.HasPrefix(k, prefix) {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	return ks
}

// Credit is the credit meter; suspect in RAM error.
func (l *Ledger) Credit() (credit int64, suspect bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return intOf(l.kv, "credit"), l.ram != nil || l.suspect
}

// Meters returns one scope's meters (absent meters are 0).
func (l *Ledger) Meters(s Scope) (m map[Meter]int64, suspect bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return metersOf(l.kv, s), l.ram != nil || l.suspect
}

func metersOf(kv map[string][]byte, s Scope) map[Meter]int64 {
	m := map[Meter]int64{}
	if b, ok := kv["meters/"+string(s)]; ok {
		json.Unmarshal(b, &m)
	}
	return m
}

// AllMeters returns every scope's meters.
func (l *Ledger) AllMeters() (m map[Scope]map[Meter]int64, suspect bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return allMeters(l.kv), l.ram != nil || l.suspect
}

func allMeters(kv map[string][]byte) map[Scope]map[Meter]int64 {
	out := map[Scope]map[Meter]int64{}
	for _, k := range keysWithPrefix(kv, "meters/") {
		s := Scope(k[len("meters/"):])
		out[s] = metersOf(kv, s)
	}
	return out
}

// Round returns round n if it is still kept (open, or among the last
// RecallKeep closed).
func (l *Ledger) Round(n uint64) (Round, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var r Round
	b, ok := l.kv[seqKey("round", n)]
	if !ok || json.Unmarshal(b, &r) != nil {
		return Round{}, false
	}
	return r, true
}

// OpenRound returns the round that is wagered but not yet settled or
// refunded, to resume after a restart.
func (l *Ledger) OpenRound() (Round, bool) {
	l.mu.RLock()
	b, ok := l.kv["open/round"]
	l.mu.RUnlock()
	if !ok {
		return Round{}, false
	}
	var n uint64
	json.Unmarshal(b, &n)
	return l.Round(n)
}

// Recall returns up to n closed rounds, newest first.
func (l *Ledger) Recall(n int) []Round {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return recallOf(l.kv, n)
}

func recallOf(kv map[string][]byte, n int) []Round {
	ks := keysWithPrefix(kv, "round/")
	var out []Round
	for i := len(ks) - 1; i >= 0 && len(out) < n; i-- {
		var r Round
		if json.Unmarshal(kv[ks[i]], &r) != nil {
			continue
		}
		if r.Status == RoundSettled || r.Status == RoundRefunded {
			out = append(out, r)
		}
	}
	return out
}

// PendingDocs returns documents in escrow, vouchers being printed and
// handpays waiting for the attendant, oldest first.
func (l *Ledger) PendingDocs() []Doc {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return pendingOf(l.kv)
}

func pendingOf(kv map[string][]byte) []Doc {
	var out []Doc
	for _, k := range keysWithPrefix(kv, "doc/") {
		var d Doc
		if json.Unmarshal(kv[k], &d) == nil {
			out = append(out, d)
		}
	}
	return out
}

// DocsIn returns the last DocsInKeep notes and tickets stacked, newest first.
func (l *Ledger) DocsIn() []DocRecord {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return docLog(l.kv, "docin/")
}

// DocsOut returns the last DocsOutKeep vouchers printed, newest first. Show
// validation numbers through DocRecord.MaskedNumber.
func (l *Ledger) DocsOut() []DocRecord {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return docLog(l.kv, "docout/")
}

func docLog(kv map[string][]byte, prefix string) []DocRecord {
	ks := keysWithPrefix(kv, prefix)
	out := make([]DocRecord, 0, len(ks))
	for i := len(ks) - 1; i >= 0; i-- {
		var r DocRecord
		if json.Unmarshal(kv[ks[i]], &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// Events returns up to n events, newest first.
func (l *Ledger) Events(n int) []Event {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return eventsOf(l.kv, n)
}

func eventsOf(kv map[string][]byte, n int) []Event {
	ks := keysWithPrefix(kv, "event/")
	var out []Event
	for i := len(ks) - 1; i >= 0 && len(out) < n; i-- {
		var e Event
		if json.Unmarshal(kv[ks[i]], &e) == nil {
			out = append(out, e)
		}
	}
	return out
}

// Config returns one configuration value.
func (l *Ledger) Config(key string) (string, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	v, ok := l.kv["config/"+key]
	return string(v), ok
}

// ConfigAll returns the whole configuration.
func (l *Ledger) ConfigAll() map[string]string {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := map[string]string{}
	for _, k := range keysWithPrefix(l.kv, "config/") {
		out[k[len("config/"):]] = string(l.kv[k])
	}
	return out
}

// DigestSkip is what StateDigest leaves out besides the event log and the
// outbox: the Resume parts and the Meters named, in every scope.
type DigestSkip struct {
	Resume []ResumePart
	Meters []Meter
}

// StateDigest is a hash of the critical state: credit, meters, documents,
// rounds and the resume state, without the event log and the
// outbox, which only grow, and without what skip names (a heartbeat; the
// hard meters' pulses, which catch up on their own; the doors, which a
// technician opens and closes). Test mode compares it at entry and exit
// (check 28).
func (l *Ledger) StateDigest(skip DigestSkip) string {
	l.mu.RLock()
	defer l.mu.RUnlock()
	keys := make([]string, 0, len(l.kv))
	for k := range l.kv {
		if strings.HasPrefix(k, "event/") || strings.HasPrefix(k, "outbox/") || k == "seq/event" || k == "seq/outbox" ||
			slices.ContainsFunc(skip.Resume, func(p ResumePart) bool { return strings.HasPrefix(k, string(p)) }) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		v := l.kv[k]
		if strings.HasPrefix(k, "meters/") && len(skip.Meters) > 0 {
			var ms map[Meter]int64
			if json.Unmarshal(v, &ms) == nil {
				for _, m := range skip.Meters {
					delete(ms, m)
				}
				if len(ms) == 0 {
					continue
				}
				v, _ = json.Marshal(ms) // map keys sorted: the same meters give the same bytes
			}
		}
		fmt.Fprintf(h, "%d:%s%d:", len(k), k, len(v))
		h.Write(v)
	}
	return hex.EncodeToString(h.Sum(nil))
}

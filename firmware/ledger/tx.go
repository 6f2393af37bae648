package ledger

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// tx stages one transaction's writes over the ledger's memory.
type tx struct {
	l      *Ledger
	w      map[string][]byte // nil value = delete
	meters map[Scope]map[Meter]int64
	dirty  map[Scope]bool
	wall   time.Time
	mono   time.Duration
}

func newTx(l *Ledger) *tx {
	return &tx{l: l, w: map[string][]byte{}, meters: map[Scope]map[Meter]int64{}, dirty: map[Scope]bool{},
		wall: l.wall(), mono: l.mono()}
}

func (t *tx) get(k string) ([]byte, bool) {
	if v, ok := t.w[k]; ok {
		return v, v != nil
	}
	v, ok := t.l.kv[k]
	return v, ok
}

func (t *tx) put(k string, v []byte) {
	if v == nil {
		v = []byte{}
	}
	t.w[k] = v
}

func (t *tx) putJSON(k string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("ledger: marshal %s: %v", k, err))
	}
	t.put(k, b)
}

func (t *tx) getJSON(k string, p any) bool {
	v, ok := t.get(k)
	if !ok {
		return false
	}
	if err := json.Unmarshal(v, p); err != nil {
		panic(fmt.Sprintf("ledger: row %s unreadable in a verified state: %v", k, err))
	}
	return true
}

func (t *tx) del(k string) {
	if _, ok := t.get(k); ok {
		t.w[k] = nil
	}
}

func (t *tx) int(k string) int64 {
	var v int64
	t.getJSON(k, &v)
	return v
}

// next advances counter name and returns its new value.
func (t *tx) next(name string) uint64 {
	v := uint64(t.int("seq/"+name)) + 1
	t.putJSON("seq/"+name, v)
	return v
}

func (t *tx) counter(name string) uint64 { return uint64(t.int("seq/" + name)) }

func (t *tx) credit() int64     { return t.int("credit") }
func (t *tx) setCredit(v int64) { t.putJSON("credit", v) }
func (t *tx) addCredit(d int64) { t.setCredit(t.credit() + d) }
func (t *tx) meterMap(s Scope) map[Meter]int64 {
	m, ok := t.meters[s]
	if !ok {
		m = map[Meter]int64{}
		t.getJSON("meters/"+string(s), &m)
		t.meters[s] = m
	}
	return m
}

// add counts delta on meter m in each scope, rolling over at MeterModulus.
func (t *tx) add(m Meter, delta int64, scopes ...Scope) {
	if delta == 0 {
		return
	}
	for _, s := range scopes {
		mm := t.meterMap(s)
		mm[m] = rollAdd(mm[m], delta)
		t.dirty[s] = true
	}
}

func seqKey(prefix string, n uint64) string { return prefix + "/" + fmt.Sprintf("%020d", n) }

// event appends to the event log (keeping the last EventsKeep) and, if so
// configured, queues it for the central system.
func (t *tx) event(kind, source, text string, amount int64, data []byte) {
	seq := t.next("event")
	cab := t.meterMap(ScopeCabinet)
	e := Event{Seq: seq, Wall: t.wall, Mono: t.mono, PowerUp: cab[PowerUps], Kind: kind, Source: source,
		Text: text, Amount: amount, Data: data}
	t.putJSON(seqKey("event", seq), e)
	if seq > EventsKeep {
		t.del(seqKey("event", seq-EventsKeep))
	}
	if enc := t.l.o.EventMessage; enc != nil {
		if kind, b, err := enc(e); err == nil && kind != "" {
			t.enqueue(kind, b)
		}
	}
}

type outboxRow struct {
	Kind    string `json:"kind"`
	Payload []byte `json:"payload"`
}

func (t *tx) enqueue(kind string, payload []byte) int64 {
	id := t.next("outbox")
	t.putJSON(seqKey("outbox", id), outboxRow{kind, payload})
	return int64(id)
}

// finish writes the touched meter sets and checks the meter invariant:
// credit = base + bills in + tickets in + wins to credit + refunds
// − bets − vouchers out − cancelled-credit handpays (mod MeterModulus).
func (t *tx) finish() {
	for s := range t.dirty {
		t.putJSON("meters/"+string(s), t.meters[s])
	}
	t.dirty = map[Scope]bool{}
	ok, why := t.invariant()
	_, wasBroken := t.get("inv/broken")
	switch {
	case !ok && !wasBroken:
		t.event(EventInvariantBroken, "ledger", why, 0, nil)
		t.put("inv/broken", []byte(why))
	case ok && wasBroken:
		t.event(EventInvariantOK, "ledger", "meter invariant holds again", 0, nil)
		t.del("inv/broken")
	}
	for s := range t.dirty {
		t.putJSON("meters/"+string(s), t.meters[s])
	}
}

func (t *tx) invariant() (bool, string) {
	c := t.meterMap(ScopeCabinet)
	base := t.int("inv/base")
	in := base + c[BillsInValue] + c[TicketsInValue] + c[CoinOut] + c[WagersRefunded]
	out := c[CoinIn] + c[TicketsOutValue] + c[HandpayCancelledCredit]
	want := modSub(in%MeterModulus, out%MeterModulus)
	credit := t.credit()
	have := (credit%MeterModulus + MeterModulus) % MeterModulus
	if want == have {
		return true, ""
	}
	return false, "credit " + strconv.FormatInt(credit, 10) + " but meters imply " + strconv.FormatInt(want, 10) +
		fmt.Sprintf(" (base %d + bills %d + tickets in %d + wins %d + refunds %d - bets %d - vouchers %d - cancelled %d)",
			base, c[BillsInValue], c[TicketsInValue], c[CoinOut], c[WagersRefunded], c[CoinIn], c[TicketsOutValue], c[HandpayCancelledCredit])
}

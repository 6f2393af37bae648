package ledger

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Resume state: what the cabinet needs after a power cut besides money —
// its tilts, the doors open at power-off, the last heartbeat, the software
// the technician accepted, the central system's holds on tickets, and the
// hard meters' pulses. Each piece has its own typed operation, written in
// the transaction of the step it belongs to (a tilt with its event, a door
// with its meter and event, a hold with its document), so a power cut can
// never leave one without the other. Rows live under "resume/"; the ledger
// alone encodes them, so a read never meets a row it cannot decode (the
// rows of older ledgers are converted once, at Open: migrateResume).

// Tilt is a tilt kept across power cuts (check 6).
type Tilt struct {
	Reason string `json:"reason"`
	// Manual: a technician ends it; otherwise its device, started again,
	// reports the condition gone.
	Manual bool `json:"manual,omitempty"`
}

// TicketHold is the central system's hold on a ticket read here (check
// 24): written while the ticket is in escrow, before it is stacked, so a
// credited ticket is never left unconfirmed at the central system (where an
// expired hold would make it redeemable again). Result is empty while the
// ticket is in escrow and becomes DocStacked (confirm the hold) or
// DocReturned (release it) in the transaction that ends the escrow; the
// hold is dropped by HoldSettled once the central system answered.
type TicketHold struct {
	Doc    uint64    `json:"doc"`
	Number string    `json:"number"`
	Hold   string    `json:"hold"`
	Amount int64     `json:"amount"`
	Result DocResult `json:"result,omitempty"`
}

// Resume is the resume state as the cabinet reads it at power-up.
type Resume struct {
	Tilts      map[string]Tilt       // by tilt key
	Doors      map[string]bool       // doors open at the last write (closed doors are absent)
	Beat       time.Time             // last heartbeat; zero when none
	SoftwareID string                // the software last accepted; "" when none
	Holds      map[uint64]TicketHold // by document id
	HardMeters map[string]int64      // units pulsed, by hard meter
}

const (
	resumeTilt     = "resume/tilt/"
	resumeDoor     = "resume/door/"
	resumeBeat     = "resume/beat"
	resumeSoftware = "resume/software_id"
	resumeHold     = "resume/hold/"
	resumeHard     = "resume/hardmeter/"
)

// ResumePart names a part of the resume state for DigestSkip.
type ResumePart string

// The parts of the resume state that change on their own while nothing
// critical does (test mode leaves them out of its digest, check 28).
const (
	ResumeBeat       ResumePart = resumeBeat
	ResumeDoors      ResumePart = resumeDoor
	ResumeHardMeters ResumePart = resumeHard
)

// Resume reads the resume state (suspect in RAM error, like every read).
func (l *Ledger) Resume() Resume {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return resumeOf(l.kv)
}

func resumeOf(kv map[string][]byte) Resume {
	r := Resume{Tilts: map[string]Tilt{}, Doors: map[string]bool{}, Holds: map[uint64]TicketHold{}, HardMeters: map[string]int64{}}
	for _, k := range keysWithPrefix(kv, resumeTilt) {
		var t Tilt
		if json.Unmarshal(kv[k], &t) == nil {
			r.Tilts[k[len(resumeTilt):]] = t
		}
	}
	for _, k := range keysWithPrefix(kv, resumeDoor) {
		r.Doors[k[len(resumeDoor):]] = true
	}
	for _, k := range keysWithPrefix(kv, resumeHold) {
		var h TicketHold
		if json.Unmarshal(kv[k], &h) == nil {
			r.Holds[h.Doc] = h
		}
	}
	for _, k := range keysWithPrefix(kv, resumeHard) {
		r.HardMeters[k[len(resumeHard):]] = intOf(kv, k)
	}
	if b, ok := kv[resumeBeat]; ok {
		json.Unmarshal(b, &r.Beat)
	}
	r.SoftwareID = string(kv[resumeSoftware])
	return r
}

func holdKey(id uint64) string { return seqKey("resume/hold", id) }

// HardMeterPulses is how many units hard meter m has been pulsed.
func (l *Ledger) HardMeterPulses(m string) int64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return intOf(l.kv, resumeHard+m)
}

type tiltArgs struct {
	Key    string `json:"key"`
	Reason string `json:"reason,omitempty"`
	Manual bool   `json:"manual,omitempty"`
	Source string `json:"source,omitempty"`
	Text   string `json:"text,omitempty"`
}

// SetTilt keeps tilt key across power cuts and logs it (event "tilt",
// source key, text reason) in the same transaction. The same tilt again
// writes nothing.
func (l *Ledger) SetTilt(key, reason string, manual bool) error {
	return l.do("tilt", tiltArgs{Key: key, Reason: reason, Manual: manual}, func(t *tx) error {
		if key == "" || reason == "" {
			return invalid("tilt %q without key or reason", reason)
		}
		var old Tilt
		if t.getJSON(resumeTilt+key, &old) && old == (Tilt{reason, manual}) {
			return nil
		}
		t.putJSON(resumeTilt+key, Tilt{reason, manual})
		t.event("tilt", key, reason, 0, nil)
		return nil
	})
}

// ClearTilt ends tilt key and logs it (event "tilt_cleared" from source
// with text) in the same transaction. The event is logged even when the
// tilt was not kept (one its device raised before this power-up).
func (l *Ledger) ClearTilt(key, source, text string) error {
	return l.do("tilt_cleared", tiltArgs{Key: key, Source: source, Text: text}, func(t *tx) error {
		if key == "" || source == "" {
			return invalid("tilt clear without key or source")
		}
		t.del(resumeTilt + key)
		t.event("tilt_cleared", source, text, 0, nil)
		return nil
	})
}

// Heartbeat keeps the last sign of life (at: the cabinet's wall clock),
// the earliest a power-off window may start (check 18).
func (l *Ledger) Heartbeat(at time.Time) error {
	return l.do("heartbeat", at.UTC(), func(t *tx) error {
		if at.IsZero() {
			return invalid("heartbeat without time")
		}
		t.putJSON(resumeBeat, at.UTC())
		return nil
	})
}

type softwareArgs struct {
	ID  string `json:"id"`
	Who string `json:"who"`
}

// AcceptSoftware makes id the accepted software (check 9) and logs it in
// the same transaction: "software_installed" (text id) when none was
// accepted before, else "software_accepted" (text "old X new Y"), from who.
// The same id again writes nothing.
func (l *Ledger) AcceptSoftware(id, who string) error {
	return l.do("software_accepted", softwareArgs{id, who}, func(t *tx) error {
		if id == "" || who == "" {
			return invalid("software acceptance needs an id and who")
		}
		old, had := t.get(resumeSoftware)
		if had && string(old) == id {
			return nil
		}
		t.put(resumeSoftware, []byte(id))
		if had {
			t.event("software_accepted", who, fmt.Sprintf("old %s new %s", old, id), 0, nil)
		} else {
			t.event("software_installed", who, id, 0, nil)
		}
		return nil
	})
}

type holdArgs struct {
	ID     uint64 `json:"id"`
	Hold   string `json:"hold"`
	Amount int64  `json:"amount"`
}

// HoldTicket records the central system's hold on ticket id, which must be
// in escrow: the ticket may be stacked only once this returned. The same
// hold again writes nothing.
func (l *Ledger) HoldTicket(id uint64, hold string, amount int64) error {
	return l.do("ticket_hold", holdArgs{id, hold, amount}, func(t *tx) error {
		if hold == "" || amount <= 0 {
			return invalid("ticket hold %q for amount %d", hold, amount)
		}
		k := holdKey(id)
		var old TicketHold
		if t.getJSON(k, &old) {
			if old.Hold == hold && old.Amount == amount {
				return nil
			}
			return conflict("ticket %d holds %s already", id, old.Hold)
		}
		d, ok := t.doc(id)
		if !ok || d.Kind != DocTicketIn {
			return fmt.Errorf("%w: ticket %d in escrow", ErrNotFound, id)
		}
		t.putJSON(k, TicketHold{Doc: id, Number: d.Number, Hold: hold, Amount: amount})
		return nil
	})
}

// endHold marks the hold of a ticket whose escrow ends with res, in the
// transaction that ends it.
func (t *tx) endHold(id uint64, res DocResult) {
	k := holdKey(id)
	var h TicketHold
	if t.getJSON(k, &h) && h.Result == "" {
		h.Result = res
		t.putJSON(k, h)
	}
}

// HoldSettled drops the hold of ticket id once the central system has
// confirmed or released it. Only an ended escrow's hold can be settled; an
// unknown one is a replay and writes nothing.
func (l *Ledger) HoldSettled(id uint64) error {
	return l.do("ticket_hold_settled", stackArgs{ID: id}, func(t *tx) error {
		k := holdKey(id)
		var h TicketHold
		if !t.getJSON(k, &h) {
			return nil
		}
		if h.Result == "" {
			return conflict("ticket %d is still in escrow", id)
		}
		t.del(k)
		return nil
	})
}

type pulseArgs struct {
	Meter string `json:"meter"`
	N     int64  `json:"n"`
}

// HardMeterPulsed counts n more units pulsed on hard meter m. Only the
// goroutine driving the meters calls it (see README, who writes).
func (l *Ledger) HardMeterPulsed(m string, n int64) error {
	return l.do("hardmeter_pulsed", pulseArgs{m, n}, func(t *tx) error {
		if m == "" || n <= 0 {
			return invalid("hard meter %q pulsed %d", m, n)
		}
		t.putJSON(resumeHard+m, t.int(resumeHard+m)+n)
		return nil
	})
}

// ---- schema 1: resume state as untyped software state ----

// schemaVersion is written by Create and RAMClear and brought up to date by
// Open. 1: resume state as opaque "sw/<key>" rows the cabinet encoded;
// 2: typed "resume/" rows.
const schemaVersion = "2"

// migrateResume converts the schema-1 software state rows of kv into
// resume rows, once: every "sw/" row is read, converted when it is one the
// cabinet wrote, and deleted. A row that does not decode, or that no
// version of the cabinet wrote, is dropped with an event naming it — the
// state it held is lost, and that is said, never silently.
// unreadable is told each row dropped (Open logs it as an event in the
// migration's transaction; an inspection lists it).
func migrateResume(t *tx, unreadable func(key string, err error)) {
	drop := func(k string, err error) { unreadable(k[len("sw/"):], err) }
	for _, k := range keysWithPrefix(t.l.kv, "sw/") {
		v, _ := t.get(k)
		name := k[len("sw/"):]
		switch {
		case name == "tilts" || name == "device_tilts":
			var m map[string]string
			if err := json.Unmarshal(v, &m); err != nil {
				drop(k, err)
				break
			}
			for key, reason := range m {
				if key != "" && reason != "" {
					t.putJSON(resumeTilt+key, Tilt{Reason: reason, Manual: name == "tilts"})
				}
			}
		case name == "doors":
			var m map[string]bool
			if err := json.Unmarshal(v, &m); err != nil {
				drop(k, err)
				break
			}
			for door, open := range m {
				if open && door != "" {
					t.put(resumeDoor+door, []byte("1"))
				}
			}
		case name == "beat":
			at, err := time.Parse(time.RFC3339Nano, string(v))
			if err != nil {
				drop(k, err)
				break
			}
			t.putJSON(resumeBeat, at.UTC())
		case name == "software_id":
			if len(v) > 0 {
				t.put(resumeSoftware, v)
			}
		case name == "redeems":
			var m map[uint64]struct {
				Number string `json:"number"`
				Hold   string `json:"hold"`
				Amount int64  `json:"amount"`
			}
			if err := json.Unmarshal(v, &m); err != nil {
				drop(k, err)
				break
			}
			for id, r := range m {
				h := TicketHold{Doc: id, Number: r.Number, Hold: r.Hold, Amount: r.Amount}
				// As the cabinet resumed them: still in escrow, credited
				// here (confirm), else given back (release).
				if _, pending := t.doc(id); !pending {
					h.Result = DocReturned
					if stackedHere(t, id) {
						h.Result = DocStacked
					}
				}
				t.putJSON(holdKey(id), h)
			}
		case strings.HasPrefix(name, "hardmeter/"):
			if len(v) != 8 {
				drop(k, fmt.Errorf("%d bytes, want 8", len(v)))
				break
			}
			t.putJSON(resumeHard+name[len("hardmeter/"):], int64(binary.BigEndian.Uint64(v)))
		default:
			drop(k, fmt.Errorf("no cabinet writes this key"))
		}
		t.del(k)
	}
	t.put("meta/schema", []byte(schemaVersion))
}

// stackedHere: document id ended stacked (its record, or the money-in
// history when the record is gone).
func stackedHere(t *tx, id uint64) bool {
	if r, ok := t.done(id); ok {
		return r.Result == DocStacked
	}
	for _, r := range docLog(t.l.kv, "docin/") {
		if r.ID == id {
			return r.Result == DocStacked
		}
	}
	return false
}

// migrate brings a schema-1 ledger up to date in one transaction, its
// unreadable rows logged as events "resume_state_unreadable" in it.
func (l *Ledger) migrate() error {
	if !needsMigration(l.kv) {
		return nil
	}
	return l.exec("migrate_schema", map[string]string{"to": schemaVersion}, func(t *tx) error {
		migrateResume(t, func(key string, err error) {
			t.event("resume_state_unreadable", "ledger", key+": "+err.Error(), 0, nil)
		})
		return nil
	})
}

// needsMigration: the state is of an older schema.
func needsMigration(kv map[string][]byte) bool {
	v, ok := kv["meta/schema"]
	if !ok {
		return false // no state at all (a RAM error with nothing readable)
	}
	n, _ := strconv.Atoi(string(v))
	return n < 2
}

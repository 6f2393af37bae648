package players

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// The exclusion register file (README "Exclusion register file"):
//
//	POLARIS-EXCLUSIONS 2
//	date 2026-12-01
//	serial 4711
//	NOVÁK Jan|1980-01-31|AB123456
//	SVOBODOVÁ Eva|1975-05-05|
//	signature <base64 Ed25519 signature over every byte before this line>
//
// One person a line: name as on the identity document (surname first, in
// capitals), birth date, and the identity document number if the register
// has it. A file is the whole register as of its date and serial: it
// replaces the previous one, if it is later.
const exclusionsMagic = "POLARIS-EXCLUSIONS 2"

// MaxExclusions bounds one register file.
const MaxExclusions = 1_000_000

// ImportResult is what an import did.
type ImportResult struct {
	Date    string `json:"date"`
	Serial  uint64 `json:"serial"`
	Entries int    `json:"entries"`
	Already bool   `json:"already,omitempty"` // the same file was imported before
	// Open accounts that the register names.
	Excluded []string `json:"excluded,omitempty"`
	// Open accounts that the register probably names: held for review.
	Review []string `json:"review,omitempty"`
}

// entry is one register line: its keys' hashes are kept; the folded name,
// birth date and document hash only while the file is imported.
type entry struct {
	id      string   // keyed hash of the normalised name and birth date
	keys    []keyRow // its name keys and document key
	words   []string
	surname int
	birth   string
	doc     string // keyed hash; "" without a number
}

type keyRow struct {
	hash         string
	split, given int
}

// registerKeys are the keyed hashes an entry is found by (the rule of
// matchSplits, without keeping the name): for each reading of the name,
// the surname with the birth date (s), the surname with each given name
// and the birth date (g), each given name with the birth date (n), and
// the surname's near keys with the birth date (v); and the
// document number (doc).
func (r *Registry) registerKeys(words []string, surname int, birth, doc string) []keyRow {
	var out []keyRow
	seen := map[string]bool{}
	add := func(h string, split, given int) {
		if k := fmt.Sprint(h, split); !seen[k] {
			seen[k] = true
			out = append(out, keyRow{hash: h, split: split, given: given})
		}
	}
	for i, sp := range splits(words, surname) {
		n := len(sp.given)
		add(r.keyed("reg-s", sp.surname+"\x00"+birth), i, n)
		for _, g := range sp.given {
			add(r.keyed("reg-g", sp.surname+"\x00"+g+"\x00"+birth), i, n)
			add(r.keyed("reg-n", g+"\x00"+birth), i, n)
		}
		for _, w := range nearKeys(sp.surname) {
			add(r.keyed("reg-v", w+"\x00"+birth), i, n)
		}
	}
	if doc != "" {
		add(r.docHash(doc), -1, 0)
	}
	return out
}

// probeKey is what one probed hash stands for on the account's side.
type probeKey struct {
	cand  int    // the account name's reading
	kind  byte   // s, g, n, v, d (document)
	given string // g and n: the account's given name
}

// registerMatch is how the register in force names an account: the
// entries it matches, each at its level (matchCertain or matchProbable).
func (r *Registry) registerMatch(tx *sql.Tx, a *acct) (map[string]int, error) {
	cands := splits(nameWords(a.name), 0)
	probes := map[string][]probeKey{}
	add := func(h string, p probeKey) { probes[h] = append(probes[h], p) }
	for i, c := range cands {
		add(r.keyed("reg-s", c.surname+"\x00"+a.birth), probeKey{cand: i, kind: 's'})
		for _, g := range c.given {
			add(r.keyed("reg-g", c.surname+"\x00"+g+"\x00"+a.birth), probeKey{cand: i, kind: 'g', given: g})
			add(r.keyed("reg-n", g+"\x00"+a.birth), probeKey{cand: i, kind: 'n', given: g})
		}
		for _, w := range nearKeys(c.surname) {
			add(r.keyed("reg-v", w+"\x00"+a.birth), probeKey{cand: i, kind: 'v'})
		}
	}
	add(a.docHash, probeKey{cand: -1, kind: 'd'})
	type hitKey struct {
		entry       string
		split, cand int
	}
	type hit struct {
		s, v, doc    bool
		g, n         map[string]bool
		entryGiven   int
		accountGiven int
	}
	hits := map[hitKey]*hit{}
	hs := make([]any, 0, len(probes))
	for h := range probes {
		hs = append(hs, h)
	}
	for len(hs) > 0 {
		chunk := hs[:min(len(hs), 400)]
		hs = hs[len(chunk):]
		rows, err := tx.Query(`SELECT hash, entry, split, given FROM player_register_keys WHERE hash IN (?`+strings.Repeat(",?", len(chunk)-1)+`)`, chunk...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var h, e string
			var split, given int
			if err := rows.Scan(&h, &e, &split, &given); err != nil {
				rows.Close()
				return nil, err
			}
			for _, p := range probes[h] {
				if (p.kind == 'd') != (split < 0) {
					continue
				}
				k := hitKey{e, split, p.cand}
				x := hits[k]
				if x == nil {
					x = &hit{g: map[string]bool{}, n: map[string]bool{}, entryGiven: given}
					if p.cand >= 0 {
						x.accountGiven = len(cands[p.cand].given)
					}
					hits[k] = x
				}
				switch p.kind {
				case 's':
					x.s = true
				case 'v':
					x.v = true
				case 'd':
					x.doc = true
				case 'g':
					x.g[p.given] = true
				case 'n':
					x.n[p.given] = true
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	out := map[string]int{}
	agree := func(common, n, m int) bool { return n > 0 && m > 0 && (common == n || common == m) }
	for k, x := range hits {
		lvl := matchNone
		switch {
		case x.doc:
			lvl = matchCertain
		case x.s && agree(len(x.g), x.entryGiven, x.accountGiven):
			lvl = matchCertain
		case x.s && (len(x.g) > 0 || x.entryGiven == 0 || x.accountGiven == 0):
			lvl = matchProbable
		case !x.s && x.v && agree(len(x.n), x.entryGiven, x.accountGiven):
			lvl = matchProbable
		}
		if lvl > out[k.entry] {
			out[k.entry] = lvl
		}
	}
	for e, l := range out {
		if l == matchNone {
			delete(out, e)
		}
	}
	return out, nil
}

// parseExclusions checks the signature and the format of a register file.
func (r *Registry) parseExclusions(b []byte) (date string, serial uint64, body []byte, es []entry, err error) {
	fail := func(format string, args ...any) (string, uint64, []byte, []entry, error) {
		return "", 0, nil, nil, refusef(refusal.PlayerInvalid, format, args...)
	}
	i := bytes.LastIndex(b, []byte("\nsignature "))
	if i < 0 {
		return fail("exclusion register: no signature line")
	}
	body = b[:i+1]
	sigText := strings.TrimSpace(string(b[i+len("\nsignature "):]))
	sig, err := base64.StdEncoding.DecodeString(sigText)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return fail("exclusion register: the signature is not a base64 Ed25519 signature")
	}
	if !ed25519.Verify(r.cfg.RegisterKey, body, sig) {
		return fail("exclusion register: the signature does not verify with the register's key")
	}
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	if len(lines) < 3 || strings.TrimSpace(lines[0]) != exclusionsMagic {
		// Format 1 had no serial: a file of the same date could not be told
		// older or newer, so a replayed one lifted exclusions.
		return fail("exclusion register: first line is not %q", exclusionsMagic)
	}
	date, ok := strings.CutPrefix(strings.TrimSpace(lines[1]), "date ")
	if !ok || !birthRE.MatchString(date) {
		return fail("exclusion register: second line is not \"date YYYY-MM-DD\"")
	}
	if _, err := time.Parse("2006-01-02", date); err != nil {
		return fail("exclusion register: date %q: %v", date, err)
	}
	st, ok := strings.CutPrefix(strings.TrimSpace(lines[2]), "serial ")
	if !ok {
		return fail("exclusion register: third line is not \"serial N\"")
	}
	if serial, err = strconv.ParseUint(st, 10, 63); err != nil {
		return fail("exclusion register: serial %q: %v", st, err)
	}
	if len(lines)-3 > MaxExclusions {
		return fail("exclusion register: %d entries, at most %d", len(lines)-3, MaxExclusions)
	}
	for n, l := range lines[3:] {
		f := strings.Split(strings.TrimRight(l, "\r"), "|")
		if len(f) != 3 {
			return fail("exclusion register line %d: want name|YYYY-MM-DD|document", n+4)
		}
		words, surname := registerName(f[0])
		birth, doc := strings.TrimSpace(f[1]), normDoc(f[2])
		if len(words) == 0 || !birthRE.MatchString(birth) {
			return fail("exclusion register line %d: name or birth date missing", n+4)
		}
		id := r.keyed("reg-entry", fmt.Sprint(strings.Join(words, " "), "\x00", surname, "\x00", birth))
		e := entry{id: id, keys: r.registerKeys(words, surname, birth, doc), words: words, surname: surname, birth: birth}
		if doc != "" {
			e.doc = r.docHash(doc)
		}
		es = append(es, e)
	}
	return date, serial, body, es, nil
}

// ImportExclusions replaces the register of excluded persons with a signed
// file. Only keyed hashes of its entries are kept. A file is refused,
// nothing changed, unless it is later than the register in force (a later
// date, or the same date and a higher serial: an earlier one would lift
// exclusions) and not dated after today (it would block every genuine file
// of today). Open accounts it names are logged; those it probably names
// get a review and do not play until staff decide.
func (r *Registry) ImportExclusions(ctx context.Context, file []byte) (*ImportResult, error) {
	date, serial, body, es, err := r.parseExclusions(file)
	if err != nil {
		r.cfg.Log.Error("exclusion register refused", "err", err)
		return nil, err
	}
	sum := sha256.Sum256(body)
	digest := hex.EncodeToString(sum[:])
	now := r.cfg.Now()
	out := &ImportResult{Date: date, Serial: serial, Entries: len(es)}
	err = r.write(ctx, func(tx *sql.Tx) error {
		if today := now.In(r.cfg.Profile.Location).Format("2006-01-02"); date > today {
			return refusef(refusal.PlayerInvalid, "exclusion register of %s is dated after today (%s)", date, today)
		}
		var last, lastSum string
		var lastSerial uint64
		err := tx.QueryRow(`SELECT i.register_date, coalesce(s.serial, 0), i.body_sha256 FROM player_exclusion_imports i
			LEFT JOIN player_exclusion_serials s ON s.import_id=i.id ORDER BY i.id DESC LIMIT 1`).Scan(&last, &lastSerial, &lastSum)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case lastSum == digest:
			out.Already = true
			return nil
		case date < last || date == last && serial <= lastSerial:
			return refusef(refusal.PlayerInvalid, "exclusion register of %s serial %d is not later than the one in force (%s serial %d)", date, serial, last, lastSerial)
		}
		for _, t := range []string{"player_exclusions", "player_register_keys"} {
			if _, err := tx.Exec(`DELETE FROM ` + t); err != nil {
				return err
			}
		}
		const batch = 200
		var args []any
		flush := func() error {
			if len(args) == 0 {
				return nil
			}
			q := `INSERT INTO player_register_keys(hash, entry, split, given) VALUES(?,?,?,?)` + strings.Repeat(",(?,?,?,?)", len(args)/4-1)
			_, err := tx.Exec(q, args...)
			args = args[:0]
			return err
		}
		for _, e := range es {
			for _, k := range e.keys {
				args = append(args, k.hash, e.id, k.split, k.given)
				if len(args) == 4*batch {
					if err := flush(); err != nil {
						return err
					}
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}
		id, err := nextID(tx, "player_exclusion_imports", "id")
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO player_exclusion_imports(id, register_date, body_sha256, entries, imported_at) VALUES(?,?,?,?,?)`,
			id, date, digest, len(es), now.UnixNano()); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO player_exclusion_serials(import_id, serial) VALUES(?,?)`, id, serial); err != nil {
			return err
		}
		ids, err := r.named(tx, es)
		if err != nil {
			return err
		}
		for _, id := range ids {
			a, err := loadAccount(tx, id)
			if err != nil {
				return err
			}
			st, err := r.exclusion(tx, a, now)
			if err != nil {
				return err
			}
			switch st {
			case matchCertain:
				out.Excluded = append(out.Excluded, id)
				// Their sessions stay: the next wager is refused as
				// excluded, which the cabinet shows.
				if err := logf(tx, id, now, "excluded", "in the exclusion register of %s serial %d", date, serial); err != nil {
					return err
				}
			case matchProbable:
				out.Review = append(out.Review, id)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.cfg.Log.Info("exclusion register imported", "date", date, "serial", serial, "entries", len(es), "excluded_accounts", len(out.Excluded), "review", len(out.Review), "already", out.Already)
	return out, nil
}

// named are the open accounts the file's entries match at least
// probably, by the rule in memory (one pass over the accounts, not a
// query each: the import runs in the store's one writer); exclusion then
// takes the staff's decisions from the stored keys.
func (r *Registry) named(tx *sql.Tx, es []entry) ([]string, error) {
	byBirth, byDoc := map[string][]*entry{}, map[string]bool{}
	for i := range es {
		byBirth[es[i].birth] = append(byBirth[es[i].birth], &es[i])
		if es[i].doc != "" {
			byDoc[es[i].doc] = true
		}
	}
	rows, err := tx.Query(`SELECT id, name, birth_date, doc_hash FROM player_accounts WHERE closed_at IS NULL ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id, name, birth, doc string
		if err := rows.Scan(&id, &name, &birth, &doc); err != nil {
			return nil, err
		}
		hit := byDoc[doc]
		if cand := byBirth[birth]; !hit && len(cand) > 0 {
			words := nameWords(name)
			for _, e := range cand {
				if matchNames(e.words, words, e.surname, 0) > matchNone {
					hit = true
					break
				}
			}
		}
		if hit {
			ids = append(ids, id)
		}
	}
	return ids, rows.Err()
}

// exclusion is how the register in force names the account, after the
// staff's decisions: matchCertain (excluded), matchProbable (a review
// is open, opened here if it was not: no play until it is decided), or
// matchNone.
func (r *Registry) exclusion(tx *sql.Tx, a *acct, now time.Time) (int, error) {
	m, err := r.registerMatch(tx, a)
	if err != nil {
		return matchNone, err
	}
	st := matchNone
	for e, lvl := range m {
		if lvl == matchProbable {
			var decision string
			err := tx.QueryRow(`SELECT decision FROM player_reviews WHERE account=? AND kind=? AND subject=?`, a.id, ReviewExclusion, e).Scan(&decision)
			switch {
			case errors.Is(err, sql.ErrNoRows) && a.closed:
				// A closed account plays no more: nothing for staff to decide.
			case errors.Is(err, sql.ErrNoRows):
				if err := r.openReview(tx, a.id, ReviewExclusion, e, "probably the person of an entry of the register of excluded persons", now); err != nil {
					return matchNone, err
				}
			case err != nil:
				return matchNone, err
			case decision == DecisionDifferent:
				lvl = matchNone
			case decision == DecisionSame:
				lvl = matchCertain
			}
		}
		st = max(st, lvl)
	}
	return st, nil
}

// registerFresh checks that the register in force is dated within
// ExclusionsMaxAge.
func (r *Registry) registerFresh(tx *sql.Tx, now time.Time) error {
	if r.cfg.Profile.ExclusionsMaxAge == 0 {
		return nil
	}
	var date string
	err := tx.QueryRow(`SELECT register_date FROM player_exclusion_imports ORDER BY id DESC LIMIT 1`).Scan(&date)
	if errors.Is(err, sql.ErrNoRows) {
		return refusef(refusal.ExclusionsStale, "no exclusion register imported: no login")
	}
	if err != nil {
		return err
	}
	// The register's own date counts, not the import's: an old file
	// imported today is still old.
	d, err := time.ParseInLocation("2006-01-02", date, r.cfg.Profile.Location)
	if err != nil {
		return err
	}
	if now.Sub(d) > r.cfg.Profile.ExclusionsMaxAge {
		return refusef(refusal.ExclusionsStale, "the exclusion register in force is of %s, older than %s: no login", date, r.cfg.Profile.ExclusionsMaxAge)
	}
	return nil
}

// signSerial numbers the files SignExclusions makes in this process.
var signSerial atomic.Uint64

// SignExclusions makes a register file of date, its serial the next one
// this process gave (the register's side, for tests and the devkit: each
// file signed is later than the last).
func SignExclusions(key ed25519.PrivateKey, date string, lines []string) []byte {
	return SignRegister(key, date, signSerial.Add(1), lines)
}

// SignRegister makes a register file of date and serial (the format's
// documentation and the register's side).
func SignRegister(key ed25519.PrivateKey, date string, serial uint64, lines []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\ndate %s\nserial %d\n", exclusionsMagic, date, serial)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	sig := ed25519.Sign(key, b.Bytes())
	fmt.Fprintf(&b, "signature %s\n", base64.StdEncoding.EncodeToString(sig))
	return b.Bytes()
}

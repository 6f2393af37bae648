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
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// The exclusion register file (README "Exclusion register file"):
//
//	POLARIS-EXCLUSIONS 1
//	date 2026-12-01
//	NOVÁK Jan|1980-01-31|AB123456
//	SVOBODOVÁ Eva|1975-05-05|
//	signature <base64 Ed25519 signature over every byte before this line>
//
// One person a line: name as on the identity document, birth date, and
// the identity document number if the register has it. A file is the
// whole register as of its date: it replaces the previous one.
const exclusionsMagic = "POLARIS-EXCLUSIONS 1"

// MaxExclusions bounds one register file.
const MaxExclusions = 1_000_000

// ImportResult is what an import did.
type ImportResult struct {
	Date    string `json:"date"`
	Entries int    `json:"entries"`
	Already bool   `json:"already,omitempty"` // the same file was imported before
	// Open accounts that the register names.
	Excluded []string `json:"excluded,omitempty"`
}

type exclusion struct{ doc, person string }

// parseExclusions checks the signature and the format of a register file.
func (r *Registry) parseExclusions(b []byte) (date string, body []byte, es []exclusion, err error) {
	i := bytes.LastIndex(b, []byte("\nsignature "))
	if i < 0 {
		return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register: no signature line")
	}
	body = b[:i+1]
	sigText := strings.TrimSpace(string(b[i+len("\nsignature "):]))
	sig, err := base64.StdEncoding.DecodeString(sigText)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register: the signature is not a base64 Ed25519 signature")
	}
	if !ed25519.Verify(r.cfg.RegisterKey, body, sig) {
		return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register: the signature does not verify with the register's key")
	}
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != exclusionsMagic {
		return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register: first line is not %q", exclusionsMagic)
	}
	date, ok := strings.CutPrefix(strings.TrimSpace(lines[1]), "date ")
	if !ok || !birthRE.MatchString(date) {
		return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register: second line is not \"date YYYY-MM-DD\"")
	}
	if _, err := time.Parse("2006-01-02", date); err != nil {
		return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register: date %q: %v", date, err)
	}
	if len(lines)-2 > MaxExclusions {
		return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register: %d entries, at most %d", len(lines)-2, MaxExclusions)
	}
	for n, l := range lines[2:] {
		f := strings.Split(strings.TrimRight(l, "\r"), "|")
		if len(f) != 3 {
			return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register line %d: want name|YYYY-MM-DD|document", n+3)
		}
		name, birth, doc := normName(f[0]), strings.TrimSpace(f[1]), normDoc(f[2])
		if name == "" || !birthRE.MatchString(birth) {
			return "", nil, nil, refusef(refusal.PlayerInvalid, "exclusion register line %d: name or birth date missing", n+3)
		}
		e := exclusion{person: r.personHash(name, birth)}
		if doc != "" {
			e.doc = r.docHash(doc)
		}
		es = append(es, e)
	}
	return date, body, es, nil
}

// ImportExclusions replaces the register of excluded persons with a signed
// file. Only keyed hashes of its entries are kept. A file dated before the
// register in force is refused (an old file would lift exclusions);
// nothing changes on any error.
func (r *Registry) ImportExclusions(ctx context.Context, file []byte) (*ImportResult, error) {
	date, body, es, err := r.parseExclusions(file)
	if err != nil {
		r.cfg.Log.Error("exclusion register refused", "err", err)
		return nil, err
	}
	sum := sha256.Sum256(body)
	digest := hex.EncodeToString(sum[:])
	now := r.cfg.Now()
	out := &ImportResult{Date: date, Entries: len(es)}
	err = r.write(ctx, func(tx *sql.Tx) error {
		var last, lastSum string
		err := tx.QueryRow(`SELECT register_date, body_sha256 FROM player_exclusion_imports ORDER BY id DESC LIMIT 1`).Scan(&last, &lastSum)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case lastSum == digest:
			out.Already = true
			return nil
		case date < last:
			return refusef(refusal.PlayerInvalid, "exclusion register of %s is older than the one in force (%s)", date, last)
		}
		if _, err := tx.Exec(`DELETE FROM player_exclusions`); err != nil {
			return err
		}
		for _, e := range es {
			for _, kv := range [][2]string{{"person", e.person}, {"doc", e.doc}} {
				if kv[1] == "" {
					continue
				}
				if _, err := tx.Exec(`INSERT INTO player_exclusions(kind, hash) VALUES(?,?) ON CONFLICT(kind, hash) DO NOTHING`, kv[0], kv[1]); err != nil {
					return err
				}
			}
		}
		id, err := nextID(tx, "player_exclusion_imports", "id")
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO player_exclusion_imports(id, register_date, body_sha256, entries, imported_at) VALUES(?,?,?,?,?)`,
			id, date, digest, len(es), now.UnixNano()); err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT id FROM player_accounts a WHERE closed_at IS NULL AND (
			EXISTS(SELECT 1 FROM player_exclusions WHERE kind='doc' AND hash=a.doc_hash) OR
			EXISTS(SELECT 1 FROM player_exclusions WHERE kind='person' AND hash=a.person_hash)) ORDER BY id`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			out.Excluded = append(out.Excluded, id)
		}
		rows.Close()
		for _, id := range out.Excluded {
			// Their sessions stay: the next wager is refused as excluded,
			// which the cabinet shows.
			if err := logf(tx, id, now, "excluded", "in the exclusion register of %s", date); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	r.cfg.Log.Info("exclusion register imported", "date", date, "entries", len(es), "excluded_accounts", len(out.Excluded), "already", out.Already)
	return out, nil
}

// excluded says whether the register in force names the account's person.
func excluded(tx *sql.Tx, a *acct) (bool, error) {
	var n int
	err := tx.QueryRow(`SELECT count(*) FROM player_exclusions WHERE (kind='doc' AND hash=?) OR (kind='person' AND hash=?)`, a.docHash, a.personHash).Scan(&n)
	return n > 0, err
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

// SignExclusions makes a register file (the register's side, for tests,
// the devkit and the format's documentation).
func SignExclusions(key ed25519.PrivateKey, date string, lines []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\ndate %s\n", exclusionsMagic, date)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	sig := ed25519.Sign(key, b.Bytes())
	fmt.Fprintf(&b, "signature %s\n", base64.StdEncoding.EncodeToString(sig))
	return b.Bytes()
}

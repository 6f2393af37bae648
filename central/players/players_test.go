package players_test

import (
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

func wantReason(t *testing.T, err error, reason refusal.Reason) {
	t.Helper()
	r, ok := players.AsRefusal(err)
	if !ok || r.Reason != reason {
		t.Fatalf("want %s, got %v", reason, err)
	}
}

func TestRegistration(t *testing.T) {
	r := newRig(t, "cz")
	reg := func(name, birth, doc string, verified bool) error {
		_, err := r.reg.Register(r.ctx(), players.Registration{Name: name, BirthDate: birth, DocumentNumber: doc, IdentityVerified: verified, VerifiedBy: "clerk 7"})
		return err
	}
	// The clock is 2026-11-29: born 2008-11-30 is one day short of 18.
	wantReason(t, reg("Young One", "2008-11-30", "AA000001", true), refusal.PlayerUnderage)
	if err := reg("Just Eighteen", "2008-11-29", "AA000002", true); err != nil {
		t.Fatal(err)
	}
	wantReason(t, reg("Not Seen", "1980-01-01", "AA000003", false), refusal.PlayerNotVerified)
	wantReason(t, reg("Bad Date", "1980-13-01", "AA000004", true), refusal.PlayerInvalid)
	wantReason(t, reg("No Doc", "1980-01-01", "", true), refusal.PlayerInvalid)
	// One account per person: the same document, written otherwise.
	wantReason(t, reg("Just Eighteen", "2008-11-29", "aa-000 002", true), refusal.PlayerDuplicate)
	if n := r.e.Count("player_accounts", ""); n != 1 {
		t.Fatalf("%d accounts, want 1", n)
	}
	// The store keeps no document number, only its keyed hash.
	var name, doc string
	if err := r.e.Server.DB().QueryRow(`SELECT name, doc_hash FROM player_accounts`).Scan(&name, &doc); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(doc, "000002") || len(doc) != 64 {
		t.Fatalf("doc_hash %q", doc)
	}
	// A card id is issued once.
	id := "P000000000001"
	if err := r.reg.IssueCard(r.ctx(), id, "4000000000000001"); err != nil {
		t.Fatal(err)
	}
	wantReason(t, r.reg.IssueCard(r.ctx(), id, "4000000000000001"), refusal.PlayerDuplicate)
	wantReason(t, r.reg.IssueCard(r.ctx(), "P000000000099", "4000000000000002"), refusal.PlayerNotFound)
}

func TestLimitRules(t *testing.T) {
	r := newRig(t, "cz")
	wait := r.reg.Profile().LoosenWait
	id := r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", map[string]int64{players.BetsDay: 100})
	// Tightening: at once.
	l, err := r.reg.SetLimit(r.ctx(), id, players.BetsDay, amt(50))
	if err != nil || l.Amount != 50 || l.Pending {
		t.Fatalf("tighten: %+v %v", l, err)
	}
	// Loosening (a higher value, or refusing the limit): after the wait.
	l, err = r.reg.SetLimit(r.ctx(), id, players.BetsDay, amt(500))
	if err != nil || l.Amount != 50 || !l.Pending || l.PendingAmt != 500 || !l.PendingFrom.Equal(r.e.Clock.Now().Add(wait)) {
		t.Fatalf("loosen: %+v %v", l, err)
	}
	r.e.Clock.Advance(wait - time.Second)
	if in, _ := r.reg.Show(r.ctx(), id); in.Limits[0].Amount != 50 {
		t.Fatalf("before the wait: %+v", in.Limits[0])
	}
	r.e.Clock.Advance(time.Second)
	if in, _ := r.reg.Show(r.ctx(), id); in.Limits[0].Amount != 500 || in.Limits[0].Pending {
		t.Fatalf("after the wait: %+v", in.Limits[0])
	}
	// A stricter value cancels a pending milder one.
	r.reg.SetLimit(r.ctx(), id, players.BetsDay, nil)
	l, _ = r.reg.SetLimit(r.ctx(), id, players.BetsDay, amt(300))
	if l.Amount != 300 || l.Pending {
		t.Fatalf("stricter over pending: %+v", l)
	}
	wantReason(t, func() error { _, err := r.reg.SetLimit(r.ctx(), id, "bets_year", amt(1)); return err }(), refusal.PlayerInvalid)

	// Closing an account with a limit: a new account of the person within
	// 7 days has it, and a milder one waits until 7 days after the closing.
	if err := r.reg.Close(r.ctx(), id); err != nil {
		t.Fatal(err)
	}
	r.e.Clock.Advance(24 * time.Hour)
	closedAt := r.e.Clock.Now().Add(-24 * time.Hour)
	a, err := r.reg.Register(r.ctx(), players.Registration{Name: "Jan Novák", BirthDate: "1980-01-31", DocumentNumber: "AB123456", IdentityVerified: true, VerifiedBy: "clerk 7"})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := r.reg.Show(r.ctx(), a.ID)
	if !in.Limits[0].Decided || in.Limits[0].Amount != 300 {
		t.Fatalf("new account's limits: %+v", in.Limits)
	}
	r.reg.Profile()
	l, _ = r.reg.SetLimit(r.ctx(), a.ID, players.BetsDay, amt(1000))
	if !l.Pending || l.PendingFrom.Before(closedAt.Add(7*24*time.Hour)) {
		t.Fatalf("milder limit within 7 days of closing: %+v", l)
	}
}

func TestExclusionRegisterFile(t *testing.T) {
	r := newRig(t, "cz")
	today := r.e.Clock.Now().Format("2006-01-02")
	good := players.SignExclusions(r.regKey, today, []string{"NOVÁK Jan|1980-01-31|AB123456"})
	imp := func(b []byte) error { _, err := r.reg.ImportExclusions(r.ctx(), b); return err }
	// One byte changed: the signature does not verify.
	bad := []byte(strings.Replace(string(good), "1980", "1981", 1))
	wantReason(t, imp(bad), refusal.PlayerInvalid)
	// Signed by another key.
	other := newRig(t, "cz")
	wantReason(t, imp(players.SignExclusions(other.regKey, today, nil)), refusal.PlayerInvalid)
	wantReason(t, imp(players.SignExclusions(r.regKey, today, []string{"no fields"})), refusal.PlayerInvalid)
	wantReason(t, imp([]byte("POLARIS-EXCLUSIONS 1\ndate "+today+"\n")), refusal.PlayerInvalid)
	if n := r.e.Count("player_exclusions", ""); n != 0 {
		t.Fatalf("a refused file changed the register: %d rows", n)
	}
	if err := imp(good); err != nil {
		t.Fatal(err)
	}
	res, err := r.reg.ImportExclusions(r.ctx(), good)
	if err != nil || !res.Already {
		t.Fatalf("the same file again: %+v %v", res, err)
	}
	// An older register would lift exclusions: refused.
	wantReason(t, imp(players.SignExclusions(r.regKey, "2026-11-01", nil)), refusal.PlayerInvalid)
	// Only keyed hashes are kept: no name, no number.
	rows, err := r.e.Server.DB().Query(`SELECT hash, entry FROM player_register_keys`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for ; rows.Next(); n++ {
		var h, e string
		if err := rows.Scan(&h, &e); err != nil || len(h) != 64 || len(e) != 64 {
			t.Fatalf("register row: %q %q %v", h, e, err)
		}
	}
	if n < 2 {
		t.Fatalf("%d register rows", n)
	}
	_ = testenv.GameID
}

// Search finds by account or card id prefix only; LIKE's wildcards in the
// query are literal. Exclusions reports the register in force and whether
// logins are refused for its age.
func TestSearchAndExclusionStatus(t *testing.T) {
	r := newRig(t, "cz")
	st, err := r.reg.Exclusions(r.ctx())
	// The rig imports an empty register of today.
	if err != nil || st.Entries != 0 || st.Stale || st.Date != r.e.Clock.Now().Format("2006-01-02") {
		t.Fatalf("the rig's register: %+v %v", st, err)
	}
	id := r.player("NOVÁK Jan", "1980-01-31", "AB123456", "4100000000000001", nil)
	for q, want := range map[string]int{id: 1, "P": 1, "41": 1, "42": 0, "%": 0, "_": 0, "NOVÁK": 0, "AB123456": 0, "": 0} {
		got, err := r.reg.Search(r.ctx(), q, 10)
		if err != nil || len(got) != want {
			t.Errorf("Search(%q): %d accounts %v, want %d", q, len(got), err, want)
		}
		if want == 1 && got[0].ID != id {
			t.Errorf("Search(%q) found %s, want %s", q, got[0].ID, id)
		}
	}
	r.e.Clock.Advance(24 * time.Hour)
	date := r.e.Clock.Now().Format("2006-01-02")
	r.importRegister(date, "SVOBODOVÁ Eva|1975-05-05|", "DVOŘÁK Petr|1970-03-03|")
	st, err = r.reg.Exclusions(r.ctx())
	if err != nil || st.Date != date || st.Entries != 2 || st.Stale || st.ImportedAt.IsZero() {
		t.Fatalf("after an import: %+v %v", st, err)
	}
	// Past the profile's maximum age the register is stale.
	r.e.Clock.Advance(r.reg.Profile().ExclusionsMaxAge + 24*time.Hour)
	if st, err = r.reg.Exclusions(r.ctx()); err != nil || !st.Stale {
		t.Fatalf("an old register: %+v %v, want stale", st, err)
	}
}

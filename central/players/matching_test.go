package players_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"golang.org/x/text/unicode/norm"
)

// Issue 33's three name variants, each with a document number the register
// does not have: each excluded, at the import (accounts opened before) and
// at the login (an account opened after the import).
func TestExcludedNameVariants(t *testing.T) {
	r := newRig(t, "cz")
	jana := r.player(norm.NFD.String("Jana Nováková"), "1970-07-07", "NEW000001", "4000000000000001", nil)
	petr := r.player("Petr Dvorak", "1965-03-03", "NEW000002", "4000000000000002", nil)
	other := r.player("Petra Nováková", "1970-07-07", "NEW000004", "4000000000000004", nil)
	r.e.Clock.Advance(time.Minute)
	res := r.importRegister(r.e.Clock.Now().Format("2006-01-02"),
		"NOVÁKOVÁ Jana|1970-07-07|OLD111111", "DVOŘÁK Petr|1965-03-03|", "NOVÝ Karel|1972-02-02|OLD333333")
	if strings.Join(res.Excluded, ",") != jana+","+petr || len(res.Review) != 0 {
		t.Fatalf("import: %+v, want %s and %s excluded", res, jana, petr)
	}
	karel := r.player("Karel Jan Novy", "1972-02-02", "NEW000003", "4000000000000003", nil)
	c := r.cabinet("cab-1")
	for _, card := range []string{"4000000000000001", "4000000000000002", "4000000000000003"} {
		_, err := r.login(c, card)
		r.refused(c, err, refusal.PlayerExcluded)
	}
	for _, id := range []string{jana, petr, karel} {
		if in, err := r.reg.Show(r.ctx(), id); err != nil || !in.Excluded {
			t.Errorf("%s: %+v %v, want excluded", id, in, err)
		}
	}
	// Another person of the same birth date and surname plays.
	r.mustLogin(c, "4000000000000004")
	r.mustPlay(c, 5)
	if in, _ := r.reg.Show(r.ctx(), other); in.Excluded || in.InReview {
		t.Errorf("%s: %+v", other, in)
	}
}

// A person at her daily bet limit is registered again with her passport
// (issue 33): the same name and birth date is refused, written otherwise
// too; one a letter off opens an account held for review, whose login and
// stake are refused until staff decide. The decision (same person) closes
// it, in the log with who decided.
func TestSecondAccountByPassport(t *testing.T) {
	r := newRig(t, "cz")
	first := r.player("Eva Svobodová", "1975-05-05", "OP123456", "4000000000000001", map[string]int64{players.BetsDay: 50})
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 50)
	r.refused(c, r.play(c, 50), refusal.PlayerLimit)
	reg := func(name, doc string) (*players.Account, error) {
		return r.reg.Register(r.ctx(), players.Registration{Name: name, BirthDate: "1975-05-05", DocumentNumber: doc, IdentityVerified: true, VerifiedBy: "clerk 9"})
	}
	for _, name := range []string{"Eva Svobodová", "SVOBODOVA Eva", "Eva Marie Svobodová"} {
		_, err := reg(name, "P 9876543")
		wantReason(t, err, refusal.PlayerDuplicate)
	}
	if n := r.e.Count("player_accounts", ""); n != 1 {
		t.Fatalf("%d accounts, want the first only", n)
	}
	second, err := reg("Eva Svobodavá", "P 9876543")
	if err != nil {
		t.Fatal(err)
	}
	rv, err := r.reg.Reviews(r.ctx(), false)
	if err != nil || len(rv) != 1 || rv[0].Account != second.ID || rv[0].Kind != players.ReviewDuplicate || rv[0].Subject != first {
		t.Fatalf("reviews: %+v %v", rv, err)
	}
	if err := r.reg.IssueCard(r.ctx(), second.ID, "4000000000000002"); err != nil {
		t.Fatal(err)
	}
	for _, k := range players.Kinds {
		r.reg.SetLimit(r.ctx(), second.ID, k, nil)
	}
	d := r.cabinet("cab-2")
	_, err = r.login(d, "4000000000000002")
	r.refused(d, err, refusal.PlayerBlocked)
	// Logged in before the review (it opened with the account, so only a
	// session moved from elsewhere could be): the stake is refused too.
	r.refused(d, r.play(d, 50), refusal.PlayerNoSession)
	wantReason(t, func() error {
		_, err := r.reg.DecideReview(r.ctx(), rv[0].ID, players.DecisionSame, "", "")
		return err
	}(), refusal.PlayerNotVerified)
	if _, err := r.reg.DecideReview(r.ctx(), rv[0].ID, players.DecisionSame, "manager Dana", "same photo"); err != nil {
		t.Fatal(err)
	}
	if in, _ := r.reg.Show(r.ctx(), second.ID); !in.Account.Closed || in.InReview {
		t.Fatalf("the second account after the decision: %+v", in.Account)
	}
	_, err = r.login(d, "4000000000000002")
	r.refused(d, err, refusal.CardBlocked)
	wantLog(t, r, second.ID, "review", "decided by manager Dana: same person")
	// The first account is still at its limit; one bet in all.
	r.refused(c, r.play(c, 10), refusal.PlayerLimit)
	if n := r.e.Count("player_bets", ""); n != 1 {
		t.Fatalf("%d bets, want 1", n)
	}
	_, err = r.reg.DecideReview(r.ctx(), rv[0].ID, players.DecisionDifferent, "manager Dana", "")
	wantReason(t, err, refusal.PlayerDuplicate)
}

// loginRefused checks that the card's login at c is refused with reason.
func (r *rig) loginRefused(c *link.Client, card string, reason refusal.Reason) {
	r.t.Helper()
	if _, err := r.login(c, card); link.Refusal(err) != reason {
		r.t.Fatalf("login %s: %v, want %s", card, err, reason)
	}
}

// wantLog checks the account's log has an entry of kind containing text.
func wantLog(t *testing.T, r *rig, account, kind, text string) {
	t.Helper()
	h, err := r.reg.History(r.ctx(), account, time.Time{}, r.e.Clock.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range h {
		if e.Kind == kind && strings.Contains(e.Text, text) {
			return
		}
	}
	t.Fatalf("no %s %q in the log of %s: %+v", kind, text, account, h)
}

// The closed account's carry-over follows the person, not the document:
// a new account with a passport within 7 days has the closed one's limit,
// and a milder one waits until 7 days after the closing.
func TestCarryOverFollowsThePerson(t *testing.T) {
	r := newRig(t, "cz")
	id := r.player("Eva Svobodová", "1975-05-05", "OP123456", "4000000000000001", map[string]int64{players.BetsDay: 50})
	if err := r.reg.Close(r.ctx(), id); err != nil {
		t.Fatal(err)
	}
	closedAt := r.e.Clock.Now()
	r.e.Clock.Advance(24 * time.Hour)
	a, err := r.reg.Register(r.ctx(), players.Registration{Name: "SVOBODOVÁ Eva", BirthDate: "1975-05-05", DocumentNumber: "P 9876543", IdentityVerified: true, VerifiedBy: "clerk 9"})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := r.reg.Show(r.ctx(), a.ID)
	if !in.Limits[0].Set || in.Limits[0].Amount != 50 || in.InReview {
		t.Fatalf("the new account: %+v", in)
	}
	l, err := r.reg.SetLimit(r.ctx(), a.ID, players.BetsDay, amt(1000))
	if err != nil || !l.Pending || l.PendingFrom.Before(closedAt.Add(7*24*time.Hour)) {
		t.Fatalf("a milder limit within 7 days of the closing: %+v %v", l, err)
	}
	// Probably the person of an account closed within 7 days: a review;
	// decided the same, the new account takes the closed one's limit.
	id = r.player("Petr Dvořák", "1970-03-03", "OP654321", "4000000000000002", map[string]int64{players.LossDay: 30})
	if err := r.reg.Close(r.ctx(), id); err != nil {
		t.Fatal(err)
	}
	r.e.Clock.Advance(24 * time.Hour)
	b, err := r.reg.Register(r.ctx(), players.Registration{Name: "Petr Dvorzák", BirthDate: "1970-03-03", DocumentNumber: "P 1111111", IdentityVerified: true, VerifiedBy: "clerk 9"})
	if err != nil {
		t.Fatal(err)
	}
	rv, err := r.reg.Reviews(r.ctx(), false)
	if err != nil || len(rv) != 1 || rv[0].Account != b.ID || rv[0].Subject != id {
		t.Fatalf("reviews: %+v %v", rv, err)
	}
	if in, _ := r.reg.Show(r.ctx(), b.ID); in.Limits[2].Decided || !in.InReview {
		t.Fatalf("before the decision: %+v", in)
	}
	if _, err := r.reg.DecideReview(r.ctx(), rv[0].ID, players.DecisionSame, "manager Dana", "same person: ř written rz"); err != nil {
		t.Fatal(err)
	}
	if in, _ := r.reg.Show(r.ctx(), b.ID); !in.Limits[2].Set || in.Limits[2].Amount != 30 || in.InReview || in.Account.Closed {
		t.Fatalf("after the decision: %+v", in)
	}
}

// A probable match with the register (a given name in common, another
// differing) holds the account: a session in play has its next stake
// refused, a login is refused, until staff decide; "another person" lets
// it play, and a later register with the same entry does not hold it
// again; "the same person" excludes. Each decision is in the log with who
// decided.
func TestProbableMatchReview(t *testing.T) {
	r := newRig(t, "cz")
	jana := r.player("Jana Petra Nováková", "1970-07-07", "OP000001", "4000000000000001", nil)
	karel := r.player("Karel Jan Nový", "1972-02-02", "OP000002", "4000000000000002", nil)
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 5)
	r.e.Clock.Advance(time.Minute)
	today := r.e.Clock.Now().Format("2006-01-02")
	lines := []string{"NOVÁKOVÁ Jana Marie|1970-07-07|", "NOVÝ Karel Josef|1972-02-02|"}
	res := r.importRegister(today, lines...)
	if len(res.Excluded) != 0 || strings.Join(res.Review, ",") != jana+","+karel {
		t.Fatalf("import: %+v, want both for review", res)
	}
	r.refused(c, r.play(c, 5), refusal.PlayerBlocked)
	r.loginRefused(c, "4000000000000001", refusal.PlayerBlocked)
	rv, err := r.reg.Reviews(r.ctx(), false)
	if err != nil || len(rv) != 2 || rv[0].Kind != players.ReviewExclusion {
		t.Fatalf("reviews: %+v %v", rv, err)
	}
	if _, err := r.reg.DecideReview(r.ctx(), rv[0].ID, players.DecisionDifferent, "manager Dana", "other mother's name"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.reg.DecideReview(r.ctx(), rv[1].ID, players.DecisionSame, "manager Dana", ""); err != nil {
		t.Fatal(err)
	}
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 5)
	r.loginRefused(c, "4000000000000002", refusal.PlayerExcluded)
	r.e.Clock.Advance(time.Minute)
	if res := r.importRegister(today, lines...); len(res.Review) != 0 || len(res.Excluded) != 1 {
		t.Fatalf("a later register with the same entries: %+v", res)
	}
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 5)
	wantLog(t, r, jana, "review", "decided by manager Dana: different person")
	wantLog(t, r, karel, "review", "decided by manager Dana: same person")
	if all, _ := r.reg.Reviews(r.ctx(), true); len(all) != 2 {
		t.Fatalf("reviews after a later register: %+v", all)
	}
}

// The register's freshness: a later file (date, then serial) replaces it;
// an earlier genuine one of the same date, imported after, is refused and
// lifts nothing; one dated tomorrow is refused and does not block today's;
// the file in force again changes nothing.
func TestRegisterFreshness(t *testing.T) {
	r := newRig(t, "cz")
	id := r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	today := r.e.Clock.Now().Format("2006-01-02")
	tomorrow := r.e.Clock.Now().Add(24 * time.Hour).Format("2006-01-02")
	imp := func(b []byte) (*players.ImportResult, error) { return r.reg.ImportExclusions(r.ctx(), b) }
	// Serials after the rig's own register of today.
	st, err := r.reg.Exclusions(r.ctx())
	if err != nil || st.Date != today {
		t.Fatalf("the rig's register: %+v %v", st, err)
	}
	s := st.Serial
	morning := players.SignRegister(r.regKey, today, s+1, nil)
	noon := players.SignRegister(r.regKey, today, s+2, []string{"NOVÁK Jan|1980-01-31|"})
	if _, err := imp(noon); err != nil {
		t.Fatal(err)
	}
	_, err = imp(morning)
	wantReason(t, err, refusal.PlayerInvalid)
	// The same serial again with other content: refused too.
	_, err = imp(players.SignRegister(r.regKey, today, s+2, nil))
	wantReason(t, err, refusal.PlayerInvalid)
	_, err = imp(players.SignRegister(r.regKey, tomorrow, 1, nil))
	wantReason(t, err, refusal.PlayerInvalid)
	// Format 1, genuinely signed, has no serial: refused.
	v1 := []byte("POLARIS-EXCLUSIONS 1\ndate " + today + "\n")
	_, err = imp(append(v1, "signature "+base64.StdEncoding.EncodeToString(ed25519.Sign(r.regKey, v1))+"\n"...))
	wantReason(t, err, refusal.PlayerInvalid)
	if in, _ := r.reg.Show(r.ctx(), id); !in.Excluded {
		t.Fatal("a refused register lifted an exclusion")
	}
	if st, err := r.reg.Exclusions(r.ctx()); err != nil || st.Date != today || st.Serial != s+2 || st.Entries != 1 {
		t.Fatalf("the register in force: %+v %v", st, err)
	}
	imports, logs := r.e.Count("player_exclusion_imports", ""), r.e.Count("player_log", "")
	res, err := imp(noon)
	if err != nil || !res.Already || r.e.Count("player_exclusion_imports", "") != imports || r.e.Count("player_log", "") != logs {
		t.Fatalf("the file in force again: %+v %v", res, err)
	}
	// Today's next genuine file still imports (tomorrow's did not block it).
	if _, err := imp(players.SignRegister(r.regKey, today, s+3, nil)); err != nil {
		t.Fatal(err)
	}
	if in, _ := r.reg.Show(r.ctx(), id); in.Excluded {
		t.Fatal("the later register did not replace the earlier")
	}
	// Tomorrow, tomorrow's file imports.
	r.e.Clock.Advance(24 * time.Hour)
	if _, err := imp(players.SignRegister(r.regKey, tomorrow, 1, nil)); err != nil {
		t.Fatal(err)
	}
}

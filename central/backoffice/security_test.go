package backoffice

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Every page refuses a user without the role; a hall manager sees only
// their hall's cabinets, and another hall's cabinet is refused.
func TestPagesRefuseUsersWithoutTheRole(t *testing.T) {
	r := newRig(t)
	r.play("CAB-PRAHA", 2)
	r.play("CAB-BRNO", 2)
	pages := []string{"/", "/live", "/cabinets", "/cabinet?id=CAB-PRAHA", "/cabinet?id=CAB-BRNO", "/jackpots", "/vouchers", "/reports", "/reports.csv", "/audit", "/users", "/players"}
	allowed := map[string][]string{
		"alice": pages,
		"eva":   {"/", "/live", "/cabinets", "/cabinet?id=CAB-PRAHA", "/cabinet?id=CAB-BRNO", "/jackpots", "/vouchers", "/reports", "/reports.csv", "/audit", "/players"},
		"petr":  {"/", "/live", "/cabinets", "/cabinet?id=CAB-PRAHA", "/jackpots", "/vouchers", "/reports", "/reports.csv", "/players"},
		"karel": {"/", "/live", "/cabinets", "/cabinet?id=CAB-PRAHA", "/jackpots", "/vouchers"}, // attendants: no player pages
	}
	anon := r.client()
	for _, p := range pages {
		if st, _ := r.get(anon, p); st != http.StatusSeeOther {
			t.Errorf("%s without a login: %d, want a redirect to the login", p, st)
		}
	}
	for name, ok := range allowed {
		c, _ := r.login(name)
		for _, p := range pages {
			want := http.StatusForbidden
			for _, a := range ok {
				if a == p {
					want = http.StatusOK
				}
			}
			if st, _ := r.get(c, p); st != want {
				t.Errorf("%s opens %s: %d, want %d", name, p, st, want)
			}
		}
	}
	// What a hall manager's pages hold: their hall only.
	c, _ := r.login("petr")
	for _, p := range []string{"/cabinets", "/", "/reports.csv", "/reports?by=hall"} {
		_, body := r.get(c, p)
		if strings.Contains(body, "CAB-BRNO") || strings.Contains(body, "brno-1") {
			t.Errorf("petr (praha-1) sees Brno on %s", p)
		}
	}
	if _, body := r.get(c, "/cabinets"); !strings.Contains(body, "CAB-PRAHA") {
		t.Error("petr does not see his own cabinet")
	}
}

// A POST without the session's CSRF token (or with another session's) is
// refused and changes nothing; so is a login form without its token.
func TestCSRFRefused(t *testing.T) {
	r := newRig(t)
	r.play("CAB-PRAHA", 1)
	c, token := r.login("alice")
	_, other := r.login("bob")
	for _, v := range []url.Values{
		{"id": {"CAB-PRAHA"}, "action": {"disable"}, "reason": {"csrf test"}},
		{"id": {"CAB-PRAHA"}, "action": {"disable"}, "reason": {"csrf test"}, "csrf": {""}},
		{"id": {"CAB-PRAHA"}, "action": {"disable"}, "reason": {"csrf test"}, "csrf": {other}},
	} {
		if st, _ := r.post(c, "/cabinet", v); st != http.StatusForbidden {
			t.Errorf("disable with csrf %q: %d, want 403", v.Get("csrf"), st)
		}
	}
	if n := r.e.Count("cabinets", "enabled = 0"); n != 0 {
		t.Fatalf("a refused POST disabled %d cabinets", n)
	}
	if n := r.auditCount("cabinet.disable"); n != 0 {
		t.Fatalf("%d audit rows of a refused disable", n)
	}
	// With the token it works (the test can fail the other way).
	if st, _ := r.post(c, "/cabinet", url.Values{"id": {"CAB-PRAHA"}, "action": {"disable"}, "reason": {"csrf test"}, "csrf": {token}}); st != http.StatusSeeOther {
		t.Fatalf("disable with the token: %d", st)
	}
	if n := r.e.Count("cabinets", "enabled = 0"); n != 1 {
		t.Fatalf("%d disabled cabinets after the real disable", n)
	}
	// The login form's own token.
	anon := r.client()
	if st, _ := r.post(anon, "/login", url.Values{"user": {"alice"}, "password": {password}}); st != http.StatusForbidden {
		t.Errorf("login without a token: %d, want 403", st)
	}
	// The auditor reads only: with a valid token a POST is still refused.
	ce, te := r.login("eva")
	if st, _ := r.post(ce, "/cabinet", url.Values{"id": {"CAB-PRAHA"}, "action": {"enable"}, "csrf": {te}}); st != http.StatusForbidden {
		t.Errorf("auditor enables a cabinet: %d, want 403", st)
	}
	// A hall manager cannot act on another hall's cabinet.
	cj, tj := r.login("jana")
	if st, _ := r.post(cj, "/cabinet", url.Values{"id": {"CAB-PRAHA"}, "action": {"enable"}, "csrf": {tj}}); st != http.StatusForbidden {
		t.Errorf("brno manager enables a Praha cabinet: %d, want 403", st)
	}
	if n := r.e.Count("cabinets", "enabled = 0"); n != 1 {
		t.Fatal("a refused enable enabled the cabinet")
	}
}

// Repeated bad logins slow the next attempts, per user and per address,
// even with the right password; the wait passes with the clock.
func TestBadLoginsSlowed(t *testing.T) {
	r := newRig(t)
	try := func(user, pw string) int {
		c := r.client()
		_, body := r.get(c, "/login")
		st, _ := r.post(c, "/login", url.Values{"csrf": {csrfOf(t, body)}, "user": {user}, "password": {pw}})
		return st
	}
	for i := range freeFailures {
		if st := try("alice", "wrong password"); st != http.StatusUnauthorized {
			t.Fatalf("bad login %d: %d, want 401", i+1, st)
		}
	}
	if st := try("alice", password); st != http.StatusTooManyRequests {
		t.Fatalf("right password after %d failures: %d, want 429 (slowed)", freeFailures, st)
	}
	// The address is slowed too: another user from the same address waits.
	if st := try("bob", password); st != http.StatusTooManyRequests {
		t.Fatalf("another user from the same address: %d, want 429", st)
	}
	if n := r.auditCount("login.failed"); n != freeFailures {
		t.Fatalf("%d login.failed audit rows, want %d", n, freeFailures)
	}
	if n := r.auditCount("login.throttled"); n != 2 {
		t.Fatalf("%d login.throttled audit rows, want 2", n)
	}
	r.e.Clock.Advance(2 * time.Second)
	if st := try("alice", password); st != http.StatusSeeOther {
		t.Fatalf("after the wait: %d, want a login", st)
	}
	// The wait doubles with each further failure.
	for range freeFailures + 2 {
		r.e.Clock.Advance(time.Hour)
		try("carol", "nobody")
	}
	if d := r.con.wait("u:carol"); d < 3*time.Second || d > 4*time.Second {
		t.Fatalf("after %d failures the wait is %v, want 4 s", freeFailures+2, d)
	}
}

// The audit log cannot be edited: no console route writes it other than by
// appending, and the store's triggers refuse UPDATE and DELETE.
func TestAuditLogCannotBeEdited(t *testing.T) {
	r := newRig(t)
	c, token := r.login("alice")
	n := r.e.Count("bo_audit", "")
	if n < 2 { // six users created and one login
		t.Fatalf("%d audit rows", n)
	}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		req, _ := http.NewRequest(m, r.url+"/audit", strings.NewReader(url.Values{"csrf": {token}, "seq": {"1"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s /audit: %d, want 405", m, resp.StatusCode)
		}
	}
	ctx := context.Background()
	for _, q := range []string{`UPDATE bo_audit SET actor = 'mallory'`, `DELETE FROM bo_audit`} {
		err := r.e.Server.Write(ctx, func(tx *sql.Tx) error { _, err := tx.Exec(q); return err })
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want the trigger's refusal", q, err)
		}
	}
	if got := r.e.Count("bo_audit", ""); got != n {
		t.Fatalf("audit rows %d → %d", n, got)
	}
	if r.e.Count("bo_audit", "actor = 'mallory'") != 0 {
		t.Fatal("an audit row was changed")
	}
}

// A voucher void needs a second person: the requester cannot approve it.
func TestVoucherVoidNeedsTwoPeople(t *testing.T) {
	r := newRig(t)
	v, err := r.cabs["CAB-PRAHA"].IssueVoucher(context.Background(), 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, token := r.login("alice")
	if st, _ := r.post(c, "/vouchers", url.Values{"csrf": {token}, "number": {v.Number}, "action": {"request"}, "reason": {"printer jam"}}); st != http.StatusSeeOther {
		t.Fatalf("request: %d", st)
	}
	if st, body := r.post(c, "/vouchers", url.Values{"csrf": {token}, "number": {v.Number}, "action": {"approve"}}); st != http.StatusBadRequest || !strings.Contains(body, "second person") {
		t.Fatalf("the requester approves: %d", st)
	}
	if r.e.Count("vouchers", "state = 'void'") != 0 {
		t.Fatal("voided by one person")
	}
	cb, tb := r.login("bob")
	if st, _ := r.post(cb, "/vouchers", url.Values{"csrf": {tb}, "number": {v.Number}, "action": {"approve"}}); st != http.StatusSeeOther {
		t.Fatalf("approve: %d", st)
	}
	if r.e.Count("vouchers", "state = 'void' AND number = ?", v.Number) != 1 {
		t.Fatal("not voided")
	}
	if _, err := r.cabs["CAB-BRNO"].RedeemVoucher(context.Background(), v.Number); err == nil {
		t.Fatal("a void voucher was redeemed")
	}
}

// Sessions end: at logout (the old cookie no longer works) and after
// SessionTTL.
func TestSessionsEnd(t *testing.T) {
	r := newRig(t)
	c, token := r.login("alice")
	if st, _ := r.post(c, "/logout", url.Values{"csrf": {token}}); st != http.StatusSeeOther {
		t.Fatalf("logout: %d", st)
	}
	if st, _ := r.get(c, "/"); st != http.StatusSeeOther {
		t.Fatalf("after logout: %d, want the login redirect", st)
	}
	// Replaying the old cookie after logout: refused too.
	c2, _ := r.login("bob")
	u, _ := url.Parse(r.url)
	old := c2.Jar.Cookies(u)
	r.post(c2, "/logout", url.Values{"csrf": {csrfOf(t, func() string { _, b := r.get(c2, "/players"); return b }())}})
	replay := r.client()
	replay.Jar.SetCookies(u, old)
	if st, _ := r.get(replay, "/"); st != http.StatusSeeOther {
		t.Fatalf("an old session cookie after logout: %d", st)
	}
	c3, _ := r.login("eva")
	if st, _ := r.get(c3, "/audit"); st != http.StatusOK {
		t.Fatalf("fresh session: %d", st)
	}
	r.e.Clock.Advance(8*time.Hour + time.Second)
	if st, _ := r.get(c3, "/audit"); st != http.StatusSeeOther {
		t.Fatalf("after the session's 8 h: %d, want the login redirect", st)
	}
}

// Payouts: an attendant pays only their hall's jackpots, and an incomplete
// MS-18 form is refused and records nothing.
func TestJackpotPayoutChecks(t *testing.T) {
	r := newRig(t)
	for i := 0; r.e.Count("rounds", "jackpot_amount > 0 AND cabinet = 'CAB-BRNO'") == 0; i++ {
		if i > 200 {
			t.Fatal("no jackpot")
		}
		r.play("CAB-BRNO", 1)
	}
	var round int64
	r.e.Server.DB().QueryRow(`SELECT round FROM rounds WHERE jackpot_amount > 0 AND cabinet = 'CAB-BRNO'`).Scan(&round)
	form := url.Values{"cabinet": {"CAB-BRNO"}, "round": {fmt.Sprint(round)}, "attendant": {"Karel"}, "form": {"F-1"}, "winner": {"W"}, "document": {"D"}}
	ck, tk := r.login("karel") // attendant of praha-1
	form.Set("csrf", tk)
	if st, _ := r.post(ck, "/jackpots", form); st != http.StatusForbidden {
		t.Fatalf("praha attendant pays a brno jackpot: %d", st)
	}
	cj, tj := r.login("jana") // manager of brno-1
	form.Set("csrf", tj)
	form.Del("document")
	if st, _ := r.post(cj, "/jackpots", form); st != http.StatusBadRequest {
		t.Fatalf("payout without the ID document: %d", st)
	}
	if n := r.e.Count("bo_jackpot_payouts", ""); n != 0 {
		t.Fatalf("%d payouts recorded from refused forms", n)
	}
	form.Set("document", "OP 1")
	if st, _ := r.post(cj, "/jackpots", form); st != http.StatusSeeOther {
		t.Fatalf("complete form: %d", st)
	}
	if st, _ := r.post(cj, "/jackpots", form); st != http.StatusBadRequest {
		t.Fatalf("paid twice: %d", st)
	}
	if n := r.e.Count("bo_jackpot_payouts", ""); n != 1 {
		t.Fatalf("%d payouts", n)
	}
}

// Only an administrator adds users; the new user can log in with the
// role given.
func TestUsersByAdministratorOnly(t *testing.T) {
	r := newRig(t)
	add := url.Values{"name": {"zdena"}, "password": {"another long password"}, "role": {RoleAttendant}, "halls": {"brno-1"}}
	cp, tp := r.login("petr")
	add.Set("csrf", tp)
	if st, _ := r.post(cp, "/users", add); st != http.StatusForbidden {
		t.Fatalf("a manager adds a user: %d", st)
	}
	ca, ta := r.login("alice")
	add.Set("csrf", ta)
	add.Set("password", "short")
	if st, _ := r.post(ca, "/users", add); st != http.StatusBadRequest {
		t.Fatalf("a short password: %d", st)
	}
	add.Set("password", "another long password")
	if st, _ := r.post(ca, "/users", add); st != http.StatusSeeOther {
		t.Fatalf("add: %d", st)
	}
	c := r.client()
	_, body := r.get(c, "/login")
	if st, _ := r.post(c, "/login", url.Values{"csrf": {csrfOf(t, body)}, "user": {"zdena"}, "password": {"another long password"}}); st != http.StatusSeeOther {
		t.Fatalf("the new user logs in: %d", st)
	}
	if st, _ := r.get(c, "/reports"); st != http.StatusForbidden {
		t.Fatalf("the new attendant opens reports: %d", st)
	}
	if r.e.Count("bo_audit", "action = 'user.create' AND actor = 'alice' AND object = 'zdena'") != 1 {
		t.Fatal("the user creation is not in the audit log")
	}
}

// The players pages: administrators and hall managers act (on every
// player: an account is the operator's, not a hall's), auditors only read,
// attendants see none; every POST needs the session's CSRF token; every
// action is audit-logged with before and after; no page and no audit
// line holds the identity document number.
func TestPlayersRolesAndCSRF(t *testing.T) {
	r := newRig(t)
	ca, ta := r.login("alice")
	st, _ := r.post(ca, "/players", url.Values{"csrf": {ta}, "action": {"register"}, "name": {"SVOBODOVÁ Eva"}, "birth": {"1975-05-05"}, "doc": {"XY998877"}, "verified": {"on"}})
	if st != http.StatusSeeOther {
		t.Fatalf("register: %d", st)
	}
	_, body := r.get(ca, "/players?q=P")
	m := regexp.MustCompile(`data-account="(P\d+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no account found:\n%.800s", body)
	}
	acc := m[1]
	// Not verified: refused with a clear message, nothing registered.
	if st, body := r.post(ca, "/players", url.Values{"csrf": {ta}, "action": {"register"}, "name": {"X Y"}, "birth": {"1975-05-05"}, "doc": {"QQ112233"}}); st != http.StatusBadRequest || !strings.Contains(body, "verified") {
		t.Errorf("unverified registration: %d %.200s", st, body)
	}
	// A hall manager of another hall acts on this player too.
	cp, tp := r.login("jana")
	if st, _ := r.post(cp, "/player", url.Values{"csrf": {tp}, "id": {acc}, "action": {"card"}, "card": {"5000000000000077"}}); st != http.StatusSeeOther {
		t.Fatalf("hall manager issues a card: %d", st)
	}
	if st, _ := r.post(cp, "/player", url.Values{"csrf": {tp}, "id": {acc}, "action": {"limit"}, "kind": {"loss_day"}, "amount": {"300"}}); st != http.StatusSeeOther {
		t.Fatalf("hall manager sets a limit: %d", st)
	}
	before := r.auditCount("players.block")
	// The auditor reads and may not act; the attendant may not even read.
	ce, te := r.login("eva")
	if st, body := r.get(ce, "/player?id="+acc); st != 200 || !strings.Contains(body, "5000000000000077") || strings.Contains(body, `action="/player"`) {
		t.Errorf("auditor's player page: %d, forms shown: %v", st, strings.Contains(body, `action="/player"`))
	}
	if st, _ := r.post(ce, "/player", url.Values{"csrf": {te}, "id": {acc}, "action": {"block"}, "reason": {"auditor"}}); st != http.StatusForbidden {
		t.Errorf("auditor blocks an account: %d, want 403", st)
	}
	if st, _ := r.post(ce, "/players", url.Values{"csrf": {te}, "action": {"register"}, "name": {"A B"}, "birth": {"1970-01-01"}, "doc": {"ZZ000001"}, "verified": {"on"}}); st != http.StatusForbidden {
		t.Errorf("auditor registers a player: %d, want 403", st)
	}
	ck, tk := r.login("karel")
	if st, _ := r.get(ck, "/player?id="+acc); st != http.StatusForbidden {
		t.Errorf("attendant opens a player: %d, want 403", st)
	}
	if st, _ := r.post(ck, "/player", url.Values{"csrf": {tk}, "id": {acc}, "action": {"block"}, "reason": {"x"}}); st != http.StatusForbidden {
		t.Errorf("attendant blocks an account: %d, want 403", st)
	}
	// CSRF: missing, empty or another session's token.
	for _, tok := range []string{"", tp} {
		for _, p := range []struct {
			path string
			v    url.Values
		}{{"/player", url.Values{"id": {acc}, "action": {"block"}, "reason": {"csrf"}}}, {"/players", url.Values{"action": {"register"}, "name": {"C D"}, "birth": {"1970-01-01"}, "doc": {"CC445566"}, "verified": {"on"}}}} {
			if tok != "" {
				p.v.Set("csrf", tok)
			}
			if st, _ := r.post(ca, p.path, p.v); st != http.StatusForbidden {
				t.Errorf("POST %s with csrf %q: %d, want 403", p.path, tok, st)
			}
		}
	}
	if r.auditCount("players.block") != before {
		t.Error("a refused POST blocked the account")
	}
	// A real block and unblock, audit-logged with before and after.
	if st, _ := r.post(ca, "/player", url.Values{"csrf": {ta}, "id": {acc}, "action": {"block"}, "reason": {"lost wallet"}}); st != http.StatusSeeOther {
		t.Fatalf("block: %d", st)
	}
	var bv, av string
	if err := r.e.Server.DB().QueryRow(`SELECT before_value, after_value FROM bo_audit WHERE action='players.block'`).Scan(&bv, &av); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(bv, `blocked=""`) || !strings.Contains(av, "lost wallet (alice)") || !strings.Contains(av, "loss_day=300") {
		t.Errorf("audit of the block: before %q after %q", bv, av)
	}
	if _, body := r.get(ca, "/player?id="+acc); !strings.Contains(body, "lost wallet") {
		t.Error("the block is not on the detail page")
	}
	if st, _ := r.post(ca, "/player", url.Values{"csrf": {ta}, "id": {acc}, "action": {"unblock"}}); st != http.StatusSeeOther {
		t.Fatalf("unblock: %d", st)
	}
	// The exclusion register: a signed file imports, a forged one is refused.
	good := players.SignExclusions(r.registerKey, r.e.Clock.Now().Format("2006-01-02"), []string{"SVOBODOVÁ Eva|1975-05-05|XY998877"})
	if st := r.upload(ca, ta, good); st != http.StatusSeeOther {
		t.Fatalf("import a signed register: %d", st)
	}
	forged := append([]byte(nil), good...)
	forged[len("POLARIS-EXCLUSIONS 1\ndate ")+2] ^= 1
	if st := r.upload(ca, ta, forged); st != http.StatusBadRequest {
		t.Errorf("import a forged register: %d, want 400", st)
	}
	if st := r.upload(ce, te, good); st != http.StatusForbidden {
		t.Errorf("auditor imports the register: %d, want 403", st)
	}
	_, body = r.get(ca, "/players")
	if !strings.Contains(body, "alice") || !strings.Contains(body, ">1<") {
		t.Errorf("register status (entries, who) missing:\n%.2000s", body)
	}
	if _, body := r.get(ca, "/player?id="+acc); !strings.Contains(body, "exclusion register") {
		t.Error("the excluded player is not shown as excluded")
	}
	// Block a card (a reason required), then close the account (the
	// player's request confirmed): its cards blocked, no action form left.
	if st, _ := r.post(ca, "/player", url.Values{"csrf": {ta}, "id": {acc}, "action": {"block_card"}, "card": {"5000000000000077"}}); st != http.StatusBadRequest {
		t.Errorf("block a card without a reason: %d, want 400", st)
	}
	if st, _ := r.post(ca, "/player", url.Values{"csrf": {ta}, "id": {acc}, "action": {"card"}, "card": {"5000000000000078"}}); st != http.StatusSeeOther {
		t.Fatalf("second card: %d", st)
	}
	if st, _ := r.post(ca, "/player", url.Values{"csrf": {ta}, "id": {acc}, "action": {"block_card"}, "card": {"5000000000000077"}, "reason": {"lost"}}); st != http.StatusSeeOther {
		t.Fatalf("block a card: %d", st)
	}
	if st, _ := r.post(ca, "/player", url.Values{"csrf": {ta}, "id": {acc}, "action": {"close"}}); st != http.StatusBadRequest {
		t.Errorf("close without confirmation: %d, want 400", st)
	}
	if st, _ := r.post(ca, "/player", url.Values{"csrf": {ta}, "id": {acc}, "action": {"close"}, "confirm": {"on"}}); st != http.StatusSeeOther {
		t.Fatalf("close: %d", st)
	}
	in, err := r.reg.Show(context.Background(), acc)
	if err != nil || !in.Account.Closed || len(in.Cards) != 2 || !in.Cards[0].Blocked || !in.Cards[1].Blocked || !strings.HasPrefix(in.Cards[0].Reason, "lost (alice)") {
		t.Fatalf("after block_card and close: %+v %v", in, err)
	}
	if _, body := r.get(ca, "/player?id="+acc); strings.Contains(body, `action="/player"`) {
		t.Error("a closed account still has action forms")
	}
	if r.auditCount("players.block_card") != 1 || r.auditCount("players.close") != 1 {
		t.Error("block_card or close not audit-logged")
	}
	var n int
	if err := r.e.Server.DB().QueryRow(`SELECT count(*) FROM bo_audit WHERE before_value LIKE '%XY998877%' OR after_value LIKE '%XY998877%' OR object LIKE '%XY998877%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("the document number is in the audit log (%d, %v)", n, err)
	}
}

// upload posts an exclusion register file to the import form.
func (r *rig) upload(c *http.Client, csrf string, file []byte) int {
	r.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("csrf", csrf)
	mw.WriteField("action", "import")
	fw, _ := mw.CreateFormFile("file", "register.txt")
	fw.Write(file)
	mw.Close()
	resp, err := c.Post(r.url+"/players", mw.FormDataContentType(), &buf)
	if err != nil {
		r.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A jackpot won by a logged-in player: the attendant's payout form has the
// verified account's name prefilled (MS-18), an anonymous one has none.
func TestJackpotFormPrefilledFromTheAccount(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	a, err := r.reg.Register(ctx, players.Registration{Name: "DVOŘÁK Petr", BirthDate: "1970-03-03", DocumentNumber: "DP556677", IdentityVerified: true, VerifiedBy: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.reg.IssueCard(ctx, a.ID, "5000000000000009"); err != nil {
		t.Fatal(err)
	}
	if err := r.e.Server.Write(ctx, func(tx *sql.Tx) error {
		ch, _, err := r.reg.Challenge(tx, "CAB-PRAHA", "5000000000000009")
		if err != nil {
			return err
		}
		_, refused, err := r.reg.Login(tx, "CAB-PRAHA", "5000000000000009", ch, ch)
		if refused != nil {
			return refused
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i := 0; r.play("CAB-PRAHA", 1) == 0; i++ {
		if i > 200 {
			t.Fatal("no jackpot in 200 rounds")
		}
	}
	for i := 0; r.play("CAB-BRNO", 1) == 0; i++ {
		if i > 200 {
			t.Fatal("no Brno jackpot in 200 rounds")
		}
	}
	c, _ := r.login("alice")
	_, body := r.get(c, "/jackpots")
	if !strings.Contains(body, `value="DVOŘÁK Petr"`) || !strings.Contains(body, `href="/player?id=`+a.ID+`"`) {
		t.Fatalf("the Praha jackpot's form is not prefilled from %s:\n%.3000s", a.ID, body)
	}
	if n := strings.Count(body, `name="winner"`); n < 2 {
		t.Fatalf("%d payout forms, want the Praha and the Brno one", n)
	}
	if n := strings.Count(body, `class="note prefill"`); n != 1 {
		t.Errorf("%d prefilled forms, want 1 (the Brno round was anonymous)", n)
	}
	if strings.Contains(body, "DP556677") {
		t.Error("the document number is on the jackpot page")
	}
}

// The dashboard's counts frame may be framed by the console only; every
// other page by nobody; no page runs a script.
func TestLiveFrameFramedByTheConsoleOnly(t *testing.T) {
	r := newRig(t)
	c, _ := r.login("karel")
	for path, ancestors := range map[string]string{"/live": "frame-ancestors 'self'", "/": "frame-ancestors 'none'", "/cabinets": "frame-ancestors 'none'"} {
		resp, err := c.Get(r.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		if resp.StatusCode != 200 || !strings.Contains(csp, ancestors) || !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script") {
			t.Errorf("%s: %d, CSP %q, want %s and no script", path, resp.StatusCode, csp, ancestors)
		}
	}
	// The frame counts the attendant's hall only: Praha's one cabinet
	// (once its stream is open).
	for deadline := time.Now().Add(poll.Scaled(10 * time.Second)); ; time.Sleep(50 * time.Millisecond) {
		_, body := r.get(c, "/live")
		if strings.Contains(body, `<b id="n-online">1</b>`) && strings.Contains(body, `<b id="n-offline">0</b>`) && strings.Contains(body, `http-equiv="refresh" content="1"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("live frame for karel:\n%.1500s", body)
		}
	}
}

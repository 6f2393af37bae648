package backoffice

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
)

// A probable match with the register (a given name differing) is listed
// for the staff, its account held; a manager decides it on the player's
// page; the auditor may not. The decision is in the audit log, before and
// after, and in the account's log with who decided.
func TestReviewDecidedInTheConsole(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	a, err := r.reg.Register(ctx, players.Registration{Name: "Jana Petra Nováková", BirthDate: "1970-07-07", DocumentNumber: "OP000001", IdentityVerified: true, VerifiedBy: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	ca, ta := r.login("alice")
	r.e.Clock.Advance(time.Minute)
	if st := r.upload(ca, ta, players.SignExclusions(r.registerKey, r.e.Clock.Now().Format("2006-01-02"), []string{"NOVÁKOVÁ Jana Marie|1970-07-07|"})); st != http.StatusSeeOther {
		t.Fatalf("import: %d", st)
	}
	if n := r.e.Count("bo_audit", "action='players.import' AND after_value LIKE ?", "%held for review: "+a.ID+"%"); n != 1 {
		t.Fatalf("the import's audit row does not name the held account (%d rows)", n)
	}
	if _, body := r.get(ca, "/players"); !strings.Contains(body, `id="openreviews"`) || !strings.Contains(body, `href="/player?id=`+a.ID+`"`) {
		t.Fatalf("the open review is not listed:\n%.2000s", body)
	}
	if _, body := r.get(ca, "/player?id="+a.ID); !strings.Contains(body, `id="inreview"`) || !strings.Contains(body, `data-review="1"`) {
		t.Fatalf("the player page does not show the review:\n%.3000s", body)
	}
	decide := url.Values{"id": {a.ID}, "action": {"review"}, "review": {"1"}, "decision": {"different"}, "note": {"mother's name differs"}}
	ce, te := r.login("eva")
	decide.Set("csrf", te)
	if st, _ := r.post(ce, "/player", decide); st != http.StatusForbidden {
		t.Fatalf("the auditor decides a review: %d, want 403", st)
	}
	decide.Set("csrf", ta)
	if st, _ := r.post(ca, "/player", decide); st != http.StatusSeeOther {
		t.Fatalf("decide: %d", st)
	}
	in, err := r.reg.Show(ctx, a.ID)
	if err != nil || in.InReview || len(in.Reviews) != 1 || in.Reviews[0].DecidedBy != "alice" {
		t.Fatalf("after the decision: %+v %v", in, err)
	}
	var bv, av string
	if err := r.e.Server.DB().QueryRow(`SELECT before_value, after_value FROM bo_audit WHERE action='players.review' AND object=?`, a.ID).Scan(&bv, &av); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(bv, "review1=open") || !strings.Contains(av, "review1=different(alice: mother's name differs)") {
		t.Fatalf("audit: before %q after %q", bv, av)
	}
	h, err := r.reg.History(ctx, a.ID, time.Time{}, r.e.Clock.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range h {
		found = found || e.Kind == "review" && strings.Contains(e.Text, "decided by alice: different person")
	}
	if !found {
		t.Fatalf("no decision in the account's log: %+v", h)
	}
}

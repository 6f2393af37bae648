package document

import (
	"strings"
	"testing"
	"time"
)

func auditTicket(l Lang) AuditTicket {
	return AuditTicket{Lang: l, Site: "Herna U Nádraží", SiteID: "CZ-0042", Machine: "cab-1",
		Printed: time.Date(2026, 12, 1, 16, 5, 9, 0, time.UTC), Currency: CZK, Version: "1.2.3",
		Software: "sha256:9f2c4e1a77b0d3c2e1d7c0a9b3f28c6d4e5a7b9c0d1e2f3a8f14e45fceea167a", By: "technician",
		Meters: []AuditMeter{{Name: "coin_in", Value: 1234567, Money: true}, {Name: "games_played", Value: 48211}, {Name: "new_meter", Value: 3}}}
}

// The audit ticket: every meter under its label in the ticket's language,
// money in the currency, counts grouped, the whole software id over lines
// no longer than the printers', and nothing wider than AuditWidth.
func TestAuditTicketLayout(t *testing.T) {
	a := auditTicket(Czech)
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, b := range a.Layout() {
		if n := len([]rune(b.Text)); b.Kind == BlockText && !b.Large && n > AuditWidth {
			t.Errorf("line of %d characters: %q", n, b.Text)
		}
		text = append(text, b.Text)
	}
	all := strings.Join(text, "\n")
	id := strings.ReplaceAll(strings.Join(text, ""), " ", "")
	for _, want := range []string{"AUDITNÍ TIKET", "Provozovna CZ-0042   Terminál cab-1", "Datum 01.12.2026   Čas 16:05:09",
		"Verze softwaru: 1.2.3", "1 234 567", "Odehrané hry", "48 211", "new_meter", "Vytiskl: technik"} {
		if !strings.Contains(all, want) {
			t.Errorf("audit ticket lacks %q:\n%s", want, all)
		}
	}
	if !strings.Contains(id, a.Software) {
		t.Errorf("the software id is not whole on the ticket:\n%s", all)
	}
	if a.ValidationNumber() != "" || a.Kind() != KindAudit {
		t.Fatal("an audit ticket is not money")
	}
	for _, bad := range []func(*AuditTicket){
		func(a *AuditTicket) { a.Meters = nil }, func(a *AuditTicket) { a.Printed = time.Time{} },
		func(a *AuditTicket) { a.Machine = "" }, func(a *AuditTicket) { a.Lang = "fr" },
	} {
		b := auditTicket(English)
		bad(&b)
		if b.Validate() == nil {
			t.Errorf("accepted %+v", b)
		}
	}
}

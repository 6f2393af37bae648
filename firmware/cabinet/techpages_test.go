package cabinet

import (
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The link page names the node in use of those configured and shows the
// link's own measurements, formatted for the screen: a sub-millisecond
// round trip and a negative clock offset keep their digits and sign.
func TestLinkPageShowsTheLinksMeasurements(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	m := mustMarket(t, "at")
	src := pageSource{led: stubLedger{}, market: m, linkUp: true, link: &link.Stats{
		Endpoint: "b:7443", Endpoints: []string{"a:7443", "b:7443"}, State: link.Up,
		RTT: 1234 * time.Microsecond, RTTCall: "outcome", RTTAt: at, Offset: -2500 * time.Microsecond, OffsetAt: at.Add(-time.Minute),
		Calls: 12, Failures: 3}}
	got := strings.Join(lines("en", m, linkPage(src)), "|")
	want := "Central node b:7443 (2 of 2)|State connected|Last round none|Round trip 1.234\u00a0ms (outcome at 2026-12-01 10:00:00)|" +
		"Clock offset -2.500\u00a0ms (central minus cabinet, at 2026-12-01 09:59:00)|Calls 12 answered, 3 attempts failed|Outbox 2 messages waiting"
	if got != want {
		t.Fatalf("link page\n%s\nwant\n%s", got, want)
	}
	if de := strings.Join(lines("de", m, linkPage(src)), "|"); !strings.Contains(de, "Laufzeit 1,234\u00a0ms") || !strings.Contains(de, "Uhrabweichung -2,500\u00a0ms") {
		t.Fatalf("German link page: %s", de)
	}
	src.link = &link.Stats{Endpoint: "a:7443", Endpoints: []string{"a:7443"}}
	if got := strings.Join(lines("en", m, linkPage(src)), "|"); !strings.Contains(got, "Round trip not measured yet|Clock offset not measured yet") {
		t.Fatalf("nothing measured yet: %s", got)
	}
}

// Through the cabinet and its real link: after a Hello and a round the
// technician's link page shows the embedded central system's address, a
// round trip and the clock offset.
func TestLinkPageOnTheCabinet(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	if _, err := r.central.Client.Hello(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.insertNote(5000, 2)
	r.press(view.Start)
	r.settleRound(r.until("round over", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Credit != 5000 && (s.Mode == view.ModeIdle || s.RiskOffer)
	}))
	r.cab.Post(Key{Name: "technician", On: true})
	r.until("audit", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == "menu.audit" })
	var s *view.Snapshot
	for range 10 {
		r.press(view.BetPlus)
		if s = r.until("a page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title != "menu.audit" }); s.Menu.Title == "menu.link" {
			break
		}
	}
	text := strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n")
	for _, w := range []string{"Central node " + r.central.Client.Endpoint() + " (1 of 1)", "State connected", "Round trip ", "Clock offset ", "Outbox "} {
		if !strings.Contains(text, w) {
			t.Fatalf("link page lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "not measured") {
		t.Fatalf("nothing measured after a Hello and a round:\n%s", text)
	}
}

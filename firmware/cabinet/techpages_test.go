package cabinet

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/verify"
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
	r.settleRound(r.playOne()) // a round's end, not a credit change: a win equal to the bet leaves the credit as it was
	s := r.techPage("menu.link")
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

// Check 9's on-demand verification: on the software page Start draws a
// seed, shows it, and shows the HMAC-SHA256 seeded digest over the
// installed components that `polaris verify -seed` gives for that seed;
// a second Start draws another seed. Request and result are logged. A
// component changed on disk changes the answer.
func TestSeededDigestOnTheSoftwarePage(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{"polaris": "binary bytes", "wishstar.json": `{"model":1}`} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := verify.Build(root, root, "1.0", []verify.Entry{{Kind: verify.KindBinary, Path: "polaris"}, {Kind: verify.KindModel, Path: "wishstar.json"}})
	if err != nil {
		t.Fatal(err)
	}
	seeded := func(seed []byte) ([32]byte, error) { _, all, err := m.Seeded(root, seed); return all, err }
	n := byte(0)
	draw := func(seed []byte) ([]byte, [32]byte, error) { // what cmd/internal/boot does, with a known fresh seed
		if seed == nil {
			n++
			seed = []byte{n, 0xa5, 0, 0, 0, 0, 0, n}
		}
		d, err := seeded(seed)
		return seed, d, err
	}
	r := newRig(t, "demo", func(c *Config) { c.Software.ID, c.Software.Seeded = "sha256:feed", draw })
	r.idle()
	seq := r.lastEventSeq()
	r.techPage(menuSoftware)
	var seeds []string
	for range 2 {
		r.press(view.Start)
		s := r.until("seeded digest", time.Millisecond, func(s *view.Snapshot) bool {
			return s.Menu != nil && strings.Contains(strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n"), "Seeded digest ") &&
				len(seedOf(s)) == 16 && !slices.Contains(seeds, seedOf(s)) && !strings.Contains(strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n"), "computing")
		})
		text := strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n")
		seed, _ := hex.DecodeString(seedOf(s))
		want, _ := seeded(seed)
		w := hex.EncodeToString(want[:])
		if !strings.Contains(text, "Seeded digest "+w[:32]) || !strings.Contains(text, w[32:]) {
			t.Fatalf("seed %x: want digest %s on the page:\n%s", seed, w, text)
		}
		seeds = append(seeds, seedOf(s))
		if n := len(r.eventsOf(seq, "software_seeded")); n != 2*len(seeds) {
			t.Fatalf("%d software_seeded events after %d requests, want request and result each", n, len(seeds))
		}
	}
	// The answer covers what is on disk now.
	seed, _ := hex.DecodeString(seeds[0])
	before, _ := seeded(seed)
	if err := os.WriteFile(filepath.Join(root, "wishstar.json"), []byte(`{"model":2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if after, _ := seeded(seed); after == before {
		t.Fatal("a changed component gave the same seeded digest")
	}
}

// A lab's own seed: on the software page Risk begins the entry, Bet± choose
// each of the 16 hex digits and Start moves on; after the last the digest
// is computed with exactly that seed, shown with it and logged with it.
// Stop steps back a digit; Start without an entry still draws a fresh
// seed.
func TestSeededDigestWithTheTechniciansSeed(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "polaris"), []byte("binary bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := verify.Build(root, root, "1.0", []verify.Entry{{Kind: verify.KindBinary, Path: "polaris"}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var asked [][]byte // the seeds fn was called with, off the loop
	fresh := []byte{0xfe, 0xed, 0, 0, 0, 0, 0, 1}
	fn := func(seed []byte) ([]byte, [32]byte, error) {
		mu.Lock()
		asked = append(asked, seed)
		mu.Unlock()
		if seed == nil {
			seed = fresh
		}
		_, all, err := m.Seeded(root, seed)
		return seed, all, err
	}
	r := newRig(t, "demo", func(c *Config) { c.Software.ID, c.Software.Seeded = "sha256:feed", fn })
	r.idle()
	seq := r.lastEventSeq()
	r.techPage(menuSoftware)
	want := "0123456789abcdef"
	r.press(view.Risk)
	for i := range seedDigits {
		s := r.until("entry", time.Millisecond, func(s *view.Snapshot) bool {
			return strings.Contains(r.menuText(s), fmt.Sprintf("digit %d of 16", i+1))
		})
		// Bet± change the digit here, not the page: the footer says so.
		if s.Menu.Hint != hintSeed {
			t.Fatalf("digit %d: footer %q, want %q", i+1, s.Menu.Hint, hintSeed)
		}
		// Up one too far and back: Bet− works too.
		for range i + 1 {
			r.press(view.BetPlus)
		}
		r.press(view.BetMinus)
		if i == 5 {
			// Stop goes back a digit, which keeps its value.
			r.press(view.Stop)
			r.until("back", time.Millisecond, func(s *view.Snapshot) bool { return strings.Contains(r.menuText(s), "digit 5 of 16") })
			r.press(view.Start)
		}
		r.until("digit", time.Millisecond, func(s *view.Snapshot) bool {
			return strings.Contains(r.menuText(s), want[:i]+"["+want[i:i+1]+"]")
		})
		r.press(view.Start)
	}
	r.until("seeded digest", time.Millisecond, func(s *view.Snapshot) bool { return seedOf(s) == want })
	_, d, _ := m.Seeded(root, []byte{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef})
	r.until("digest", time.Millisecond, func(s *view.Snapshot) bool { return strings.Contains(r.menuText(s), hex.EncodeToString(d[:16])) })
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || hex.EncodeToString(asked[0]) != want {
		t.Fatalf("asked with %x, want the entered seed %s once", asked, want)
	}
	var logged []string
	for _, e := range r.eventsOf(seq, "software_seeded") {
		logged = append(logged, e.Text)
	}
	if all := strings.Join(logged, "|"); strings.Count(all, want) != 2 || !strings.Contains(all, hex.EncodeToString(d[:])) {
		t.Fatalf("logged %q: want the entered seed in request and result, and the digest", logged)
	}
	// The default is still a fresh seed.
	mu.Unlock()
	r.press(view.Start)
	r.until("fresh", time.Millisecond, func(s *view.Snapshot) bool { return seedOf(s) == hex.EncodeToString(fresh) })
	mu.Lock()
	if len(asked) != 2 || asked[1] != nil {
		t.Fatalf("Start without an entry asked with %x, want a fresh seed (nil)", asked)
	}
	// Stop at the first digit leaves the entry, and the page pages again.
	r.press(view.Risk)
	r.until("entry", time.Millisecond, func(s *view.Snapshot) bool { return strings.Contains(r.menuText(s), "digit 1 of 16") })
	r.press(view.Stop)
	s := r.until("left", time.Millisecond, func(s *view.Snapshot) bool { return !strings.Contains(r.menuText(s), "digit 1 of 16") })
	if s.Menu.Hint != "" {
		t.Fatalf("after the entry the footer is %q, want the paging one", s.Menu.Hint)
	}
	n := s.Menu.Page + 1
	r.press(view.BetPlus)
	r.until("paged", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Page == n })
}

// seedOf is the seed the software page shows, or "".
func seedOf(s *view.Snapshot) string {
	for _, l := range s.Menu.Lines {
		if l.Key == "menu.software.seed" {
			return l.Args[0].S
		}
	}
	return ""
}

// Without a manifest (a development build) the page says so, and Start
// changes nothing.
func TestSeededDigestWithoutManifest(t *testing.T) {
	m := mustMarket(t, "cz")
	got := strings.Join(lines("cs", m, softwarePage(pageSource{led: stubLedger{}, market: m})), "|")
	if !strings.Contains(got, "Otisk se semínkem nedostupný") {
		t.Fatalf("software page without a manifest: %s", got)
	}
}

// techPage turns the technician key and pages with Bet+ to the page titled
// title.
func (r *rig) techPage(title string) *view.Snapshot {
	r.t.Helper()
	r.cab.Post(Key{Name: "technician", On: true})
	s := r.until("audit", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == "menu.audit" })
	for s.Menu.Title != title {
		if s.Menu.Page == s.Menu.Pages {
			r.t.Fatalf("no page %s", title)
		}
		r.press(view.BetPlus)
		n := s.Menu.Page + 1
		s = r.until("page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Page == n })
	}
	return s
}

// menuText is the open page as the English screen words it.
func (r *rig) menuText(s *view.Snapshot) string {
	return strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n")
}

// The configuration page: Start selects the volume, Bet+ raises it by 5
// at each press, each change journaled; Start again selects the time, Auto
// and Bet− adjust it by an hour and a minute, Collect sets it through the
// clock's step, logged as a time_change by the technician with the old and
// new time; then Bet+ pages again.
func TestConfigPageSetsVolumeAndTime(t *testing.T) {
	var dc *clock.Disciplined
	r := newRig(t, "demo", func(c *Config) { dc = clock.NewDisciplined(c.Clock, 0); c.Clock = dc })
	r.idle()
	seq := r.lastEventSeq()
	s := r.techPage(menuConfig)
	vol := r.cab.View().Sound.Volume
	if !strings.Contains(r.menuText(s), "START: change the volume, then the time") {
		t.Fatalf("config page:\n%s", r.menuText(s))
	}
	r.press(view.Start)
	r.press(view.BetPlus)
	r.press(view.BetPlus)
	want := min(vol+10, 100)
	s = r.until("volume raised", time.Millisecond, func(s *view.Snapshot) bool { return s.Sound.Volume == want && s.Menu.Title == menuConfig })
	if !strings.Contains(r.menuText(s), fmt.Sprintf("> Volume %d of 100", want)) || s.Menu.Hint != hintSetting {
		t.Fatalf("volume %d selected, footer %q:\n%s", want, s.Menu.Hint, r.menuText(s))
	}
	if n := len(r.eventsOf(seq, ledger.EventConfigChange)); n != (want-vol+4)/5 {
		t.Fatalf("%d volume changes logged from %d to %d", n, vol, want)
	}
	before := dc.Now()
	r.press(view.Start)
	r.press(view.Auto)
	r.press(view.BetMinus)
	s = r.until("time chosen", time.Millisecond, func(s *view.Snapshot) bool { return strings.Contains(r.menuText(s), "> New time") })
	if s.Menu.Hint != hintTime {
		t.Fatalf("time selected, footer %q", s.Menu.Hint)
	}
	r.press(view.Collect)
	s = r.until("time set", time.Millisecond, func(s *view.Snapshot) bool { return strings.Contains(r.menuText(s), "START: change") })
	if s.Menu.Title != menuConfig || s.Menu.Page == 1 || s.Menu.Hint != "" {
		t.Fatalf("left the config page: %s, or the footer still %q", s.Menu.Title, s.Menu.Hint)
	}
	steps := r.eventsOf(seq, EventTimeChange)
	if len(steps) != 1 || steps[0].Source != "technician" || !strings.Contains(steps[0].Text, "clock set by the technician") {
		t.Fatalf("time changes logged: %+v", steps)
	}
	var tc timeChange
	if err := json.Unmarshal(steps[0].Data, &tc); err != nil || tc.New.Sub(tc.Old) != 59*time.Minute {
		t.Fatalf("time change data %+v (%v), want 59 minutes on", tc, err)
	}
	if got := dc.Now().Sub(before); got < 59*time.Minute || got > time.Hour {
		t.Fatalf("the clock moved %v, want 59 minutes", got)
	}
	page := s.Menu.Page
	r.press(view.BetPlus)
	r.until("paging again", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Page == page+1 })
}

// fakeOutputs are a board's tower and hard meters; a meter named "bad"
// refuses its pulse.
type fakeOutputs struct {
	mu     sync.Mutex
	pulsed []string
}

func (*fakeOutputs) TowerColours() []string { return []string{"red", "yellow", "green"} }
func (*fakeOutputs) Meters() []string       { return []string{"in", "out", "bad"} }
func (f *fakeOutputs) TestPulse(m string) error {
	if m == "bad" {
		return errors.New("no meter")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pulsed = append(f.pulsed, m)
	return nil
}

// Test mode's output tests: Info lights each tier of the board's tower in
// turn (the snapshot's tower, which the app writes to the tier), then
// gives each hard meter one test pulse, each logged, a refusal too; no
// electronic meter moves and the critical state is unchanged on leaving.
func TestTowerAndMeterTestsInTestMode(t *testing.T) {
	out := &fakeOutputs{}
	r := newRig(t, "demo")
	r.cab.SetTestOutputs(out)
	r.idle()
	r.insertNote(5000, 2)
	before, _ := r.led.Meters(ledger.ScopeCabinet)
	seq := r.lastEventSeq()
	r.enterTestMode()
	for _, c := range []string{"red", "yellow", "green"} {
		r.press(view.InfoButton)
		s := r.until("tier "+c, time.Millisecond, func(s *view.Snapshot) bool { return s.Tower == "test:"+c })
		if !strings.Contains(r.menuText(s), "Now: "+c) {
			t.Fatalf("tower %s: page\n%s", c, r.menuText(s))
		}
	}
	r.press(view.InfoButton)
	s := r.until("meters pulsed", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Tower != "test:green" && strings.Contains(r.menuText(s), "Total in meter: pulsed\n  Total out meter: pulsed\n  bad: refused (no meter)")
	})
	// The meters by their names in the screen's language, not the board's ids.
	cs := strings.Join(lines("cs", r.cab.cfg.Market, s.Menu), "\n")
	if !strings.Contains(cs, "Počítadlo vkladů: impulz odeslán") || !strings.Contains(cs, "Počítadlo výplat: impulz odeslán") {
		t.Fatalf("test page in Czech:\n%s", cs)
	}
	if s.Tower == "" || strings.HasPrefix(s.Tower, "test:") {
		t.Fatalf("tower %q after the tower test", s.Tower)
	}
	if strings.Join(out.pulsed, ",") != "in,out" {
		t.Fatalf("pulsed %v", out.pulsed)
	}
	if ev := r.eventsOf(seq, "meter_test"); len(ev) != 3 || !strings.Contains(ev[0].Text, "not counted as money") || !strings.Contains(ev[2].Text, "refused") {
		t.Fatalf("meter tests logged: %+v", ev)
	}
	r.cab.Post(Key{Name: "technician", On: false})
	r.idle()
	after, _ := r.led.Meters(ledger.ScopeCabinet)
	if !maps.Equal(before, after) {
		t.Fatalf("meters moved in test mode: %v -> %v", before, after)
	}
	if s := r.cab.View(); len(s.Tilts) != 0 {
		t.Fatalf("tilts after test mode: %v", s.Tilts)
	}
}

// The audit ticket from both keys' menus: Auto on any page prints the
// cabinet's meters (as the ledger holds them), the software, the ids and
// the time, by whom; the last page says it printed; a printer's refusal is
// shown and logged; nothing else changes.
func TestAuditTicketFromTheMenus(t *testing.T) {
	r := newRig(t, "cz", func(c *Config) { c.Software.ID, c.Software.Version = "sha256:feedface", "1.2.3" })
	r.idle()
	r.insertNote(500, 0)
	seq := r.lastEventSeq()
	before, _ := r.led.Meters(ledger.ScopeCabinet)
	audits := func() []document.AuditTicket {
		var out []document.AuditTicket
		r.cab.Do(func() {
			for _, d := range r.prn.Printed {
				if a, ok := d.(document.AuditTicket); ok {
					out = append(out, a)
				}
			}
		})
		return out
	}
	r.techPage("menu.link")
	r.press(view.Auto)
	r.until("audit printed", time.Millisecond, func(*view.Snapshot) bool { return len(audits()) == 1 })
	a := audits()[0]
	if a.By != "technician" || a.Machine != "cab-1" || a.SiteID != "T-1" || a.Software != "sha256:feedface" || a.Version != "1.2.3" ||
		a.Lang != document.Czech || a.Currency != document.CZK || !a.Printed.Equal(r.clock.Now()) && a.Printed.After(r.clock.Now()) {
		t.Fatalf("audit ticket %+v", a)
	}
	if len(a.Meters) != len(ledger.CabinetMeters) {
		t.Fatalf("%d meters on the ticket, the cabinet has %d", len(a.Meters), len(ledger.CabinetMeters))
	}
	for _, m := range a.Meters {
		if m.Value != before[ledger.Meter(m.Name)] || m.Money == countMeters[ledger.Meter(m.Name)] {
			t.Fatalf("meter %+v, ledger %d", m, before[ledger.Meter(m.Name)])
		}
	}
	// The last page says it printed.
	for s := r.cab.View(); s.Menu.Page != s.Menu.Pages; s = r.cab.View() {
		p := s.Menu.Page
		r.press(view.BetPlus)
		r.until("page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu.Page == p+1 })
	}
	r.until("printed shown", time.Millisecond, func(s *view.Snapshot) bool {
		return s.Menu.Title == menuAuditTicket && strings.Contains(r.menuText(s), "Last ticket printed")
	})
	r.cab.Post(Key{Name: "technician", On: false})
	r.idle()

	// The attendant's menu, and a printer that refuses.
	r.cab.Do(func() { r.prn.Refuse = errors.New("paper out") })
	r.cab.Post(Key{Name: "attendant", On: true})
	r.until("attendant menu", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil })
	r.press(view.Auto)
	r.until("refusal shown", time.Millisecond, func(*view.Snapshot) bool {
		var ok bool
		r.cab.Do(func() { ok = r.cab.tech.audit == "paper out" })
		return ok
	})
	r.cab.Do(func() { r.prn.Refuse = nil })
	r.press(view.Auto)
	r.until("attendant's audit printed", time.Millisecond, func(*view.Snapshot) bool { return len(audits()) == 2 })
	if a := audits()[1]; a.By != "attendant" {
		t.Fatalf("printed by %q", a.By)
	}
	r.until("all logged", time.Millisecond, func(*view.Snapshot) bool { return len(r.eventsOf(seq, "audit_ticket")) >= 6 })
	ev := r.eventsOf(seq, "audit_ticket")
	if len(ev) != 6 || !strings.Contains(ev[3].Text, "paper out") {
		t.Fatalf("audit tickets logged: %+v", ev)
	}
	after, _ := r.led.Meters(ledger.ScopeCabinet)
	if !maps.Equal(before, after) {
		t.Fatalf("meters moved: %v -> %v", before, after)
	}
}

// Every word of the link page is in the page's language: the call a round
// trip was measured on is the link's own English name ("outcome"), shown
// translated. For every call the link makes (read from its source, so a new
// call cannot be missed) and the link up and down, no word of the English
// page is on the German or Czech one, but the two the three languages
// share (the unit ms, minus).
func TestLinkPageInThePagesLanguage(t *testing.T) {
	calls := linkCallNames(t)
	if len(calls) < 10 {
		t.Fatalf("only %d calls found in central/link: %q", len(calls), calls)
	}
	shared := map[string]bool{"ms": true, "minus": true}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	m := mustMarket(t, "at")
	for _, call := range calls {
		if k := view.LinkCall(call).S; !i18n.Has(k) {
			t.Errorf("call %q: no %q in every catalogue", call, k)
		}
		for _, up := range []bool{true, false} {
			src := pageSource{led: stubLedger{}, market: m, linkUp: up, link: &link.Stats{
				Endpoint: "10.0.0.2:7443", Endpoints: []string{"10.0.0.1:7443", "10.0.0.2:7443"},
				RTT: 1234 * time.Microsecond, RTTCall: call, RTTAt: at, Offset: -2500 * time.Microsecond, OffsetAt: at, Calls: 12, Failures: 3}}
			english := map[string]bool{}
			for _, ln := range lines("en", m, linkPage(src)) {
				for _, w := range wordsOf(ln) {
					english[w] = !shared[w]
				}
			}
			for _, lang := range []string{"de", "cs"} {
				for _, ln := range lines(lang, m, linkPage(src)) {
					for _, w := range wordsOf(ln) {
						if english[w] {
							t.Errorf("%s, call %q, link up %v: English %q in %q", lang, call, up, w, ln)
						}
					}
				}
			}
		}
	}
}

// wordsOf are the words of s: runs of two letters or more.
func wordsOf(s string) []string {
	var ws []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if utf8.RuneCountInString(w) > 1 {
			ws = append(ws, w)
		}
	}
	return ws
}

// linkCallNames are the names central/link's client gives its calls (the
// second argument of its call and callN), from its source.
func linkCallNames(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join("..", "..", "central", "link")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if fd, ok := n.(*ast.FuncDecl); ok && (fd.Name.Name == "call" || fd.Name.Name == "callN") {
				return false // call passes its caller's name on to callN
			}
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) < 2 {
				return true
			}
			if sel, ok := c.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "call" && sel.Sel.Name != "callN" {
				return true
			}
			lit, ok := c.Args[1].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: a call named by %T, not a string: its name cannot be checked", fset.Position(c.Pos()), c.Args[1])
				return true
			}
			if name, err := strconv.Unquote(lit.Value); err == nil && !slices.Contains(names, name) {
				names = append(names, name)
			}
			return true
		})
	}
	return names
}

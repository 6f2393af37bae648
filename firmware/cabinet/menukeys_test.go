package cabinet

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// lines is a page as the display words it in lang, for tests that read
// what the technician reads.
func lines(lang string, m *market.Profile, p *view.MenuPage) []string {
	cur := m.Currency
	out := make([]string, len(p.Lines))
	for i, l := range p.Lines {
		out[i] = strings.ReplaceAll(i18n.Line(lang, cur, l), "\t", " ")
	}
	return out
}

// fullLedger has a value for every meter, documents of every kind and
// result, and an event, so that every line a page can emit is emitted.
type fullLedger struct{ stubLedger }

func (fullLedger) Meters(ledger.Scope) (map[ledger.Meter]int64, bool) {
	m := map[ledger.Meter]int64{}
	for i, k := range ledger.CabinetMeters {
		m[k] = int64(1000 * i)
	}
	return m, true
}

func (fullLedger) Events(int) []ledger.Event {
	return []ledger.Event{{Kind: "door", Source: "main", Text: "opened"}}
}

var allKinds = []ledger.DocKind{ledger.DocBill, ledger.DocTicketIn, ledger.DocVoucher, ledger.DocHandpayWin, ledger.DocHandpayJackpot, ledger.DocHandpayCancel}
var allResults = []ledger.DocResult{ledger.DocStacked, ledger.DocReturned, ledger.DocPrinted, ledger.DocFailed, ledger.DocPaid, ledger.DocCredited}

func (fullLedger) DocsIn() []ledger.DocRecord  { return allDocs() }
func (fullLedger) DocsOut() []ledger.DocRecord { return allDocs() }

func allDocs() []ledger.DocRecord {
	var ds []ledger.DocRecord
	for _, k := range allKinds {
		for _, r := range allResults {
			ds = append(ds, ledger.DocRecord{Doc: ledger.Doc{Kind: k, Amount: 500, Number: "123456789012345678"}, Result: r})
		}
	}
	return ds
}

// TestEveryMenuKeyInEveryCatalogue: every key a technician's or
// attendant's page emits — titles, lines, and the keys they pass as
// arguments (meter names, document kinds and results, states) — exists in
// the cs, de and en catalogues, on every market; so no page shows a bare
// key or English on a Czech or German screen. The pages are built over a
// ledger that has every meter and every kind of document, with the
// software failed and not, the link up and down, and a recall of every
// status and step kind.
func TestEveryMenuKeyInEveryCatalogue(t *testing.T) {
	seen := map[string]bool{}
	check := func(where string, p *view.MenuPage) {
		ks := []string{p.Title}
		if p.Hint != "" {
			ks = append(ks, p.Hint)
		}
		for _, l := range p.Lines {
			ks = append(ks, i18n.LineKeys(l)...)
		}
		for _, k := range ks {
			if !i18n.Has(k) && !seen[k] {
				seen[k] = true
				t.Errorf("%s: %q is not in every catalogue", where, k)
			}
		}
	}
	var recall []recallGame
	for _, st := range []ledger.RoundStatus{ledger.RoundSettled, ledger.RoundRefunded, ledger.RoundWagered, ledger.RoundOutcome} {
		for _, g := range []engine.GameID{engine.WishStar, engine.MagicStars} {
			recall = append(recall, recallGame{round: ledger.Round{Number: 7, Game: string(g), Status: st},
				steps: []engine.Step{{Kind: engine.StepBase}, {Kind: engine.StepFree}, {Kind: engine.StepLockSpin}, {Kind: engine.StepBonusWin}},
				risk:  []engine.RiskStep{{Step: 1}}, problem: "signature"})
		}
	}
	for _, id := range market.Names() {
		m, err := market.Builtin(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, failed := range []bool{false, true} {
			for _, up := range []bool{false, true} {
				src := pageSource{led: fullLedger{}, market: m, id: "cab-1", softwareFailed: failed, linkUp: up, recall: recall,
					software: Software{ID: map[bool]string{true: "sha256:ab"}[up], Error: "bad"}}
				switch { // measured, not yet, and a Central that does not measure
				case up:
					src.link = &link.Stats{Endpoint: "a:1", Endpoints: []string{"a:1"}, RTTCall: "outcome", RTTAt: time.Unix(1, 0), OffsetAt: time.Unix(1, 0)}
				case failed:
					src.link = &link.Stats{Endpoint: "a:1", Endpoints: []string{"a:1"}}
				}
				for _, tech := range []bool{true, false} {
					for _, p := range menuPages(src, tech, len(recall)) {
						check(id, p(src))
					}
				}
				for i := range recall {
					for step := range 6 {
						src.recallStep = step
						check(id+" recall", recallPage(src, i))
					}
				}
			}
		}
	}
	// Every state of the seeded digest.
	seeded := func([]byte) ([]byte, [32]byte, error) { return nil, [32]byte{}, nil }
	for _, sd := range []*seededDigest{nil, {err: "x"}, {working: true}, {seed: "ab", err: "x"}, {seed: "ab", digest: strings.Repeat("0", 64)}} {
		for _, fn := range []func([]byte) ([]byte, [32]byte, error){nil, seeded} {
			for _, e := range []*seedEntry{nil, {at: 3}} {
				check("seeded", softwarePage(pageSource{led: fullLedger{}, market: mustMarket(t, "cz"), tech: techState{seeded: sd, seed: e}, software: Software{Seeded: fn}}))
			}
		}
	}
	for _, a := range []string{"", auditPrinting, auditPrinted, "paper out"} {
		check("audit ticket", auditTicketPage(pageSource{tech: techState{audit: a}}))
	}
	for _, e := range []configEdit{{}, {setting: configVolume}, {setting: configTime}} {
		for _, settable := range []bool{false, true} {
			check("config", configPage(pageSource{led: fullLedger{}, market: mustMarket(t, "at"), tech: techState{edit: e}, clockSettable: settable}))
		}
	}
	// The game menu, every row under the cursor, in every market.
	for _, id := range market.Names() {
		m := mustMarket(t, id)
		for row := range gameMenuRows(m) {
			pm := playerMenu{cursor: row}
			check(id+" game menu", pm.page(m, m.Language))
		}
	}
	// The pages the cabinet sets itself.
	c := &Cabinet{cfg: Config{Market: mustMarket(t, "cz")}}
	c.menus.offerTransfer(250000)
	check("handpay choice", c.menus.menu)
	var tm *testState
	for _, b := range append([]view.Button{view.InfoButton}, view.Buttons...) {
		tm = &testState{button: b, printer: "printed", printed: 1,
			read: &view.MenuLine{Key: "menu.test_mode.note", Args: []view.Arg{view.Money(2000)}}}
		check("test mode", tm.page(defaultTower))
	}
	for step := range len(defaultTower) + 2 {
		out := &testState{button: tm.button, printer: tm.printer, printed: tm.printed, read: tm.read, outputs: testOutputsState{step: step, pulses: []meterPulse{{meter: "in"}, {meter: "out"}, {meter: "drop"}, {meter: "jackpot"}, {meter: "games", err: "x"}, {meter: "other"}}}}
		check("test mode outputs", out.page(defaultTower))
	}
	for _, k := range []string{"menu.ram_clear.start", "menu.software_changed.start", "menu.text", "menu.test_mode.note_unknown",
		"menu.test_mode.ticket", "menu.test_mode.refused"} {
		check("key", &view.MenuPage{Title: k})
	}
}

func mustMarket(t *testing.T, id string) *market.Profile {
	t.Helper()
	m, err := market.Builtin(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMetersFormatted: the meters page names each meter in the screen's
// language and shows money meters in the market's currency and counts as
// counts: 2 500 Kč, not "coin_in 2500"; €12.50, not 1250.
func TestMetersFormatted(t *testing.T) {
	led := stubLedger{meters: map[ledger.Meter]int64{ledger.CoinIn: 2500, ledger.GamesPlayed: 1234}}
	for _, c := range []struct {
		market, lang string
		want         []string
	}{
		{"cz", "cs", []string{"Vsazeno 2\u00a0500\u00a0Kč", "Odehrané hry 1\u00a0234"}},
		{"at", "de", []string{"Einsätze 25,00\u00a0€", "Gespielte Spiele 1.234"}},
		{"at", "en", []string{"Coin in €25.00", "Games played 1,234"}},
	} {
		m := mustMarket(t, c.market)
		got := lines(c.lang, m, metersPage(pageSource{led: led, market: m}))
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s %s: meters %q, want %q", c.market, c.lang, got, c.want)
		}
	}
}

// fmtMoney is stake as the English screen shows it.
func fmtMoney(m *market.Profile, stake engine.Money) string {
	cur := m.Currency
	return string(i18n.AppendMoney(nil, "en", cur, stake))
}

// TestEveryTiltKindNamed: every kind of tilt the cabinet sets (read from
// its source, so a new one is caught) has a name in every catalogue: the
// tilt screen names it in the screen's language.
func TestEveryTiltKindNamed(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`setTilt\(("([a-z_]+)"|(tilt[A-Za-z]+))`)
	consts := map[string]string{tiltVoucher: tiltVoucher, "tiltVoucher": tiltVoucher, "tiltSelfTest": tiltSelfTest,
		"tiltSoftwareChanged": tiltSoftwareChanged}
	kinds := map[string]bool{"software": true} // the verification failure at start (snapshot)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			if m[2] != "" {
				kinds[m[2]] = true
			} else if k, ok := consts[m[3]]; ok {
				kinds[k] = true
			} else {
				t.Errorf("%s: setTilt with %s: add the constant to this test", f, m[3])
			}
		}
	}
	if len(kinds) < 10 {
		t.Fatalf("only %d tilt kinds found: %v", len(kinds), kinds)
	}
	for k := range kinds {
		if !i18n.Has("tilt." + k) {
			t.Errorf("tilt kind %q has no name in every catalogue", k)
		}
	}
}

// TestConfigPageShowsTheLoggedVolume: the technician sets the volume; the
// configuration page shows it as set by the technician, and the change is
// in the event log with its old and new value.
func TestConfigPageShowsTheLoggedVolume(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.cab.Post(Key{Name: "technician", On: true})
	r.until("audit page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == "menu.audit" })
	if err := r.cab.SetVolume(35); err != nil {
		t.Fatal(err)
	}
	for s := r.until("menu", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil }); s.Menu.Title != "menu.config"; {
		title := s.Menu.Title
		r.press(view.BetPlus)
		s = r.until("next page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title != title })
		if s.Menu.Page == s.Menu.Pages {
			t.Fatalf("no configuration page; last %s", s.Menu.Title)
		}
		if s.Menu.Title == "menu.config" {
			text := strings.Join(lines("en", r.cab.cfg.Market, s.Menu), "\n")
			if !strings.Contains(text, "Volume 35 of 100") || !strings.Contains(text, "set by the technician (logged)") {
				t.Fatalf("configuration page:\n%s", text)
			}
			break
		}
	}
	logged := false
	for _, e := range r.led.Events(50) {
		logged = logged || e.Kind == string(ledger.EventConfigChange) && e.Source == "technician" && strings.HasSuffix(e.Text, "-> 35")
	}
	if !logged {
		t.Fatal("the volume change is not in the event log")
	}
}

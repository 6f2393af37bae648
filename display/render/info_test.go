package render

import (
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/par"
	"github.com/polaris-vlt/polaris/engine/wishstar"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/money"
)

// Every information page of both games renders in cs, de and en, is not
// blank, differs from every other page and from the same page in the
// other languages, and shows no catalogue key bare.
func TestInfoPages(t *testing.T) {
	byPage := map[string][]([32]byte){}
	for _, lang := range i18n.Languages {
		seen := map[[32]byte]string{}
		fx := InfoFixtures(lang)
		if len(fx) != len(view.InfoPages(engine.WishStar))+len(view.InfoPages(engine.MagicStars)) {
			t.Fatalf("%d information fixtures", len(fx))
		}
		for _, f := range fx {
			if Scene(f.Snap, f.At) != "info" {
				t.Errorf("%s: scene %q", f.Name, Scene(f.Snap, f.At))
			}
			frame := shared.Render(f.Snap, f.At)
			if n := colours(frame); n < 6 {
				t.Errorf("%s/%s: only %d colours: blank?", lang, f.Name, n)
			}
			h := sha256.Sum256(frame.Pix)
			if other, ok := seen[h]; ok {
				t.Errorf("%s/%s renders the same as %s", lang, f.Name, other)
			}
			seen[h] = f.Name
			byPage[f.Name] = append(byPage[f.Name], h)
			text := shared.infoText(f.Snap, i18n.InfoBody(f.Snap.Info.Game, InfoPageOf(f.Snap.Info)))
			if strings.Contains(text, "info.") || strings.Contains(text, "{") {
				t.Errorf("%s/%s: unfilled text %q", lang, f.Name, text)
			}
		}
	}
	for name, hs := range byPage {
		if hs[0] == hs[1] || hs[1] == hs[2] || hs[0] == hs[2] {
			t.Errorf("%s: two languages render the same", name)
		}
	}
}

// The RTP the page states is the PAR calculation's at the chosen bet, for
// every bet of both games, in each language's number format; Austria's
// note that it is not the next game's chance is on the page.
func TestRTPShownEqualsPAR(t *testing.T) {
	for _, f := range InfoFixtures("de") {
		if InfoPageOf(f.Snap.Info) != view.InfoRTP {
			continue
		}
		g := f.Snap.Info.Game
		eg, _ := engine.Lookup(g)
		for _, stake := range eg.Stakes() {
			want, _, err := par.Theory(g, stake)
			if err != nil {
				t.Fatal(err)
			}
			s := *f.Snap
			inf := *s.Info
			inf.Stake = stake
			inf.RTP, inf.RTPKnown = want, true
			s.Info = &inf
			for _, lang := range i18n.Languages {
				s.Language = lang
				text := shared.infoText(&s, i18n.InfoBody(g, view.InfoRTP))
				if !strings.Contains(text, RTPText(lang, want)) {
					t.Errorf("%s at %d, %s: page says %q, PAR %v", g, stake, lang, text, want)
				}
			}
		}
		// The figure the fixture (and so the cabinet's view) carries is
		// the PAR one.
		want, _, _ := par.Theory(g, f.Snap.Info.Stake)
		if f.Snap.Info.RTP != want {
			t.Errorf("%s: fixture RTP %v, PAR %v", g, f.Snap.Info.RTP, want)
		}
	}
	if got := RTPText("de", 0.952004); got != "95,20\u00a0%" {
		t.Errorf("RTPText de: %q", got)
	}
	if got := RTPText("en", 0.94334); got != "94.33\u00a0%" {
		t.Errorf("RTPText en: %q", got)
	}
}

// The pay table, evaluated by the engine, is GAME_RULES' table (factor ×
// total stake) at every stake of the ladder.
func TestWSPayTableIsTheRules(t *testing.T) {
	factor := map[engine.Symbol][3]int64{ // hundredths of the stake, for 3, 4, 5
		wishstar.Ten: {20, 60, 200}, wishstar.J: {20, 60, 200}, wishstar.Q: {20, 60, 200},
		wishstar.K: {20, 60, 200}, wishstar.A: {20, 60, 200}, wishstar.Bell: {40, 120, 300},
		wishstar.Cane: {80, 160, 320}, wishstar.Candle: {100, 200, 320}, wishstar.Tree: {100, 200, 400},
		wishstar.Elf: {100, 300, 800}, wishstar.Bonus: {100, 0, 0},
	}
	for _, stake := range wishstar.Default.Stakes() {
		rows := WSPayTable(stake)
		if len(rows) != len(factor) {
			t.Fatalf("%d rows", len(rows))
		}
		for _, row := range rows {
			for k, f := range factor[row.Symbol] {
				if want := engine.Money(f * int64(stake) / 100); row.Pays[k] != want {
					t.Errorf("stake %d: %s ×%d pays %d, rules %d", stake, wishstar.SymbolName(row.Symbol), k+3, row.Pays[k], want)
				}
			}
		}
	}
}

// The win caption names the symbol and says "way" in the language's
// number (issue 18: "3× · 1 WAYS").
func TestWinCaptionGrammar(t *testing.T) {
	eur := money.Currency{Code: "EUR", MinorUnits: 2, Symbol: "€"}
	czk := money.Currency{Code: "CZK", MinorUnits: 0, Symbol: "Kč"}
	for _, c := range []struct {
		lang string
		cur  money.Currency
		g    engine.GameID
		w    engine.Win
		want string
	}{
		{"en", eur, engine.WishStar, engine.Win{Kind: engine.WinWays, Symbol: wishstar.Elf, Count: 3, Ways: 1, Amount: 100}, "3 × ELF · 1 WAY  €1.00"},
		{"en", eur, engine.WishStar, engine.Win{Kind: engine.WinWays, Symbol: wishstar.K, Count: 4, Ways: 2, Amount: 60}, "4 × K · 2 WAYS  €0.60"},
		{"de", eur, engine.WishStar, engine.Win{Kind: engine.WinWays, Symbol: wishstar.Bell, Count: 5, Ways: 1, Amount: 300}, "5 × GLOCKEN · 1 WEG  3,00\u00a0€"},
		{"cs", eur, engine.WishStar, engine.Win{Kind: engine.WinWays, Symbol: wishstar.Tree, Count: 3, Ways: 3, Amount: 300}, "3 × STROMEČEK · 3 CESTY  3,00\u00a0€"},
		{"cs", eur, engine.WishStar, engine.Win{Kind: engine.WinWays, Symbol: wishstar.Tree, Count: 3, Ways: 6, Amount: 600}, "3 × STROMEČEK · 6 CEST  6,00\u00a0€"},
		{"cs", czk, engine.MagicStars, engine.Win{Kind: engine.WinLine, Symbol: 7, Count: 3, Line: 2, Amount: 40}, "LINIE 2 · 3 × TŘEŠNĚ  40\u00a0Kč"},
	} {
		if got := string(shared.caption(nil, c.lang, c.cur, c.g, &c.w)); got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
}

// Magic Stars' line numbers stand at both edges of the reels, the shown
// line's in gold and the others dim (issue 18: which line "LINE 2" is).
func TestMSLineNumbersAtTheReelEdges(t *testing.T) {
	for _, f := range Fixtures("en") {
		if f.Name != "ms_line_win" {
			continue
		}
		frame := shared.Render(f.Snap, f.At)
		lit := f.Snap.Round.Steps[0].Wins[0].Line
		for i, tags := range shared.lineTags {
			for side, tg := range tags {
				c := frame.RGBAAt(tg.Min.X+2, tg.Min.Y+2)
				gold := c.R > 240 && c.G > 190
				if gold != (i+1 == lit) {
					t.Errorf("line %d %s tag: %v (line %d shown)", i+1, [2]string{"left", "right"}[side], c, lit)
				}
			}
		}
		return
	}
	t.Fatal("no ms_line_win fixture")
}

// The clock shows the hour and minute of the instant drawn, and the frame
// is not kept past the minute (so the next one is drawn).
func TestClockOnScreen(t *testing.T) {
	f := Fixtures("en")[1] // ws_idle
	at := time.Date(2026, 12, 1, 14, 5, 30, 0, time.UTC)
	a := shared.Render(f.Snap, at)
	ha := sha256.Sum256(a.Pix)
	if !shared.Still(at.Add(29*time.Second)) || shared.Still(at.Add(30*time.Second)) {
		t.Error("the frame must stay right until 14:06:00 and not after")
	}
	hb := sha256.Sum256(shared.Render(f.Snap, at.Add(20*time.Second)).Pix)
	hc := sha256.Sum256(shared.Render(f.Snap, at.Add(31*time.Second)).Pix)
	if ha != hb || ha == hc {
		t.Errorf("14:05:30 and 14:05:50 must draw alike, 14:06:01 differently: %v %v", ha == hb, ha == hc)
	}
}

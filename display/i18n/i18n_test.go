package i18n

import (
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/money"
)

func TestCataloguesComplete(t *testing.T) {
	for _, l := range Languages {
		for _, k := range Keys("en") {
			if !Has(k) {
				t.Errorf("%s: no %q", l, k)
			}
		}
		if len(Keys(l)) != len(Keys("en")) {
			t.Errorf("%s has %d keys, en %d", l, len(Keys(l)), len(Keys("en")))
		}
	}
}

// Every status line the cabinet can show, and the menu titles it sets
// itself, are in every catalogue: none is shown as its bare key.
func TestEveryStatusMessageTranslated(t *testing.T) {
	keys := []string{"menu.handpay", "menu.ram_clear", "menu.software_changed", "menu.test", "menu.test_mode"}
	for _, m := range view.Messages() {
		keys = append(keys, "msg."+m)
	}
	for _, k := range keys {
		if !Has(k) {
			t.Errorf("no %q in every catalogue", k)
		}
	}
}

func TestMoney(t *testing.T) {
	eur := money.Currency{Code: "EUR", MinorUnits: 2, Symbol: "€"}
	czk := money.Currency{Code: "CZK", MinorUnits: 0, Symbol: "Kč"}
	for _, c := range []struct {
		lang string
		cur  money.Currency
		m    int64
		want string
	}{
		{"en", eur, 123450, "€1,234.50"},
		{"de", eur, 123450, "1.234,50\u00a0€"},
		{"cs", eur, 5, "0,05\u00a0€"},
		{"cs", czk, 1234567, "1\u00a0234\u00a0567\u00a0Kč"},
		{"de", czk, 500, "500\u00a0Kč"},
		{"en", czk, 0, "0\u00a0Kč"},
		{"en", eur, -250, "-€2.50"},
		{"xx", eur, 100000000, "€1,000,000.00"},
	} {
		if got := string(AppendMoney(nil, c.lang, c.cur, engineMoney(c.m))); got != c.want {
			t.Errorf("%s %s %d: %q, want %q", c.lang, c.cur.Code, c.m, got, c.want)
		}
	}
}

func TestUnknownKeyShowsItself(t *testing.T) {
	if T("cs", "no.such.key") != "no.such.key" || T("zz", "field.credit") != "CREDIT" || T("cs", "field.win") != "VÝHRA" {
		t.Fatal("fallbacks wrong")
	}
}

func engineMoney(v int64) engine.Money { return engine.Money(v) }

// Every key of the player's information pages, for every page of both
// games, is in all three catalogues.
func TestInfoKeysInEveryLanguage(t *testing.T) {
	keys := InfoKeys()
	if len(keys) < 20 {
		t.Fatalf("only %d information keys", len(keys))
	}
	for _, k := range keys {
		for _, l := range Languages {
			if _, ok := catalogues[l][k]; !ok {
				t.Errorf("%s: no %q", l, k)
			}
		}
	}
}

// A menu page's footer says what the deck's buttons do on it, each button
// named as the deck labels it in that language: Bet± page, except while a
// digit or a setting is entered, where they change it (the seed entry's
// footer said "page"), and on a page that is not paged, where they are not
// named.
func TestMenuFootersSayWhatTheButtonsDo(t *testing.T) {
	deck := []string{"hint.start", "hint.auto", "hint.risk", "hint.stop", "hint.bet_minus", "hint.bet_plus", "hint.collect"}
	paging := map[string]string{"en": "page", "de": "Seite", "cs": "strana"}
	for _, c := range []struct {
		key  string
		does map[string]string // what Bet± do, per language; nil: nothing
	}{
		{"menu.hint", paging},
		{"menu.hint.seed", map[string]string{"en": "change the digit", "de": "Ziffer ändern", "cs": "změnit číslici"}},
		{"menu.hint.pin", map[string]string{"en": "change the digit", "de": "Ziffer ändern", "cs": "změnit číslici"}},
		{"menu.hint.setting", map[string]string{"en": "change the setting", "de": "Einstellung ändern", "cs": "změnit nastavení"}},
		{"menu.hint.time", map[string]string{"en": "a minute", "de": "eine Minute", "cs": "minuta"}},
		{"menu.hint.leave", nil},
		{"menu.hint.handpay", nil},
	} {
		for _, lang := range Languages {
			text := T(lang, c.key)
			bet := T(lang, "hint.bet_minus") + " / " + T(lang, "hint.bet_plus") + ": " + c.does[lang]
			if c.does != nil && !strings.Contains(text, bet) {
				t.Errorf("%s %s: %q, want %q in it", lang, c.key, text, bet)
			}
			if !Has(c.key) || c.does == nil && strings.Contains(text, T(lang, "hint.bet_plus")) {
				t.Errorf("%s %s: %q, want a footer that names no Bet±", lang, c.key, text)
			}
			if c.key != "menu.hint" && strings.Contains(text, paging[lang]) {
				t.Errorf("%s %s: %q says Bet± page", lang, c.key, text)
			}
			labels := map[string]bool{}
			for _, k := range deck {
				labels[T(lang, k)] = true
			}
			// Every "BUTTON: what it does" names a button of the deck.
			for _, part := range strings.Split(text, " · ") {
				named, _, ok := strings.Cut(part, ": ")
				if !ok {
					continue
				}
				for _, b := range strings.Split(named, " / ") {
					if !labels[b] {
						t.Errorf("%s %s: %q is no button of the deck (%q)", lang, c.key, b, text)
					}
				}
			}
		}
	}
}

// The display has a catalogue, a money format and a name for exactly the
// languages there are (language.All): no fifth list to keep in step.
func TestEveryLanguageHasACatalogue(t *testing.T) {
	if len(catalogues) != len(Languages) || len(locales) != len(Languages) {
		t.Errorf("%d catalogues, %d money formats, %d languages", len(catalogues), len(locales), len(Languages))
	}
	for _, l := range Languages {
		if _, ok := catalogues[l]; !ok {
			t.Errorf("%s: no catalogue", l)
		}
		if _, ok := locales[l]; !ok {
			t.Errorf("%s: no money format", l)
		}
		if !Has("language." + l) {
			t.Errorf("%s: no name in every catalogue (language.%s)", l, l)
		}
	}
}

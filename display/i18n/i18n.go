// Package i18n holds the display's catalogues (one per language.All) and formats
// amounts for a currency and a locale. Lookups and formatting append to a
// caller's buffer so a frame allocates nothing.
package i18n

import (
	"strconv"
	"unicode/utf8"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/language"
	"github.com/polaris-vlt/polaris/money"
)

// Languages are the catalogues there are: every language (language.All), in
// the order screenshots use.
var Languages = language.All()

// T is the text of key in lang; an unknown language falls back to English
// and an unknown key shows itself, so a missing entry is visible, not blank.
func T(lang, key string) string {
	if c, ok := catalogues[lang]; ok {
		if s, ok := c[key]; ok {
			return s
		}
	}
	if s, ok := catalogues[language.Fallback][key]; ok {
		return s
	}
	return key
}

// Has reports whether every catalogue has key.
func Has(key string) bool {
	for _, l := range Languages {
		if _, ok := catalogues[l][key]; !ok {
			return false
		}
	}
	return true
}

// Keys lists the keys of lang's catalogue.
func Keys(lang string) []string {
	ks := make([]string, 0, len(catalogues[lang]))
	for k := range catalogues[lang] {
		ks = append(ks, k)
	}
	return ks
}

type locale struct {
	group, decimal string
	// symbolFirst puts the symbol before the amount ("€12.50").
	symbolFirst bool
}

var locales = map[string]locale{
	"cs": {group: "\u00a0", decimal: ","},
	"de": {group: ".", decimal: ","},
	"en": {group: ",", decimal: ".", symbolFirst: true},
}

// AppendMoney appends m formatted for the currency in lang's conventions:
// cs "1 234,50 €" and "1 234 Kč", de "1.234,50 €", en "€1,234.50".
func AppendMoney(dst []byte, lang string, cur money.Currency, m engine.Money) []byte {
	loc, ok := locales[lang]
	if !ok {
		loc = locales[language.Fallback]
	}
	sym := cur.Symbol
	if sym == "" {
		sym = cur.Code
	}
	if m < 0 {
		dst = append(dst, '-')
		m = -m
	}
	// "€1.00" but "1 Kč": only a one-character sign goes first
	first := loc.symbolFirst && utf8.RuneCountInString(sym) == 1
	if first {
		dst = append(dst, sym...)
	}
	dst = AppendNumber(dst, lang, cur.MinorUnits, int64(m))
	if !first {
		dst = append(dst, "\u00a0"...)
		dst = append(dst, sym...)
	}
	return dst
}

// AppendNumber appends the non-negative v with minor decimal places, grouped
// by thousands in lang's conventions.
func AppendNumber(dst []byte, lang string, minor int, v int64) []byte {
	loc, ok := locales[lang]
	if !ok {
		loc = locales[language.Fallback]
	}
	var div int64 = 1
	for range minor {
		div *= 10
	}
	whole, frac := v/div, v%div
	var digits [24]byte
	d := strconv.AppendInt(digits[:0], whole, 10)
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			dst = append(dst, loc.group...)
		}
		dst = append(dst, c)
	}
	if minor > 0 {
		dst = append(dst, loc.decimal...)
		f := strconv.AppendInt(digits[:0], frac, 10)
		for range minor - len(f) {
			dst = append(dst, '0')
		}
		dst = append(dst, f...)
	}
	return dst
}

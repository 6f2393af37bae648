package document

import (
	"fmt"
	"strings"

	"github.com/polaris-vlt/polaris/language"
	"github.com/polaris-vlt/polaris/money"
)

// Lang is a printing language: one of language.All.
type Lang string

const (
	Czech   Lang = language.Czech
	German  Lang = language.German
	English Lang = language.English
)

// Valid reports whether l is one of the languages (a test checks that
// each has its labels and words).
func (l Lang) Valid() bool { return language.Known(string(l)) }

// The currencies documents are printed in (amounts in integer minor
// units): CZK without hellers (MS decisions).
var (
	EUR = money.Currency{Code: "EUR", MinorUnits: 2, Symbol: "€"}
	CZK = money.Currency{Code: "CZK", MinorUnits: 0, Symbol: "Kč"}
)

// Is reports whether c is the currency k: the same code and minor digits
// (the symbol is the screen's, not the paper's).
func Is(c, k money.Currency) bool { return c.Code == k.Code && c.MinorUnits == k.MinorUnits }

// MaxWordsMajor bounds amounts that can be spelled (in major units): far above
// any ticket, and it keeps every language's scale words defined.
const MaxWordsMajor = 999_999_999_999

// ErrAmount is returned for an amount that cannot be printed.
type ErrAmount struct {
	Amount int64
	Reason string
}

func (e *ErrAmount) Error() string { return fmt.Sprintf("document: amount %d: %s", e.Amount, e.Reason) }

func supported(c money.Currency) error {
	if !Is(c, EUR) && !Is(c, CZK) {
		return fmt.Errorf("document: unsupported currency %q/%d", c.Code, c.MinorUnits)
	}
	return nil
}

// Words spells amount (integer minor units of cur) in lang, e.g.
// 12350 EUR in en: "one hundred twenty-three euros and fifty cents".
func Words(lang Lang, amount int64, cur money.Currency) (string, error) {
	if err := supported(cur); err != nil {
		return "", err
	}
	if !lang.Valid() {
		return "", fmt.Errorf("document: unsupported language %q", lang)
	}
	if amount < 0 {
		return "", &ErrAmount{amount, "negative"}
	}
	major, minor := cur.Split(amount)
	if major > MaxWordsMajor {
		return "", &ErrAmount{amount, "too large to spell"}
	}
	switch lang {
	case Czech:
		return csAmount(major, minor, cur), nil
	case German:
		return deAmount(major, minor, cur), nil
	default:
		return enAmount(major, minor, cur), nil
	}
}

// ---- English ----

var enSmall = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
var enTens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

func en999(n int64) string {
	var parts []string
	if n >= 100 {
		parts = append(parts, enSmall[n/100], "hundred")
		n %= 100
	}
	switch {
	case n >= 20:
		w := enTens[n/10]
		if n%10 != 0 {
			w += "-" + enSmall[n%10]
		}
		parts = append(parts, w)
	case n > 0:
		parts = append(parts, enSmall[n])
	}
	return strings.Join(parts, " ")
}

// EnglishNumber spells n (0 ≤ n ≤ MaxWordsMajor) in English.
func EnglishNumber(n int64) string {
	if n == 0 {
		return "zero"
	}
	scales := []struct {
		v    int64
		name string
	}{{1_000_000_000, "billion"}, {1_000_000, "million"}, {1000, "thousand"}}
	var parts []string
	for _, s := range scales {
		if n >= s.v {
			parts = append(parts, en999(n/s.v), s.name)
			n %= s.v
		}
	}
	if n > 0 {
		parts = append(parts, en999(n))
	}
	return strings.Join(parts, " ")
}

func enAmount(major, minor int64, cur money.Currency) string {
	unit, units, sub, subs := "euro", "euros", "cent", "cents"
	if cur == CZK {
		unit, units = "Czech crown", "Czech crowns"
	}
	pick := func(n int64, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	s := EnglishNumber(major) + " " + pick(major, unit, units)
	if cur.MinorUnits > 0 && minor > 0 {
		s += " and " + EnglishNumber(minor) + " " + pick(minor, sub, subs)
	}
	return s
}

// ---- German ----

var deSmall = []string{"null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
	"zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"}
var deTens = []string{"", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig"}

// de999 spells 1..999 as one word; "eins" at the very end is kept (the
// caller shortens it before a noun).
func de999(n int64) string {
	var b strings.Builder
	if n >= 100 {
		h := deSmall[n/100]
		if n/100 == 1 {
			h = "ein"
		}
		b.WriteString(h + "hundert")
		n %= 100
	}
	switch {
	case n >= 20:
		if n%10 != 0 {
			u := deSmall[n%10]
			if n%10 == 1 {
				u = "ein"
			}
			b.WriteString(u + "und")
		}
		b.WriteString(deTens[n/10])
	case n > 0:
		b.WriteString(deSmall[n])
	}
	return b.String()
}

// GermanNumber spells n (0 ≤ n ≤ MaxWordsMajor) in German: one word below a
// million, millions and milliards as separate words.
func GermanNumber(n int64) string {
	if n == 0 {
		return "null"
	}
	var parts []string
	big := []struct {
		v          int64
		one, other string
	}{{1_000_000_000, "eine Milliarde", "Milliarden"}, {1_000_000, "eine Million", "Millionen"}}
	for _, s := range big {
		if n >= s.v {
			c := n / s.v
			if c == 1 {
				parts = append(parts, s.one)
			} else {
				w := de999(c)
				if strings.HasSuffix(w, "eins") { // "einundzwanzig" stays, "…eins" becomes "…eine" before the feminine noun
					w = strings.TrimSuffix(w, "eins") + "eine"
				}
				parts = append(parts, w, s.other)
			}
			n %= s.v
		}
	}
	var w string
	if n >= 1000 {
		t := n / 1000
		tw := de999(t)
		if strings.HasSuffix(tw, "eins") {
			tw = strings.TrimSuffix(tw, "eins") + "ein"
		}
		w = tw + "tausend"
		n %= 1000
	}
	if n > 0 {
		w += de999(n)
	}
	if w != "" {
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

func deAmount(major, minor int64, cur money.Currency) string {
	count := func(n int64, fem bool) string {
		w := GermanNumber(n)
		if strings.HasSuffix(w, "eins") {
			w = strings.TrimSuffix(w, "eins") + "ein"
			if fem {
				w += "e"
			}
		}
		return w
	}
	var s string
	if cur == CZK {
		unit := "Kronen"
		if major == 1 {
			unit = "Krone"
		}
		s = count(major, true) + " tschechische " + unit
	} else {
		s = count(major, false) + " Euro"
	}
	if cur.MinorUnits > 0 && minor > 0 {
		s += " " + count(minor, false) + " Cent"
	}
	return s
}

// ---- Czech ----

type gender int

const (
	masculine gender = iota
	feminine
	neuter
)

var csSmall = []string{"nula", "jedna", "dva", "tři", "čtyři", "pět", "šest", "sedm", "osm", "devět",
	"deset", "jedenáct", "dvanáct", "třináct", "čtrnáct", "patnáct", "šestnáct", "sedmnáct", "osmnáct", "devatenáct"}
var csTens = []string{"", "", "dvacet", "třicet", "čtyřicet", "padesát", "šedesát", "sedmdesát", "osmdesát", "devadesát"}
var csHundreds = []string{"", "sto", "dvě stě", "tři sta", "čtyři sta", "pět set", "šest set", "sedm set", "osm set", "devět set"}

func csUnit(n int64, g gender) string {
	switch {
	case n == 1 && g == masculine:
		return "jeden"
	case n == 1 && g == neuter:
		return "jedno"
	case n == 2 && g != masculine:
		return "dvě"
	}
	return csSmall[n]
}

func cs999(n int64, g gender) []string {
	var parts []string
	if n >= 100 {
		parts = append(parts, csHundreds[n/100])
		n %= 100
	}
	switch {
	case n >= 20:
		parts = append(parts, csTens[n/10])
		if n%10 != 0 {
			parts = append(parts, csUnit(n%10, g))
		}
	case n > 0:
		parts = append(parts, csUnit(n, g))
	}
	return parts
}

// csForm picks the noun form a count needs: one, few (2–4) or many.
func csForm(n int64, one, few, many string) string {
	if n == 1 {
		return one
	}
	if t := n % 100; t >= 10 && t <= 20 {
		return many
	}
	if u := n % 10; u >= 2 && u <= 4 {
		return few
	}
	return many
}

func czech(n int64, g gender) []string {
	if n == 0 {
		return []string{"nula"}
	}
	var parts []string
	scales := []struct {
		v              int64
		g              gender
		one, few, many string
	}{
		{1_000_000_000, feminine, "miliarda", "miliardy", "miliard"},
		{1_000_000, masculine, "milion", "miliony", "milionů"},
		{1000, masculine, "tisíc", "tisíce", "tisíc"},
	}
	for _, s := range scales {
		if n >= s.v {
			c := n / s.v
			if !(c == 1 && s.v == 1000) { // "tisíc", not "jeden tisíc"
				parts = append(parts, cs999(c, s.g)...)
			}
			parts = append(parts, csForm(c, s.one, s.few, s.many))
			n %= s.v
		}
	}
	if n > 0 {
		parts = append(parts, cs999(n, g)...)
	}
	return parts
}

// CzechNumber spells n (0 ≤ n ≤ MaxWordsMajor) in Czech (masculine counting form).
func CzechNumber(n int64) string { return strings.Join(czech(n, masculine), " ") }

func csAmount(major, minor int64, cur money.Currency) string {
	var s string
	if cur == CZK {
		s = strings.Join(czech(major, feminine), " ") + " " + csForm(major, "koruna česká", "koruny české", "korun českých")
	} else {
		s = strings.Join(czech(major, neuter), " ") + " " + csForm(major, "euro", "eura", "eur")
	}
	if cur.MinorUnits > 0 && minor > 0 {
		s += " " + strings.Join(czech(minor, masculine), " ") + " " + csForm(minor, "cent", "centy", "centů")
	}
	return s
}

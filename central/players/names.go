package players

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Name matching (README "Matching names"). Both sides are folded the same
// way, so a register written by a ministry's clerk and an account typed by
// ours (or sent by a scanner in NFD) compare as the person, not as bytes.

// fold is one name word folded for comparison: compatibility forms (NFKC:
// full-width letters, ligatures), case (Unicode case folding, so ß is SS),
// diacritics (NFD, marks dropped: Ř is R, ů is U), and the few Latin letters
// that carry their mark inside the letter (Ł, Ø, Đ), which NFD leaves whole.
var folder = transform.Chain(norm.NFKC, cases.Fold(), norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)

var wholeLetters = strings.NewReplacer("ł", "l", "ø", "o", "đ", "d", "ħ", "h", "ŧ", "t", "ı", "i", "æ", "ae", "œ", "oe", "þ", "th")

// nameWords splits a name into folded words. Apostrophes join (O'Brien is
// OBRIEN); any other character that is not a letter or a digit separates
// (spaces of any kind, hyphens, dots, commas), so a double surname written
// with a hyphen or a space is the same words. (Digits are no name's, but
// the demo's and the crash rig's players are numbered.)
func nameWords(s string) []string {
	f, _, err := transform.String(folder, s)
	if err != nil {
		f = strings.ToLower(s)
	}
	f = strings.ToUpper(wholeLetters.Replace(f))
	var out []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			out = append(out, w.String())
			w.Reset()
		}
	}
	for _, c := range f {
		switch {
		case unicode.IsLetter(c) || unicode.IsDigit(c):
			w.WriteRune(c)
		case c == '\'' || c == '’' || c == 'ʼ' || c == '`':
		default:
			flush()
		}
	}
	flush()
	return out
}

// registerName splits a register line's name into its folded words and
// how many of them, from the front, are the surname: the register writes
// the surname first in capitals (`NOVÁKOVÁ Jana`, `VAN DER BERG Jan`). A
// name with no capitalised first word, or with every word capitalised and
// only one word, gives 0: the split is not known and every split is tried,
// as for an account.
func registerName(s string) (words []string, surname int) {
	raw := strings.FieldsFunc(s, func(c rune) bool { return unicode.IsSpace(c) || c == ',' })
	upper := 0
	for _, w := range raw {
		if w != strings.ToUpper(w) || w == strings.ToLower(w) {
			break
		}
		upper++
	}
	for i, w := range raw {
		ws := nameWords(w)
		if i < upper {
			surname += len(ws)
		}
		words = append(words, ws...)
	}
	if upper == len(raw) {
		// All capitals: the first word is the surname (the register's order).
		surname = 0
		if len(raw) > 1 {
			surname = len(nameWords(raw[0]))
		}
	}
	return words, surname
}

// split is one reading of a name: its surname (the surname's words joined:
// a double surname is one) and its given names.
type split struct {
	surname string
	given   []string // sorted, unique
}

// maxSurnameWords bounds the surnames tried in a name whose split is not
// known (VAN DER BERG is three words).
const maxSurnameWords = 3

// splits are the readings of a name: the one the register gives
// (surname > 0), else every run of up to maxSurnameWords consecutive
// words as the surname with the other words as the given names (an
// account's name is typed in either order). A one-word name is a surname
// without given names.
func splits(words []string, surname int) []split {
	mk := func(i, j int) split {
		g := slices.Concat(words[:i], words[j:])
		slices.Sort(g)
		return split{surname: strings.Join(words[i:j], ""), given: slices.Compact(g)}
	}
	switch {
	case len(words) == 0:
		return nil
	case surname > 0 && surname < len(words):
		return []split{mk(0, surname)}
	case len(words) == 1:
		return []split{mk(0, 1)}
	}
	var out []split
	for n := 1; n <= maxSurnameWords && n < len(words); n++ {
		for i := 0; i+n <= len(words); i++ {
			out = append(out, mk(i, i+n))
		}
	}
	return out
}

// Match levels, weakest first.
const (
	matchNone = iota
	// matchProbable: staff decide (a review); play waits for them.
	matchProbable
	// matchCertain: the same person as far as name and birth date tell.
	matchCertain
)

// minFuzzySurname is the shortest surname compared one letter apart:
// shorter ones are too often another family's to be worth a review.
const minFuzzySurname = 4

// matchSplits is the rule (README "Matching names") on two readings of
// names of one birth date; the register's keys (registerKeys, probe)
// compute the same without keeping the names.
//
//   - certain: the same surname, and every given name of one side among
//     the other's (NOVÝ Karel = Karel Jan Nový);
//   - probable: the same surname and a given name in common but another
//     one differing on each side (NOVÝ Karel Josef, Karel Jan Nový), or the
//     same surname with no given name on one side;
//   - probable: a surname near the other (nearKeys: one letter changed,
//     added or dropped, also after the feminine -OVÁ is set aside), with
//     the given names as for certain (NOVOTNÝ Jan, Jan Novotni; NOVÁKOVÁ
//     Jana, Jana Novák; NĚMCOVÁ Eva, Eva Němec).
func matchSplits(a, b split) int {
	common := 0
	for _, g := range a.given {
		if _, ok := slices.BinarySearch(b.given, g); ok {
			common++
		}
	}
	givenAgree := len(a.given) > 0 && len(b.given) > 0 && (common == len(a.given) || common == len(b.given))
	switch {
	case a.surname == b.surname && givenAgree:
		return matchCertain
	case a.surname == b.surname && (common > 0 || len(a.given) == 0 || len(b.given) == 0):
		return matchProbable
	case givenAgree && near(a.surname, b.surname):
		return matchProbable
	}
	return matchNone
}

// near says whether two surnames share a near key.
func near(a, b string) bool {
	w := map[string]bool{}
	for _, v := range nearKeys(a) {
		w[v] = true
	}
	for _, v := range nearKeys(b) {
		if w[v] {
			return true
		}
	}
	return false
}

// nearKeys are a surname's keys for the one-letter rule: the wildcards of
// the surname and of its stem, the surname without the Czech feminine
// suffix -OVÁ (a woman may use her surname without it, and a foreign
// document has none: NOVÁKOVÁ and NOVÁK, NĚMCOVÁ and NĚMEC); none for a
// form shorter than minFuzzySurname. Two surnames share one exactly when
// one's surname or stem is at most one letter from the other's.
func nearKeys(surname string) []string {
	var out []string
	forms := []string{surname}
	if s, ok := strings.CutSuffix(surname, "OVA"); ok {
		forms = append(forms, s)
	}
	for _, f := range forms {
		if len([]rune(f)) >= minFuzzySurname {
			out = append(out, wildcards(f)...)
		}
	}
	return out
}

// wildcards are s with each letter replaced by '?' and with '?' put at
// each place: two words share one exactly when they are at most one
// letter changed, added or dropped apart ('?' is never a name's letter).
func wildcards(s string) []string {
	r := []rune(s)
	out := make([]string, 0, 2*len(r)+1)
	for i := range r {
		out = append(out, string(r[:i])+"?"+string(r[i+1:]))
	}
	for i := 0; i <= len(r); i++ {
		out = append(out, string(r[:i])+"?"+string(r[i:]))
	}
	return out
}

// matchNames is the level of two names of the same birth date, each read
// every way it can be (accounts: the split is not known).
func matchNames(a, b []string, aSurname, bSurname int) int {
	best := matchNone
	for _, x := range splits(a, aSurname) {
		for _, y := range splits(b, bSurname) {
			best = max(best, matchSplits(x, y))
		}
	}
	return best
}

// normName is a name's folded words, sorted: the person hash's name.
func normName(s string) string {
	w := nameWords(s)
	slices.Sort(w)
	return strings.Join(w, " ")
}

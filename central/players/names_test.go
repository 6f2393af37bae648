package players_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
	"golang.org/x/text/unicode/norm"
)

// nameCases are register lines' names against accounts' names, both of
// one birth date, and the level the rule gives (README "Matching names").
var nameCases = []struct {
	line, account string
	want          int
}{
	// Issue 33's three misses.
	{"NOVÁKOVÁ Jana", norm.NFD.String("Jana Nováková"), players.MatchCertain},
	{"DVOŘÁK Petr", "Petr Dvorak", players.MatchCertain},
	{"NOVÝ Karel", "Karel Jan Novy", players.MatchCertain},
	// Order, case, spacing, hyphens, compatibility forms.
	{"NOVÁK Jan", "novák  JAN", players.MatchCertain},
	{"NOVÁKOVÁ-SVOBODOVÁ Jana", "Jana Nováková Svobodová", players.MatchCertain},
	{"VAN DER BERG Jan", "Jan van der Berg", players.MatchCertain},
	{"O'BRIEN Seán", "Sean OBrien", players.MatchCertain},
	{"STRAUß Anna", "Anna Strauss", players.MatchCertain},
	{"NOVÁK Jan", "Ｊａｎ Ｎｏｖáｋ", players.MatchCertain},
	{"NOVÝ Karel Jan", "Karel Nový", players.MatchCertain},
	// Probable: a given name in common, another differing on each side.
	{"NOVÝ Karel Josef", "Karel Jan Nový", players.MatchProbable},
	// Probable: a surname one letter apart, the given names agreeing.
	{"NOVOTNÝ Jan", "Jan Novotni", players.MatchProbable},
	// Probable: the feminine -ová set aside (a woman may drop it; a foreign
	// document has none).
	{"NOVÁKOVÁ Jana", "Jana Novák", players.MatchProbable},
	{"NĚMCOVÁ Eva", "Eva Němec", players.MatchProbable},
	{"NOVÁKOVÁ Jana", "Petra Novák", players.MatchNone},
	{"NOVÁK Jan", "Jan Novotný", players.MatchNone},
	{"DVOŘÁK Petr", "Petr Dvořáček", players.MatchNone}, // two letters apart
	{"KOS Jan", "Jan Kosa", players.MatchNone},          // too short to be one letter apart
	// Not the person: another given name alone, another surname.
	{"NOVÁK Jan", "Petr Novák", players.MatchNone},
	{"NOVÁK Jan", "Jan Svoboda", players.MatchNone},
	// A register entry without a given name: the surname is probable.
	{"NOVÁK", "Jan Novák", players.MatchProbable},
	// A register line without the register's capitals: every split is tried.
	{"Eva Malá", "Malá Eva", players.MatchCertain},
}

func TestNameRules(t *testing.T) {
	for _, c := range nameCases {
		if got := players.MatchRegisterName(c.line, c.account); got != c.want {
			t.Errorf("register %q, account %q: level %d, want %d", c.line, c.account, got, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"Eva Svobodová", "EVA SVOBODOVA", players.MatchCertain},
		{"Eva Svobodová", "Eva Marie Svobodová", players.MatchCertain},
		{"Eva Svobodová", "Eva Svobodavá", players.MatchProbable},
		{"Eva Svobodová", "Eva Nováková", players.MatchNone},
	} {
		if got := players.MatchAccounts(c.a, c.b); got != c.want {
			t.Errorf("accounts %q, %q: level %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if w := players.NameWords(norm.NFD.String("Jiří Dvořák-Řehoř")); !slices.Equal(w, []string{"JIRI", "DVORAK", "REHOR"}) {
		t.Errorf("NameWords: %q", w)
	}
	for _, d := range []string{"AB 123-456", "ab123456", "ＡＢ１２３４５６", "AB/123 456"} {
		if got := players.NormDoc(d); got != "AB123456" {
			t.Errorf("NormDoc(%q) = %q", d, got)
		}
	}
}

// The register keeps keyed hashes only; matching through them gives what
// the rule in memory gives, for every case (each pair its own birth date,
// one register).
func TestRegisterKeysMatchTheRule(t *testing.T) {
	r := newRig(t, "cz")
	birth := func(i int) string {
		return time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format("2006-01-02")
	}
	var lines []string
	for i, c := range nameCases {
		lines = append(lines, c.line+"|"+birth(i)+"|")
	}
	r.e.Clock.Advance(time.Minute)
	r.importRegister(r.e.Clock.Now().Format("2006-01-02"), lines...)
	for i, c := range nameCases {
		a, err := r.reg.Register(r.ctx(), players.Registration{Name: c.account, BirthDate: birth(i), DocumentNumber: fmt.Sprintf("DOC%05d", i), IdentityVerified: true, VerifiedBy: "clerk 7"})
		if err != nil {
			t.Fatalf("%q: %v", c.account, err)
		}
		if got, err := r.reg.RegisterLevel(r.ctx(), a.ID); err != nil || got != c.want {
			t.Errorf("register %q, account %q: level %d by the keys (%v), want %d", c.line, c.account, got, err, c.want)
		}
	}
}

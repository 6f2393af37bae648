package backoffice

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/language"
)

// The console speaks exactly the languages there are, and offers each.
func TestConsoleLanguages(t *testing.T) {
	var have []string
	for l := range catalog {
		have = append(have, l)
	}
	slices.Sort(have)
	want := language.All()
	slices.Sort(want)
	if !slices.Equal(have, want) {
		t.Errorf("catalogues %v, languages %v", have, want)
	}
	ps, err := parsePages()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := ps.t.ExecuteTemplate(&buf, "login", view{Lang: language.Fallback, Page: "login", D: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	// as the page had them written out: <a href="?lang=cs">CS</a> <a …
	var as []string
	for _, l := range language.All() {
		as = append(as, `<a href="?lang=`+l+`">`+strings.ToUpper(l)+`</a>`)
	}
	links := `<span class="langs">` + strings.Join(as, " ") + `</span>`
	if !strings.Contains(buf.String(), links) {
		t.Errorf("the page offers the languages otherwise than %s", links)
	}
}

// Every player-limit kind the central system keeps has its name in every
// catalogue: a new kind fails here until the back office can show it.
func TestLimitKindsNamed(t *testing.T) {
	for l, c := range catalog {
		for _, k := range players.Kinds {
			if c["p.k."+k] == "" {
				t.Errorf("%s: no name for the limit kind %s (p.k.%s)", l, k, k)
			}
		}
	}
}

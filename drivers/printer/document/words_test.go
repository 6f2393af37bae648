package document

import (
	"errors"
	"testing"

	"github.com/polaris-vlt/polaris/language"
	"github.com/polaris-vlt/polaris/money"
)

func TestWordsTable(t *testing.T) {
	cases := []struct {
		lang   Lang
		amount int64
		cur    money.Currency
		want   string
	}{
		// English
		{English, 0, EUR, "zero euros"},
		{English, 100, EUR, "one euro"},
		{English, 101, EUR, "one euro and one cent"},
		{English, 12350, EUR, "one hundred twenty-three euros and fifty cents"},
		{English, 100000000, EUR, "one million euros"},
		{English, 123456789, EUR, "one million two hundred thirty-four thousand five hundred sixty-seven euros and eighty-nine cents"},
		{English, 1, CZK, "one Czech crown"},
		{English, 50000, CZK, "fifty thousand Czech crowns"},
		{English, 999_999_999_999, CZK, "nine hundred ninety-nine billion nine hundred ninety-nine million nine hundred ninety-nine thousand nine hundred ninety-nine Czech crowns"},
		// German
		{German, 0, EUR, "null Euro"},
		{German, 100, EUR, "ein Euro"},
		{German, 101, EUR, "ein Euro ein Cent"},
		{German, 2150, EUR, "einundzwanzig Euro fünfzig Cent"},
		{German, 12345, EUR, "einhundertdreiundzwanzig Euro fünfundvierzig Cent"},
		{German, 10100, EUR, "einhundertein Euro"},
		{German, 100000, EUR, "eintausend Euro"},
		{German, 2_117_300, EUR, "einundzwanzigtausendeinhundertdreiundsiebzig Euro"},
		{German, 100_000_000, EUR, "eine Million Euro"},
		{German, 300_000_099, EUR, "drei Millionen Euro neunundneunzig Cent"},
		{German, 1_001_000_000, CZK, "eine Milliarde eine Million tschechische Kronen"},
		{German, 1, CZK, "eine tschechische Krone"},
		{German, 31, CZK, "einunddreißig tschechische Kronen"},
		{German, 1000, CZK, "eintausend tschechische Kronen"},
		// Czech
		{Czech, 0, CZK, "nula korun českých"},
		{Czech, 1, CZK, "jedna koruna česká"},
		{Czech, 2, CZK, "dvě koruny české"},
		{Czech, 4, CZK, "čtyři koruny české"},
		{Czech, 5, CZK, "pět korun českých"},
		{Czech, 12, CZK, "dvanáct korun českých"},
		{Czech, 21, CZK, "dvacet jedna korun českých"},
		{Czech, 22, CZK, "dvacet dvě koruny české"},
		{Czech, 234, CZK, "dvě stě třicet čtyři koruny české"},
		{Czech, 1000, CZK, "tisíc korun českých"},
		{Czech, 2000, CZK, "dva tisíce korun českých"},
		{Czech, 5000, CZK, "pět tisíc korun českých"},
		{Czech, 21000, CZK, "dvacet jeden tisíc korun českých"},
		{Czech, 50000, CZK, "padesát tisíc korun českých"},
		{Czech, 500_000, CZK, "pět set tisíc korun českých"},
		{Czech, 1_000_000, CZK, "jeden milion korun českých"},
		{Czech, 3_400_000, CZK, "tři miliony čtyři sta tisíc korun českých"},
		{Czech, 2_000_000_000, CZK, "dvě miliardy korun českých"},
		{Czech, 100, EUR, "jedno euro"},
		{Czech, 201, EUR, "dvě eura jeden cent"},
		{Czech, 1599, EUR, "patnáct eur devadesát devět centů"},
		{Czech, 2203, EUR, "dvacet dvě eura tři centy"},
	}
	for _, c := range cases {
		got, err := Words(c.lang, c.amount, c.cur)
		if err != nil {
			t.Errorf("%s %d %s: %v", c.lang, c.amount, c.cur.Code, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s %d %s:\n got %q\nwant %q", c.lang, c.amount, c.cur.Code, got, c.want)
		}
	}
}

func TestWordsRefusesBadInput(t *testing.T) {
	var ea *ErrAmount
	if _, err := Words(English, -1, EUR); !errors.As(err, &ea) {
		t.Errorf("negative: %v", err)
	}
	if _, err := Words(English, (MaxWordsMajor+1)*100, EUR); !errors.As(err, &ea) {
		t.Errorf("too large: %v", err)
	}
	if _, err := Words("fr", 1, EUR); err == nil {
		t.Error("unknown language accepted")
	}
	if _, err := Words(English, 1, money.Currency{Code: "USD", MinorUnits: 2}); err == nil {
		t.Error("unknown currency accepted")
	}
}

// Every amount spells to something in every language, and different whole
// amounts never spell the same (a words field that collides would not
// confirm the figures).
func TestWordsDistinct(t *testing.T) {
	for _, code := range language.All() {
		l := Lang(code)
		seen := map[string]int64{}
		for n := int64(0); n < 30000; n++ {
			w, err := Words(l, n, CZK)
			if err != nil || w == "" {
				t.Fatalf("%s %d: %q %v", l, n, w, err)
			}
			if m, ok := seen[w]; ok {
				t.Fatalf("%s: %d and %d both spell %q", l, m, n, w)
			}
			seen[w] = n
		}
	}
}

func FuzzWords(f *testing.F) {
	f.Add(int64(12345), 0, 0)
	f.Add(int64(-5), 1, 1)
	f.Add(int64(999_999_999_999), 2, 0)
	f.Fuzz(func(t *testing.T, amount int64, li, ci int) {
		langs := []Lang{Czech, German, English, "xx"}
		curs := []money.Currency{EUR, CZK, {Code: "USD", MinorUnits: 2}}
		l := langs[(li%4+4)%4]
		c := curs[(ci%3+3)%3]
		w, err := Words(l, amount, c)
		if err == nil && w == "" {
			t.Fatalf("empty words without error for %d", amount)
		}
		if err != nil && w != "" {
			t.Fatalf("words %q with error %v", w, err)
		}
	})
}

func BenchmarkWords(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range []Lang{Czech, German, English} {
			if _, err := Words(l, 123456789, EUR); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The printer has its words for exactly the languages there are: a
// language added to language.All without them fails here, not on paper
// in English.
func TestEveryLanguageHasLabels(t *testing.T) {
	if len(labels) != len(language.All()) {
		t.Errorf("labels for %d languages, %d languages", len(labels), len(language.All()))
	}
	en, _ := Words(English, 12345, EUR)
	for _, code := range language.All() {
		if _, ok := labels[Lang(code)]; !ok {
			t.Errorf("%s: no labels", code)
		}
		if w, err := Words(Lang(code), 12345, EUR); err != nil || code != language.English && w == en {
			t.Errorf("%s: words %q (%v): not its own", code, w, err)
		}
	}
}

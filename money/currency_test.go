package money

import "testing"

func TestFormat(t *testing.T) {
	eur := Currency{Code: "EUR", MinorUnits: 2, Symbol: "€"}
	czk := Currency{Code: "CZK", MinorUnits: 0, Symbol: "Kč"}
	for _, c := range []struct {
		cur  Currency
		v    int64
		want string
	}{
		{czk, 2500, "2500 CZK"}, {czk, -5, "-5 CZK"}, {czk, 0, "0 CZK"},
		{eur, 1250, "12.50 EUR"}, {eur, -1250, "-12.50 EUR"}, {eur, 5, "0.05 EUR"}, {eur, 100000, "1000.00 EUR"},
		{Currency{Code: "BHD", MinorUnits: 3}, 1005, "1.005 BHD"},
	} {
		if got := c.cur.Format(c.v); got != c.want {
			t.Errorf("%s.Format(%d) = %q, want %q", c.cur.Code, c.v, got, c.want)
		}
	}
	if u := eur.Unit(); u != 100 {
		t.Errorf("EUR unit %d", u)
	}
	if u := czk.Unit(); u != 1 {
		t.Errorf("CZK unit %d", u)
	}
	if ma, mi := eur.Split(12345); ma != 123 || mi != 45 {
		t.Errorf("EUR split %d %d", ma, mi)
	}
}

package hall

import (
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	sp := func(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }
	for _, c := range []struct {
		got, want string
	}{
		{CZK(0), sp("0 Kč")},
		{CZK(999), sp("999 Kč")},
		{CZK(1000), sp("1 000 Kč")},
		{CZK(123456), sp("123 456 Kč")},
		{CZK(1234567), sp("1 234 567 Kč")},
		{CZK(-5000), sp("−5 000 Kč")},
		{EUR(0), sp("0,00 €")},
		{EUR(5), sp("0,05 €")},
		{EUR(25), sp("0,25 €")},
		{EUR(493824), sp("4 938,24 €")},
		{EUR(50000000), sp("500 000,00 €")},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for _, c := range []struct{ czk, rate, cents int64 }{
		{123456, 2500, 493824},
		{1, 2500, 4},   // 0.04 €
		{1, 2430, 4},   // 0.0411… → 0.04
		{10, 2430, 41}, // 0.4115… → 0.41
		{7, 2800, 25},  // 0.25 exactly
		{-10, 2430, -41},
		{1000, 0, 0},
	} {
		if got := CZKToEURCents(c.czk, c.rate); got != c.cents {
			t.Errorf("CZKToEURCents(%d, %d) = %d, want %d", c.czk, c.rate, got, c.cents)
		}
	}
}

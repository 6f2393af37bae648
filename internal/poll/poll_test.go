package poll

import (
	"testing"
	"time"
)

func TestParseFactor(t *testing.T) {
	for s, want := range map[string]float64{"": 1, "1": 1, "2.5": 2.5, "10": 10} {
		if f, err := parseFactor(s); err != nil || f != want {
			t.Errorf("parseFactor(%q) = %v, %v; want %v", s, f, err, want)
		}
	}
	for _, s := range []string{"0", "-1", "x", "NaN", "Inf", "1s"} {
		if _, err := parseFactor(s); err == nil {
			t.Errorf("parseFactor(%q) accepted", s)
		}
	}
}

func TestScaled(t *testing.T) {
	old := factor
	defer func() { factor = old }()
	factor = 3
	if got := Scaled(5 * time.Second); got != 15*time.Second {
		t.Fatalf("Scaled(5s) at factor 3 = %v", got)
	}
}

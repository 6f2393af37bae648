package language

import "testing"

func TestKnown(t *testing.T) {
	for _, l := range All() {
		if !Known(l) {
			t.Errorf("%q listed but not known", l)
		}
	}
	for _, l := range []string{"", "fr", "EN", "cz"} {
		if Known(l) {
			t.Errorf("%q known", l)
		}
	}
	if !Known(Fallback) {
		t.Errorf("fallback %q is not a language", Fallback)
	}
	a := All()
	a[0] = "xx"
	if Known("xx") {
		t.Error("All handed out the list itself")
	}
}

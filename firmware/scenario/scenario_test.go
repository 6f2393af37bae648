package scenario

import (
	"strings"
	"testing"
)

func TestParseRefusesBadScripts(t *testing.T) {
	for _, bad := range []string{
		"jump start", "press", "door main ajar", "key attendant maybe", "sleep soon",
		"expect credit lots", "expect meter coin_in", "power on", "note ten",
	} {
		if _, err := Parse(strings.NewReader("wait idle\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: error %v, want one naming line 2", bad, err)
		}
	}
}

package document

import (
	"reflect"
	"testing"
)

func TestWrap(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  []string
	}{
		{"", 10, []string{""}},
		{"dvacet dvě koruny české", 12, []string{"dvacet dvě", "koruny české"}},
		{"zweiundzwanzigtausend Euro", 8, []string{"zweiundzwanzigtausend", "Euro"}},
		{"a b c", 5, []string{"a b c"}},
	}
	for _, c := range cases {
		if got := Wrap(c.in, c.width); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

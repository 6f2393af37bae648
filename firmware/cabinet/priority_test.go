package cabinet

import (
	"slices"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// TestConditionTableNamesEveryBlockReason: the reasons the table gives for
// a blocked Start are exactly the ones the display has messages for.
func TestConditionTableNamesEveryBlockReason(t *testing.T) {
	var got []string
	for _, r := range conditionTable {
		if r.reason != "" && !slices.Contains(got, r.reason) {
			got = append(got, r.reason)
		}
	}
	want := slices.Clone(view.BlockReasons)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("table reasons %v, view.BlockReasons %v", got, want)
	}
	for k, r := range conditionTable {
		if r.freezes && !r.blocks || r.fault && !r.blocks {
			t.Errorf("condition %d freezes buttons or is a fault but does not block play", k)
		}
	}
}

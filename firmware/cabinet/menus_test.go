package cabinet

import (
	"reflect"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/market"
)

// stubLedger is a ledgerView with fixed contents: no ledger, no writes.
type stubLedger struct{ meters map[ledger.Meter]int64 }

func (s stubLedger) Status() ledger.Status { return ledger.Status{LedgerID: "stub", Seq: 7} }
func (s stubLedger) Meters(ledger.Scope) (map[ledger.Meter]int64, bool) {
	return s.meters, false
}
func (stubLedger) Events(int) []ledger.Event   { return nil }
func (stubLedger) DocsIn() []ledger.DocRecord  { return nil }
func (stubLedger) DocsOut() []ledger.DocRecord { return nil }
func (stubLedger) Pending(int) ([]ledger.OutboxMessage, error) {
	return make([]ledger.OutboxMessage, 2), nil
}
func (stubLedger) Config(string) (string, bool) { return "", false }

// TestMenuPagesArePureFunctionsOfWhatTheyRead: every page of both keys'
// menus is built from a pageSource over a stub ledger view, twice, with
// the same result; the meters page shows the stub's meters.
func TestMenuPagesArePureFunctionsOfWhatTheyRead(t *testing.T) {
	prof, err := market.Builtin("cz")
	if err != nil {
		t.Fatal(err)
	}
	src := pageSource{led: stubLedger{meters: map[ledger.Meter]int64{ledger.GamesPlayed: 42}}, market: prof, id: "cab-9"}
	for _, tech := range []bool{true, false} {
		for i, p := range menuPages(src, tech, 0) {
			a, b := p(src), p(src)
			if !reflect.DeepEqual(a, b) || a.Title == "" {
				t.Fatalf("technician %v page %d: %+v then %+v", tech, i, a, b)
			}
		}
	}
	m := lines("en", prof, metersPage(src))
	if len(m) != 1 || m[0] != "Games played 42" {
		t.Fatalf("meters page %q", m)
	}
}

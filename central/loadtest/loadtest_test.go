package loadtest

import (
	"context"
	"strings"
	"testing"

	_ "github.com/polaris-vlt/polaris/engine/games"
)

// TestSmallRunBalances runs a small load through the real server and link
// clients, with ceilings 20 CZK above the seeds so that every pool is hit
// many times, and requires every book to balance.
func TestSmallRunBalances(t *testing.T) {
	res, err := Run(context.Background(), Options{Cabinets: 12, Rounds: 25, HitGap: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Line())
	t.Log("\n" + res.AuditReport())
	if !res.OK() {
		t.Fatalf("errors %d (first %v), checks %v", res.Errors, res.FirstErr, res.Checks)
	}
	if res.Outcomes != 12*25 || !strings.Contains(res.Line(), "outcomes/s, p50 ") {
		t.Fatalf("%d outcomes; line %q", res.Outcomes, res.Line())
	}
	if len(res.Audit) != 3 {
		t.Fatalf("%d pools audited, want 3", len(res.Audit))
	}
	for _, l := range res.Audit {
		if l.Hits == 0 || l.Games == 0 {
			t.Errorf("pool %s: %d games, %d hits; the forced ceiling should give hits", l.Pool, l.Games, l.Hits)
		}
	}
}

package devkit

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// The reconciliation finds a refund of a round the central system drew
// (its stake was booked there) unless the operator voided that round.
func TestReconcileFindsARefundWithoutVoid(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a devkit cabinet")
	}
	dir := t.TempDir()
	ctx := context.Background()
	h, err := StartHeadless(ctx, app.Options{DataDir: dir, Market: "demo", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	run(t, h, "wait idle\nnote 1000\n")
	untilCredit(t, h, 1000)
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	led, err := ledger.Open(ledger.Options{DirA: filepath.Join(dir, "ledger-a"), DirB: filepath.Join(dir, "ledger-b")})
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.Lookup(engine.WishStar)
	if err != nil {
		t.Fatal(err)
	}
	n, stake := led.NextRound(), g.Stakes()[0]
	if err := led.Wager(ledger.Wager{Round: n, Game: string(g.ID()), Denom: 1, Stake: int64(stake)}); err != nil {
		t.Fatal(err)
	}
	central := func(fn func(*embedded.Central)) {
		t.Helper()
		c, err := embedded.Start(ctx, embedded.Options{DataDir: dir, Cabinet: "dev-1", Games: engine.Games()})
		if err != nil {
			t.Fatal(err)
		}
		fn(c)
		c.Close()
	}
	central(func(c *embedded.Central) {
		if _, err := c.Client.RequestOutcome(ctx, n, g.ID(), g.ModelID(), stake); err != nil {
			t.Fatal(err)
		}
	})
	if err := led.Refund(n, "refused by hand"); err != nil {
		t.Fatal(err)
	}
	led.Close()
	const want = "refunded without the operator's void"
	bad, err := Reconcile(dir, "dev-1", true)
	if err != nil || len(bad) != 1 || !strings.Contains(bad[0], want) {
		t.Fatalf("a refund of a drawn round: %q %v", bad, err)
	}
	central(func(c *embedded.Central) {
		if _, err := c.Server.Rounds().Void(ctx, "dev-1", n, "op", "test"); err != nil {
			t.Fatal(err)
		}
	})
	if bad, err := Reconcile(dir, "dev-1", true); err != nil || len(bad) != 0 {
		t.Fatalf("after the void: %q %v", bad, err)
	}
}

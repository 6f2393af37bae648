package link_test

import (
	"context"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// A mystery jackpot hit travels inside the signed body; a round the jackpot
// engine refuses is refused whole, with nothing stored.
func TestJackpotHitInSignedBody(t *testing.T) {
	jp := &testenv.Jackpots{HitOneIn: 1, Refuse: map[string]bool{"cab-9": true}}
	e := testenv.Start(t, func(cfg *server.Config) { cfg.Jackpots = jp })
	c := e.Client("cab-1", nil)
	o1, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if o1.Jackpot == nil || o1.Jackpot.Amount != 10 || o1.Jackpot.Pool != "fake" {
		t.Fatalf("jackpot hit %+v, want the 10 in the pool", o1.Jackpot)
	}
	again, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil || again.Jackpot == nil || again.Jackpot.Amount != 10 {
		t.Fatalf("repeat: %v", err)
	}
	if e.Count("fake_jackpot", "") != 1 || e.Count("rounds", "jackpot_amount=10 AND jackpot_pool='fake'") != 1 {
		t.Fatal("the hit is not stored once with its round")
	}
	if _, err := c.RequestRiskStep(ctx(t), 1, 1, engine.Red); link.Refusal(err) != refusal.RiskNotAllowed && o1.Result.Total > 0 {
		t.Fatalf("risk after a jackpot hit: %v", err)
	}
	before := jp.Rollbacks.Load()
	if _, err := e.Client("cab-9", nil).RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10); link.Refusal(err) != refusal.Jackpot {
		t.Fatalf("round refused by the jackpot: %v", err)
	}
	if e.Count("rounds", "cabinet='cab-9'") != 0 || e.Count("fake_jackpot", "") != 1 {
		t.Fatal("a refused round left a trace")
	}
	if jp.Rollbacks.Load() == before || jp.Commits.Load() == 0 {
		t.Fatal("the jackpot hooks were not called")
	}
}

// Jackpot values are coalesced per cabinet: many changes make few sends,
// and the last send carries the newest value.
func TestJackpotValuesCoalesced(t *testing.T) {
	jp := &testenv.Jackpots{HitOneIn: 1 << 30}
	e := testenv.Start(t, func(cfg *server.Config) {
		cfg.Jackpots = jp
		cfg.JackpotInterval = 200 * time.Millisecond
	})
	c := e.Client("cab-1", nil)
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(runCtx)
	waitNotice(t, c, func(n link.Notice) bool { return n.Jackpots != nil })
	start := time.Now()
	const rounds = 40
	for n := uint64(1); n <= rounds; n++ {
		if _, err := c.RequestOutcome(ctx(t), n, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
			t.Fatal(err)
		}
		if err := c.CommitOutcome(ctx(t), n); err != nil {
			t.Fatal(err)
		}
	}
	sends, last := 0, engine.Money(-1)
	deadline := poll.After(2 * time.Second)
	for last != rounds*5 {
		select {
		case n := <-c.Notices():
			if n.Jackpots != nil {
				sends++
				last = n.Jackpots[0].Amount
			}
		case <-deadline:
			t.Fatalf("the newest value never came: last %d after %d sends", last, sends)
		}
	}
	if max := int(time.Since(start)/(200*time.Millisecond)) + 2; sends > max {
		t.Fatalf("%d jackpot sends in %v for %d changes, want at most %d", sends, time.Since(start), rounds, max)
	}
}

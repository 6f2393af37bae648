package embedded_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
	_ "github.com/polaris-vlt/polaris/engine/games"
)

// The embedded central system plays both real games through the real client
// over loopback mutual TLS; every round mirrors on the cabinet side; after a
// restart on the same data directory the PKI and the rounds are still there.
func TestEmbeddedPlaysRealGames(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(60*time.Second))
	defer cancel()
	e, err := embedded.Start(ctx, embedded.Options{DataDir: dir, Cabinet: "dev-1"})
	if err != nil {
		t.Fatal(err)
	}
	info, err := e.Client.Hello(ctx)
	if err != nil {
		t.Fatal(err)
	}
	games := engine.Games()
	if len(games) < 2 || len(info.Models) != len(games) {
		t.Fatalf("games %d, central plays %v", len(games), info.Models)
	}
	bodies := map[uint64][]byte{}
	n := uint64(0)
	riskDone := false
	for _, g := range games {
		for i := 0; i < 30; i++ {
			n++
			o, err := e.Client.RequestOutcome(ctx, n, g.ID(), g.ModelID(), g.Stakes()[0])
			if err != nil {
				t.Fatalf("%s round %d: %v", g.ID(), n, err)
			}
			if err := o.Mirror(); err != nil {
				t.Fatalf("%s round %d does not mirror: %v", g.ID(), n, err)
			}
			bodies[n] = o.Body
			if g.ID() == engine.MagicStars && !riskDone && o.Jackpot == nil && len(o.Result.Steps) == 1 && o.Result.Total > 0 {
				card, err := e.Client.RequestRiskStep(ctx, n, 1, engine.Black)
				if err != nil {
					t.Fatalf("risk on a Magic Stars base win: %v", err)
				}
				if err := card.Mirror(); err != nil || card.Step.Before != o.Result.Total {
					t.Fatalf("risk card: %+v %v", card.Step, err)
				}
				riskDone = true
			}
			if _, err := link.EnqueueCommit(e.Outbox, n); err != nil {
				t.Fatal(err)
			}
			e.Client.Kick()
		}
	}
	// The development pool (DevJackpotConfig) is on the stream.
	waitJackpot(t, e.Client)
	var contributed int
	e.Server.DB().QueryRow(`SELECT count(*) FROM rounds WHERE game='magicstars'`).Scan(&contributed)
	if contributed != 30 {
		t.Fatalf("%d Magic Stars rounds stored", contributed)
	}
	if !riskDone {
		t.Log("no Magic Stars base win in 30 rounds; Risk not exercised on the real game")
	}
	waitDrained(t, e.Outbox)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	e2, err := embedded.Start(ctx, embedded.Options{DataDir: dir, Cabinet: "dev-1"})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	info2, err := e2.Client.Hello(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info2.LastRound != n {
		t.Fatalf("last round after restart %d, want %d", info2.LastRound, n)
	}
	g := games[0]
	o, err := e2.Client.RequestOutcome(ctx, 1, g.ID(), g.ModelID(), g.Stakes()[0])
	if err != nil || !bytes.Equal(o.Body, bodies[1]) {
		t.Fatalf("round 1 after restart: %v", err)
	}
	var committed int
	e2.Server.DB().QueryRow(`SELECT count(*) FROM rounds WHERE committed_at IS NOT NULL`).Scan(&committed)
	if committed != int(n) {
		t.Fatalf("%d rounds committed through the outbox, want %d", committed, n)
	}
}

func waitDrained(t *testing.T, ob link.Outbox) {
	t.Helper()
	poll.Until(t, 20*time.Second, "the outbox to drain", func() bool {
		p, err := ob.Pending(1)
		if err != nil {
			t.Fatal(err)
		}
		return len(p) == 0
	})
}

// waitJackpot waits for a notice with the Magic Stars system pool and Wish
// Upon a Star's fixed Grand at its lowest stake (WS-10: 200 × stake).
func waitJackpot(t *testing.T, c *link.Client) {
	t.Helper()
	ws, err := engine.Lookup(engine.WishStar)
	if err != nil {
		t.Fatal(err)
	}
	low := ws.Stakes()[0]
	deadline := poll.After(10 * time.Second)
	for {
		select {
		case n := <-c.Notices():
			pool, grand := false, false
			for _, v := range n.Jackpots {
				pool = pool || v.Pool == "system" && v.Amount >= 20000
				grand = grand || v.Game == engine.WishStar && v.Tier == "grand" && v.Stake == low && v.Amount == 200*low
			}
			if pool && grand {
				return
			}
		case <-deadline:
			t.Fatal("no system pool and Wish Upon a Star Grand on the stream")
		}
	}
}

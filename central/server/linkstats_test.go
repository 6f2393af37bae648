package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
	"github.com/polaris-vlt/polaris/internal/poll"
)

func linkOf(t *testing.T, s *server.Server, cab string) server.LinkStats {
	t.Helper()
	ls, err := s.Links().Link(context.Background(), cab)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// waitLink polls until ok holds for cab's link statistics (a stream opens
// in the background).
func waitLink(t *testing.T, s *server.Server, cab string, what string, ok func(server.LinkStats) bool) server.LinkStats {
	t.Helper()
	var ls server.LinkStats
	poll.Until(t, 10*time.Second, what, func() bool { ls = linkOf(t, s, cab); return ok(ls) },
		func() string { return fmt.Sprintf("%+v", ls) })
	return ls
}

// The link statistics over real gRPC and TLS: the stream's start on the
// injected clock, the Hello's version and clock offset in the store (kept
// over a restart), the last request, rounds of the last hour, refusals of
// the last 24 h by reason (the node's memory: gone after 24 h and after a
// restart) and alarms of the last 24 h (the store).
func TestLinkStats(t *testing.T) {
	e := testenv.Start(t, func(cfg *server.Config) { cfg.NodeID = "node-a" })
	// The server's clock a day after the machine's: a stream start read
	// from the real clock is a day off.
	e.Clock.Advance(24 * time.Hour)
	c := e.Client("CAB-1", func(cfg *link.Config) {
		cfg.Clock, cfg.Version = e.Clock.Ahead(1500*time.Millisecond), "polaris 1.4.0-test"
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if ls := linkOf(t, e.Server, "CAB-1"); ls.Connected || ls.HelloAt != 0 || ls.LastKind != "" {
		t.Fatalf("before any call: %+v", ls)
	}
	opened := e.Clock.Now()
	go c.Run(ctx)
	// The stream's row is written after the stream is registered and
	// after the Hello: wait for all three, the assertion's whole input.
	ls := waitLink(t, e.Server, "CAB-1", "the stream open, its start stored and the Hello stored", func(ls server.LinkStats) bool {
		return ls.Connected && ls.HelloAt != 0 && ls.StreamAt != 0
	})
	if !ls.Since.Equal(opened) || ls.StreamAt != opened.UnixNano() || ls.StreamNode != "node-a" {
		t.Fatalf("stream since %v (stored %d on %q), want %v on node-a", ls.Since, ls.StreamAt, ls.StreamNode, opened)
	}
	if ls.Software != "polaris 1.4.0-test" || ls.OffsetNanos != int64(1500*time.Millisecond) || ls.HelloNode != "node-a" || ls.HelloAt != opened.UnixNano() {
		t.Fatalf("hello: %+v", ls)
	}

	// Two rounds, an hour, one round: one in the last hour.
	for n := uint64(1); n <= 3; n++ {
		if n == 3 {
			e.Clock.Advance(61 * time.Minute)
		}
		if _, err := c.RequestOutcome(ctx, n, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
			t.Fatal(err)
		}
		if err := c.CommitOutcome(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	ls = linkOf(t, e.Server, "CAB-1")
	if ls.Rounds1h != 1 || ls.LastKind != "CommitOutcome" || !ls.LastRequest.Equal(e.Clock.Now()) {
		t.Fatalf("after 3 rounds: rounds in the last hour %d, last %q at %v", ls.Rounds1h, ls.LastKind, ls.LastRequest)
	}

	// A refusal by reason; a mismatched meter report is an alarm.
	if err := e.Server.Cabinets().Disable(ctx, "CAB-1", "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RequestOutcome(ctx, 4, testenv.GameID, testenv.TheGame.ModelID(), 5); link.Refusal(err) != refusal.CabinetDisabled {
		t.Fatalf("disabled cabinet's round: %v", err)
	}
	ls = linkOf(t, e.Server, "CAB-1")
	if ls.Refusals24h[string(refusal.CabinetDisabled)] != 1 || ls.LastKind != "RequestOutcome" {
		t.Fatalf("refusals %v, last %q", ls.Refusals24h, ls.LastKind)
	}
	if _, err := e.Server.DB().Exec(`INSERT INTO alarms(cabinet, at, reason, text) VALUES('CAB-1', ?, 'TEST_ALARM', 'x'), ('CAB-1', ?, 'OLD_ALARM', 'x')`,
		e.Clock.Now().UnixNano(), e.Clock.Now().Add(-25*time.Hour).UnixNano()); err != nil {
		t.Fatal(err)
	}
	ls = linkOf(t, e.Server, "CAB-1")
	if len(ls.Alarms24h) != 1 || ls.Alarms24h["TEST_ALARM"] != 1 {
		t.Fatalf("alarms of 24 h: %v", ls.Alarms24h)
	}
	e.Clock.Advance(25 * time.Hour)
	if ls = linkOf(t, e.Server, "CAB-1"); len(ls.Refusals24h) != 0 || len(ls.Alarms24h) != 0 || ls.Rounds1h != 0 {
		t.Fatalf("25 h later: refusals %v, alarms %v, rounds %d", ls.Refusals24h, ls.Alarms24h, ls.Rounds1h)
	}

	// A restart: the Hello is the store's, the last request the old node's.
	cancel()
	e.Restart()
	ls = linkOf(t, e.Server, "CAB-1")
	if ls.Connected || ls.LastKind != "" || ls.Software != "polaris 1.4.0-test" || ls.HelloAt != opened.UnixNano() {
		t.Fatalf("after a restart: %+v", ls)
	}
}

// Two nodes on one PostgreSQL: what a cabinet told node A is seen on node
// B; the stream open now and the last request are A's own.
func TestLinkStatsTwoNodes(t *testing.T) {
	cl := pgcluster.ForTest(t)
	url, err := cl.CreateDatabase("linkstats")
	if err != nil {
		t.Fatal(err)
	}
	e := testenv.Start(t, func(cfg *server.Config) { cfg.DBPath, cfg.NodeID = url, "node-a" })
	b, _ := e.SecondNode(func(cfg *server.Config) { cfg.NodeID = "node-b" })
	c := e.Client("CAB-1", func(cfg *link.Config) { cfg.Version = "polaris 1.4.0-test" })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	waitLink(t, e.Server, "CAB-1", "the stream open on node A, its start and the Hello stored", func(ls server.LinkStats) bool {
		return ls.Connected && ls.HelloAt != 0 && ls.StreamAt != 0
	})
	if _, err := c.RequestOutcome(ctx, 1, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
		t.Fatal(err)
	}
	ls := linkOf(t, b, "CAB-1")
	if ls.Node != "node-b" || ls.HelloNode != "node-a" || ls.StreamNode != "node-a" || ls.Software != "polaris 1.4.0-test" || ls.Rounds1h != 1 {
		t.Fatalf("node B's view: %+v", ls)
	}
	if ls.Connected || ls.LastKind != "" {
		t.Fatalf("node B claims A's stream or request: %+v", ls)
	}
}

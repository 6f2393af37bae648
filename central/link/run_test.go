package link_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/link/sqliteoutbox"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/poll"
)

func waitState(t *testing.T, c *link.Client, want link.State) {
	t.Helper()
	deadline := poll.After(15 * time.Second)
	for {
		select {
		case ev := <-c.States():
			if ev.Refused != nil {
				t.Fatalf("outbox message refused: %v", ev.Err)
			}
			if ev.State == want {
				return
			}
		case <-deadline:
			t.Fatalf("link never went %s", want)
		}
	}
}

func waitNotice(t *testing.T, c *link.Client, ok func(link.Notice) bool) link.Notice {
	t.Helper()
	deadline := poll.After(10 * time.Second)
	for {
		select {
		case n := <-c.Notices():
			if ok(n) {
				return n
			}
		case <-deadline:
			t.Fatal("notice never came")
		}
	}
}

// The outbox survives a restart of the cabinet, is drained in order once
// the link is up, and each message is stored once even when sent twice.
func TestOutboxDrainsInOrderOnce(t *testing.T) {
	e := testenv.Start(t, nil)
	path := filepath.Join(t.TempDir(), "outbox.db")
	ob, err := sqliteoutbox.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	c := e.Client("cab-1", nil)
	for n := uint64(1); n <= 3; n++ {
		if _, err := c.RequestOutcome(ctx(t), n, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
			t.Fatal(err)
		}
		if _, err := link.EnqueueCommit(ob, n); err != nil {
			t.Fatal(err)
		}
		if n < 3 { // the next round is drawn only once this one is settled
			if err := c.CommitOutcome(ctx(t), n); err != nil {
				t.Fatal(err)
			}
		}
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	if _, err := link.EnqueueEvents(ob, []link.Event{{Seq: 1, At: at, Kind: "door.open", Text: "main door"}, {Seq: 2, At: at, Kind: "door.closed"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := link.EnqueueMeters(ob, at, []link.Meter{{Name: "coin_in", Value: 15}}); err != nil {
		t.Fatal(err)
	}
	// The cabinet restarts: the outbox is read back from disk.
	ob.Close()
	if ob, err = sqliteoutbox.Open(path); err != nil {
		t.Fatal(err)
	}
	defer ob.Close()
	pend, _ := ob.Pending(100)
	if len(pend) != 5 {
		t.Fatalf("%d messages survived the restart, want 5", len(pend))
	}
	e.Stop() // the link is down while the cabinet drains
	c2 := e.Client("cab-1", func(cfg *link.Config) { cfg.Outbox = ob; cfg.Retries = 1 })
	if err := c2.DrainOutbox(ctx(t)); err == nil {
		t.Fatal("drained with the server down")
	}
	if p, _ := ob.Pending(100); len(p) != 5 {
		t.Fatal("messages were acked without a server")
	}
	e.Restart()
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c2.Run(runCtx)
	poll.Until(t, 15*time.Second, "the outbox drained", func() bool { p, _ := ob.Pending(100); return len(p) == 0 })
	if e.Count("rounds", "committed_at IS NOT NULL") != 3 || e.Count("events", "") != 2 || e.Count("meters", "") != 1 {
		t.Fatal("outbox messages not stored")
	}
	// A message sent again (ack lost) is acknowledged, not stored twice.
	if err := c2.ReportEvents(ctx(t), pend[3].ID, []link.Event{{Seq: 1, At: at, Kind: "door.open"}}); err != nil {
		t.Fatal(err)
	}
	if e.Count("events", "") != 2 {
		t.Fatal("a repeated event batch was stored twice")
	}
	var kinds string
	rows, _ := e.Server.DB().Query(`SELECT kind FROM messages ORDER BY received_at, message_id`)
	for rows.Next() {
		var k string
		rows.Scan(&k)
		kinds += k + " "
	}
	rows.Close()
	if kinds != "events meters " {
		t.Fatalf("messages %q", kinds)
	}
}

// Link state goes up and down with the server; commands and jackpot values
// arrive on the stream; a disabled cabinet draws no new round but gets its
// stored ones.
func TestLinkStateAndCommands(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", nil)
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(runCtx)
	waitState(t, c, link.Up)
	waitNotice(t, c, func(n link.Notice) bool { return n.Hello != nil && n.Hello.Cabinet == "cab-1" })
	waitNotice(t, c, func(n link.Notice) bool { return n.Command != nil && n.Command.Kind == link.CmdEnable })
	waitNotice(t, c, func(n link.Notice) bool { return n.Jackpots != nil })

	first, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CommitOutcome(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := e.Server.Cabinets().Disable(ctx(t), "cab-1", "audit"); err != nil {
		t.Fatal(err)
	}
	n := waitNotice(t, c, func(n link.Notice) bool { return n.Command != nil && n.Command.Kind == link.CmdDisable })
	if n.Command.Reason != "audit" {
		t.Fatalf("disable reason %q", n.Command.Reason)
	}
	if _, err := c.RequestOutcome(ctx(t), 2, testenv.GameID, testenv.TheGame.ModelID(), 5); link.Refusal(err) != refusal.CabinetDisabled {
		t.Fatalf("new round while disabled: %v", err)
	}
	if again, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil || string(again.Body) != string(first.Body) {
		t.Fatalf("stored round while disabled: %v", err)
	}
	e.Server.Links().SendTime()
	waitNotice(t, c, func(n link.Notice) bool { return n.Command != nil && n.Command.Kind == link.CmdTime })

	e.Stop()
	waitState(t, c, link.Down)
	e.Restart()
	waitState(t, c, link.Up)
	// The disable survived the restart and is the first thing the stream says.
	waitNotice(t, c, func(n link.Notice) bool { return n.Command != nil && n.Command.Kind == link.CmdDisable })
	if err := e.Server.Cabinets().Enable(ctx(t), "cab-1"); err != nil {
		t.Fatal(err)
	}
	waitNotice(t, c, func(n link.Notice) bool { return n.Command != nil && n.Command.Kind == link.CmdEnable })
	if _, err := c.RequestOutcome(ctx(t), 2, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
		t.Fatal(err)
	}
}

// A cabinet whose models differ never gets its link up: Run's Hello is refused.
func TestRunRefusesOtherModels(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", func(cfg *link.Config) { cfg.Games = []engine.Game{testenv.WrongModel} })
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(runCtx)
	deadline := poll.After(10 * time.Second)
	for {
		select {
		case ev := <-c.States():
			if ev.State == link.Up {
				t.Fatal("link up with other models")
			}
			if ev.State == link.Down && link.Refusal(ev.Err) == refusal.ModelMismatch {
				return
			}
		case <-deadline:
			t.Fatal("no MODEL_MISMATCH on the state channel")
		}
	}
}

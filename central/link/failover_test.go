package link_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// A cabinet with two central nodes on one PostgreSQL ("a,b"): node A stops
// answering (its replies withheld: the round it drew never reaches the
// cabinet), the cabinet goes on to node B and gets that same round; then B
// stops and A is back, and the cabinet returns to A. Every round, event
// batch and voucher is stored once and is what the cabinet was given.
func TestFailoverBetweenNodes(t *testing.T) {
	cl := pgcluster.ForTest(t)
	url, err := cl.CreateDatabase("failover")
	if err != nil {
		t.Fatal(err)
	}
	e := testenv.Start(t, func(cfg *server.Config) { cfg.DBPath = url })
	b, addrB := e.SecondNode(nil)
	pA := testenv.NewProxy(t, e.Addr)
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Addr = pA.Addr + "," + addrB
		cfg.CallTimeout, cfg.Retries = 700*time.Millisecond, 8
		cfg.Credit = func() (link.CreditMeters, error) {
			return link.CreditMeters{BillsIn: 1_000_000, Credit: 1_000_000}, nil
		}
	})
	bodies := map[uint64][]byte{}
	vouchers := map[uint64]string{}
	play := func(from, to uint64) {
		t.Helper()
		for n := from; n <= to; n++ {
			o, err := c.RequestOutcome(ctx(t), n, testenv.GameID, testenv.TheGame.ModelID(), 10)
			if err != nil {
				t.Fatalf("round %d: %v", n, err)
			}
			bodies[n] = o.Body
			if err := c.ReportEvents(ctx(t), int64(n), []link.Event{{Seq: int64(2*n - 1), At: time.Unix(int64(n), 0), Kind: "k", Text: "a"},
				{Seq: int64(2 * n), At: time.Unix(int64(n), 1), Kind: "k", Text: "b"}}); err != nil {
				t.Fatalf("events %d: %v", n, err)
			}
			if err := c.CommitOutcome(ctx(t), n); err != nil {
				t.Fatalf("commit %d: %v", n, err)
			}
			if n%3 == 0 {
				v, err := c.IssueVoucher(ctx(t), engine.Money(n), n/3)
				if err != nil {
					t.Fatalf("voucher %d: %v", n/3, err)
				}
				vouchers[n/3] = v.Number
			}
		}
	}
	play(1, 10)
	if c.Endpoint() != pA.Addr {
		t.Fatalf("on %s, want node A first", c.Endpoint())
	}
	pA.Hold() // node A draws, stores, and its answers never arrive
	play(11, 20)
	if c.Endpoint() != addrB {
		t.Fatalf("on %s after A stopped answering, want node B", c.Endpoint())
	}
	pA.Cut() // A answers again
	b.Close()
	play(21, 30)
	if c.Endpoint() != pA.Addr {
		t.Fatalf("on %s after B stopped, want node A again", c.Endpoint())
	}
	if n := e.Count("rounds", ""); n != 30 {
		t.Fatalf("%d rounds stored, want 30", n)
	}
	if n := e.Count("rounds", "committed_at IS NULL"); n != 0 {
		t.Fatalf("%d rounds not committed", n)
	}
	for n, want := range bodies {
		if got := storedBody(t, e, "cab-1", n); !bytes.Equal(got, want) {
			t.Fatalf("round %d: the cabinet played other bytes than stored", n)
		}
	}
	if n := e.Count("events", ""); n != 60 {
		t.Fatalf("%d events stored, want 60", n)
	}
	if n := e.Count("vouchers", ""); n != len(vouchers) {
		t.Fatalf("%d vouchers stored, want %d", n, len(vouchers))
	}
	for seq, num := range vouchers {
		if e.Count("vouchers", "number=? AND sequence=?", num, int64(seq)) != 1 {
			t.Fatalf("voucher %d: not the number the cabinet printed", seq)
		}
	}
}

// A cabinet whose home node (first in its list) stops goes on to node B;
// it stays there while A is down (its health probes fail), and returns
// to A, its notice stream with it, within a few probes once A is started
// again. Every round asked on either node is stored once, as played.
func TestReturnsToRestartedHomeNode(t *testing.T) {
	cl := pgcluster.ForTest(t)
	url, err := cl.CreateDatabase("home")
	if err != nil {
		t.Fatal(err)
	}
	e := testenv.Start(t, func(cfg *server.Config) { cfg.DBPath = url })
	b, addrB := e.SecondNode(nil)
	const probe = 100 * time.Millisecond
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Addr = e.Addr + "," + addrB
		cfg.CallTimeout, cfg.HomeProbe = time.Second, probe
	})
	rctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(rctx) }()
	defer func() { stop(); <-done }()
	connected := func(s *server.Server) func() bool { return func() bool { return s.Links().Connected()["cab-1"] } }
	bodies := map[uint64][]byte{}
	play := func(from, to uint64, on string) {
		t.Helper()
		for n := from; n <= to; n++ {
			o, err := c.RequestOutcome(ctx(t), n, testenv.GameID, testenv.TheGame.ModelID(), 10)
			if err != nil {
				t.Fatalf("round %d: %v", n, err)
			}
			if err := c.CommitOutcome(ctx(t), n); err != nil {
				t.Fatalf("commit %d: %v", n, err)
			}
			bodies[n] = o.Body
		}
		if c.Endpoint() != on {
			t.Fatalf("rounds %d–%d on %s, want %s", from, to, c.Endpoint(), on)
		}
	}
	eventually(t, connected(e.Server), "the stream on node A")
	play(1, 5, e.Addr)
	e.Stop()
	play(6, 10, addrB)
	eventually(t, connected(b), "the stream on node B")
	// sleep-ok: ten probe periods with A down (its probes fail, the link stays); the probes run on the client's own clock and nothing counts them
	time.Sleep(10 * probe)
	if c.Endpoint() != addrB || c.Stats().Returns != 0 {
		t.Fatalf("with A down: on %s after %d returns", c.Endpoint(), c.Stats().Returns)
	}
	e.Restart()
	eventually(t, func() bool { return c.Endpoint() == e.Addr }, "the link back on A")
	eventually(t, connected(e.Server), "the stream back on A")
	eventually(t, func() bool { return !connected(b)() }, "the stream on B closed")
	if n := c.Stats().Returns; n != 1 {
		t.Fatalf("%d returns home, want 1", n)
	}
	play(11, 15, e.Addr)
	if n := e.Count("rounds", "committed_at IS NOT NULL"); n != 15 {
		t.Fatalf("%d rounds stored and committed, want 15", n)
	}
	for n, want := range bodies {
		if got := storedBody(t, e, "cab-1", n); !bytes.Equal(got, want) {
			t.Fatalf("round %d: the cabinet played other bytes than stored", n)
		}
	}
}

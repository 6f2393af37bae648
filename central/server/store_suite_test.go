package server_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// storeBackend starts servers on one backend: SQLite (a file per server)
// or PostgreSQL (a database per server in one throwaway cluster).
type storeBackend struct {
	name    string
	cluster *pgcluster.Cluster
	n       int
}

func (b *storeBackend) start(t *testing.T, mod func(*server.Config)) *testenv.Env {
	t.Helper()
	return testenv.Start(t, func(cfg *server.Config) {
		if b.cluster != nil {
			b.n++
			url, err := b.cluster.CreateDatabase(fmt.Sprintf("suite_%d", b.n))
			if err != nil {
				t.Fatal(err)
			}
			cfg.DBPath = url
		}
		if mod != nil {
			mod(cfg)
		}
	})
}

// TestStoreSuite runs the store's rules on both backends: the same tests,
// the same expectations.
func TestStoreSuite(t *testing.T) {
	pg := &storeBackend{name: "postgres", cluster: pgcluster.ForTest(t)}
	for _, b := range []*storeBackend{{name: "sqlite"}, pg} {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range storeCases {
				t.Run(c.name, func(t *testing.T) { c.run(t, b) })
			}
		})
	}
}

func sctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), poll.Scaled(30*time.Second))
	t.Cleanup(cancel)
	return c
}

func credit(bills engine.Money) func(*link.Config) {
	return func(cfg *link.Config) {
		cfg.Credit = func() (link.CreditMeters, error) { return link.CreditMeters{BillsIn: bills, Credit: bills}, nil }
	}
}

var model = testenv.TheGame.ModelID()

var storeCases = []struct {
	name string
	run  func(*testing.T, *storeBackend)
}{
	{"ExactlyOnceAndSequential", func(t *testing.T, b *storeBackend) {
		e := b.start(t, nil)
		c := e.Client("cab-1", nil)
		a, err := c.RequestOutcome(sctx(t), 1, testenv.GameID, model, 10)
		if err != nil {
			t.Fatal(err)
		}
		again, err := c.RequestOutcome(sctx(t), 1, testenv.GameID, model, 10)
		if err != nil || !bytes.Equal(a.Body, again.Body) || !bytes.Equal(a.Signature, again.Signature) {
			t.Fatalf("round asked again: %v, same bytes %v", err, err == nil && bytes.Equal(a.Body, again.Body))
		}
		if _, err := c.RequestOutcome(sctx(t), 1, testenv.GameID, model, 50); link.Refusal(err) != refusal.RoundConflict {
			t.Fatalf("round 1 at another stake: %v", err)
		}
		if _, err := c.RequestOutcome(sctx(t), 2, testenv.GameID, model, 10); link.Refusal(err) != refusal.RoundOpen {
			t.Fatalf("round 2 while 1 is open: %v", err)
		}
		if err := c.CommitOutcome(sctx(t), 1); err != nil {
			t.Fatal(err)
		}
		if _, err := c.RequestOutcome(sctx(t), 1+server.MaxRoundGap+1, testenv.GameID, model, 10); link.Refusal(err) != refusal.RoundSequence {
			t.Fatalf("a round far ahead: %v", err)
		}
		if _, err := c.RequestOutcome(sctx(t), 2, testenv.GameID, model, 10); err != nil {
			t.Fatal(err)
		}
		if n := e.Count("rounds", "cabinet=?", "cab-1"); n != 2 {
			t.Fatalf("%d rounds stored, want 2", n)
		}
		if n := e.Count("rounds", "committed_at IS NOT NULL"); n != 1 {
			t.Fatalf("%d rounds committed, want 1", n)
		}
		// Restarted on the same store: the same bytes.
		e.Restart()
		o, _, last, err := e.Client("cab-1", nil).OpenRound(sctx(t))
		if err != nil || last != 2 || o == nil {
			t.Fatalf("open round after restart: %v, last %d", err, last)
		}
	}},
	{"RiskStepOnce", func(t *testing.T, b *storeBackend) {
		e := b.start(t, nil)
		c := e.Client("cab-1", nil)
		for n := uint64(1); n < 200; n++ {
			o, err := c.RequestOutcome(sctx(t), n, testenv.GameID, model, 10)
			if err != nil {
				t.Fatal(err)
			}
			if o.Result.Total == 0 {
				if err := c.CommitOutcome(sctx(t), n); err != nil {
					t.Fatal(err)
				}
				continue
			}
			r1, err := c.RequestRiskStep(sctx(t), n, 1, engine.Red)
			if err != nil {
				t.Fatal(err)
			}
			r2, err := c.RequestRiskStep(sctx(t), n, 1, engine.Red)
			if err != nil || !bytes.Equal(r1.Body, r2.Body) {
				t.Fatalf("risk step asked again: %v", err)
			}
			if _, err := c.RequestRiskStep(sctx(t), n, 1, engine.Black); link.Refusal(err) != refusal.RiskConflict {
				t.Fatalf("the other choice: %v", err)
			}
			if e.Count("risk_steps", "") != 1 {
				t.Fatal("risk step not stored once")
			}
			return
		}
		t.Fatal("no win in 200 rounds")
	}},
	{"VouchersRedeemedOnce", func(t *testing.T, b *storeBackend) {
		e := b.start(t, nil)
		issuer := e.Client("cab-0", credit(1_000_000))
		const n = 20
		numbers := make([]string, n)
		for i := range numbers {
			v, err := issuer.IssueVoucher(sctx(t), engine.Money(100+i), uint64(i+1))
			if err != nil {
				t.Fatal(err)
			}
			again, err := issuer.IssueVoucher(sctx(t), engine.Money(100+i), uint64(i+1))
			if err != nil || again.Number != v.Number {
				t.Fatalf("voucher issued again: %v", err)
			}
			numbers[i] = v.Number
		}
		wins := make([]int, n)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, c := range []*link.Client{e.Client("cab-1", nil), e.Client("cab-2", nil), e.Client("cab-3", nil)} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i, num := range numbers {
					h, err := c.RedeemVoucher(sctx(t), num)
					if err != nil {
						if r := link.Refusal(err); r != refusal.VoucherHeld && r != refusal.VoucherRedeemed {
							t.Errorf("redeem: %v", err)
						}
						continue
					}
					if err := c.ConfirmRedeem(sctx(t), num, h.Hold, h.Amount); err != nil {
						t.Errorf("confirm: %v", err)
						continue
					}
					mu.Lock()
					wins[i]++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		for i, w := range wins {
			if w != 1 {
				t.Errorf("voucher %d redeemed %d times", i, w)
			}
		}
		if got := e.Count("vouchers", "state='redeemed'"); got != n {
			t.Fatalf("%d redeemed, want %d", got, n)
		}
	}},
	{"CreditMirror", func(t *testing.T, b *storeBackend) {
		e := b.start(t, nil)
		c := e.Client("cab-1", credit(1000))
		if _, err := c.Hello(sctx(t)); err != nil {
			t.Fatal(err)
		}
		o, err := c.RequestOutcome(sctx(t), 1, testenv.GameID, model, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := e.Server.Mirror().Credit(sctx(t), "cab-1")
		// The cabinet says it credited no win (WinsToCredit 0).
		if err != nil || !ok || got != 1000-10 {
			t.Fatalf("mirror %d %v %v, want 990 (round won %d)", got, ok, err, o.Result.Total)
		}
		if _, err := c.IssueVoucher(sctx(t), 991, 1); link.Refusal(err) != refusal.VoucherAboveCredit {
			t.Fatalf("a voucher above the mirror: %v", err)
		}
		if _, err := c.IssueVoucher(sctx(t), 990, 1); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := e.Server.Mirror().Credit(sctx(t), "cab-1"); got != 0 {
			t.Fatalf("mirror after the voucher: %d", got)
		}
	}},
	{"EventsOnce", func(t *testing.T, b *storeBackend) {
		e := b.start(t, nil)
		c := e.Client("cab-1", nil)
		evs := []link.Event{{Seq: 1, At: time.Unix(1, 0), Kind: "door", Text: "open", Data: []byte(`{}`)}, {Seq: 2, At: time.Unix(2, 0), Kind: "door", Text: "closed"}}
		for i := 0; i < 3; i++ {
			if err := c.ReportEvents(sctx(t), 7, evs); err != nil {
				t.Fatal(err)
			}
		}
		if n := e.Count("events", ""); n != 2 {
			t.Fatalf("%d events stored, want 2", n)
		}
	}},
	{"JackpotInTheRoundsTransaction", func(t *testing.T, b *storeBackend) {
		jp := &testenv.Jackpots{HitOneIn: 1000000, Refuse: map[string]bool{"cab-9": true}}
		e := b.start(t, func(cfg *server.Config) { cfg.Jackpots = jp })
		c := e.Client("cab-1", nil)
		for n := uint64(1); n <= 5; n++ {
			if _, err := c.RequestOutcome(sctx(t), n, testenv.GameID, model, 10); err != nil {
				t.Fatal(err)
			}
			if _, err := c.RequestOutcome(sctx(t), n, testenv.GameID, model, 10); err != nil {
				t.Fatal(err)
			}
			if err := c.CommitOutcome(sctx(t), n); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.Client("cab-9", nil).RequestOutcome(sctx(t), 1, testenv.GameID, model, 10); link.Refusal(err) != refusal.Jackpot {
			t.Fatalf("refused by the jackpot: %v", err)
		}
		if e.Count("fake_jackpot", "") != 5 || e.Count("rounds", "") != 5 {
			t.Fatal("contributions are not one per new round")
		}
	}},
	{"NodesStartTogether", nodesStartTogether}, // migrate_test.go
	{"MigrationsOnce", func(t *testing.T, b *storeBackend) {
		e := b.start(t, nil)
		e.Restart()
		if n := e.Count("schema_migrations", ""); n != server.Migrations {
			t.Fatalf("%d migrations recorded, want %d", n, server.Migrations)
		}
	}},
	{"FailsClosed", func(t *testing.T, b *storeBackend) {
		e := b.start(t, nil)
		c := e.Client("cab-1", func(cfg *link.Config) { cfg.Retries = 0 })
		a, err := c.RequestOutcome(sctx(t), 1, testenv.GameID, model, 10)
		if err != nil {
			t.Fatal(err)
		}
		if b.cluster == nil {
			if err := os.Remove(e.DB); err != nil {
				t.Fatal(err)
			}
		} else if err := b.cluster.Kill(); err != nil {
			t.Fatal(err)
		}
		if _, err := c.RequestOutcome(sctx(t), 1, testenv.GameID, model, 10); err == nil || !strings.Contains(err.Error(), string(refusal.StoreFailed)) {
			t.Fatalf("round asked with the store gone: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(2*time.Second))
		defer cancel()
		if err := e.Server.Check(ctx); err == nil {
			t.Fatal("health check passes with the store gone")
		}
		health := healthpb.NewHealthClient(e.Conn("cab-1"))
		if r, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil || r.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
			t.Fatalf("health service with the store gone: %v %v", r, err)
		}
		if b.cluster == nil {
			return // SQLite: broken for good (TestStoreDeletedFailsClosed goes on)
		}
		// PostgreSQL back (restarted, or failed over): the same node
		// serves again, and the round is the one stored.
		if err := b.cluster.StartAgain(); err != nil {
			t.Fatal(err)
		}
		// Asked every 100 ms (each ask a store attempt on the server) until
		// the database serves again.
		var again *link.Outcome
		for deadline := time.Now().Add(poll.Scaled(5 * time.Second)); ; time.Sleep(100 * time.Millisecond) {
			if again, err = c.RequestOutcome(sctx(t), 1, testenv.GameID, model, 10); err == nil || time.Now().After(deadline) {
				break
			}
		}
		if err != nil || !bytes.Equal(a.Body, again.Body) {
			t.Fatalf("round after the database came back: %v", err)
		}
		if r, err := health.Check(sctx(t), &healthpb.HealthCheckRequest{}); err != nil || r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("health service with the database back: %v %v", r, err)
		}
	}},
}

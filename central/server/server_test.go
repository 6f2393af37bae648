package server_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
)

func TestValidationNumbers(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		n, err := server.NewValidationNumber()
		if err != nil {
			t.Fatal(err)
		}
		if len(n) != 18 || !server.ValidNumber(n) || seen[n] {
			t.Fatalf("bad or repeated number %q", n)
		}
		seen[n] = true
		// Any single misread digit is caught by the check digit.
		b := []byte(n)
		b[5] = '0' + (b[5]-'0'+1)%10
		if server.ValidNumber(string(b)) {
			t.Fatalf("%s passes with digit 5 changed", b)
		}
	}
	for _, bad := range []string{"", "12345678901234567", "1234567890123456789", "12345678901234567a"} {
		if server.ValidNumber(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

// BenchmarkRequestOutcome is one new round over loopback mutual TLS to a
// durable store (WAL, synchronous=FULL): request, draw, sign, commit to
// disk, reply, verify; the previous round's commit rides on the request
// (rounds are sequential per cabinet). Parallel: 128 cabinets, the
// store's group commit at work.
func BenchmarkRequestOutcome(b *testing.B) {
	e := testenv.Start(b, nil)
	ob := &link.MemOutbox{}
	c := e.Client("bench-1", func(cfg *link.Config) { cfg.Outbox, cfg.CarryCommits = ob, true })
	ctx := context.Background()
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		if _, err := c.RequestOutcome(ctx, uint64(i), testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
			b.Fatal(err)
		}
		link.EnqueueCommit(ob, uint64(i))
	}
}

func BenchmarkRequestOutcomeParallel(b *testing.B) {
	benchRoundsParallel(b, testenv.Start(b, nil))
}

// benchRoundsParallel: 128 cabinets of e asking for their next round at
// once, each round's commit carried by the next request.
func benchRoundsParallel(b *testing.B, e *testenv.Env) {
	const cabinets = 128
	clients := make([]*link.Client, cabinets)
	outboxes := make([]*link.MemOutbox, cabinets)
	for i := range clients {
		outboxes[i] = &link.MemOutbox{}
		clients[i] = e.Client(fmt.Sprintf("bench-%d", i), func(cfg *link.Config) { cfg.Outbox, cfg.CarryCommits = outboxes[i], true })
	}
	ctx := context.Background()
	var next atomic.Int32
	b.SetParallelism(cabinets / runtime.GOMAXPROCS(0))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		k := int(next.Add(1)-1) % cabinets
		c, ob := clients[k], outboxes[k]
		for n := uint64(1); pb.Next(); n++ {
			if _, err := c.RequestOutcome(ctx, n, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
				b.Error(err)
				return
			}
			link.EnqueueCommit(ob, n)
		}
	})
}

func BenchmarkRequestOutcomeRepeat(b *testing.B) {
	e := testenv.Start(b, nil)
	c := e.Client("bench-1", nil)
	ctx := context.Background()
	if _, err := c.RequestOutcome(ctx, 1, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.RequestOutcome(ctx, 1, testenv.GameID, testenv.TheGame.ModelID(), 5); err != nil {
			b.Fatal(err)
		}
	}
}

// A request carrying more settled rounds than allowed is refused whole:
// no round drawn, nothing committed.
func TestTooManySettledRefused(t *testing.T) {
	e := testenv.Start(t, nil)
	api := pb.NewCentralClient(e.Conn("cab-1"))
	ctx := context.Background()
	req := &pb.OutcomeRequest{Round: 1, Game: string(testenv.GameID), ModelId: testenv.TheGame.ModelID(), Stake: 5}
	if _, err := api.RequestOutcome(ctx, req); err != nil {
		t.Fatal(err)
	}
	req.Round = 2
	for k := uint64(0); k < 65; k++ {
		req.Settled = append(req.Settled, 1)
	}
	_, err := api.RequestOutcome(ctx, req)
	if status.Code(err) != codes.InvalidArgument || !strings.HasPrefix(status.Convert(err).Message(), string(refusal.BadRequest)) {
		t.Fatalf("65 settled rounds: %v", err)
	}
	if e.Count("rounds", "") != 1 || e.Count("rounds", "committed_at IS NOT NULL") != 0 {
		t.Fatal("a refused request changed the store")
	}
	req.Settled = req.Settled[:64]
	rep, err := api.RequestOutcome(ctx, req)
	if err != nil || len(rep.GetCommitted()) != 64 || e.Count("rounds", "committed_at IS NOT NULL") != 1 {
		t.Fatalf("64 settled rounds: %v, committed %v", err, rep.GetCommitted())
	}
}

func TestCheck(t *testing.T) {
	e := testenv.Start(t, nil)
	if err := e.Server.Check(context.Background()); err != nil {
		t.Fatalf("healthy server: %v", err)
	}
	e.Stop()
	if err := e.Server.Check(context.Background()); err == nil {
		t.Fatal("a closed server passes its check")
	}
}

// The standard health service answers for the node and for Central
// (SERVING while Check passes; FailsClosed has NOT_SERVING with the store
// gone), and NOT_FOUND for a service the node does not have.
func TestHealthService(t *testing.T) {
	e := testenv.Start(t, nil)
	h := healthpb.NewHealthClient(e.Conn("cab-1"))
	for _, svc := range []string{"", pb.Central_ServiceDesc.ServiceName} {
		r, err := h.Check(context.Background(), &healthpb.HealthCheckRequest{Service: svc})
		if err != nil || r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("health of %q on a healthy node: %v %v", svc, r, err)
		}
	}
	if _, err := h.Check(context.Background(), &healthpb.HealthCheckRequest{Service: "polaris.other"}); status.Code(err) != codes.NotFound {
		t.Fatalf("health of an unknown service: %v", err)
	}
}

// rawCodec sends bytes as they are: a client that sends garbage.
type rawCodec struct{}

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(v.([]byte))}, nil
}
func (rawCodec) Unmarshal(mem.BufferSlice, any) error { return nil }
func (rawCodec) Name() string                         { return "proto" }

// Undecodable input is INVALID_ARGUMENT (not INTERNAL), nothing stored.
func TestUndecodableRequestInvalidArgument(t *testing.T) {
	e := testenv.Start(t, nil)
	conn := e.Conn("cab-1")
	var out []byte
	// Hello: an empty request would be a valid one.
	for _, m := range []string{"Hello", "RequestOutcome", "IssueVoucher", "ReportEvents"} {
		err := conn.Invoke(context.Background(), "/polaris.central.v1.Central/"+m, []byte{0x0a, 0xff, 0xff, 0xff, 0xff}, &out, grpc.ForceCodecV2(rawCodec{}))
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), string(refusal.BadRequest)) {
			t.Errorf("%s with garbage: %v", m, err)
		}
	}
	if e.Count("rounds", "") != 0 || e.Count("vouchers", "") != 0 || e.Count("messages", "") != 0 {
		t.Fatal("garbage stored something")
	}
}

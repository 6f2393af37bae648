package link

import (
	"context"
	"errors"

	pb "github.com/polaris-vlt/polaris/central/proto"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// homeAnswers is how many SERVING answers in a row take the link home: a
// node that starts, answers once and fails again (a crash loop) does not
// pull its cabinets back and forth.
const homeAnswers = 2

// errMoved ends a notice stream whose node the link left on purpose (it
// went home): not a failure, the stream opens again at once on the new one.
var errMoved = errors.New("link: moved to the home node")

// ReturnHome probes the home node (endpoint 0) every HomeProbe, spread
// per cabinet, while the link is on another, and goes home after
// homeAnswers SERVING answers in a row, until ctx ends. Run runs it; a
// caller that makes its calls without Run (the load harness) runs it
// itself. Every call is idempotent and the nodes share one store, so a
// call in flight on the old node and the next one on the home node are
// answered as on one node.
func (c *Client) ReturnHome(ctx context.Context) {
	if len(c.eps) < 2 || c.cfg.HomeProbe < 0 {
		return
	}
	up := 0
	for i := 1; c.sleep(ctx, c.cfg.HomeProbe/2+jitter(c.cfg.Cabinet, i, c.cfg.HomeProbe)); i++ {
		from := c.cur.Load()
		if from == 0 {
			up = 0
			continue
		}
		if !c.homeServing(ctx) {
			up = 0
			continue
		}
		if up++; up < homeAnswers {
			continue
		}
		up = 0
		c.goHome(from)
	}
}

// homeServing asks the home node's health service whether it can do its
// work (its store answers: server.Check).
func (c *Client) homeServing(ctx context.Context) bool {
	hctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	r, err := healthpb.NewHealthClient(c.eps[0].conn).Check(hctx, &healthpb.HealthCheckRequest{Service: pb.Central_ServiceDesc.ServiceName})
	return err == nil && r.GetStatus() == healthpb.HealthCheckResponse_SERVING
}

// goHome moves the link from endpoint from to the home node (unless a
// failover moved it meanwhile) and ends the notice stream on the old one,
// which opens again, with its Hello, on the home node.
func (c *Client) goHome(from int32) {
	if !c.cur.CompareAndSwap(from, 0) {
		return
	}
	c.slow[0].Store(0)
	c.mu.Lock()
	c.stats.Returns++
	moved := c.moved
	c.mu.Unlock()
	if moved != nil {
		moved()
	}
}

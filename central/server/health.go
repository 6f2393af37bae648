package server

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	pb "github.com/polaris-vlt/polaris/central/proto"
)

// healthTimeout bounds the store's probe behind one health answer.
const healthTimeout = time.Second

// healthService is the standard gRPC health service (grpc.health.v1) for
// the Central service and the node as a whole (""): SERVING while Check
// passes. A cabinet that failed over away from its home node asks it
// before going back (link.Config.HomeProbe); a node that is up but whose
// store is gone says NOT_SERVING and keeps no cabinet. Callers that
// arrive while a probe is under way share its answer, so many probing
// cabinets cost the store a probe at a time.
type healthService struct {
	healthpb.UnimplementedHealthServer
	s *Server

	mu      sync.Mutex
	running chan struct{} // closed when the probe under way ends
	last    healthpb.HealthCheckResponse_ServingStatus
}

func (h *healthService) Check(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	if svc := req.GetService(); svc != "" && svc != pb.Central_ServiceDesc.ServiceName {
		return nil, status.Errorf(codes.NotFound, "no service %q here", svc)
	}
	h.mu.Lock()
	wait := h.running
	if wait == nil {
		wait = make(chan struct{})
		h.running = wait
		go h.probe(wait)
	}
	h.mu.Unlock()
	select {
	case <-wait:
	case <-ctx.Done():
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return &healthpb.HealthCheckResponse{Status: h.last}, nil
}

// probe runs one Check and publishes its answer to the waiting callers.
func (h *healthService) probe(done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), healthTimeout)
	err := h.s.Check(ctx)
	cancel()
	st := healthpb.HealthCheckResponse_SERVING
	if err != nil {
		st = healthpb.HealthCheckResponse_NOT_SERVING
	}
	h.mu.Lock()
	h.last, h.running = st, nil
	h.mu.Unlock()
	close(done)
}

package server

import (
	"context"
	"log/slog"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers "proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/peer"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// Undecodable input is INVALID_ARGUMENT (gRPC itself answers INTERNAL, as
// if the server had failed): the codec lets a message that does not
// decode through empty and remembers it; the interceptors refuse it
// before any handler sees it, and log it with the peer.
type strictCodec struct {
	encoding.CodecV2
	bad *sync.Map // message -> decoding error
}

func (c strictCodec) Unmarshal(data mem.BufferSlice, v any) error {
	if err := c.CodecV2.Unmarshal(data, v); err != nil {
		c.bad.Store(v, err)
	}
	return nil
}

// checks are the interceptors every call goes through: the refusal of an
// undecodable message, and the link statistics' note of the call.
type checks struct {
	log   *slog.Logger
	bad   sync.Map // undecodable requests (strictCodec)
	links *Links
}

func (s *checks) undecodable(ctx context.Context, m any) error {
	e, ok := s.bad.LoadAndDelete(m)
	if !ok {
		return nil
	}
	who := "unknown"
	if p, ok := peer.FromContext(ctx); ok {
		who = p.Addr.String()
	}
	s.log.Warn("undecodable request refused", "peer", who, "err", e)
	return refuse(codes.InvalidArgument, refusal.BadRequest, "undecodable message: %v", e)
}

func (s *checks) unaryCheck(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	if err := s.undecodable(ctx, req); err != nil {
		s.links.noteCall(ctx, info.FullMethod, err)
		return nil, err
	}
	reply, err := h(ctx, req)
	s.links.noteCall(ctx, info.FullMethod, err)
	return reply, err
}

type checkedStream struct {
	grpc.ServerStream
	s *checks
}

func (c checkedStream) RecvMsg(m any) error {
	if err := c.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return c.s.undecodable(c.Context(), m)
}

func (s *checks) streamCheck(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	s.links.noteCall(ss.Context(), info.FullMethod, nil) // a stream's start is its request
	return h(srv, checkedStream{ServerStream: ss, s: s})
}

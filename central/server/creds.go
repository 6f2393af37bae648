package server

import (
	"net"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc/credentials"
)

// refusingCreds wraps the TLS credentials to log and count refused
// handshakes (an unknown or expired cabinet certificate): with TLS 1.3 the
// cabinet often sees only a closed connection, so the clear reason is here.
type refusingCreds struct {
	credentials.TransportCredentials
	s *Server
}

func (c refusingCreds) ServerHandshake(conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	nc, ai, err := c.TransportCredentials.ServerHandshake(conn)
	if err != nil {
		c.s.refused.note(err)
		c.s.log.Warn("TLS handshake refused", "peer", conn.RemoteAddr().String(), "err", err)
	}
	return nc, ai, err
}

func (c refusingCreds) Clone() credentials.TransportCredentials {
	return refusingCreds{TransportCredentials: c.TransportCredentials.Clone(), s: c.s}
}

type refusals struct {
	n    atomic.Int64
	mu   sync.Mutex
	last error
}

func (r *refusals) note(err error) {
	r.n.Add(1)
	r.mu.Lock()
	r.last = err
	r.mu.Unlock()
}

// HandshakeRefusals returns how many TLS handshakes the server refused and
// the last reason.
func (s *Server) HandshakeRefusals() (int64, error) {
	s.refused.mu.Lock()
	defer s.refused.mu.Unlock()
	return s.refused.n.Load(), s.refused.last
}

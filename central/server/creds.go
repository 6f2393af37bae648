package server

import (
	"log/slog"
	"net"
	"sync"

	"google.golang.org/grpc/credentials"
)

// refusingCreds wraps the TLS credentials to log and count refused
// handshakes (an unknown or expired cabinet certificate): with TLS 1.3 the
// cabinet often sees only a closed connection, so the clear reason is here.
type refusingCreds struct {
	credentials.TransportCredentials
	links *Links
}

func (c refusingCreds) ServerHandshake(conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	nc, ai, err := c.TransportCredentials.ServerHandshake(conn)
	if err != nil {
		c.links.refused.note(err)
		c.links.log.Warn("TLS handshake refused", "peer", conn.RemoteAddr().String(), "err", err)
	}
	return nc, ai, err
}

func (c refusingCreds) Clone() credentials.TransportCredentials {
	return refusingCreds{TransportCredentials: c.TransportCredentials.Clone(), links: c.links}
}

// limitListener serves at most n connections at once: Accept waits for a
// slot (the kernel's backlog holds the rest), and says so in the log.
type limitListener struct {
	net.Listener
	log    *slog.Logger
	slots  chan struct{}
	closed chan struct{}
	once   sync.Once
}

func (l *limitListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// limit serves at most n connections of l at once (0: DefaultMaxConns).
func limit(l net.Listener, n int, log *slog.Logger) net.Listener {
	if n <= 0 {
		n = DefaultMaxConns
	}
	return &limitListener{Listener: l, log: log, slots: make(chan struct{}, n), closed: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		l.log.Warn("connection limit reached: new connections wait", "limit", cap(l.slots))
		select {
		case l.slots <- struct{}{}:
		case <-l.closed:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

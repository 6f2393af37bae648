package link

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/engine"
)

// Clock is the client's time: Now for stamps, After for backoff waits.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Config configures a Client.
type Config struct {
	// Addr is host:port of the central system, or several central nodes
	// "a:1,b:2,c:3" (one PostgreSQL behind them): the client stays on one
	// until a call to it fails for want of a link (no answer, a deadline,
	// UNAVAILABLE: a node stopped, or its database unreachable), then goes
	// on to the next. Every call is idempotent and the nodes share one
	// store, so a call repeated on another node is answered as the first
	// would have been: nothing is lost or doubled in the switch.
	Addr string
	TLS  *tls.Config // the cabinet's certificate and the CA (pki.CabinetTLSDir)
	// Cabinet is this cabinet's id; empty means the CN of the TLS
	// certificate. Bodies for any other cabinet are refused.
	Cabinet    string
	SigningKey ed25519.PublicKey // the central system's body-signing key
	Games      []engine.Game     // offered in Hello; nil means engine.Games()
	Outbox     Outbox            // drained by Run; may be nil
	// CarryCommits lets RequestOutcome carry the commits waiting in Outbox
	// (OutcomeRequest.settled) and acknowledge the ones the central system
	// recorded: a round then costs one call, not two. Run still drains
	// whatever is left (PROTOCOL.md, "Commits carried by the next request").
	CarryCommits bool
	// CallTimeout bounds each attempt of a call (default 5 s); Retries is
	// how many times a failed attempt is repeated (default 4), waiting
	// Backoff (default 100 ms) doubled each time up to MaxBackoff (2 s).
	CallTimeout time.Duration
	Retries     int
	Backoff     time.Duration
	MaxBackoff  time.Duration
	Clock       Clock
	// HomeProbe is how often a client that failed over away from its home
	// node (the first in Addr: each cabinet's list names its own first)
	// asks that node's health (grpc.health.v1), while Run runs; it goes
	// back after two SERVING answers in a row (default 30 s, spread per
	// cabinet; negative: never). Without it a node's cabinets stay on the
	// others after its restart, and the load with them.
	HomeProbe time.Duration
	// Dialer replaces the TCP dial (tests put a proxy in between).
	Dialer func(ctx context.Context, addr string) (net.Conn, error)
	// Version is the software version sent in Hello.
	Version string
	// Credit reads the cabinet's credit meters, sent with every
	// IssueVoucher and Hello for the central system's credit mirror. Nil:
	// Outbox's, if it is a CreditSource (the cabinet's ledger is);
	// without either the central system issues no voucher.
	Credit func() (CreditMeters, error)
}

// CreditMeters are the cabinet's cumulative meters the central system's
// credit mirror needs (PROTOCOL.md, "The credit mirror"), and its credit.
type CreditMeters struct {
	Base, BillsIn, WinsToCredit, HandpayCancelled, Credit engine.Money
	// Unprinted are the sequences of vouchers issued but never printed
	// (the newest MaxUnprinted): the central system voids them.
	Unprinted []uint64
	// VoucherRequested is the amount of a voucher the cabinet asked for
	// and has no number of yet (0: none): whether the central system
	// issued it, and counted it out of the mirror, is unknown until it is
	// asked again, so Hello sends no meters meanwhile (its credit cannot
	// be compared either way); IssueVoucher sends them (the central system
	// books the meters there, it does not compare the credit).
	VoucherRequested engine.Money
	// TicketsToConfirm is the amount of tickets the cabinet credited and
	// has not yet confirmed (ConfirmRedeem; a power cut between the two):
	// the central system books a ticket into the mirror at its confirm, so
	// Hello sends no meters meanwhile either.
	TicketsToConfirm engine.Money
}

// MaxUnprinted bounds CreditMeters.Unprinted.
const MaxUnprinted = 16

// CreditSource is an Outbox that can also read the credit meters.
type CreditSource interface {
	CreditMeters() (CreditMeters, error)
}

// Client is the cabinet's connection to the central system. Calls are safe
// from any goroutine; every call is idempotent, so retrying is safe.
type Client struct {
	cfg     Config
	eps     []endpoint
	cur     atomic.Int32   // the endpoint in use
	slow    []atomic.Int32 // per endpoint: calls timed out in a row
	states  chan StateEvent
	notices chan Notice
	kick    chan struct{}

	mu     sync.Mutex
	state  State
	acking map[int64]bool // carried commits recorded, their Ack under way
	moved  func()         // ends the notice stream (set while one is open)
	acks   sync.WaitGroup // those Acks
	stats  Stats          // Stats; its State and endpoints are read live
}

// Dial prepares a client; the connection is made on first use and remade
// after a failure.
func Dial(cfg Config) (*Client, error) {
	if cfg.TLS == nil {
		return nil, errors.New("link: no TLS configuration")
	}
	if len(cfg.SigningKey) != ed25519.PublicKeySize {
		return nil, errors.New("link: no Ed25519 key to verify bodies with")
	}
	if cfg.Cabinet == "" {
		if len(cfg.TLS.Certificates) == 0 || len(cfg.TLS.Certificates[0].Certificate) == 0 {
			return nil, errors.New("link: no cabinet certificate")
		}
		leaf, err := x509.ParseCertificate(cfg.TLS.Certificates[0].Certificate[0])
		if err != nil {
			return nil, fmt.Errorf("link: cabinet certificate: %w", err)
		}
		cfg.Cabinet = leaf.Subject.CommonName
	}
	if cfg.Games == nil {
		cfg.Games = engine.Games()
	}
	if cs, ok := cfg.Outbox.(CreditSource); ok && cfg.Credit == nil {
		cfg.Credit = cs.CreditMeters
	}
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = 5 * time.Second
	}
	if cfg.Retries == 0 {
		cfg.Retries = 4
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 100 * time.Millisecond
	}
	if cfg.MaxBackoff == 0 {
		cfg.MaxBackoff = 2 * time.Second
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	if cfg.HomeProbe == 0 {
		cfg.HomeProbe = 30 * time.Second
	}
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(credentials.NewTLS(cfg.TLS)),
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 50 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: cfg.MaxBackoff},
			MinConnectTimeout: cfg.CallTimeout,
		}),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 10 * time.Second, Timeout: 5 * time.Second, PermitWithoutStream: true}),
		// Fixed windows: no bandwidth-delay PINGs after every reply.
		grpc.WithInitialWindowSize(1 << 20),
		grpc.WithInitialConnWindowSize(1 << 20),
	}
	if cfg.Dialer != nil {
		opts = append(opts, grpc.WithContextDialer(cfg.Dialer))
	}
	addrs, err := Endpoints(cfg.Addr)
	if err != nil {
		return nil, err
	}
	c := &Client{
		cfg:    cfg,
		states: make(chan StateEvent, 64), notices: make(chan Notice, 64), kick: make(chan struct{}, 1),
		acking: map[int64]bool{},
	}
	firstHost, _, _ := net.SplitHostPort(addrs[0])
	for _, a := range addrs {
		o := opts
		// A TLS name taken from the first address (the usual way) is
		// each node's own host name for the others.
		if h, _, _ := net.SplitHostPort(a); len(addrs) > 1 && cfg.TLS.ServerName == firstHost && h != firstHost {
			t := cfg.TLS.Clone()
			t.ServerName = h
			o = append(append([]grpc.DialOption{}, opts...), grpc.WithTransportCredentials(credentials.NewTLS(t)))
		}
		conn, err := grpc.NewClient("passthrough:///"+a, o...)
		if err != nil {
			c.closeConns()
			return nil, fmt.Errorf("link: %s: %w", a, err)
		}
		c.eps = append(c.eps, endpoint{addr: a, conn: conn, api: pb.NewCentralClient(conn)})
	}
	c.slow = make([]atomic.Int32, len(c.eps))
	return c, nil
}

// endpoint is one central node.
type endpoint struct {
	addr string
	conn *grpc.ClientConn
	api  pb.CentralClient
}

// Endpoints splits a Config.Addr list ("a:1,b:2") and checks each is
// host:port.
func Endpoints(list string) ([]string, error) {
	var out []string
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(a); err != nil {
			return nil, fmt.Errorf("link: central address %q: %w", a, err)
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, errors.New("link: no central address")
	}
	return out, nil
}

// rpc is the endpoint in use and its index (for failover).
func (c *Client) rpc() (pb.CentralClient, int32) {
	i := c.cur.Load()
	return c.eps[i].api, i
}

// slowLimit is how many calls in a row may time out on a node before the
// link moves on. A node that refuses or drops the connection is left at
// once; one that answers late is loaded, not gone, and a thousand cabinets
// leaving it at their first late answer carry its load to the next node,
// which then answers late too (the storm the failover-under-load run saw).
const slowLimit = 2

// failover moves on from endpoint i to the next (if no other call did);
// after a time-out (code DeadlineExceeded) only at the slowLimit-th in a row.
func (c *Client) failover(i int32, code codes.Code) {
	if len(c.eps) < 2 {
		return
	}
	if code == codes.DeadlineExceeded && c.slow[i].Add(1) < slowLimit {
		return
	}
	c.slow[i].Store(0)
	c.cur.CompareAndSwap(i, (i+1)%int32(len(c.eps)))
}

// Endpoint is the address of the central node in use.
func (c *Client) Endpoint() string { return c.eps[c.cur.Load()].addr }

func (c *Client) closeConns() error {
	var first error
	for _, e := range c.eps {
		if err := e.conn.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Close hangs up, once the acknowledgements of carried commits are done.
func (c *Client) Close() error {
	c.acks.Wait()
	return c.closeConns()
}

// Cabinet is the id bodies must carry.
func (c *Client) Cabinet() string { return c.cfg.Cabinet }

// RefusedError is the central system's clear refusal of a request: retrying
// it will not help. Reason is a stable code such as "VOUCHER_EXPIRED".
type RefusedError struct {
	Code    codes.Code
	Reason  string
	Message string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("link: refused (%s): %s", e.Code, e.Message)
}

// UnavailableError says the call failed on every attempt for want of a link.
type UnavailableError struct {
	Attempts int
	Err      error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("link: central system unreachable after %d attempts: %v", e.Attempts, e.Err)
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// Reason returns the refusal reason of err, or "".
func Reason(err error) string { return string(Refusal(err)) }

// Refusal returns the refusal reason of err, or "".
func Refusal(err error) refusal.Reason {
	var r *RefusedError
	if errors.As(err, &r) {
		return refusal.Reason(r.Reason)
	}
	return ""
}

func transient(code codes.Code) bool {
	switch code {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Aborted, codes.Canceled:
		return true
	}
	return false
}

func toRefused(st *status.Status) *RefusedError {
	r := &RefusedError{Code: st.Code(), Message: st.Message()}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			r.Reason = info.GetReason()
		}
	}
	return r
}

// call runs one RPC attempt after another: a deadline per attempt, a
// bounded number of retries of transport failures with doubling backoff.
func (c *Client) call(ctx context.Context, name string, fn func(ctx context.Context) error) error {
	return c.callN(ctx, name, c.cfg.Retries, fn)
}

func (c *Client) callN(ctx context.Context, name string, retries int, fn func(ctx context.Context) error) error {
	wait := c.cfg.Backoff
	var last error
	attempts := 0
	for attempts <= retries {
		attempts++
		actx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
		_, ep := c.rpc()
		began := c.cfg.Clock.Now()
		err := fn(actx)
		cancel()
		if err == nil {
			c.slow[ep].Store(0)
			c.measured(name, c.cfg.Clock.Now().Sub(began))
			c.setState(Up, nil)
			return nil
		}
		st, _ := status.FromError(err)
		if ctx.Err() != nil {
			return fmt.Errorf("link: %s: %w", name, ctx.Err())
		}
		if !transient(st.Code()) {
			// A refusal proves a link but not a usable one (e.g. other
			// models): the state is left as it is.
			return toRefused(st)
		}
		last = err
		c.attemptFailed()
		c.setState(Down, err)
		c.failover(ep, st.Code())
		if attempts > retries {
			break
		}
		// Jitter spreads the retries of many cabinets after an outage.
		d := wait/2 + jitter(c.cfg.Cabinet, attempts, wait/2+1)
		select {
		case <-c.cfg.Clock.After(d):
		case <-ctx.Done():
			return fmt.Errorf("link: %s: %w", name, ctx.Err())
		}
		if wait *= 2; wait > c.cfg.MaxBackoff {
			wait = c.cfg.MaxBackoff
		}
	}
	return &UnavailableError{Attempts: attempts, Err: last}
}

// api is the endpoint in use.
func (c *Client) api() pb.CentralClient {
	a, _ := c.rpc()
	return a
}

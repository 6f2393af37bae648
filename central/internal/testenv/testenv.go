// Package testenv is the central link's test bench: a development PKI in a
// temporary directory, a real server on loopback with a real SQLite store, a
// settable clock, a fake game registered with the engine, clients with
// their own certificates, and a TCP proxy that can cut a connection.
package testenv

import (
	"context"
	"crypto/ed25519"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
)

// Clock is a settable clock, safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock starts at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Game is a small fake game: one draw of range 4 (a win of 3×stake on 0
// or 1), one draw of range 7 for show. Risk is allowed up to 1000.
type Game struct{ Model string }

const GameID engine.GameID = "testgame"

// TheGame is registered with the engine as "testgame".
var TheGame = &Game{Model: "test-model-1"}

func init() { engine.Register(TheGame) }

func (g *Game) ID() engine.GameID      { return GameID }
func (g *Game) ModelID() string        { return g.Model }
func (g *Game) Stakes() []engine.Money { return []engine.Money{5, 10, 50} }
func (g *Game) RiskCap(engine.Money) (engine.Money, bool) {
	return 1000, true
}
func (g *Game) Play(src engine.Source, stake engine.Money, r *engine.Round) error {
	if err := engine.CheckStake(g, stake); err != nil {
		return err
	}
	r.Reset(g, stake)
	st := r.NewStep(engine.StepBase)
	a, b := src.Intn(4), src.Intn(7)
	st.Stops[0], st.Stops[1] = int32(a), int32(b)
	if a < 2 {
		st.Wins = append(st.Wins, engine.Win{Kind: engine.WinLine, Count: 3, Line: 1, Amount: 3 * stake})
		st.Pay = 3 * stake
	}
	r.Total = st.Pay
	return nil
}

// WrongModel is the fake game with another model id.
var WrongModel = &Game{Model: "test-model-2"}

// Env is a running central system with its PKI.
type Env struct {
	T      testing.TB
	Dir    string
	PKI    string
	DB     string // the SQLite file, or under OnPostgres the database's URL
	Clock  *Clock
	Server *server.Server
	Addr   string
	Key    ed25519.PrivateKey
	Cfg    server.Config
}

// Start makes a PKI and starts a server; mod may change the configuration.
func Start(t testing.TB, mod func(*server.Config)) *Env {
	t.Helper()
	dir := t.TempDir()
	e := &Env{T: t, Dir: dir, PKI: filepath.Join(dir, "pki"), DB: filepath.Join(dir, "central.db"),
		Clock: NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))}
	if err := mint.Init(e.PKI, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	key, err := pki.LoadSigningKey(filepath.Join(e.PKI, pki.SigningKey))
	if err != nil {
		t.Fatal(err)
	}
	e.Key = key
	stls, err := pki.ServerTLSDir(e.PKI)
	if err != nil {
		t.Fatal(err)
	}
	e.Cfg = server.Config{DBPath: e.DB, TLS: stls, SigningKey: key, Games: []engine.Game{TheGame},
		CertRegistry: filepath.Join(e.PKI, pki.CabinetRegistry), StoreMarker: filepath.Join(dir, "store.id"),
		AllowUnknownCabinets: true, Now: e.Clock.Now}
	if url, err := postgresFor(t); err != nil {
		t.Fatal(err)
	} else if url != "" {
		e.DB, e.Cfg.DBPath = url, url
	}
	if mod != nil {
		mod(&e.Cfg)
	}
	e.start("127.0.0.1:0")
	t.Cleanup(func() { e.Server.Close() })
	return e
}

func (e *Env) start(addr string) {
	e.T.Helper()
	s, err := server.New(e.Cfg)
	if err != nil {
		e.T.Fatal(err)
	}
	var a net.Addr
	for i := 0; ; i++ {
		// The old listener's port may take a moment to be free again.
		if a, err = s.Listen(addr); err == nil || i > 50 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		e.T.Fatal(err)
	}
	e.Server, e.Addr = s, a.String()
}

// Stop stops the server (the store is closed).
func (e *Env) Stop() {
	if err := e.Server.Close(); err != nil {
		e.T.Fatal(err)
	}
}

// Restart stops the server and starts a new one on the same address and store.
func (e *Env) Restart() {
	e.Stop()
	e.start(e.Addr)
}

// Client dials the server as cabinet id (issuing its certificate if needed).
func (e *Env) Client(id string, mod func(*link.Config)) *link.Client {
	e.T.Helper()
	if c, _ := pki.CabinetPaths(e.PKI, id); !fileExists(c) {
		if _, _, err := mint.IssueCabinet(e.PKI, id, time.Now()); err != nil {
			e.T.Fatal(err)
		}
	}
	ctls, err := pki.CabinetTLSDir(e.PKI, id, "localhost")
	if err != nil {
		e.T.Fatal(err)
	}
	cfg := link.Config{Addr: e.Addr, TLS: ctls, SigningKey: e.Key.Public().(ed25519.PublicKey),
		Games: []engine.Game{TheGame}, CallTimeout: 3 * time.Second, Retries: 6, Backoff: 20 * time.Millisecond,
		MaxBackoff: 300 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	c, err := link.Dial(cfg)
	if err != nil {
		e.T.Fatal(err)
	}
	e.T.Cleanup(func() { c.Close() })
	return c
}

// SecondNode starts another central node on the server's configuration
// (mod may change it), so on its store (PostgreSQL: one store behind two
// nodes), listening on loopback; closed at the test's end. It returns the
// node and its address.
func (e *Env) SecondNode(mod func(*server.Config)) (*server.Server, string) {
	e.T.Helper()
	cfg := e.Cfg
	if mod != nil {
		mod(&cfg)
	}
	s, err := server.New(cfg)
	if err != nil {
		e.T.Fatal(err)
	}
	e.T.Cleanup(func() { s.Close() })
	a, err := s.Listen("127.0.0.1:0")
	if err != nil {
		e.T.Fatal(err)
	}
	return s, a.String()
}

// Conn is a bare gRPC connection to the server as cabinet id (its
// certificate issued if needed), for requests link.Client does not make.
func (e *Env) Conn(id string) *grpc.ClientConn {
	e.T.Helper()
	e.Client(id, nil)
	tc, err := pki.CabinetTLSDir(e.PKI, id, "localhost")
	if err != nil {
		e.T.Fatal(err)
	}
	conn, err := grpc.NewClient("passthrough:///"+e.Addr, grpc.WithTransportCredentials(credentials.NewTLS(tc)))
	if err != nil {
		e.T.Fatal(err)
	}
	e.T.Cleanup(func() { conn.Close() })
	return conn
}

// Count returns SELECT count(*) FROM table WHERE where (args).
func (e *Env) Count(table, where string, args ...any) int {
	e.T.Helper()
	q := "SELECT count(*) FROM " + table
	if where != "" {
		q += " WHERE " + where
	}
	var n int
	if err := e.Server.DB().QueryRow(q, args...).Scan(&n); err != nil {
		e.T.Fatal(err)
	}
	return n
}

// Proxy forwards TCP to a target. Hold makes it keep back the next bytes
// the server sends; Cut then closes every connection without delivering them.
type Proxy struct {
	Addr   string
	target string
	l      net.Listener

	mu    sync.Mutex
	hold  bool
	conns []net.Conn
}

// NewProxy listens on loopback and forwards to target.
func NewProxy(t testing.TB, target string) *Proxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: l.Addr().String(), target: target, l: l}
	go p.accept()
	t.Cleanup(func() { l.Close(); p.Cut() })
	return p
}

func (p *Proxy) accept() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { io.Copy(s, c); s.Close() }()
		go p.back(c, s)
	}
}

// back copies server -> client, withholding everything while hold is set.
func (p *Proxy) back(c, s net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := s.Read(buf)
		if n > 0 {
			p.mu.Lock()
			h := p.hold
			p.mu.Unlock()
			if !h {
				if _, werr := c.Write(buf[:n]); werr != nil {
					break
				}
			}
		}
		if err != nil {
			break
		}
	}
	c.Close()
}

// Hold starts withholding replies.
func (p *Proxy) Hold() { p.mu.Lock(); p.hold = true; p.mu.Unlock() }

// Cut drops every connection and stops holding: later connections work.
func (p *Proxy) Cut() {
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns, p.hold = nil, false
	p.mu.Unlock()
}

// Dialer dials the proxy whatever address the client asks for.
func (p *Proxy) Dialer(ctx context.Context, _ string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", p.Addr)
}

func fileExists(p string) bool {
	_, err := filepath.Glob(p)
	if err != nil {
		return false
	}
	m, _ := filepath.Glob(p)
	return len(m) == 1
}

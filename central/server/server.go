package server

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/encoding"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"

	"github.com/polaris-vlt/polaris/central/pki"
	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

// Config configures a Server.
type Config struct {
	DBPath string      // SQLite file of the store, or a PostgreSQL URL (IsPostgresURL)
	TLS    *tls.Config // must require and verify client certificates
	// StoreMarker is a file (outside the database's directory if possible)
	// that records the store's id: once it exists, a missing or another
	// database is refused at start unless InitStore (an explicit init).
	StoreMarker string
	InitStore   bool
	// CertRegistry is the PKI's cabinet registry (pki.CabinetRegistry):
	// a cabinet certificate that is not its CN's registered one is
	// refused at the handshake. Empty: any CA-signed certificate.
	CertRegistry string
	SigningKey   ed25519.PrivateKey // signs outcome and Risk bodies
	// Games the server plays; nil means every registered engine game.
	Games    []engine.Game
	Jackpots Jackpots // nil: no progressive jackpot
	Players  Players  // nil: no player accounts (central/players)
	// Halls maps cabinet ids to halls; others get DefaultHall ("default").
	Halls       map[string]string
	DefaultHall string
	// AllowUnknownCabinets admits any cabinet whose certificate the CA
	// signed; otherwise only the cabinets named in Halls.
	AllowUnknownCabinets bool
	VoucherValidity      time.Duration // default 30 days
	HoldTimeout          time.Duration // default 2 minutes
	// JackpotInterval spaces the jackpot value updates sent to one
	// cabinet (default 250 ms); commands are never delayed.
	JackpotInterval time.Duration
	// MaxConnections bounds the connections served at once (default
	// DefaultMaxConns); more wait in the listen backlog.
	MaxConnections int
	Now            func() time.Time
	// NodeID names this node in the link statistics (several nodes on one
	// PostgreSQL); default the host name.
	NodeID string
	// NewSource gives the RNG; default draw.NewCrypto.
	NewSource func() engine.Source
	Log       *slog.Logger
}

// Server is the reference central system: the gRPC adapter (grpc.go)
// over its services, each the owner of its state and invariants, which it
// composes and wires in New.
type Server struct {
	pb.UnimplementedCentralServer

	cfg  Config
	st   *store
	pub  ed25519.PublicKey
	grpc *grpc.Server
	log  *slog.Logger

	cabinets *Cabinets
	links    *Links
	alarms   *Alarms
	mirror   *Mirror
	rounds   *Rounds
	vouchers *vouchers
	players  *playerDesk
	intake   *intake
	checks   *checks

	stopJP  func()
	stopDBW func() // watchDatabase (PostgreSQL)
	jpDone  chan struct{}
	closeMu sync.Mutex
	closed  bool
	serving atomic.Int32 // Serve loops running
}

// base is what every service shares: the configuration (read only once
// New returns), the store and the log.
type base struct {
	cfg *Config
	st  *store
	log *slog.Logger
}

func (b *base) now() time.Time { return b.cfg.Now() }

// New opens the store and prepares the service; Serve or Listen starts it.
func New(cfg Config) (*Server, error) {
	if cfg.TLS == nil || cfg.TLS.ClientAuth != tls.RequireAndVerifyClientCert {
		return nil, errors.New("central server: TLS must require and verify client certificates")
	}
	if len(cfg.SigningKey) != ed25519.PrivateKeySize {
		return nil, errors.New("central server: no Ed25519 signing key")
	}
	if cfg.DBPath == "" {
		return nil, errors.New("central server: no database path")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	var rc *pki.RegistryCheck
	if cfg.CertRegistry != "" {
		rc = &pki.RegistryCheck{Path: cfg.CertRegistry}
		if _, err := pki.LoadRegistry(cfg.CertRegistry); err != nil {
			return nil, fmt.Errorf("central server: %w", err)
		}
		t := cfg.TLS.Clone()
		prev := t.VerifyConnection
		t.VerifyConnection = func(cs tls.ConnectionState) error {
			if prev != nil {
				if err := prev(cs); err != nil {
					return err
				}
			}
			return rc.VerifyConnection(cs)
		}
		cfg.TLS = t
	}
	if cfg.NewSource == nil {
		cfg.NewSource = func() engine.Source { return draw.NewCrypto() }
	}
	if cfg.NodeID == "" {
		cfg.NodeID = defaultNodeID()
	}
	if cfg.DefaultHall == "" {
		cfg.DefaultHall = "default"
	}
	if cfg.VoucherValidity == 0 {
		cfg.VoucherValidity = 30 * 24 * time.Hour
	}
	if cfg.HoldTimeout == 0 {
		cfg.HoldTimeout = 2 * time.Minute
	}
	if cfg.JackpotInterval == 0 {
		cfg.JackpotInterval = 250 * time.Millisecond
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Games == nil {
		cfg.Games = engine.Games()
	}
	s := &Server{cfg: cfg, pub: cfg.SigningKey.Public().(ed25519.PublicKey), log: cfg.Log}
	games := map[engine.GameID]engine.Game{}
	for _, g := range cfg.Games {
		games[g.ID()] = g
	}
	st, err := openStore(cfg.DBPath, cfg.StoreMarker, cfg.InitStore)
	if err != nil {
		return nil, err
	}
	s.st = st
	b := base{cfg: &s.cfg, st: st, log: cfg.Log}
	s.alarms = &Alarms{base: b}
	s.links = &Links{base: b, games: games, subs: map[*subscriber]struct{}{}}
	s.cabinets = &Cabinets{base: b, reg: rc, links: s.links, cabs: map[string]*cabinet{}}
	s.mirror = &Mirror{base: b, alarms: s.alarms}
	s.players = &playerDesk{base: b}
	s.rounds = &Rounds{base: b, games: games, src: cfg.NewSource(), cabinets: s.cabinets, mirror: s.mirror, players: s.players, alarms: s.alarms}
	s.vouchers = &vouchers{base: b, cabinets: s.cabinets, mirror: s.mirror, alarms: s.alarms}
	s.intake = &intake{base: b, alarms: s.alarms}
	s.checks = &checks{log: cfg.Log, links: s.links}
	st.onBroken = func(err error) {
		s.log.Error("central store failed: refusing every request until restarted", "err", err)
	}
	switch h := cfg.Jackpots.(type) {
	case interface{ Committed() }:
		st.committed = h.Committed
	case interface{ Committed(*sql.DB) }:
		st.committed = func() { h.Committed(st.db) }
	}
	if h, ok := cfg.Jackpots.(interface{ RolledBack() }); ok {
		st.rolledBack = h.RolledBack
	}
	if p, ok := cfg.Jackpots.(jackpotPrefetcher); ok {
		st.beforeTails, st.afterTails = prefetchJackpots(p), p.Finish
	}
	if err := s.players.setup(); err != nil {
		st.close()
		return nil, fmt.Errorf("central server: players setup: %w", err)
	}
	if st.backend == backendPostgres && cfg.Jackpots != nil {
		if h, ok := cfg.Jackpots.(interface{ UsePostgres(channel string) }); ok {
			h.UsePostgres(ChangesChannel)
		}
		if st.committed != nil {
			st.wg.Add(1)
			go st.listen(cfg.DBPath, st.committed)
		}
	}
	if cfg.Jackpots != nil {
		// Under the batch lock: the setup writes every pool's row, which
		// the other nodes' batches write in their tails.
		if err := st.write(context.Background(), func(tx *sql.Tx) error {
			if err := st.lockBatches(tx); err != nil {
				return err
			}
			return cfg.Jackpots.Setup(tx)
		}); err != nil {
			st.close()
			return nil, fmt.Errorf("central server: jackpot setup: %w", err)
		}
		ch, cancel := cfg.Jackpots.Subscribe()
		s.stopJP, s.jpDone = cancel, make(chan struct{})
		go func() {
			defer close(s.jpDone)
			for range ch {
				s.links.PublishJackpots()
			}
		}()
	}
	if st.backend == backendPostgres {
		s.stopDBW = watchDatabase(cfg.DBPath, s.log, 100*time.Millisecond)
	}
	s.grpc = grpc.NewServer(
		grpc.Creds(refusingCreds{TransportCredentials: credentials.NewTLS(cfg.TLS), links: s.links}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 2 * time.Second, PermitWithoutStream: true}),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 15 * time.Second, Timeout: 5 * time.Second}),
		// Thousands of mostly idle cabinet connections share write buffers:
		// gRPC's default now (SharedWriteBuffer is deprecated).
		// Fixed flow-control windows (messages are a few KiB) turn off
		// gRPC's bandwidth-delay probing, a PING and its ack after
		// received data: system calls and TLS records per round.
		grpc.InitialWindowSize(windowSize),
		grpc.InitialConnWindowSize(windowSize),
		// Bounded work per client: a message of at most MaxMessageBytes
		// (a cabinet's are a few KiB), a TLS handshake done within
		// HandshakeTimeout (a socket that never starts TLS is not held
		// 120 s), a bounded number of calls in flight per connection.
		grpc.MaxRecvMsgSize(MaxMessageBytes),
		grpc.ConnectionTimeout(HandshakeTimeout),
		grpc.MaxConcurrentStreams(MaxStreamsPerConn),
		grpc.ForceServerCodecV2(strictCodec{CodecV2: encoding.GetCodecV2("proto"), bad: &s.checks.bad}),
		grpc.UnaryInterceptor(s.checks.unaryCheck),
		grpc.StreamInterceptor(s.checks.streamCheck),
	)
	pb.RegisterCentralServer(s.grpc, s)
	healthpb.RegisterHealthServer(s.grpc, &healthService{s: s})
	return s, nil
}

// windowSize is the HTTP/2 flow-control window of streams and connections.
const windowSize = 1 << 20

// Limits per client (PROTOCOL.md "Limits").
const (
	MaxMessageBytes   = 256 << 10
	HandshakeTimeout  = 10 * time.Second
	MaxStreamsPerConn = 256
	MaxSubscribers    = 2     // Subscribe streams open per cabinet
	DefaultMaxConns   = 10000 // connections at once (Config.MaxConnections)
)

// Serve answers on l until Close.
func (s *Server) Serve(l net.Listener) error {
	s.serving.Add(1)
	defer s.serving.Add(-1)
	return s.grpc.Serve(limit(l, s.cfg.MaxConnections, s.log))
}

// Listen binds addr and serves in the background; it returns the bound address.
func (s *Server) Listen(addr string) (net.Addr, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s.serving.Add(1)
	go func() {
		defer s.serving.Add(-1)
		if err := s.grpc.Serve(limit(l, s.cfg.MaxConnections, s.log)); err != nil {
			s.log.Error("central server stopped", "err", err)
		}
	}()
	return l.Addr(), nil
}

// Check reports whether the server can do its work, for a watchdog: it is
// open, serving on at least one listener, and its store's writer runs a
// (no-op) job through a transaction before ctx ends — a stuck writer, a
// store that failed a commit (fail closed) or a stopped server is an error.
func (s *Server) Check(ctx context.Context) error {
	s.closeMu.Lock()
	closed := s.closed
	s.closeMu.Unlock()
	if closed {
		return errors.New("central server: closed")
	}
	if s.serving.Load() <= 0 {
		return errors.New("central server: not serving")
	}
	return s.st.probe(ctx)
}

// Close stops serving (letting calls in flight finish, at most 5 s) and
// closes the store.
func (s *Server) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return nil
	}
	s.closed = true
	s.closeMu.Unlock()
	s.links.stop()
	done := make(chan struct{})
	go func() { s.grpc.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.grpc.Stop()
	}
	if s.stopJP != nil {
		s.stopJP()
	}
	if s.stopDBW != nil {
		s.stopDBW()
	}
	return s.st.close()
}

// DB is the store, for central/reports and the tests; write only through
// the server.
func (s *Server) DB() *sql.DB { return s.st.db }

// Write runs fn in the store's single writer's transaction (its own
// savepoint: fn's error undoes what fn did) and returns once it is
// committed. The back office writes its own tables (users, sessions, audit,
// payouts) and a voucher void (VoidVoucherTx) through here, never beside
// the writer.
func (s *Server) Write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.st.write(ctx, fn)
}

// PublicKey is the key cabinets verify bodies with.
func (s *Server) PublicKey() ed25519.PublicKey { return s.pub }

// The services, for the operator's tools (the admin socket, the back
// office) and the tests.

// Cabinets admits cabinets and enables or disables them.
func (s *Server) Cabinets() *Cabinets { return s.cabinets }

// Links are the cabinets' streams and link statistics on this node.
func (s *Server) Links() *Links { return s.links }

// Alarms are the stored and counted alarms and audit rows.
func (s *Server) Alarms() *Alarms { return s.alarms }

// Mirror is the cabinets' credit mirrors and their corrections.
func (s *Server) Mirror() *Mirror { return s.mirror }

// Rounds draws the rounds; the operator voids one through it.
func (s *Server) Rounds() *Rounds { return s.rounds }

// Players returns the configured player accounts (nil: none), for the
// operator's commands.
func (s *Server) Players() Players { return s.cfg.Players }

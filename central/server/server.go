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
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/encoding"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

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

// Server is the reference central system.
type Server struct {
	pb.UnimplementedCentralServer

	cfg   Config
	st    *store
	games map[engine.GameID]engine.Game
	src   engine.Source // used only by the store writer goroutine
	pub   ed25519.PublicKey
	grpc  *grpc.Server
	log   *slog.Logger

	cabMu sync.Mutex
	cabs  map[string]*cabinet
	reg   *pki.RegistryCheck // nil: no registry

	badMsgs sync.Map // undecodable requests (codec.go)

	subMu sync.Mutex
	subs  map[*subscriber]struct{}

	refused refusals
	alarms  alarms
	link    linkMem // linkstats.go
	stopJP  func()
	stopDBW func() // watchDatabase (PostgreSQL)
	jpDone  chan struct{}
	closeMu sync.Mutex
	closed  bool
	serving atomic.Int32 // Serve loops running
}

type cabinet struct {
	id, hall string
	enabled  bool
	reason   string
}

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
	s := &Server{
		cfg:   cfg,
		games: map[engine.GameID]engine.Game{},
		src:   cfg.NewSource(),
		pub:   cfg.SigningKey.Public().(ed25519.PublicKey),
		log:   cfg.Log,
		cabs:  map[string]*cabinet{},
		subs:  map[*subscriber]struct{}{},
		reg:   rc,
	}
	for _, g := range cfg.Games {
		s.games[g.ID()] = g
	}
	st, err := openStore(cfg.DBPath, cfg.StoreMarker, cfg.InitStore)
	if err != nil {
		return nil, err
	}
	st.onBroken = func(err error) {
		s.log.Error("central store failed: refusing every request until restarted", "err", err)
	}
	s.st = st
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
		st.beforeTails, st.afterTails = s.prefetchJackpots(p), p.Finish
	}
	if err := s.setupPlayers(); err != nil {
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
				s.PublishJackpots()
			}
		}()
	}
	if st.backend == backendPostgres {
		s.stopDBW = watchDatabase(cfg.DBPath, s.log, 100*time.Millisecond)
	}
	s.grpc = grpc.NewServer(
		grpc.Creds(refusingCreds{TransportCredentials: credentials.NewTLS(cfg.TLS), s: s}),
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
		grpc.ForceServerCodecV2(strictCodec{CodecV2: encoding.GetCodecV2("proto"), bad: &s.badMsgs}),
		grpc.UnaryInterceptor(s.unaryCheck),
		grpc.StreamInterceptor(s.streamCheck),
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
	return s.grpc.Serve(s.limit(l))
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
		if err := s.grpc.Serve(s.limit(l)); err != nil {
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
	s.subMu.Lock()
	for sub := range s.subs {
		sub.cancel()
	}
	s.subMu.Unlock()
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

// DB is the store, for reports and tests; write only through the server.
func (s *Server) DB() *sql.DB { return s.st.db }

// PublicKey is the key cabinets verify bodies with.
func (s *Server) PublicKey() ed25519.PublicKey { return s.pub }

func (s *Server) now() time.Time { return s.cfg.Now() }

// admit identifies the caller from its verified certificate and admits it.
func (s *Server) admit(ctx context.Context) (*cabinet, error) {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return nil, refuse(codes.Unauthenticated, ReasonUnknownCabinet, "no peer")
	}
	ti, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok {
		return nil, refuse(codes.Unauthenticated, ReasonUnknownCabinet, "not a TLS peer")
	}
	id, err := pki.CabinetID(ti.State)
	if err != nil {
		return nil, refuse(codes.Unauthenticated, ReasonUnknownCabinet, "%v", err)
	}
	if s.reg != nil {
		// Checked on every call too: a connection made before the
		// certificate was revoked ends with it.
		if err := s.reg.Check(ti.State.VerifiedChains[0][0]); err != nil {
			s.log.Warn("revoked certificate refused", "cabinet", id, "err", err)
			return nil, refuse(codes.Unauthenticated, ReasonRevoked, "%v", err)
		}
	}
	s.cabMu.Lock()
	c := s.cabs[id]
	s.cabMu.Unlock()
	if c != nil {
		return c, nil
	}
	hall, named := s.cfg.Halls[id]
	if !named {
		if !s.cfg.AllowUnknownCabinets {
			return nil, refuse(codes.PermissionDenied, ReasonUnknownCabinet, "cabinet %q is not configured", id)
		}
		hall = s.cfg.DefaultHall
	}
	now := s.now().UnixNano()
	// The cache is filled inside the write job: jobs run one at a time, so
	// a Disable cannot slip in between reading the row and caching it.
	err = s.st.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO cabinets(id, hall, first_seen, last_seen) VALUES(?,?,?,?)
			ON CONFLICT(id) DO UPDATE SET hall=excluded.hall`, id, hall, now, now); err != nil {
			return err
		}
		nc := &cabinet{id: id, hall: hall}
		var en int
		if err := tx.QueryRow(`SELECT enabled, reason FROM cabinets WHERE id=?`, id).Scan(&en, &nc.reason); err != nil {
			return err
		}
		nc.enabled = en != 0
		s.cabMu.Lock()
		if c = s.cabs[id]; c == nil {
			c = nc
			s.cabs[id] = c
		}
		s.cabMu.Unlock()
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return c, nil
}

func (s *Server) cabinetState(id string) (enabled bool, reason string) {
	s.cabMu.Lock()
	defer s.cabMu.Unlock()
	if c := s.cabs[id]; c != nil {
		return c.enabled, c.reason
	}
	return true, ""
}

func (s *Server) models() []*pb.GameModel {
	out := make([]*pb.GameModel, 0, len(s.games))
	for _, g := range s.games {
		out = append(out, &pb.GameModel{Game: string(g.ID()), ModelId: g.ModelID()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out
}

// Hello implements the time sync and the model check.
func (s *Server) Hello(ctx context.Context, req *pb.HelloRequest) (*pb.HelloReply, error) {
	c, err := s.admit(ctx)
	if err != nil {
		return nil, err
	}
	var diffs []string
	for _, m := range req.GetModels() {
		g, ok := s.games[engine.GameID(m.GetGame())]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s: not played here", m.GetGame()))
		case g.ModelID() != m.GetModelId():
			diffs = append(diffs, fmt.Sprintf("%s: cabinet model %s, central model %s", m.GetGame(), m.GetModelId(), g.ModelID()))
		}
	}
	if len(diffs) > 0 {
		return nil, refuse(codes.FailedPrecondition, ReasonModelMismatch, "%s", strings.Join(diffs, "; "))
	}
	var ms []string
	for _, m := range req.GetModels() {
		ms = append(ms, m.GetGame()+"="+m.GetModelId())
	}
	now := s.now()
	var last sql.NullInt64
	var mirrorCredit int64
	var differs bool
	var meterErr error
	var suspect []string
	cm := req.GetMeters()
	err = s.st.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`UPDATE cabinets SET models=?, last_seen=? WHERE id=?`, strings.Join(ms, ","), now.UnixNano(), c.id); err != nil {
			return err
		}
		if err := s.noteHello(tx, c.id, now, req.GetSoftwareVersion(), req.GetCabinetTimeUnixNano()); err != nil {
			return err
		}
		if err := tx.QueryRow(`SELECT max(round) FROM rounds WHERE cabinet=?`, c.id).Scan(&last); err != nil {
			return err
		}
		// Reconciliation: the cabinet's meters against the mirror.
		if suspect, err = s.voidUnprinted(tx, c.id, cm.GetUnprinted()); err != nil {
			return err
		}
		m, err := s.loadMirror(tx, c.id)
		if err != nil {
			return err
		}
		meterErr, differs = nil, false
		if cm.GetPresent() {
			if err := s.keepHelloMeters(tx, c.id, now, cm.GetCredit(), cm.GetBase(), cm.GetBillsIn(), cm.GetWinsToCredit(), cm.GetHandpayCancelled()); err != nil {
				return err
			}
			if err := s.report(tx, c.id, m, cm); err != nil {
				if _, ok := status.FromError(err); !ok {
					return err
				}
				meterErr = err // kept as they were; an alarm, but Hello goes on
			}
			differs = m.credit() != cm.GetCredit()
		}
		mirrorCredit = m.credit()
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	if meterErr != nil {
		s.raised(c.id, meterErr)
	}
	for _, t := range suspect {
		s.alarm(c.id, ReasonUnprintedSuspect, t)
	}
	if differs {
		s.alarm(c.id, ReasonMirrorDiffers, fmt.Sprintf("Hello: cabinet credit %d, central mirror %d", cm.GetCredit(), mirrorCredit))
	}
	en, reason := s.cabinetState(c.id)
	return &pb.HelloReply{
		Cabinet: c.id, Hall: c.hall, ServerTimeUnixNano: now.UnixNano(),
		Models: s.models(), SigningPublicKey: s.pub, LastRound: uint64(last.Int64),
		Enabled: en, DisabledReason: reason, MirrorCredit: mirrorCredit, MirrorDiffers: differs,
	}, nil
}

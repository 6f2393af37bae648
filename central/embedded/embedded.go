// Package embedded starts the reference central system in-process on
// loopback, with a development PKI generated in the cabinet's data
// directory, and returns a client connected to it through real gRPC over
// mutual TLS: what `make run` and newcomers play against.
package embedded

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/jackpot/jpserver"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/link/sqliteoutbox"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
)

// Options configures Start.
type Options struct {
	DataDir string // the central system lives in DataDir/central
	Cabinet string // default "dev-1"
	Addr    string // default "127.0.0.1:0" (a free port)
	Games   []engine.Game
	// Jackpots, when set, is the progressive jackpot engine. Otherwise
	// JackpotConfig names a jackpot configuration file (central/jackpot),
	// and without one a single system-wide development pool is used
	// (DevJackpotConfig), unless NoJackpot is set.
	Jackpots      server.Jackpots
	JackpotConfig string
	NoJackpot     bool
	// Outbox is the cabinet's outbox (the ledger); nil opens
	// DataDir/central/outbox.db.
	Outbox link.Outbox
	// SeparateCommits sends every commit with its own CommitOutcome from
	// the outbox drain; by default each RequestOutcome carries the commits
	// waiting in the outbox (link.Config.CarryCommits): one call per round.
	SeparateCommits bool
	Now             func() time.Time
	// LinkClock is the client's clock (nil: the system's); with Now, a
	// test sets the central time apart from the cabinet's (check 38).
	LinkClock link.Clock
	Log       *slog.Logger
	// Players, when set, are the registered players (central/players).
	Players server.Players
	// NewSource gives the central RNG (nil: the server's cryptographic
	// one); a test that needs rounds it can predict sets it.
	NewSource func() engine.Source
}

// Central is a running embedded central system and its client.
type Central struct {
	Server *server.Server
	Client *link.Client
	Addr   net.Addr
	Dir    string      // DataDir/central
	Outbox link.Outbox // the outbox the client drains

	cancel  context.CancelFunc
	done    chan struct{}
	ownedOB *sqliteoutbox.Outbox
}

// Start makes the PKI if missing, starts the server and connects a client,
// whose Run loop goes until Close.
func Start(ctx context.Context, o Options) (*Central, error) {
	if o.DataDir == "" {
		return nil, fmt.Errorf("embedded: no data directory")
	}
	if o.Cabinet == "" {
		o.Cabinet = "dev-1"
	}
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	dir := filepath.Join(o.DataDir, "central")
	pkiDir := filepath.Join(dir, "pki")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := mint.Init(pkiDir, []string{"localhost", "127.0.0.1", "::1"}, o.Now()); err != nil {
		return nil, err
	}
	if c, _ := pki.CabinetPaths(pkiDir, o.Cabinet); !exists(c) {
		if _, _, err := mint.IssueCabinet(pkiDir, o.Cabinet, o.Now()); err != nil {
			return nil, err
		}
	} else if reg, err := pki.LoadRegistry(filepath.Join(pkiDir, pki.CabinetRegistry)); err != nil || reg[o.Cabinet] == "" {
		// A data directory from before the registry: its cabinet's
		// certificate becomes the registered one.
		if err := pki.Register(pkiDir, o.Cabinet); err != nil {
			return nil, err
		}
	}
	stls, err := pki.ServerTLSDir(pkiDir)
	if err != nil {
		return nil, err
	}
	key, err := pki.LoadSigningKey(filepath.Join(pkiDir, pki.SigningKey))
	if err != nil {
		return nil, err
	}
	jp := o.Jackpots
	if jp == nil && !o.NoJackpot {
		if jp, err = loadJackpots(o.JackpotConfig, o.Now); err != nil {
			return nil, err
		}
	}
	srv, err := server.New(server.Config{
		DBPath: StorePath(o.DataDir), TLS: stls, SigningKey: key, Games: o.Games,
		CertRegistry: filepath.Join(pkiDir, pki.CabinetRegistry), StoreMarker: filepath.Join(pkiDir, "store.id"),
		Jackpots: jp, AllowUnknownCabinets: true, Now: o.Now, Log: o.Log, Players: o.Players, NewSource: o.NewSource,
	})
	if err != nil {
		return nil, err
	}
	addr, err := srv.Listen(o.Addr)
	if err != nil {
		srv.Close()
		return nil, err
	}
	ctls, err := pki.CabinetTLSDir(pkiDir, o.Cabinet, "localhost")
	if err != nil {
		srv.Close()
		return nil, err
	}
	c := &Central{Server: srv, Addr: addr, Dir: dir, done: make(chan struct{})}
	ob := o.Outbox
	if ob == nil {
		if c.ownedOB, err = sqliteoutbox.Open(filepath.Join(dir, "outbox.db")); err != nil {
			srv.Close()
			return nil, err
		}
		ob = c.ownedOB
	}
	c.Outbox = ob
	cl, err := link.Dial(link.Config{
		Addr: addr.String(), TLS: ctls, Cabinet: o.Cabinet, SigningKey: srv.PublicKey(), Games: o.Games, Outbox: ob,
		CarryCommits: !o.SeparateCommits, Clock: o.LinkClock,
	})
	if err != nil {
		c.Close()
		return nil, err
	}
	c.Client = cl
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c.cancel = cancel
	go func() { defer close(c.done); cl.Run(rctx) }()
	return c, nil
}

// Dial connects one more client with a cabinet's certificate and key from
// the embedded PKI (a copy of them, for tests of what such a copy can do),
// verifying bodies with key (nil: the server's own).
func (c *Central) Dial(cabinet string, key ed25519.PublicKey) (*link.Client, error) {
	pkiDir := filepath.Join(c.Dir, "pki")
	if cert, _ := pki.CabinetPaths(pkiDir, cabinet); !exists(cert) {
		if _, _, err := mint.IssueCabinet(pkiDir, cabinet, time.Now()); err != nil {
			return nil, err
		}
	}
	ctls, err := pki.CabinetTLSDir(pkiDir, cabinet, "localhost")
	if err != nil {
		return nil, err
	}
	if key == nil {
		key = c.Server.PublicKey()
	}
	return link.Dial(link.Config{Addr: c.Addr.String(), TLS: ctls, Cabinet: cabinet, SigningKey: key, Retries: 1})
}

// Close stops the client and the server.
func (c *Central) Close() error {
	if c.cancel != nil {
		c.cancel()
		<-c.done
	}
	if c.Client != nil {
		c.Client.Close()
	}
	err := c.Server.Close()
	if c.ownedOB != nil {
		c.ownedOB.Close()
	}
	return err
}

// DevJackpotConfig is the embedded system's jackpot when none is configured:
// one system-wide Magic Stars pool.
const DevJackpotConfig = `
[[pool]]
id = "system"
name = "Magic Stars Jackpot"
scope = "system"
seed = 20000
must_hit_by = 100000
rate_bp = 100
`

func loadJackpots(path string, now func() time.Time) (server.Jackpots, error) {
	var cfg *jackpot.Config
	var err error
	if path != "" {
		cfg, err = jackpot.LoadConfig(path)
	} else {
		cfg, err = jackpot.ParseTOML([]byte(DevJackpotConfig))
	}
	if err != nil {
		return nil, fmt.Errorf("embedded: jackpot: %w", err)
	}
	j, err := jackpot.New(cfg, now)
	if err != nil {
		return nil, fmt.Errorf("embedded: jackpot: %w", err)
	}
	return jpserver.New(j), nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// Local starts the embedded central system in DataDir/central for the
// cabinet cabinetID, with every registered game, draining the cabinet's
// outbox ob: the devkit's firmware/app.Options.LocalCentral.
func Local(ctx context.Context, dataDir, cabinetID string, ob link.Outbox) (*link.Client, ed25519.PublicKey, io.Closer, error) {
	c, err := Start(ctx, Options{DataDir: dataDir, Cabinet: cabinetID, Games: engine.Games(), Outbox: ob})
	if err != nil {
		return nil, nil, nil, err
	}
	return c.Client, c.Server.PublicKey(), c, nil
}

// StorePath is the file of the store the embedded central system of a
// cabinet data directory keeps (server.OpenReadOnly reads it).
func StorePath(dataDir string) string { return filepath.Join(dataDir, "central", "central.db") }

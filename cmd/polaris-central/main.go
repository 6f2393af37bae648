// Command polaris-central is the reference central lottery system of
// Polaris: the gRPC service cabinets draw their rounds from, with its
// SQLite store, the Magic Stars progressive jackpot and the hall jackpot
// page. `polaris-central pki ...` makes the development PKI.
//
//	polaris-central [serve] -config central.toml
//	polaris-central pki init -dir pki -hosts localhost,127.0.0.1
//	polaris-central pki cabinet -dir pki -id cab-1
//	polaris-central admin -socket data/central/admin.sock disable cab-1 door audit
//	polaris-central admin -operator alice void cab-1 42 outcome did not mirror
//	polaris-central admin -operator alice mirror reconcile cab-1 RAM clear, ticket 17
//	polaris-central admin alarms cab-1
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/polaris-vlt/polaris/central/backoffice"
	"github.com/polaris-vlt/polaris/central/hall"
	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/jackpot/jpserver"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/cmd/internal/rtdebug"
	_ "github.com/polaris-vlt/polaris/engine/games"
	"github.com/polaris-vlt/polaris/firmware/health"
)

// Config is the TOML configuration file; flags override it.
type Config struct {
	Listen  string `toml:"listen"`   // gRPC mTLS address
	DataDir string `toml:"data_dir"` // central.db lives here
	// Database is a PostgreSQL URL (several nodes on one database); empty:
	// SQLite, data_dir/central.db. A password belongs in ~/.pgpass
	// (PGPASSFILE), not here.
	Database             string            `toml:"database"`
	PKIDir               string            `toml:"pki_dir"`        // default data_dir/pki: the server's files, never the CA key
	SigningKeyPath       string            `toml:"signing_key"`    // default pki_dir/signing.key (0600, the service's own)
	JackpotConfig        string            `toml:"jackpot_config"` // Magic Stars pools; empty = none
	HallAddr             string            `toml:"hall_addr"`      // plain HTTP for the hall page; empty = off
	AdminSocket          string            `toml:"admin_socket"`   // Unix socket for `polaris-central admin`; default data_dir/admin.sock
	AllowUnknownCabinets bool              `toml:"allow_unknown_cabinets"`
	DefaultHall          string            `toml:"default_hall"`
	NodeID               string            `toml:"node_id"`          // this node in the back office's link statistics; default the host name
	VoucherValidity      string            `toml:"voucher_validity"` // Go duration, default 720h
	HoldTimeout          string            `toml:"hold_timeout"`     // Go duration, default 2m
	Halls                map[string]string `toml:"halls"`            // cabinet id -> hall id
	Players              *PlayersConfig    `toml:"players"`          // registered players; absent = none

	BackofficeAddr string `toml:"backoffice_addr"` // HTTPS back office console (central/backoffice); empty = off
}

func main() {
	args := os.Args[1:]
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = serve(args)
	case "pki":
		err = pkiCmd(args)
	case "admin":
		err = adminCmd(args)
	case "players":
		err = playersCmd(args)
	default:
		err = fmt.Errorf("unknown command %q (serve, pki)", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "polaris-central:", err)
		os.Exit(1)
	}
}

func pkiCmd(args []string) error {
	if len(args) == 0 {
		return errors.New("pki: init, cabinet, revoke or export")
	}
	fs := flag.NewFlagSet("pki "+args[0], flag.ContinueOnError)
	dir := fs.String("dir", "pki", "PKI directory")
	hosts := fs.String("hosts", "localhost,127.0.0.1,::1", "server certificate names, comma separated")
	id := fs.String("id", "", "cabinet id (the certificate's CN)")
	to := fs.String("to", "", "export: the server's PKI directory")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	now := time.Now()
	switch args[0] {
	case "init":
		if err := mint.Init(*dir, splitList(*hosts), now); err != nil {
			return err
		}
		fmt.Printf("PKI ready in %s (CA, server certificate, signing key)\n", *dir)
		return nil
	case "cabinet":
		if err := mint.Init(*dir, splitList(*hosts), now); err != nil {
			return err
		}
		c, k, err := mint.IssueCabinet(*dir, *id, now)
		if err != nil {
			return err
		}
		fmt.Printf("cabinet %s: %s %s (CA %s, central key %s); any earlier certificate of it is revoked\n", *id, c, k,
			filepath.Join(*dir, pki.CACert), filepath.Join(*dir, pki.SigningPub))
		return nil
	case "revoke":
		if err := pki.Revoke(*dir, *id); err != nil {
			return err
		}
		fmt.Printf("cabinet %s revoked in %s (export it to the server)\n", *id, filepath.Join(*dir, pki.CabinetRegistry))
		return nil
	case "export":
		if *to == "" {
			return errors.New("pki export: -to the server's PKI directory")
		}
		if err := pki.Export(*dir, *to); err != nil {
			return err
		}
		fmt.Printf("server files exported to %s (the CA key stays in %s)\n", *to, *dir)
		return nil
	}
	return fmt.Errorf("pki: unknown subcommand %q", args[0])
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfgPath := fs.String("config", "", "TOML configuration file")
	listen := fs.String("listen", "", "gRPC address (default 127.0.0.1:7443)")
	data := fs.String("data", "", "data directory (default ./data/central)")
	pkiDir := fs.String("pki", "", "the server's PKI directory, from `pki export` (default <data>/pki)")
	database := fs.String("database", "", "PostgreSQL URL of the store shared by several nodes (default: SQLite in <data>)")
	signing := fs.String("signing-key", "", "the Ed25519 signing key (default <pki>/signing.key)")
	initStore := fs.Bool("init-store", false, "make a new store although the marker says one was initialised (the old one is lost)")
	jp := fs.String("jackpots", "", "jackpot configuration file (TOML or JSON)")
	hallAddr := fs.String("hall-addr", "", "HTTP address of the hall jackpot page, e.g. 127.0.0.1:8080")
	allow := fs.Bool("allow-unknown", false, "admit any cabinet whose certificate the CA signed")
	boAddr := fs.String("backoffice", "", "HTTPS address of the back office console, e.g. 127.0.0.1:8443")
	boAdmin := fs.String("backoffice-admin", "", "create this first back office administrator if there is no user (password from $POLARIS_BACKOFFICE_PASSWORD)")
	fs.Func("debug-addr", "loopback address of a pprof and runtime-numbers endpoint (soak tests; off unless given)", rtdebug.Flag("polaris-central"))
	if err := fs.Parse(args); err != nil {
		return err
	}
	var cfg Config
	if *cfgPath != "" {
		c, err := loadConfig(*cfgPath)
		if err != nil {
			return err
		}
		cfg = *c
	}
	set := func(dst *string, flagVal, def string) {
		if flagVal != "" {
			*dst = flagVal
		}
		if *dst == "" {
			*dst = def
		}
	}
	set(&cfg.Listen, *listen, "127.0.0.1:7443")
	set(&cfg.DataDir, *data, "data/central")
	set(&cfg.Database, *database, "")
	set(&cfg.PKIDir, *pkiDir, filepath.Join(cfg.DataDir, "pki"))
	set(&cfg.SigningKeyPath, *signing, filepath.Join(cfg.PKIDir, pki.SigningKey))
	set(&cfg.JackpotConfig, *jp, "")
	set(&cfg.HallAddr, *hallAddr, "")
	set(&cfg.BackofficeAddr, *boAddr, "")
	set(&cfg.AdminSocket, "", filepath.Join(cfg.DataDir, "admin.sock"))
	if *allow {
		cfg.AllowUnknownCabinets = true
	}
	validity, err := parseDur(cfg.VoucherValidity, 30*24*time.Hour)
	if err != nil {
		return fmt.Errorf("voucher_validity: %w", err)
	}
	hold, err := parseDur(cfg.HoldTimeout, 2*time.Minute)
	if err != nil {
		return fmt.Errorf("hold_timeout: %w", err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return err
	}
	if err := checkCustody(cfg); err != nil {
		return err
	}
	stls, err := pki.ServerTLSDir(cfg.PKIDir)
	if err != nil {
		return fmt.Errorf("%w (make the PKI offline with `pki init`, then `pki export -to %s`)", err, cfg.PKIDir)
	}
	key, err := pki.LoadSigningKey(cfg.SigningKeyPath)
	if err != nil {
		return err
	}
	dbPath := filepath.Join(cfg.DataDir, "central.db")
	if cfg.Database != "" {
		dbPath = cfg.Database
	}
	scfg := server.Config{
		DBPath: dbPath, TLS: stls, SigningKey: key,
		CertRegistry: filepath.Join(cfg.PKIDir, pki.CabinetRegistry),
		StoreMarker:  filepath.Join(cfg.PKIDir, "store.id"), InitStore: *initStore,
		Halls: cfg.Halls, DefaultHall: cfg.DefaultHall, AllowUnknownCabinets: cfg.AllowUnknownCabinets, NodeID: cfg.NodeID,
		VoucherValidity: validity, HoldTimeout: hold, Now: time.Now, Log: log,
	}
	if scfg.Players, err = loadPlayers(cfg.Players, log); err != nil {
		return err
	}
	var adapter *jpserver.Adapter
	if cfg.JackpotConfig != "" {
		jc, err := jackpot.LoadConfig(cfg.JackpotConfig)
		if err != nil {
			return err
		}
		if scfg.Halls, err = hallsAgree(cfg.Halls, jc); err != nil {
			return err
		}
		j, err := jackpot.New(jc, time.Now)
		if err != nil {
			return err
		}
		adapter = jpserver.New(j)
		scfg.Jackpots = adapter
	}
	srv, err := server.New(scfg)
	if err != nil {
		return err
	}
	addr, err := srv.Listen(cfg.Listen)
	if err != nil {
		srv.Close()
		return err
	}
	log.Info("polaris-central listening", "grpc", addr.String(), "data", cfg.DataDir, "pki", cfg.PKIDir)
	admin, err := serveAdmin(cfg.AdminSocket, srv)
	if err != nil {
		srv.Close()
		return fmt.Errorf("admin socket: %w", err)
	}
	defer admin.Close()
	log.Info("admin socket", "path", cfg.AdminSocket)
	if cfg.BackofficeAddr != "" {
		// The first administrator exists before the console listens: a
		// login racing the bootstrap would be refused as a wrong password.
		bo, err := backoffice.New(context.Background(), backoffice.Options{Server: srv, Log: log})
		if err != nil {
			srv.Close()
			return err
		}
		if *boAdmin != "" {
			if made, err := bo.Bootstrap(context.Background(), *boAdmin, os.Getenv("POLARIS_BACKOFFICE_PASSWORD")); err != nil {
				srv.Close()
				return err
			} else if made {
				log.Info("back office administrator created", "user", *boAdmin)
			}
		}
		btls, err := backoffice.TLSConfig(cfg.PKIDir)
		if err != nil {
			srv.Close()
			return fmt.Errorf("backoffice: %w", err)
		}
		bsrv, baddr, err := bo.ListenTLS(cfg.BackofficeAddr, btls)
		if err != nil {
			srv.Close()
			return fmt.Errorf("backoffice: %w", err)
		}
		defer bsrv.Close()
		log.Info("back office console", "url", "https://"+baddr.String()+"/")
	}
	var hsrv *http.Server
	if cfg.HallAddr != "" {
		if adapter == nil {
			srv.Close()
			return errors.New("hall_addr needs a jackpot_config")
		}
		feed, ok := any(adapter).(hall.Feed)
		if !ok {
			srv.Close()
			return errors.New("this build's jackpot engine does not feed the hall page")
		}
		mux := http.NewServeMux()
		mux.Handle("/hall/", http.StripPrefix("/hall", hall.Handler(feed, hall.Options{})))
		mux.Handle("/", http.RedirectHandler("/hall/", http.StatusFound))
		hsrv = &http.Server{Addr: cfg.HallAddr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := hsrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("hall page", "err", err)
			}
		}()
		log.Info("hall jackpot page", "url", "http://"+cfg.HallAddr+"/hall/")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// systemd (Type=notify): ready once every listener is up; the watchdog
	// is fed while the store and the server pass their check. Both are
	// no-ops outside systemd (no NOTIFY_SOCKET).
	logf := func(format string, a ...any) { log.Warn(fmt.Sprintf(format, a...)) }
	if superviseSystemd(ctx, srv.Check, logf) {
		log.Info("systemd watchdog fed while healthy", "interval", health.WatchdogInterval())
	}
	health.Systemd{}.Notify(health.StateReady)
	<-ctx.Done()
	health.Systemd{}.Notify(health.StateStopping)
	log.Info("stopping")
	if hsrv != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		hsrv.Shutdown(sctx)
		cancel()
	}
	return srv.Close()
}

// hallsAgree makes one map of which hall each cabinet is in from the
// central configuration ([halls]) and the jackpot file's [[hall]] tables:
// a cabinet both name, in different halls, is refused at start (its screen
// would show one hall's pool and it would be paid from another).
func hallsAgree(central map[string]string, jc *jackpot.Config) (map[string]string, error) {
	out := map[string]string{}
	for cab, h := range central {
		out[cab] = h
	}
	var bad []string
	for _, h := range jc.Halls {
		for _, cab := range h.Cabinets {
			if other, ok := central[cab]; ok && other != h.ID {
				bad = append(bad, fmt.Sprintf("cabinet %s is in hall %q in the configuration but in hall %q in the jackpot file", cab, other, h.ID))
				continue
			}
			out[cab] = h.ID
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return nil, errors.New(strings.Join(bad, "; "))
	}
	return out, nil
}

// checkCustody refuses to serve with the CA key beside the server's data
// (it stays offline: the server never creates or reads it) and with a TLS
// or signing key that others may read.
func checkCustody(cfg Config) error {
	for _, d := range []string{cfg.PKIDir, cfg.DataDir, filepath.Dir(cfg.SigningKeyPath)} {
		if p := filepath.Join(d, pki.CAKey); fileExists(p) {
			return fmt.Errorf("the CA key %s is beside the server's data: keep it offline (`pki init` in its own directory, `pki export -to %s`)", p, cfg.PKIDir)
		}
	}
	for _, p := range []string{cfg.SigningKeyPath, filepath.Join(cfg.PKIDir, pki.ServerKey)} {
		if !fileExists(p) {
			return fmt.Errorf("%s is missing (make the PKI offline with `pki init`, then `pki export -to %s`)", p, cfg.PKIDir)
		}
		if err := pki.CheckPrivateFile(p); err != nil {
			return err
		}
	}
	return nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// loadConfig reads the TOML file; an unknown key is an error, not ignored.
func loadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cfg Config
	dec := toml.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &cfg, nil
}

func parseDur(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	return time.ParseDuration(s)
}

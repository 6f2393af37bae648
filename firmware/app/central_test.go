package app_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// startCentral runs a reference central system on loopback, as an operator
// would, with a PKI that has issued cabinet id's certificate.
func startCentral(t *testing.T, id string) (addr, pkiDir, db string) {
	t.Helper()
	pkiDir = t.TempDir()
	if err := mint.Init(pkiDir, []string{"localhost", "127.0.0.1"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mint.IssueCabinet(pkiDir, id, time.Now()); err != nil {
		t.Fatal(err)
	}
	stls, err := pki.ServerTLSDir(pkiDir)
	if err != nil {
		t.Fatal(err)
	}
	key, err := pki.LoadSigningKey(filepath.Join(pkiDir, pki.SigningKey))
	if err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(t.TempDir(), "central.db")
	srv, err := server.New(server.Config{DBPath: db, TLS: stls, SigningKey: key, Games: engine.Games(), AllowUnknownCabinets: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	a, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := strings.Cut(a.String(), ":")
	return "localhost:" + port, pkiDir, db
}

// A cabinet in a hall plays against the operator's central system, not an
// embedded one: the round is drawn and stored there, for this cabinet.
func TestRemoteCentralSystem(t *testing.T) {
	addr, pkiDir, db := startCentral(t, "hall-cab-7")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	a, err := start(ctx, app.Options{DataDir: dir, Market: "demo", Central: addr, PKIDir: pkiDir, CabinetID: "hall-cab-7", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Central != nil {
		t.Fatal("a central system was embedded although an address was given")
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, a.App, "idle", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
	waitFor(t, a.App, "note credited", func(s *view.Snapshot) bool {
		if s.Credit == 0 && time.Now().UnixMilli()%500 < 5 {
			a.kit.Devices().Acceptor.InsertNote(0x63) // EUR 10
		}
		return s.Credit == 1000
	})
	// Start held until the cabinet has begun the round (the debounced
	// press taken).
	a.Board.SetInput(gpio.BtnStart, true)
	waitFor(t, a.App, "the round begun (Start held)", func(s *view.Snapshot) bool { return s.Round != nil })
	a.Board.SetInput(gpio.BtnStart, false)
	s := waitFor(t, a.App, "round settled", func(s *view.Snapshot) bool {
		return s.Round != nil && (s.Mode == view.ModeIdle || s.RiskOffer)
	})
	a.Cabinet.Post(cabinet.PowerOff{})
	<-done

	store, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var n, stake int64
	if err := store.QueryRow(`SELECT round, stake FROM rounds WHERE cabinet = ?`, "hall-cab-7").Scan(&n, &stake); err != nil {
		t.Fatalf("the central system has no round of this cabinet: %v", err)
	}
	if uint64(n) != s.Round.Number || stake != int64(s.Bet) {
		t.Fatalf("central round %d stake %d, cabinet round %d bet %d", n, stake, s.Round.Number, s.Bet)
	}
	if _, err := os.Stat(filepath.Join(dir, "central")); err == nil {
		t.Fatal("an embedded central system was made in the data directory")
	}
}

// Missing credentials stop the start with a clear error and open nothing.
func TestRemoteCentralWithoutCredentials(t *testing.T) {
	addr, pkiDir, _ := startCentral(t, "hall-cab-7")
	_, err := start(context.Background(), app.Options{DataDir: t.TempDir(), Central: addr, PKIDir: pkiDir, CabinetID: "hall-cab-8"})
	if err == nil || !strings.Contains(err.Error(), "credentials") {
		t.Fatalf("a cabinet without a certificate started: %v", err)
	}
	_, err = start(context.Background(), app.Options{DataDir: t.TempDir(), Central: "no-port", PKIDir: pkiDir, CabinetID: "hall-cab-7"})
	if err == nil || !strings.Contains(err.Error(), "address") {
		t.Fatalf("a malformed address was accepted: %v", err)
	}
}

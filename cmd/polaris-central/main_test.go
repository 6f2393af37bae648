package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/internal/poll"
)

func TestExampleConfigParses(t *testing.T) {
	cfg, err := loadConfig("central.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen == "" || cfg.Halls["cab-3"] != "hall-b" || cfg.HoldTimeout != "2m" {
		t.Fatalf("%+v", cfg)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("listen = \"x\"\nlisten_adress = \"y\"\n"), 0o600)
	if _, err := loadConfig(bad); err == nil {
		t.Fatal("an unknown key was accepted")
	}
}

func TestPKICommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if err := pkiCmd([]string{"init", "-dir", dir}); err != nil {
		t.Fatal(err)
	}
	if err := pkiCmd([]string{"cabinet", "-dir", dir, "-id", "cab-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := pki.CabinetTLSDir(dir, "cab-1", "localhost"); err != nil {
		t.Fatal(err)
	}
	if err := pkiCmd([]string{"cabinet", "-dir", dir, "-id", "bad id"}); err == nil {
		t.Fatal("a bad cabinet id was accepted")
	}
}

// serverPKI makes an offline PKI (with cabinets ids) beside dataDir and
// exports the server's files to dataDir/pki, as an operator would; it
// returns the offline directory (the cabinets' files are there).
func serverPKI(t *testing.T, dataDir string, ids ...string) string {
	t.Helper()
	offline := filepath.Join(t.TempDir(), "offline-pki")
	if err := mint.Init(offline, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, _, err := mint.IssueCabinet(offline, id, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := pkiCmd([]string{"export", "-dir", offline, "-to", filepath.Join(dataDir, "pki")}); err != nil {
		t.Fatal(err)
	}
	return offline
}

// serve never creates the PKI, refuses to start with the CA key beside its
// data, and with a signing or TLS key others may read.
func TestServeKeyCustody(t *testing.T) {
	// serve returns at once when it refuses; one that starts is a failure.
	serve := func(args []string) error {
		ch := make(chan error, 1)
		go func() { ch <- serve(args) }()
		select {
		case err := <-ch:
			return err
		case <-poll.After(10 * time.Second):
			return errors.New("serve started")
		}
	}
	data := t.TempDir()
	args := []string{"-data", data, "-listen", "127.0.0.1:0", "-hall-addr="}
	if err := serve(args); err == nil || !strings.Contains(err.Error(), "pki export") {
		t.Fatalf("serve without a PKI: %v", err)
	}
	if _, err := os.Stat(filepath.Join(data, "pki", pki.CAKey)); err == nil {
		t.Fatal("serve created a CA key")
	}
	offline := serverPKI(t, data)
	for _, p := range []string{filepath.Join(data, "pki", pki.CAKey), filepath.Join(data, pki.CAKey)} {
		b, _ := os.ReadFile(filepath.Join(offline, pki.CAKey))
		os.WriteFile(p, b, 0o600)
		if err := serve(args); err == nil || !strings.Contains(err.Error(), "keep it offline") {
			t.Fatalf("serve with %s: %v", p, err)
		}
		os.Remove(p)
	}
	sk := filepath.Join(data, "pki", pki.SigningKey)
	os.Chmod(sk, 0o640)
	if err := serve(args); err == nil || !strings.Contains(err.Error(), "must be 0600") {
		t.Fatalf("serve with a readable signing key: %v", err)
	}
	os.Chmod(sk, 0o600)
	moved := filepath.Join(t.TempDir(), "hsm-slot.key")
	os.Rename(sk, moved)
	if err := serve(append(args, "-signing-key", sk)); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("serve without its signing key: %v", err)
	}
	for _, name := range []string{pki.CACert, pki.ServerCert, pki.CabinetRegistry} {
		if _, err := os.Stat(filepath.Join(data, "pki", name)); err != nil {
			t.Fatalf("export left out %s", name)
		}
	}
}

// One place says which hall a cabinet is in: the jackpot file and the
// configuration agree or the server does not start.
func TestHallsAgree(t *testing.T) {
	jc, err := jackpot.LoadConfig("../../central/jackpot/jackpot.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := hallsAgree(map[string]string{"CAB-0001": "praha-1", "cab-9": "brno-1"}, jc)
	if err != nil || m["CAB-0002"] != "praha-1" || m["cab-9"] != "brno-1" {
		t.Fatalf("%v %v", m, err)
	}
	if _, err := hallsAgree(map[string]string{"CAB-0002": "brno-1"}, jc); err == nil || !strings.Contains(err.Error(), "CAB-0002") {
		t.Fatalf("a cabinet in two halls: %v", err)
	}
	// serve refuses it before listening.
	data := t.TempDir()
	serverPKI(t, data)
	cfg := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(cfg, []byte("jackpot_config = \"../../central/jackpot/jackpot.example.toml\"\n[halls]\nCAB-0001 = \"olomouc-1\"\n"), 0o600)
	if err := serve([]string{"-config", cfg, "-data", data, "-listen", "127.0.0.1:0", "-hall-addr="}); err == nil || !strings.Contains(err.Error(), "CAB-0001") {
		t.Fatalf("serve with two halls for a cabinet: %v", err)
	}
}

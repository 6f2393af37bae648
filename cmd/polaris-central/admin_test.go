package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/server"
)

// The admin socket disables and enables a cabinet durably and lists cabinets.
func TestAdminSocket(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pki")
	if err := mint.Init(p, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	stls, _ := pki.ServerTLSDir(p)
	key, _ := pki.LoadSigningKey(filepath.Join(p, pki.SigningKey))
	s, err := server.New(server.Config{DBPath: filepath.Join(dir, "c.db"), TLS: stls, SigningKey: key, Halls: map[string]string{"cab-1": "hall-a"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sock := filepath.Join(dir, "admin.sock")
	hs, err := serveAdmin(sock, s)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	enabled := func() int {
		var en int
		if err := s.DB().QueryRowContext(context.Background(), `SELECT enabled FROM cabinets WHERE id='cab-1'`).Scan(&en); err != nil {
			t.Fatal(err)
		}
		return en
	}
	if err := adminCmd([]string{"-socket", sock, "disable", "cab-1", "door", "audit"}); err != nil {
		t.Fatal(err)
	}
	var reason string
	s.DB().QueryRow(`SELECT reason FROM cabinets WHERE id='cab-1'`).Scan(&reason)
	if enabled() != 0 || reason != "door audit" {
		t.Fatalf("not disabled (reason %q)", reason)
	}
	if err := adminCmd([]string{"-socket", sock, "enable", "cab-1"}); err != nil || enabled() != 1 {
		t.Fatalf("enable: %v", err)
	}
	if err := adminCmd([]string{"-socket", sock, "cabinets"}); err != nil {
		t.Fatal(err)
	}
	if err := adminCmd([]string{"-socket", sock, "disable"}); err == nil {
		t.Fatal("disable without an id accepted")
	}
	if err := adminCmd([]string{"-socket", sock, "disable", "cab-l", "typo"}); err == nil || !strings.Contains(err.Error(), "unknown cabinet") {
		t.Fatalf("disable of a mistyped id: %v", err)
	}
	var n int
	s.DB().QueryRow(`SELECT count(*) FROM cabinets WHERE id='cab-l'`).Scan(&n)
	if n != 0 {
		t.Fatal("a mistyped id was stored")
	}
}

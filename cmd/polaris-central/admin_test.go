package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/reports"
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

// The operator actions over the socket: each needs a reason, names who
// did it (the -operator name and the uid the kernel reports for the
// socket's peer), and a mistyped cabinet or round fails, changing nothing.
func TestAdminOperatorActions(t *testing.T) {
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
	admin := func(args ...string) error {
		return adminCmd(append([]string{"-socket", sock, "-operator", "alice"}, args...))
	}
	for _, bad := range [][]string{
		{"void", "cab-l", "1", "typo"},         // no such cabinet
		{"void", "cab-1", "x", "not a number"}, // no round number
		{"void", "cab-1", "1"},                 // no reason
		{"mirror", "set", "cab-1", "300"},      // no reason
		{"mirror", "set", "cab-1", "300", "no Hello yet"},
		{"mirror", "reconcile", "cab-l", "typo"},
		{"mirror", "set", "cab-1", "-5", "negative"},
	} {
		if err := admin(bad...); err == nil {
			t.Fatalf("admin %v succeeded", bad)
		}
	}
	var n int
	s.DB().QueryRow(`SELECT count(*) FROM alarms`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d audit rows after refused actions", n)
	}
	// As if cab-1 said Hello with 300 credit.
	if _, err := s.DB().Exec(`INSERT INTO hello_meters(cabinet, at, credit, base, bills_in, wins_to_credit, cancelled) VALUES('cab-1', 1, 300, 0, 300, 0, 0)`); err != nil {
		t.Fatal(err)
	}
	if err := admin("mirror", "reconcile", "cab-1", "after", "the", "RAM", "clear"); err != nil {
		t.Fatal(err)
	}
	if err := admin("mirror", "set", "cab-1", "250", "cash", "count"); err != nil {
		t.Fatal(err)
	}
	var text string
	s.DB().QueryRow(`SELECT text FROM alarms WHERE reason=? ORDER BY id DESC`, server.ReasonMirrorAdjusted).Scan(&text)
	who := "alice (uid " + strconv.Itoa(os.Getuid()) + ")"
	if !strings.Contains(text, "set by "+who+": cash count; credit 300 -> 250") {
		t.Fatalf("audit row %q does not name %s, the reason and before/after", text, who)
	}
	if err := admin("alarms", "cab-1"); err != nil {
		t.Fatal(err)
	}
	rows, err := reports.ListAlarms(context.Background(), s.DB(), "cab-1", 0)
	if err != nil || len(rows) != 2 || rows[0].Reason != server.ReasonMirrorAdjusted {
		t.Fatalf("alarms: %+v %v", rows, err)
	}
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// The test binary doubles as the server: with POLARIS_CENTRAL_CHILD set it
// runs `serve` with the given arguments instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("POLARIS_CENTRAL_CHILD") == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		if err := serve(args); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func startChild(t *testing.T, dir, addr string, more ...string) *exec.Cmd {
	t.Helper()
	args := append([]string{"-test.run=^$", "--", "-data", dir, "-listen", addr, "-allow-unknown=true", "-hall-addr="}, more...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "POLARIS_CENTRAL_CHILD=1")
	cmd.Stderr = os.Stderr
	// Killed with the test binary should it die first (childproc).
	if err := childproc.Start(cmd, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// A polaris-central process killed with SIGKILL right after answering a
// round answers the same bytes after it is started again: the reply was
// durable before it was sent.
func TestKilledServerGivesTheSameRound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	dir := t.TempDir()
	pkiDir := serverPKI(t, dir, "cab-1")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()

	tlsCfg, err := pki.CabinetTLSDir(pkiDir, "cab-1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := pki.LoadSigningPublicKey(filepath.Join(pkiDir, pki.SigningPub))
	if err != nil {
		t.Fatal(err)
	}
	c, err := link.Dial(link.Config{Addr: addr, TLS: tlsCfg, SigningKey: pub, Retries: 40,
		Backoff: 50 * time.Millisecond, MaxBackoff: 250 * time.Millisecond, CallTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(60*time.Second))
	defer cancel()
	g, err := engine.Lookup(engine.MagicStars)
	if err != nil {
		t.Fatal(err)
	}

	child := startChild(t, dir, addr)
	first, err := c.RequestOutcome(ctx, 1, g.ID(), g.ModelID(), g.Stakes()[0])
	if err != nil {
		child.Process.Kill()
		t.Fatal(err)
	}
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()

	child = startChild(t, dir, addr)
	defer func() { child.Process.Signal(syscall.SIGTERM); child.Wait() }()
	again, err := c.RequestOutcome(ctx, 1, g.ID(), g.ModelID(), g.Stakes()[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Body, again.Body) || !bytes.Equal(first.Signature, again.Signature) {
		t.Fatal("after SIGKILL and restart the round came back different")
	}
	if err := again.Mirror(); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitOutcome(ctx, 1); err != nil {
		t.Fatal(err)
	}
}

// The WAL deleted under a serving process, then SIGKILL: the server stops
// answering at once and saves the WAL's rounds into the database file, so
// that started again it answers the round with the same bytes (before, the
// rounds in the WAL were lost and drawn again with other bytes).
func TestWALDeletedThenKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	dir := t.TempDir()
	pkiDir := serverPKI(t, dir, "cab-1")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	tlsCfg, err := pki.CabinetTLSDir(pkiDir, "cab-1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := pki.LoadSigningPublicKey(filepath.Join(pkiDir, pki.SigningPub))
	if err != nil {
		t.Fatal(err)
	}
	c, err := link.Dial(link.Config{Addr: addr, TLS: tlsCfg, SigningKey: pub, Retries: 40,
		Backoff: 50 * time.Millisecond, MaxBackoff: 250 * time.Millisecond, CallTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(60*time.Second))
	defer cancel()
	g, err := engine.Lookup(engine.MagicStars)
	if err != nil {
		t.Fatal(err)
	}
	child := startChild(t, dir, addr)
	first, err := c.RequestOutcome(ctx, 1, g.ID(), g.ModelID(), g.Stakes()[0])
	if err != nil {
		child.Process.Kill()
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "central.db-wal")); err != nil {
		child.Process.Kill()
		t.Fatal(err)
	}
	quick, _ := link.Dial(link.Config{Addr: addr, TLS: tlsCfg, SigningKey: pub, Retries: 1, CallTimeout: 5 * time.Second})
	defer quick.Close()
	if _, err := quick.RequestOutcome(ctx, 1, g.ID(), g.ModelID(), g.Stakes()[0]); !strings.Contains(fmt.Sprint(err), "STORE_FAILED") {
		child.Process.Kill()
		t.Fatalf("answered without its WAL: %v", err)
	}
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()

	child = startChild(t, dir, addr)
	defer func() { child.Process.Signal(syscall.SIGTERM); child.Wait() }()
	again, err := c.RequestOutcome(ctx, 1, g.ID(), g.ModelID(), g.Stakes()[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Body, again.Body) {
		t.Fatal("the round came back with other bytes")
	}
}

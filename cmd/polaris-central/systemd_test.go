package main

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// notifySocket opens a unixgram socket where systemd's would be and points
// NOTIFY_SOCKET at it.
func notifySocket(t *testing.T) *net.UnixConn {
	t.Helper()
	dir, err := os.MkdirTemp("", "sd") // short: socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	t.Setenv("NOTIFY_SOCKET", path)
	return c
}

// next returns the next datagram, or "" when none comes within d.
func next(c *net.UnixConn, d time.Duration) string {
	buf := make([]byte, 512)
	c.SetReadDeadline(time.Now().Add(d))
	n, err := c.Read(buf)
	if err != nil {
		return ""
	}
	return string(buf[:n])
}

// waitFor waits up to d (poll.Scaled) for the datagram want.
func waitFor(t *testing.T, c *net.UnixConn, want string, d time.Duration) {
	t.Helper()
	d = poll.Scaled(d)
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if next(c, time.Until(deadline)) == want {
			return
		}
	}
	t.Fatalf("no %s within %v", want, d)
}

// The watchdog is fed only while the check passes: a failing store or
// server stops WATCHDOG=1 (systemd then restarts the service), and it
// resumes once healthy.
func TestWatchdogFedOnlyWhileHealthy(t *testing.T) {
	sock := notifySocket(t)
	t.Setenv("WATCHDOG_USEC", "400000") // 0.4 s: pings every 0.2 s
	t.Setenv("WATCHDOG_PID", "")
	var sick atomic.Bool
	var failed atomic.Int32
	var lastOK atomic.Int64 // when the last passing check returned (Unix ns)
	check := func(context.Context) error {
		if sick.Load() {
			failed.Add(1)
			return errors.New("store writer stuck")
		}
		lastOK.Store(time.Now().UnixNano())
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if !superviseSystemd(ctx, check, t.Logf) {
		t.Fatal("watchdog not enabled with WATCHDOG_USEC set")
	}
	waitFor(t, sock, "WATCHDOG=1", 2*time.Second)
	sick.Store(true)
	// The last healthy beat runs out: a check has failed, and more than the
	// heart's window (half the watchdog's 0.4 s) has passed since the last
	// one that passed; the pings it allowed are read away.
	poll.Until(t, 2*time.Second, "a failed check and the last healthy beat out of date", func() bool {
		return failed.Load() > 0 && time.Since(time.Unix(0, lastOK.Load())) > 300*time.Millisecond
	})
	for next(sock, 10*time.Millisecond) != "" {
	}
	if got := next(sock, time.Second); got != "" {
		t.Fatalf("watchdog fed (%q) while the check fails", got)
	}
	sick.Store(false)
	waitFor(t, sock, "WATCHDOG=1", 2*time.Second)
}

// Without WATCHDOG_USEC (no WatchdogSec=) nothing is started.
func TestNoWatchdogOutsideSystemd(t *testing.T) {
	t.Setenv("WATCHDOG_USEC", "")
	if superviseSystemd(context.Background(), func(context.Context) error { return nil }, t.Logf) {
		t.Fatal("watchdog started without WATCHDOG_USEC")
	}
}

// The real server under a notify socket: READY=1 once it accepts
// connections, WATCHDOG=1 while it runs, STOPPING=1 on SIGTERM.
func TestServeNotifiesSystemd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	sock := notifySocket(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	data := t.TempDir()
	serverPKI(t, data)
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "-data", data, "-listen", addr, "-hall-addr=")
	cmd.Env = append(os.Environ(), "POLARIS_CENTRAL_CHILD=1", "WATCHDOG_USEC=600000")
	cmd.Stderr = os.Stderr
	// Killed with the test binary should it die first (childproc).
	if err := childproc.Start(cmd, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, sock, "READY=1", 30*time.Second)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("READY=1 before the server listens: %v", err)
	}
	c.Close()
	waitFor(t, sock, "WATCHDOG=1", 3*time.Second)
	cmd.Process.Signal(syscall.SIGTERM)
	waitFor(t, sock, "STOPPING=1", 5*time.Second)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
}

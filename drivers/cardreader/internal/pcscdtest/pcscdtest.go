// Package pcscdtest runs a private pcscd for a test: Debian's pcscd with
// the vsmartcard-vpcd virtual reader on a free loopback port, listening
// on a socket in the test's directory. pcscd 1.9 has no option for its
// socket path, but it takes a socket handed over by systemd's
// socket-activation protocol (LISTEN_FDS, LISTEN_PID): the test plays
// systemd's part, so no system pcscd is needed or disturbed, and tests
// running at once never share a reader.
package pcscdtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// VPCDDriver is where Debian's vsmartcard-vpcd installs the reader driver.
const VPCDDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

// Reader names vpcd's two slots get from the friendly name below.
const (
	Slot0 = "Virtual PCD 00 00"
	Slot1 = "Virtual PCD 00 01"
)

// Daemon is one running pcscd.
type Daemon struct {
	Socket string // pcscd's client socket
	Port   int    // vpcd's port for slot 0; slot 1 is Port+1
	dir    string
	t      testing.TB
	ln     *net.UnixListener

	mu  sync.Mutex // the running process
	cmd *exec.Cmd

	logMu sync.Mutex
	log   bytes.Buffer
}

// Start starts pcscd for t and stops it at the end of the test.
func Start(t testing.TB) *Daemon {
	t.Helper()
	hosttools.Need(t, "pcscd")
	if _, err := os.Stat(VPCDDriver); err != nil {
		t.Fatalf("vpcd reader driver missing (Debian package vsmartcard-vpcd, in .ci/apt-packages): %v", err)
	}
	dir := t.TempDir()
	port := freePortPair(t)
	conf := fmt.Sprintf("FRIENDLYNAME \"Virtual PCD\"\nDEVICENAME   /dev/null:%d\nLIBPATH      %s\nCHANNELID    %d\n", port, VPCDDriver, port)
	if err := os.MkdirAll(filepath.Join(dir, "reader.conf.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "reader.conf.d", "vpcd"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &Daemon{Socket: filepath.Join(dir, "pcscd.comm"), Port: port, dir: dir, t: t}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: d.Socket, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(true)
	d.ln = ln
	d.Restart()
	t.Cleanup(func() {
		d.Stop()
		ln.Close()
		if t.Failed() {
			t.Logf("pcscd log:\n%s", d.Log())
		}
	})
	return d
}

// Addr is vpcd's address for slot (0 or 1), where a virtual card connects.
func (d *Daemon) Addr(slot int) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(d.Port+slot))
}

// Restart starts pcscd (again) on the same socket and reader port.
func (d *Daemon) Restart() {
	d.t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cmd != nil {
		d.t.Fatal("pcscdtest: pcscd already running")
	}
	f, err := d.ln.File() // a duplicate: the listener stays ours for the next start
	if err != nil {
		d.t.Fatal(err)
	}
	defer f.Close()
	// LISTEN_PID must be pcscd's own pid: the shell learns it ($$) and
	// execs pcscd in its place, keeping pid and fd 3.
	cmd := exec.Command("sh", "-c", `LISTEN_PID=$$ LISTEN_FDS=1 exec pcscd --foreground --debug --apdu --config "$1"`, "sh", filepath.Join(d.dir, "reader.conf.d"))
	cmd.ExtraFiles = []*os.File{f}
	w := &lockedWriter{mu: &d.logMu, b: &d.log}
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		d.t.Fatalf("pcscd: %v", err)
	}
	d.cmd = cmd
	// vpcd listens once pcscd has loaded the reader: then cards can come.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", d.Addr(1), time.Second)
		if err == nil {
			c.Close() // slot 1: a connection and a close is a card in and out there
			return
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("pcscd: vpcd not listening on %s after 10 s: %v\n%s", d.Addr(1), err, d.Log())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop stops pcscd (SIGTERM, then SIGKILL) and waits for it.
func (d *Daemon) Stop() {
	d.mu.Lock()
	cmd := d.cmd
	d.cmd = nil
	d.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// Log is what pcscd wrote so far.
func (d *Daemon) Log() string {
	d.logMu.Lock()
	defer d.logMu.Unlock()
	return d.log.String()
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// freePortPair finds p with p and p+1 free on loopback (vpcd takes both).
func freePortPair(t testing.TB) int {
	for i := 0; i < 50; i++ {
		a, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := a.Addr().(*net.TCPAddr).Port
		b, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+1)))
		a.Close()
		if err == nil {
			b.Close()
			return p
		}
	}
	t.Fatal("pcscdtest: no free pair of ports")
	return 0
}

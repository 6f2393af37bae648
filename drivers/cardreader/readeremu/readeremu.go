// Package readeremu is the player card reader of the devkit and the tests:
// a private pcscd (Debian's) with the vsmartcard-vpcd virtual reader on a
// free loopback port, listening on a socket in a directory of the caller's;
// cards go into its slots through cardemu. pcscd 1.9 has no option for its
// socket path, but it takes a socket handed over by systemd's
// socket-activation protocol (LISTEN_FDS, LISTEN_PID): Start plays
// systemd's part, so no system pcscd is needed or disturbed (but for
// /run/pcscd/pcscd.pid, which every pcscd writes and removes), and rigs
// running at once never share a reader.
package readeremu

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/drivers/cardreader/cardemu"
)

// VPCDDriver is where Debian's vsmartcard-vpcd installs the reader driver.
const VPCDDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

// Reader names vpcd's two slots get from the friendly name below.
const (
	Slot0 = "Virtual PCD 00 00"
	Slot1 = "Virtual PCD 00 01"
)

// Rig is one running pcscd with its vpcd reader.
type Rig struct {
	Socket string // pcscd's client socket
	Port   int    // vpcd's port for slot 0; slot 1 is Port+1
	dir    string
	ln     *net.UnixListener
	log    io.Writer

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited <-chan struct{} // closed once pcscd is waited for
}

// Start starts pcscd with its socket and configuration in dir; pcscd's
// own log (debug level, APDUs) goes to log (nil: discarded).
func Start(dir string, log io.Writer) (*Rig, error) {
	if _, err := exec.LookPath("pcscd"); err != nil {
		return nil, fmt.Errorf("readeremu: %w (Debian package pcscd)", err)
	}
	if _, err := os.Stat(VPCDDriver); err != nil {
		return nil, fmt.Errorf("readeremu: vpcd reader driver missing (Debian package vsmartcard-vpcd): %w", err)
	}
	port, err := freePortPair()
	if err != nil {
		return nil, err
	}
	conf := fmt.Sprintf("FRIENDLYNAME \"Virtual PCD\"\nDEVICENAME   /dev/null:%d\nLIBPATH      %s\nCHANNELID    %d\n", port, VPCDDriver, port)
	if err := os.MkdirAll(filepath.Join(dir, "reader.conf.d"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "reader.conf.d", "vpcd"), []byte(conf), 0o644); err != nil {
		return nil, err
	}
	if log == nil {
		log = io.Discard
	}
	r := &Rig{Socket: filepath.Join(dir, "pcscd.comm"), Port: port, dir: dir, log: &lockedWriter{w: log}}
	os.Remove(r.Socket) // a socket left by a rig that was killed
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: r.Socket, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("readeremu: %w", err)
	}
	ln.SetUnlinkOnClose(true)
	r.ln = ln
	if err := r.Restart(); err != nil {
		ln.Close()
		return nil, err
	}
	return r, nil
}

// Addr is vpcd's address for slot (0 or 1), where a virtual card connects.
func (r *Rig) Addr(slot int) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(r.Port+slot))
}

// Slot is a card slot of the reader (0 or 1) for cardemu's cards.
func (r *Rig) Slot(slot int) *cardemu.Slot { return cardemu.NewSlot(r.Addr(slot)) }

// Restart starts pcscd (again) on the same socket and reader port, and
// returns once vpcd waits for cards.
func (r *Rig) Restart() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd != nil {
		return errors.New("readeremu: pcscd already running")
	}
	f, err := r.ln.File() // a duplicate: the listener stays ours for the next start
	if err != nil {
		return err
	}
	defer f.Close()
	// LISTEN_PID must be pcscd's own pid: the shell learns it ($$) and
	// execs pcscd in its place, keeping pid and fd 3.
	cmd := exec.Command("sh", "-c", `LISTEN_PID=$$ LISTEN_FDS=1 exec pcscd --foreground --debug --apdu --config "$1"`, "sh", filepath.Join(r.dir, "reader.conf.d"))
	cmd.ExtraFiles = []*os.File{f}
	cmd.Stdout, cmd.Stderr = r.log, r.log
	// Its own process group (a Ctrl-C reaches the devkit, which stops it
	// here) and SIGTERM from the kernel when the devkit dies unstopped
	// (pcscd removes its pid file on SIGTERM).
	if err := childproc.Start(cmd, syscall.SIGTERM); err != nil {
		return fmt.Errorf("readeremu: pcscd: %w", err)
	}
	r.cmd, r.exited = cmd, childproc.Waiter(cmd)
	// vpcd listens once pcscd has loaded the reader: then cards can come.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", r.Addr(1), time.Second)
		if err == nil {
			c.Close() // slot 1: a connection and a close is a card in and out there
			return nil
		}
		if time.Now().After(deadline) {
			r.mu.Unlock()
			r.Stop()
			r.mu.Lock()
			return fmt.Errorf("readeremu: vpcd not listening on %s 10 s after pcscd started: %w", r.Addr(1), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop stops pcscd (SIGTERM, then SIGKILL) and waits for it: the reader
// is lost to its clients until Restart.
func (r *Rig) Stop() {
	r.mu.Lock()
	cmd, exited := r.cmd, r.exited
	r.cmd, r.exited = nil, nil
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	childproc.Stop(cmd, exited, syscall.SIGTERM, 5*time.Second)
}

// Close stops pcscd and removes its socket.
func (r *Rig) Close() error {
	r.Stop()
	return r.ln.Close()
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// freePortPair finds p with p and p+1 free on loopback (vpcd takes both).
func freePortPair() (int, error) {
	for i := 0; i < 50; i++ {
		a, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		p := a.Addr().(*net.TCPAddr).Port
		b, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+1)))
		a.Close()
		if err == nil {
			b.Close()
			return p, nil
		}
	}
	return 0, errors.New("readeremu: no free pair of ports")
}

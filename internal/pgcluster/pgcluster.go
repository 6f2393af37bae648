// Package pgcluster runs a throwaway PostgreSQL cluster for the central
// store's tests and load runs: initdb in a temporary directory, the server
// on a random loopback port as an unprivileged user (initdb refuses root:
// as root it runs as Debian's "postgres" user), stopped and removed after.
// The server (postmaster) is a child of the process that started it
// (childproc), not a daemon of pg_ctl's: should that process die without
// stopping it, the kernel sends it SIGQUIT (immediate shutdown, its
// backends with it), so no PostgreSQL outlives a test or a load run.
package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// User is the database superuser initdb makes.
const User = "polaris"

// Cluster is one running PostgreSQL server.
type Cluster struct {
	Dir  string // owns data/, the socket and log
	Port int
	bin  string
	cred *syscall.Credential // nil: run as ourselves

	server *exec.Cmd       // the postmaster while it runs
	exited <-chan struct{} // closed once it has exited
}

// Bin finds PostgreSQL's server programs: on the PATH, else in Debian's
// /usr/lib/postgresql/<version>/bin (not on the PATH), newest version.
func Bin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("pgcluster: initdb not found (Debian package postgresql)")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// ForTest starts a cluster for t, stopped and removed when t ends. Without
// PostgreSQL's programs it fails or skips as hosttools.Need does.
func ForTest(t testing.TB) *Cluster {
	t.Helper()
	if _, err := Bin(); err != nil {
		hosttools.Need(t, "initdb")
		hosttools.Need(t, "pg_ctl")
	}
	c, err := Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// Start makes a cluster in a new directory under dir ("" the system's
// temporary directory) and starts it. As root the cluster runs as the
// postgres user, which must be able to enter dir.
func Start(dir string) (*Cluster, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	d, err := os.MkdirTemp(dir, "polaris-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: d, bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(d)
			return nil, fmt.Errorf("pgcluster: running as root needs the postgres user (Debian package postgresql): %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(d, uid, gid); err != nil {
			os.RemoveAll(d)
			return nil, err
		}
	}
	if err := c.run("initdb", "-D", c.data(), "-A", "trust", "-U", User, "-E", "UTF8", "--no-sync"); err != nil {
		os.RemoveAll(d)
		return nil, err
	}
	for try := 0; ; try++ {
		if c.Port, err = freePort(); err == nil {
			if err = c.start(); err == nil {
				return c, nil
			}
		}
		if try == 2 {
			os.RemoveAll(d)
			return nil, err
		}
	}
}

func (c *Cluster) data() string { return filepath.Join(c.Dir, "data") }

// Config adds lines to postgresql.conf (applied at the next start).
func (c *Cluster) Config(lines ...string) error {
	f, err := os.OpenFile(filepath.Join(c.data(), "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(strings.Join(lines, "\n") + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// start runs the postmaster as our child and returns once it takes
// connections (a replica: once it is consistent), as pg_ctl -w would.
func (c *Cluster) start() error {
	logf, err := os.OpenFile(filepath.Join(c.Dir, "log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close() // the server has its own copy
	if c.cred != nil {
		logf.Chown(int(c.cred.Uid), int(c.cred.Gid))
	}
	cmd := exec.Command(filepath.Join(c.bin, "postgres"), "-D", c.data(), "-k", c.Dir, "-p", strconv.Itoa(c.Port),
		"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200")
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.Stdout, cmd.Stderr = logf, logf
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	if err := childproc.Start(cmd, syscall.SIGQUIT); err != nil {
		return fmt.Errorf("pgcluster: postgres: %w", err)
	}
	c.server, c.exited = cmd, childproc.Waiter(cmd)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, c.URL("postgres")+"&connect_timeout=2")
		if err == nil {
			conn.Close(ctx)
			return nil
		}
		select {
		case <-c.exited:
			c.server = nil
			log, _ := os.ReadFile(filepath.Join(c.Dir, "log"))
			return fmt.Errorf("pgcluster: postgres exited at start (%v)\n%s", cmd.ProcessState, tail(log))
		case <-ctx.Done():
			c.stopServer(syscall.SIGQUIT)
			log, _ := os.ReadFile(filepath.Join(c.Dir, "log"))
			return fmt.Errorf("pgcluster: postgres not taking connections after a minute: %v\n%s", err, tail(log))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop stops the server with pg_ctl's shutdown mode (fast, immediate)
// and waits for the postmaster to be gone.
func (c *Cluster) stop(mode string) error {
	err := c.run("pg_ctl", "-D", c.data(), "-w", "-m", mode, "stop")
	c.stopServer(syscall.SIGQUIT) // gone already unless pg_ctl failed
	return err
}

// stopServer ends the postmaster started here, if any (sig, then SIGKILL
// after a bound), and waits for it.
func (c *Cluster) stopServer(sig syscall.Signal) {
	if c.server == nil {
		return
	}
	childproc.Stop(c.server, c.exited, sig, 30*time.Second)
	c.server, c.exited = nil, nil
}

// Restart stops the server (fast: open transactions roll back) and starts
// it again on the same port.
func (c *Cluster) Restart() error {
	if err := c.stop("fast"); err != nil {
		return err
	}
	return c.start()
}

// Kill stops the server immediately (no shutdown checkpoint: what a crash
// leaves); Start again with Restart's second half, StartAgain.
func (c *Cluster) Kill() error {
	return c.stop("immediate")
}

// StartAgain starts a stopped cluster on its port.
func (c *Cluster) StartAgain() error { return c.start() }

// Stop stops the server (if it runs) and removes its directory.
func (c *Cluster) Stop() error {
	var err error
	if _, serr := os.Stat(filepath.Join(c.data(), "postmaster.pid")); serr == nil {
		err = c.stop("fast")
	}
	c.stopServer(syscall.SIGQUIT)
	if rerr := os.RemoveAll(c.Dir); err == nil {
		err = rerr
	}
	return err
}

// StartReplica makes a streaming replica of c (pg_basebackup -R: a
// standby that follows c's WAL), starts it on its own port, and makes c
// wait for it at every commit (synchronous_standby_names = '*',
// synchronous_commit on): an answered commit is on both. Stop it as any
// cluster; Promote makes it the primary.
func (c *Cluster) StartReplica() (*Cluster, error) {
	d, err := os.MkdirTemp("", "polaris-pg-replica-")
	if err != nil {
		return nil, err
	}
	r := &Cluster{Dir: d, bin: c.bin, cred: c.cred}
	if c.cred != nil {
		if err := os.Chown(d, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			os.RemoveAll(d)
			return nil, err
		}
	}
	// The server's own version's, beside initdb; else the PATH's
	// (Debian's wrapper).
	basebackup := filepath.Join(c.bin, "pg_basebackup")
	if _, err := os.Stat(basebackup); err != nil {
		if basebackup, err = exec.LookPath("pg_basebackup"); err != nil {
			return nil, fmt.Errorf("pgcluster: %w", err)
		}
	}
	if err := r.runPath(basebackup, "-h", "127.0.0.1", "-p", strconv.Itoa(c.Port), "-U", User, "-D", r.data(), "-R", "-X", "stream", "-c", "fast"); err != nil {
		os.RemoveAll(d)
		return nil, err
	}
	for try := 0; ; try++ {
		if r.Port, err = freePort(); err == nil {
			if err = r.start(); err == nil {
				break
			}
		}
		if try == 2 {
			os.RemoveAll(d)
			return nil, err
		}
	}
	if err := c.Config("synchronous_standby_names = '*'"); err != nil {
		return nil, err
	}
	if err := c.run("pg_ctl", "-D", c.data(), "reload"); err != nil {
		return nil, err
	}
	return r, nil
}

// Promote makes a replica the primary (it then takes writes).
func (c *Cluster) Promote() error {
	return c.run("pg_ctl", "-D", c.data(), "-w", "promote")
}

// URL is the address of database db.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", User, c.Port, db)
}

// FailoverURL names database db on the primary and its replicas: a
// client connects to whichever takes writes (the primary, or the replica
// once promoted).
func FailoverURL(db string, cs ...*Cluster) string {
	var hosts []string
	for _, c := range cs {
		hosts = append(hosts, fmt.Sprintf("127.0.0.1:%d", c.Port))
	}
	return fmt.Sprintf("postgres://%s@%s/%s?sslmode=disable&target_session_attrs=read-write&connect_timeout=2", User, strings.Join(hosts, ","), db)
}

// CreateDatabase makes a new empty database and returns its URL.
func (c *Cluster) CreateDatabase(name string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", err
	}
	return c.URL(name), nil
}

func (c *Cluster) run(prog string, args ...string) error {
	return c.runPath(filepath.Join(c.bin, prog), args...)
}

func (c *Cluster) runPath(prog string, args ...string) error {
	cmd := exec.Command(prog, args...)
	cmd.Dir = c.Dir
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(c.Dir, "log"))
		return fmt.Errorf("pgcluster: %s: %v\n%s%s", filepath.Base(prog), err, out, tail(log))
	}
	return nil
}

func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

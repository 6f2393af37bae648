package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// system is the central system the cabinet plays against when it is not
// the devkit's embedded one: polaris-central serve processes, on one
// throwaway PostgreSQL cluster (-pg: two nodes) or on a SQLite file (one
// node), the cabinet knowing every node's address (-central a,b).
type system struct {
	bin     string // polaris-central
	dir     string
	offline string // the operator's offline PKI: the cabinet's credentials
	pkiDir  string // the nodes' export (server certificate, signing key, registry)
	config  string // the nodes' TOML file ([players] in card mode)
	url     string // PostgreSQL database URL; "" SQLite in node 0's directory
	pg      *pgcluster.Cluster
	nodes   []*node
}

type node struct {
	name, dir, addr string
	cmd             *exec.Cmd
	log             *os.File
	exited          chan struct{}
}

// hallConfig is the nodes' configuration: the cabinet in a hall (the
// nodes admit only the cabinets named there).
const hallConfig = "[halls]\n\"dev-1\" = \"crash-hall\"\n\n"

// startSystem makes the PKI with the cabinet's certificate, starts the
// PostgreSQL cluster when n > 1 (several nodes need a shared store) or pg
// is set, and n nodes.
func startSystem(bin, dir, cabinet string, n int, pg bool, config string) (*system, error) {
	s := &system{bin: bin, dir: dir, offline: filepath.Join(dir, "offline-pki"), pkiDir: filepath.Join(dir, "nodes-pki"), config: config}
	if config == "" {
		s.config = filepath.Join(dir, "central.toml")
		if err := os.WriteFile(s.config, []byte(hallConfig), 0o600); err != nil {
			return nil, err
		}
	}
	if err := s.run("pki", "cabinet", "-dir", s.offline, "-id", cabinet); err != nil {
		return nil, err
	}
	if err := s.run("pki", "export", "-dir", s.offline, "-to", s.pkiDir); err != nil {
		return nil, err
	}
	if pg || n > 1 {
		// The cluster's directory must be one the postgres user can enter.
		cl, err := pgcluster.Start("")
		if err != nil {
			return nil, fmt.Errorf("PostgreSQL: %w", err)
		}
		s.pg = cl
		if s.url, err = cl.CreateDatabase("crash"); err != nil {
			s.stop()
			return nil, fmt.Errorf("PostgreSQL: %w", err)
		}
	}
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			s.stop()
			return nil, err
		}
		addr := l.Addr().String()
		l.Close()
		nd := &node{name: string(rune('a' + i)), dir: filepath.Join(dir, "node-"+string(rune('a'+i))), addr: addr}
		if err := os.MkdirAll(nd.dir, 0o700); err != nil {
			s.stop()
			return nil, err
		}
		s.nodes = append(s.nodes, nd)
		// One at a time: the first applies the store's migrations.
		if err := s.start(nd); err != nil {
			s.stop()
			return nil, err
		}
	}
	return s, nil
}

func (s *system) run(args ...string) error {
	out, err := exec.Command(s.bin, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", s.bin, strings.Join(args, " "), err, out)
	}
	return nil
}

// addrs is the cabinet's -central: every node.
func (s *system) addrs() string {
	var a []string
	for _, n := range s.nodes {
		a = append(a, n.addr)
	}
	return strings.Join(a, ",")
}

// store is what the reconciler reads: the shared database, or the one
// node's SQLite file.
func (s *system) store() string {
	if s.url != "" {
		return s.url
	}
	return filepath.Join(s.nodes[0].dir, "central.db")
}

// start starts a node and waits until it answers on its port and its
// admin socket.
func (s *system) start(n *node) error {
	args := []string{"serve", "-data", n.dir, "-listen", n.addr, "-pki", s.pkiDir, "-hall-addr="}
	if s.config != "" {
		args = append(args, "-config", s.config)
	}
	if s.url != "" {
		args = append(args, "-database", s.url)
	}
	logf, err := os.OpenFile(filepath.Join(s.dir, "node-"+n.name+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	os.Remove(n.socket())
	cmd := exec.Command(s.bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	// SIGTERM from the kernel should the harness die without stopping it.
	if err := childproc.Start(cmd, syscall.SIGTERM); err != nil {
		logf.Close()
		return err
	}
	n.cmd, n.log, n.exited = cmd, logf, make(chan struct{})
	go func() { cmd.Wait(); close(n.exited) }()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		select {
		case <-n.exited:
			return fmt.Errorf("central node %s exited at start (log %s)", n.name, logf.Name())
		default:
		}
		if c, err := net.DialTimeout("tcp", n.addr, time.Second); err == nil {
			c.Close()
			if _, err := os.Stat(n.socket()); err == nil {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("central node %s not listening after a minute (log %s)", n.name, logf.Name())
		}
	}
}

func (n *node) socket() string { return filepath.Join(n.dir, "admin.sock") }

func (n *node) up() bool {
	if n.cmd == nil {
		return false
	}
	select {
	case <-n.exited:
		return false
	default:
		return true
	}
}

// kill is a node's power cut: SIGKILL, nothing flushed.
func (n *node) kill() {
	if !n.up() {
		return
	}
	n.cmd.Process.Signal(syscall.SIGKILL)
	<-n.exited
	n.log.Close()
	n.cmd = nil
}

// admin is the admin socket of a node that runs.
func (s *system) admin() string {
	for _, n := range s.nodes {
		if n.up() {
			return n.socket()
		}
	}
	return ""
}

// stop stops the nodes (SIGTERM) and the cluster.
func (s *system) stop() {
	for _, n := range s.nodes {
		if n.up() {
			n.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-n.exited:
			case <-time.After(10 * time.Second):
				n.cmd.Process.Kill()
				<-n.exited
			}
			n.log.Close()
		}
	}
	if s.pg != nil {
		s.pg.Stop()
	}
}

package loadtest

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/childproc"
)

// node is one polaris-central process (Options.NodeCommand): its own data
// directory and log, the shared PKI export and database, a fixed address
// so that a restart is the same endpoint the cabinets know.
type node struct {
	k      int // 1-based
	addr   string
	dir    string
	config string
	log    string
	argv   []string
	env    []string
	cmd    *exec.Cmd
	exited chan struct{}
}

// setupNodes writes what n nodes need beside dir (dbURL "": one node on
// SQLite in its data directory): the PKI export (never
// the CA key: polaris-central refuses to start beside it), the jackpot
// configuration, and each node's configuration file.
func setupNodes(o Options, dir, offlinePKI, dbURL string, halls map[string]string) ([]*node, error) {
	exported := filepath.Join(dir, "nodes-pki")
	if err := pki.Export(offlinePKI, exported); err != nil {
		return nil, err
	}
	jpPath := filepath.Join(dir, "jackpot.json")
	if !o.NoJackpot {
		cfg := Pools(o.Halls, o.HitGap)
		b, err := json.Marshal(cfg)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(jpPath, b, 0o600); err != nil {
			return nil, err
		}
	}
	cabs := make([]string, 0, len(halls))
	for cab := range halls {
		cabs = append(cabs, cab)
	}
	sort.Strings(cabs)
	addrs, err := freeAddrs(o.Nodes)
	if err != nil {
		return nil, err
	}
	var nodes []*node
	for k := 1; k <= o.Nodes; k++ {
		addr := addrs[k-1]
		nd := &node{k: k, addr: addr, dir: filepath.Join(dir, fmt.Sprintf("node-%d", k))}
		if err := os.MkdirAll(nd.dir, 0o700); err != nil {
			return nil, err
		}
		nd.config = filepath.Join(nd.dir, "central.toml")
		nd.log = filepath.Join(dir, fmt.Sprintf("node-%d.log", k))
		var b strings.Builder
		fmt.Fprintf(&b, "listen = %s\ndata_dir = %s\npki_dir = %s\nnode_id = \"node-%d\"\nallow_unknown_cabinets = false\n",
			strconv.Quote(addr), strconv.Quote(nd.dir), strconv.Quote(exported), k)
		if dbURL != "" { // "": SQLite in data_dir
			fmt.Fprintf(&b, "database = %s\n", strconv.Quote(dbURL))
		}
		if !o.NoJackpot {
			fmt.Fprintf(&b, "jackpot_config = %s\n", strconv.Quote(jpPath))
		}
		b.WriteString("\n[halls]\n")
		for _, cab := range cabs {
			fmt.Fprintf(&b, "%s = %s\n", strconv.Quote(cab), strconv.Quote(halls[cab]))
		}
		if err := os.WriteFile(nd.config, []byte(b.String()), 0o600); err != nil {
			return nil, err
		}
		nd.argv = append(append([]string{}, o.NodeCommand...), "-config", nd.config)
		nd.env = append(os.Environ(), o.NodeEnv...)
		nodes = append(nodes, nd)
	}
	return nodes, nil
}

// start runs the node (its log appended to) and returns once it says it
// listens (its log line, which follows the listener's start) and its gRPC
// port accepts connections: a port that answers is not proof enough, as
// another process may hold it.
func (nd *node) start(timeout time.Duration) error {
	lf, err := os.OpenFile(nd.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	fi, err := lf.Stat()
	if err != nil {
		return err
	}
	from := fi.Size()
	cmd := exec.Command(nd.argv[0], nd.argv[1:]...)
	cmd.Env = nd.env
	cmd.Stdout, cmd.Stderr = lf, lf
	// SIGTERM from the kernel should the load run die without stopping it.
	if err := childproc.Start(cmd, syscall.SIGTERM); err != nil {
		return fmt.Errorf("node %d: %w", nd.k, err)
	}
	nd.cmd = cmd
	exited := make(chan struct{})
	nd.exited = exited
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(timeout)
	for {
		if nd.saysListening(from) {
			c, err := net.DialTimeout("tcp", nd.addr, time.Second)
			if err == nil {
				c.Close()
				return nil
			}
		}
		select {
		case <-exited:
			return fmt.Errorf("node %d exited at start (%s); its log %s:\n%s", nd.k, cmd.ProcessState, nd.log, tailFile(nd.log))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			nd.kill()
			return fmt.Errorf("node %d not listening on %s after %v; its log %s:\n%s", nd.k, nd.addr, timeout, nd.log, tailFile(nd.log))
		}
	}
}

// kill sends SIGKILL (no shutdown of any kind: what a crash or the OOM
// killer does) and waits for the process to be gone.
func (nd *node) kill() {
	if nd.cmd == nil {
		return
	}
	nd.cmd.Process.Signal(syscall.SIGKILL)
	<-nd.exited
	nd.cmd = nil
}

// stop asks the node to stop (SIGTERM: calls in flight finish) and waits.
func (nd *node) stop() {
	if nd.cmd == nil {
		return
	}
	nd.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-nd.exited:
	case <-time.After(15 * time.Second):
		nd.cmd.Process.Signal(syscall.SIGKILL)
		<-nd.exited
	}
	nd.cmd = nil
}

func (nd *node) pid() int {
	if nd.cmd == nil {
		return 0
	}
	return nd.cmd.Process.Pid
}

// databaseLines are the node's own log lines about its database
// connection (server.watchDatabase), for the run's timeline.
func (nd *node) databaseLines() []string {
	b, err := os.ReadFile(nd.log)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "msg=\"database ") || strings.Contains(l, "msg=\"polaris-central listening") {
			out = append(out, fmt.Sprintf("node %d: %s", nd.k, l))
		}
	}
	return out
}

// saysListening reports whether the node's log, after offset from, has its
// "listening" line for its address.
func (nd *node) saysListening(from int64) bool {
	b, err := os.ReadFile(nd.log)
	if err != nil || int64(len(b)) < from {
		return false
	}
	return strings.Contains(string(b[from:]), `msg="polaris-central listening" grpc=`+nd.addr+" ")
}

// freeAddrs picks n distinct free loopback addresses: each listener is held
// until all are picked, so no two nodes get the same port.
func freeAddrs(n int) ([]string, error) {
	var out []string
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		out = append(out, l.Addr().String())
	}
	return out, nil
}

func tailFile(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

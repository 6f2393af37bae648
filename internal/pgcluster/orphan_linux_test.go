package pgcluster_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/internal/pgcluster"
	"github.com/polaris-vlt/polaris/internal/poll"
)

const parentEnv = "PGCLUSTER_TEST_PARENT"

func TestMain(m *testing.M) {
	if os.Getenv(parentEnv) != "" {
		parent()
		return
	}
	os.Exit(m.Run())
}

// parent starts a cluster with a connection open (a backend), says
// "DIR PID" (the cluster's directory, the postmaster's pid) and waits to
// be killed.
func parent() {
	c, err := pgcluster.Start("")
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	defer conn.Close(ctx)
	pid, err := os.ReadFile(filepath.Join(c.Dir, "data", "postmaster.pid"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println(c.Dir, strings.SplitN(string(pid), "\n", 2)[0])
	select {}
}

// A load run or a test SIGKILLed leaves no PostgreSQL: the postmaster,
// its child, gets SIGQUIT from the kernel and ends its backends.
func TestServerEndsWithParent(t *testing.T) {
	if _, err := pgcluster.Bin(); err != nil {
		t.Skip(err)
	}
	p := exec.Command(os.Args[0], "-test.run=^$")
	p.Env = append(os.Environ(), parentEnv+"=1")
	p.Stderr = os.Stderr
	out, err := p.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := childproc.Start(p, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	exited := childproc.Waiter(p)
	t.Cleanup(func() { childproc.Stop(p, exited, syscall.SIGKILL, time.Second) })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("parent: %v", err)
	}
	var dir string
	var postmaster int
	if _, err := fmt.Sscanf(line, "%s %d", &dir, &postmaster); err != nil || !strings.Contains(dir, "polaris-pg-") {
		t.Fatalf("parent said %q", line)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	server := []int{postmaster}
	for _, pid := range allPids() {
		if ppid, ok := parentOf(pid); ok && ppid == postmaster {
			server = append(server, pid)
		}
	}
	t.Cleanup(func() {
		for _, pid := range server {
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	p.Process.Signal(syscall.SIGKILL)
	<-exited
	poll.Until(t, 30*time.Second, "the postmaster and its processes to end with the process that started it", func() bool {
		for _, pid := range server {
			if alive(pid) {
				return false
			}
		}
		return true
	}, func() string { return fmt.Sprint(server) })
}

func allPids() []int {
	ents, _ := os.ReadDir("/proc")
	var ps []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			ps = append(ps, pid)
		}
	}
	return ps
}

// stat is the fields of /proc/PID/stat after the command's name.
func stat(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	f := strings.Fields(s[i+1:])
	return f, len(f) > 2
}

func parentOf(pid int) (int, bool) {
	f, ok := stat(pid)
	if !ok {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

func alive(pid int) bool {
	f, ok := stat(pid)
	return ok && f[0] != "Z" && f[0] != "X"
}

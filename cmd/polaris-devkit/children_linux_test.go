package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/drivers/cardreader/readeremu"
	"github.com/polaris-vlt/polaris/internal/hosttools"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// TestChildrenEndWithDevkit: the devkit's children (its pcscd, the card
// reader of make run, here headless -cards) end with it however it ends:
// a script played to its end, SIGTERM, SIGKILL, a start that fails after
// pcscd started. Its children are recorded from /proc while it runs
// (every process whose parent is the devkit, and theirs); after its end
// none may be alive, nor any process that names its data directory.
func TestChildrenEndWithDevkit(t *testing.T) {
	hosttools.Need(t, "pcscd")
	if _, err := os.Stat(readeremu.VPCDDriver); err != nil {
		if hosttools.Mandatory() {
			t.Fatalf("%v (Debian package vsmartcard-vpcd)", err)
		}
		t.Skipf("%v (Debian package vsmartcard-vpcd)", err)
	}
	bin := filepath.Join(t.TempDir(), "polaris-devkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script := filepath.Join(t.TempDir(), "wait.scn")
	if err := os.WriteFile(script, []byte("sleep 2s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  []string
		end   func(*exec.Cmd) // nil: it ends by itself
		code  int             // its exit code; -1: killed
		ready string          // what it says once started, "" when it fails to start
	}{
		{"exit", []string{"-script", script}, nil, 0, ""},
		{"SIGTERM", nil, func(c *exec.Cmd) { c.Process.Signal(syscall.SIGTERM) }, 0, "headless cabinet running"},
		{"SIGINT", nil, func(c *exec.Cmd) { c.Process.Signal(syscall.SIGINT) }, 0, "headless cabinet running"},
		{"SIGKILL", nil, func(c *exec.Cmd) { c.Process.Signal(syscall.SIGKILL) }, -1, "headless cabinet running"},
		// pcscd starts before the cabinet, whose market cannot be read.
		{"failed start", []string{"-market", "/nonexistent/market.toml"}, nil, 1, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			args := append([]string{"headless", "-cards", "-fast", "-market", "cz", "-data", data}, tc.args...)
			if tc.name == "failed start" {
				args = append([]string{"headless", "-cards", "-data", data}, tc.args...)
			}
			cmd := exec.Command(bin, args...)
			var stderr lockedBuffer
			cmd.Stderr = &stderr
			// The test's own child: should the test die, the devkit goes too.
			if err := childproc.Start(cmd, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			exited := childproc.Waiter(cmd)
			t.Cleanup(func() { childproc.Stop(cmd, exited, syscall.SIGKILL, time.Second) })
			seen := map[int]proc{}
			// A failure leaves nothing behind either.
			t.Cleanup(func() {
				for pid := range left(seen, data) {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			record := func() {
				for pid, p := range descendants(cmd.Process.Pid) {
					seen[pid] = p
				}
			}
			if tc.end != nil {
				poll.Until(t, 60*time.Second, "the devkit to start with its pcscd", func() bool {
					record()
					return strings.Contains(stderr.String(), tc.ready) && hasComm(seen, "pcscd")
				}, stderr.String)
				tc.end(cmd)
			}
			// Until it ends, what it starts is recorded (its pcscd while a
			// script plays, or before a failed start ends it).
			poll.Until(t, 60*time.Second, "the devkit to exit", func() bool {
				select {
				case <-exited:
					return true
				default:
					record()
					return false
				}
			}, stderr.String)
			if got := cmd.ProcessState.ExitCode(); got != tc.code {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", got, tc.code, stderr.String())
			}
			// Stopped in order: the deferred stops ran (main says so after
			// them), pcscd waited for before the devkit exited; the
			// kernel's parent-death signal is for a devkit killed.
			if tc.code != -1 && !strings.Contains(stderr.String(), "polaris-devkit: stopped") {
				t.Errorf("the devkit exited without its deferred stops:\n%s", stderr.String())
			}
			if l := left(seen, data); tc.code != -1 && len(l) > 0 {
				t.Errorf("alive when the devkit had exited (its stops did not run): %v", l)
			}
			if strings.Contains(stderr.String(), "no card reader") {
				t.Fatalf("the devkit started no pcscd:\n%s", stderr.String())
			}
			if tc.end == nil && tc.code == 0 && !hasComm(seen, "pcscd") {
				t.Fatalf("no pcscd seen among the devkit's children while it ran (%v)", seen)
			}
			if _, err := os.Stat(filepath.Join(data, "pcsc", "reader.conf.d", "vpcd")); err != nil {
				t.Fatalf("the devkit did not get as far as starting pcscd: %v\n%s", err, stderr.String())
			}
			poll.Until(t, 15*time.Second, "every child of the devkit to end with it", func() bool {
				return len(left(seen, data)) == 0
			}, func() string { return fmt.Sprint("still running: ", left(seen, data)) })
		})
	}
}

// proc is a process seen in /proc: its start time (field 22, clock ticks
// after boot) tells it from a later one with the same pid.
type proc struct {
	ppid   int
	start  string
	comm   string
	zombie bool
}

func readStat(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return proc{}, false
	}
	f := strings.Fields(s[end+1:]) // state, ppid, … ; starttime is field 22, here 19
	if len(f) < 20 {
		return proc{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	return proc{ppid: ppid, start: f[19], comm: s[open+1 : end], zombie: f[0] == "Z" || f[0] == "X"}, true
}

func pids() []int {
	ents, _ := os.ReadDir("/proc")
	var ps []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			ps = append(ps, pid)
		}
	}
	return ps
}

// descendants are the live processes below root (children, theirs, …).
func descendants(root int) map[int]proc {
	all := map[int]proc{}
	kids := map[int][]int{}
	for _, pid := range pids() {
		if p, ok := readStat(pid); ok && !p.zombie {
			all[pid] = p
			kids[p.ppid] = append(kids[p.ppid], pid)
		}
	}
	out := map[int]proc{}
	for queue := kids[root]; len(queue) > 0; queue = queue[1:] {
		pid := queue[0]
		if _, dup := out[pid]; !dup {
			out[pid] = all[pid]
			queue = append(queue, kids[pid]...)
		}
	}
	return out
}

func hasComm(ps map[int]proc, comm string) bool {
	for _, p := range ps {
		if p.comm == comm {
			return true
		}
	}
	return false
}

// left is what is still alive of seen (the same pid and start time, not
// a zombie), and any live process whose command line names dir.
func left(seen map[int]proc, dir string) map[int]string {
	out := map[int]string{}
	for pid, p := range seen {
		if now, ok := readStat(pid); ok && !now.zombie && now.start == p.start {
			out[pid] = fmt.Sprintf("%s (parent %d)", now.comm, now.ppid)
		}
	}
	for _, pid := range pids() {
		if _, known := seen[pid]; known {
			continue
		}
		cl, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if p, ok := readStat(pid); err == nil && ok && !p.zombie && bytes.Contains(cl, []byte(dir)) {
			out[pid] = fmt.Sprintf("%s (parent %d): %s", p.comm, p.ppid, bytes.ReplaceAll(cl, []byte{0}, []byte{' '}))
		}
	}
	return out
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

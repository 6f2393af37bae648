//go:build display && linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/internal/hosttools"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// TestWindowChildrenEndWithDevkit: make run's devkit (run, the window)
// ends its pcscd when it is sent SIGTERM or SIGINT (the window closes,
// then its deferred stops run: it once exited under them) and when it is
// SIGKILLed. On an X display only (make display-test gives one).
func TestWindowChildrenEndWithDevkit(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("POLARIS_DISPLAY_TEST") != "" {
			t.Fatal("no X display (make display-test runs this on one)")
		}
		t.Skip("no X display")
	}
	hosttools.Need(t, "pcscd")
	bin := filepath.Join(t.TempDir(), "polaris-devkit")
	if out, err := exec.Command("go", "build", "-tags", "display", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 0}, {syscall.SIGINT, 0}, {syscall.SIGKILL, -1}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			data := t.TempDir()
			cmd := exec.Command(bin, "run", "-market", "demo", "-data", data)
			var stderr lockedBuffer
			cmd.Stderr = &stderr
			if err := childproc.Start(cmd, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			exited := childproc.Waiter(cmd)
			t.Cleanup(func() { childproc.Stop(cmd, exited, syscall.SIGKILL, time.Second) })
			seen := map[int]proc{}
			t.Cleanup(func() {
				for pid := range left(seen, data) {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			poll.Until(t, 60*time.Second, "the window devkit to start with its pcscd", func() bool {
				for pid, p := range descendants(cmd.Process.Pid) {
					seen[pid] = p
				}
				return strings.Contains(stderr.String(), "cabinet running") && hasComm(seen, "pcscd")
			}, stderr.String)
			start := time.Now()
			cmd.Process.Signal(tc.sig)
			select {
			case <-exited:
			case <-poll.After(30 * time.Second):
				t.Fatalf("the devkit did not exit 30 s after %v:\n%s", tc.sig, stderr.String())
			}
			if got := cmd.ProcessState.ExitCode(); got != tc.code {
				t.Fatalf("exit code %d after %v, want %d:\n%s", got, tc.sig, tc.code, stderr.String())
			}
			t.Logf("exited %v after %v", time.Since(start).Round(time.Millisecond), tc.sig)
			// Stopped in order: the deferred stops ran (main says so after
			// them), pcscd waited for before the devkit exited; the
			// kernel's parent-death signal is for a devkit killed.
			if tc.sig != syscall.SIGKILL && !strings.Contains(stderr.String(), "polaris-devkit: stopped") {
				t.Errorf("the devkit exited without its deferred stops:\n%s", stderr.String())
			}
			if l := left(seen, data); tc.sig != syscall.SIGKILL && len(l) > 0 {
				t.Errorf("alive when the devkit had exited after %v (its stops did not run): %v", tc.sig, l)
			}
			poll.Until(t, 15*time.Second, "every child of the devkit to end with it", func() bool {
				return len(left(seen, data)) == 0
			}, func() string {
				return "still running: " + strings.TrimSpace(strings.Join(values(left(seen, data)), "; "))
			})
		})
	}
}

func values(m map[int]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

package childproc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// The test binary plays the parent: TestMain runs parent() when this is
// set, which starts its children and reports their pids.
const parentEnv = "CHILDPROC_TEST_PARENT"

// The parent's main goroutine holds the main thread (locked in init, where
// it runs there), which the runtime never ends: the goroutine below runs
// on another thread, which it does end.
func init() {
	if os.Getenv(parentEnv) != "" {
		runtime.LockOSThread()
	}
}

func TestMain(m *testing.M) {
	if os.Getenv(parentEnv) != "" {
		parent()
		return
	}
	os.Exit(m.Run())
}

// parent starts two children from a goroutine locked to its thread, which
// then returns, so the runtime ends that thread: "raw" with the
// parent-death signal set by hand (the kernel ends it with the thread),
// "ours" through Start (forked on Start's own thread: it lives on). It
// prints "raw PID ours PID", then blocks until killed.
func parent() {
	var raw, ours *exec.Cmd
	done := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		raw = exec.Command("sleep", "600")
		raw.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		if err := raw.Start(); err != nil {
			done <- err
			return
		}
		ours = exec.Command("sleep", "600")
		done <- Start(ours, syscall.SIGTERM)
	}()
	if err := <-done; err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	go raw.Wait()
	go ours.Wait()
	fmt.Println("raw", raw.Process.Pid, "ours", ours.Process.Pid)
	select {}
}

// alive: pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && len(s) > i+2 && s[i+2] != 'Z'
}

func TestChildEndsWithParent(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip(err)
	}
	p := exec.Command(os.Args[0], "-test.run=^$")
	p.Env = append(os.Environ(), parentEnv+"=1")
	out, err := p.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.Stderr = os.Stderr
	if err := Start(p, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	exited := Waiter(p)
	defer Stop(p, exited, syscall.SIGKILL, time.Second)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("parent: %v", err)
	}
	var raw, ours int
	if _, err := fmt.Sscanf(line, "raw %d ours %d", &raw, &ours); err != nil {
		t.Fatalf("parent said %q: %v", line, err)
	}
	t.Cleanup(func() { syscall.Kill(raw, syscall.SIGKILL); syscall.Kill(ours, syscall.SIGKILL) })

	// Go's caveat, shown: the child forked on the locked thread that ended
	// got its parent-death signal though its parent lives.
	poll.Until(t, 10*time.Second, "the child forked on an ended thread to be signalled", func() bool { return !alive(raw) })
	if !alive(ours) {
		t.Fatal("the child Start forked ended with the thread of the goroutine that called Start")
	}
	// The parent SIGKILLed: no chance to stop anything; the kernel does.
	p.Process.Signal(syscall.SIGKILL)
	<-exited
	poll.Until(t, 10*time.Second, "the child to end with its SIGKILLed parent", func() bool { return !alive(ours) })
}

func TestStopEndsGroup(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip(err)
	}
	// A shell that ignores SIGTERM, with a child of its own: the bounded
	// wait, then SIGKILL to the whole group.
	cmd := exec.Command("sh", "-c", `trap '' TERM; sleep 600 & echo $!; wait`)
	out, _ := cmd.StdoutPipe()
	if err := Start(cmd, 0); err != nil {
		t.Fatal(err)
	}
	exited := Waiter(cmd)
	var grandchild int
	if _, err := fmt.Fscan(out, &grandchild); err != nil {
		Stop(cmd, exited, 0, time.Second)
		t.Fatal(err)
	}
	start := time.Now()
	Stop(cmd, exited, 0, 200*time.Millisecond)
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("Stop returned after %v: a shell ignoring SIGTERM was not given its grace", d)
	}
	poll.Until(t, 10*time.Second, "the shell's own child to end with its group", func() bool { return !alive(grandchild) })
}

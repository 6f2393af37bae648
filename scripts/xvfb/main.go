// Command xvfb runs a command on a virtual X server of its own, as
// Debian's xvfb-run does, but ends the server with the command however
// either ends: xvfb-run leaves its Xvfb running when it is sent SIGTERM or
// killed. Both are childproc's children (the kernel ends them should this
// program die); SIGINT and SIGTERM are passed on to the command, and the
// server is stopped once the command has exited.
//
//	go run ./scripts/xvfb [-screen 1920x1200x24] -- COMMAND [ARG…]
//
// The command runs with DISPLAY set to the server, which picks a free
// display number itself (-displayfd) and listens on no TCP port. The exit
// status is the command's (128+n when a signal n ended it).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
)

func main() {
	screen := flag.String("screen", "1920x1200x24", "the server's screen 0, WIDTHxHEIGHTxDEPTH")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/xvfb [-screen WxHxD] -- COMMAND [ARG...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(*screen, flag.Args()))
}

func run(screen string, argv []string) int {
	// Signals are caught from the start: none ends this program before
	// its children are stopped.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)

	r, w, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", screen, "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	xlog, err := os.CreateTemp("", "xvfb-*.log")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(xlog.Name())
	defer xlog.Close()
	x.Stdout, x.Stderr = xlog, xlog
	if err := childproc.Start(x, syscall.SIGTERM); err != nil {
		return fail(fmt.Errorf("starting Xvfb: %w (Debian package xvfb)", err))
	}
	w.Close()
	xExited := childproc.Waiter(x)
	defer childproc.Stop(x, xExited, syscall.SIGTERM, 5*time.Second)

	// Xvfb writes its display number once it accepts clients.
	display := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		display <- strings.TrimSpace(line)
	}()
	var n string
	select {
	case n = <-display:
	case <-xExited:
	case <-time.After(30 * time.Second):
	case s := <-sigs:
		return 128 + int(s.(syscall.Signal))
	}
	if n == "" {
		log, _ := os.ReadFile(xlog.Name())
		return fail(fmt.Errorf("no display from Xvfb:\n%s", log))
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "DISPLAY=:"+n)
	if err := childproc.Start(cmd, syscall.SIGTERM); err != nil {
		return fail(err)
	}
	exited := childproc.Waiter(cmd)
	for signalled := false; ; {
		select {
		case <-exited:
			st := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if st.Signaled() {
				return 128 + int(st.Signal())
			}
			return st.ExitStatus()
		case s := <-sigs:
			// The first is passed on to the command's group (its own
			// stop runs); a second ends the group.
			if signalled {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			} else {
				syscall.Kill(-cmd.Process.Pid, s.(syscall.Signal))
			}
			signalled = true
		}
	}
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "xvfb:", err)
	return 1
}

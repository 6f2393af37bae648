package childproc

import (
	"errors"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// Grace is how long Stop waits for a child after the first signal, unless
// told otherwise.
const Grace = 5 * time.Second

type startReq struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	forkerOnce sync.Once
	forker     chan startReq
)

// forkThread is the goroutine every child is started from: locked to its
// thread for the life of the process, so the parent-death signal fires
// when the process ends and not before.
func forkThread() {
	runtime.LockOSThread()
	for r := range forker {
		r.done <- r.cmd.Start()
	}
}

// Start starts cmd in a process group of its own with the parent-death
// signal deathSig (0: SIGKILL) on Linux: the signal the child gets when
// this process ends by any means. Pick the signal the child ends cleanly
// on (pcscd and a central node on SIGTERM; PostgreSQL's postmaster on
// SIGQUIT, which ends its backends too). cmd.SysProcAttr's other fields
// are kept. Only the direct child is covered: a child that execs keeps
// the setting, its own children do not get it.
func Start(cmd *exec.Cmd, deathSig syscall.Signal) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if deathSig == 0 {
		deathSig = syscall.SIGKILL
	}
	setAttr(cmd.SysProcAttr, deathSig)
	forkerOnce.Do(func() {
		forker = make(chan startReq)
		go forkThread()
	})
	done := make(chan error, 1)
	forker <- startReq{cmd: cmd, done: done}
	return <-done
}

// Waiter runs cmd.Wait in a goroutine and returns a channel closed when
// it returned (cmd.ProcessState is set then): the one Wait of a child
// that Stop and the caller both watch.
func Waiter(cmd *exec.Cmd) <-chan struct{} {
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	return exited
}

// Stop ends a child Start started and returns once exited (Waiter's
// channel) is closed: sig (0: SIGTERM) to its process group, up to grace
// (0: Grace) for it to exit, then SIGKILL to the group. A child already
// gone is only waited for. The group's other members are signalled with
// the child, so a shell's or a server's own children go too.
func Stop(cmd *exec.Cmd, exited <-chan struct{}, sig syscall.Signal, grace time.Duration) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	if sig == 0 {
		sig = syscall.SIGTERM
	}
	if grace <= 0 {
		grace = Grace
	}
	select {
	case <-exited:
		signalGroup(cmd, syscall.SIGKILL) // what the leader left in its group
		return
	default:
	}
	signalGroup(cmd, sig)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
	}
	signalGroup(cmd, syscall.SIGKILL)
	<-exited
}

// signalGroup signals cmd's process group (Start made the child its
// leader), or the child alone when it has no group of its own.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	pid := cmd.Process.Pid
	if cmd.SysProcAttr != nil && cmd.SysProcAttr.Setpgid && cmd.SysProcAttr.Pgid == 0 {
		if err := syscall.Kill(-pid, sig); err == nil || !errors.Is(err, syscall.ESRCH) {
			return
		}
	}
	cmd.Process.Signal(sig)
}

package childproc

import "syscall"

// setAttr: the child leads a process group of its own, and the kernel
// sends it sig when the thread that forked it (forkThread's, which lives
// as long as the process) ends. Go sets the parent-death signal in the
// child after any credential change (which would clear it) and checks
// that the parent did not die before it was set.
func setAttr(a *syscall.SysProcAttr, sig syscall.Signal) {
	a.Setpgid = true
	a.Pdeathsig = sig
}

//go:build unix && !linux

package childproc

import "syscall"

// setAttr: a process group of its own; no parent-death signal outside
// Linux (the orderly Stop only).
func setAttr(a *syscall.SysProcAttr, _ syscall.Signal) {
	a.Setpgid = true
}

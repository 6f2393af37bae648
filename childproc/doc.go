// Package childproc starts the long-lived programs a Polaris program or
// test runs beside itself (pcscd, PostgreSQL, central nodes, a cabinet
// under a harness, a virtual X or audio server) so that they end with it:
//
//   - Start puts the child in its own process group (a Ctrl-C at the
//     terminal reaches the parent alone, which stops the child in order)
//     and, on Linux, asks the kernel for a parent-death signal, so that the
//     child ends even when the parent is SIGKILLed, crashes, or is ended
//     by a library calling exit(3) (Xlib's I/O error handler does);
//   - Stop is the orderly end: a signal to the group, a bounded wait, then
//     SIGKILL to the group.
//
// The kernel sends the parent-death signal when the *thread* that forked
// the child exits, not the process. Go's runtime never ends its threads
// but one that a goroutine locked (runtime.LockOSThread) and left locked
// when it returned; a child forked on such a thread would be signalled
// while its parent lives on. Start therefore forks every child on one
// thread of its own: a goroutine that locks its thread and never returns.
//
// A leaf: the standard library only.
package childproc

package games_test

import "syscall"

// threadCPU is the calling thread's CPU time in ns (getrusage
// RUSAGE_THREAD): on a shared machine a benchmark's wall time counts the
// time other processes hold the core, its thread CPU time does not.
func threadCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(1, &ru) != nil { // 1 = RUSAGE_THREAD
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

//go:build !linux

package games_test

func threadCPU() int64 { return 0 }

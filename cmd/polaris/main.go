// Command polaris is the cabinet as installed on a cabinet.
//
//	polaris run [-market demo|FILE] [-board rpi-cabinet|FILE] [-data DIR] [-ledger-a DIR] [-ledger-b DIR]
//	             -central HOST:PORT [-pki DIR] [-id ID] [-fullscreen]
//
// opens the cabinet with its display (display/) on its board's drivers,
// connected to the operator's central system.
//
//	polaris verify
//
// checks the signed software manifest (firmware/verify).
//
// It links no central system, no device emulator and no random source: the
// cabinet mirrors outcomes and makes none (standards check 30; the import
// rules test in the repository root holds it to that). The devkit — the
// same cabinet with emulated devices and an embedded central system, and
// the headless runner — is cmd/polaris-devkit.
package main

import (
	"fmt"
	"os"
)

func usage() {
	fmt.Fprintln(os.Stderr, `usage: polaris <command> [flags]

commands:
  run        run the cabinet with its display, on its board, against the operator's central system
  verify     check the signed software manifest

The devkit (emulated devices, embedded central system, headless scripts) is polaris-devkit.`)
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "verify":
		os.Exit(verifyCmd(os.Args[2:]))
	case "run":
		os.Exit(run(os.Args[2:]))
	default:
		usage()
	}
}

// Command checktools keeps .ci/tools true: every external program the
// repository runs (Makefiles, shell scripts, exec calls in Go) is listed
// there with the Debian package that ships it, and every package is
// installed by the repository: listed in .ci/apt-packages, installed by a
// named script, of priority required in Debian, or on the machine before anything runs
// (Go, git, make). Where dpkg can tell, it also checks that the listed
// package really owns the program found on the PATH. make test runs it
// (make check-tools); it exits 1 naming every problem.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	root := flag.String("root", ".", "the repository")
	verbose := flag.Bool("v", false, "list every program with its package and first use")
	flag.Parse()
	rep, err := Check(*root, DpkgHost{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "check-tools:", err)
		os.Exit(1)
	}
	if *verbose {
		for _, l := range rep.Listing {
			fmt.Println(l)
		}
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(os.Stderr, "check-tools:", p)
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(os.Stderr, "check-tools: %d problems (.ci/tools, .ci/apt-packages)\n", len(rep.Problems))
		os.Exit(1)
	}
	fmt.Printf("check-tools: %d programs, each installed by the repository (%d checked against dpkg)\n", rep.Programs, rep.Verified)
}

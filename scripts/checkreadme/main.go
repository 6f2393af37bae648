// Command checkreadme keeps the READMEs a statement of the contract (issue
// 31): what a package does, how to run it, and its figures, one line each
// with the command that measures it and the date. Run logs, the machine's
// load, and the story of how the code got there belong in CHANGELOG.md or
// an area's MEASUREMENTS.md. It lists every line of prose in a README.md
// or README-<topic>.md (code blocks and code spans are not prose) with
//
//   - a clock time (22:48, 13:13–13:16 UTC; a time format like 18:07:05
//     is not one);
//   - a load average ("load 5–11", "load average 18.5", "at load ≈ 4");
//   - issue or commit history ("before issue 17", "after issue 15",
//     "issue 14's checks", "commit 2e6bcad", a bare short commit hash);
//   - the authors' sessions or helpers ("other sessions' jobs", "this
//     session", "helper's best", "other helpers' builds");
//   - more than one date (a run log's span);
//   - a figure (a bold span with a digit) without both a command (a code
//     span starting make, go, bin/, scripts/, polaris-, ./ or VAR=) and a
//     date (YYYY-MM-DD) on the same line.
//
// Each line is listed once, under the first rule it breaks:
//
//	path:line: rule: text
//
// and the command exits 1 (2 when a file cannot be read). With file
// arguments it checks those files only (its tests use testdata/*.md.txt).
// make test runs it (make check-readme).
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	root := flag.String("root", ".", "the repository (when no files are named)")
	flag.Parse()
	var found []Finding
	files := flag.NArg()
	if files > 0 {
		for _, p := range flag.Args() {
			fs, err := CheckFile(p)
			if err != nil {
				fmt.Fprintln(os.Stderr, "check-readme:", err)
				os.Exit(2)
			}
			found = append(found, fs...)
		}
	} else {
		var err error
		files, found, err = CheckTree(*root)
		if err != nil {
			fmt.Fprintln(os.Stderr, "check-readme:", err)
			os.Exit(2)
		}
	}
	for _, f := range found {
		fmt.Println(f)
	}
	if len(found) > 0 {
		fmt.Fprintf(os.Stderr, "check-readme: %d history lines in %d READMEs: move run logs to CHANGELOG.md or the area's MEASUREMENTS.md; a README keeps one line per figure: the figure, the command, the date\n", len(found), files)
		os.Exit(1)
	}
	fmt.Printf("check-readme: %d READMEs, no history lines\n", files)
}

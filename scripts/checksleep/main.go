// Command checksleep keeps the tests free of sleep as synchronisation
// (issue 30): it lists every call to time.Sleep in a *_test.go file that is
// neither inside a polling loop with a deadline nor marked with a reason.
//
// A sleep is accepted when
//
//   - its innermost enclosing for statement (a range loop too; the search
//     stops at a function literal or declaration) mentions a deadline in its
//     init, condition, post statement or body (function literals and loops
//     nested in it do not count): a call to time.Now, time.Since or time.Until; an
//     identifier whose name contains "deadline" (any case, e.g. ctx.Deadline(),
//     deadline := …); a call into internal/poll (poll.Until, poll.Scaled, …);
//     or a select with a case receiving from time.After, time.Tick,
//     poll.After, a Done() channel (ctx.Done()), a time.NewTimer's C, or a
//     variable assigned from one of those; or
//   - it is marked "// sleep-ok: <reason>" with a non-empty reason, as a
//     comment on the call's line or in the comment block that ends on the
//     line directly above it (the reason may go on over that block's
//     following lines). A comment after code covers its own line only, and
//     "sleep-ok:" without a reason accepts nothing, not even in a loop.
//
// Everything else is listed, one line each:
//
//	path:line: time.Sleep outside a polling loop (use poll.Until, or mark it // sleep-ok: why)
//
// and the command exits 1 (2 when a file does not parse). The import name
// of "time" is resolved per file (an alias, a dot import; a local variable
// of that name is not the package). -v also lists the accepted sleeps and
// why.
// Without arguments it scans every *_test.go under -root (skipping .git,
// testdata, node_modules and vendor); with file arguments it checks those
// files only (its own tests use that on testdata/*.go.txt).
// make test runs it (make check-sleep).
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	root := flag.String("root", ".", "the repository (when no files are named)")
	verbose := flag.Bool("v", false, "also list every accepted sleep and why")
	flag.Parse()
	var rep Report
	var err error
	if flag.NArg() > 0 {
		rep, err = CheckFiles(flag.Args())
	} else {
		rep, err = CheckTree(*root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "check-sleep:", err)
		os.Exit(2)
	}
	if *verbose {
		for _, s := range rep.Allowed {
			fmt.Printf("%s:%d: accepted: %s\n", s.Path, s.Line, s.Why)
		}
	}
	for _, s := range rep.Offending {
		fmt.Println(s.Offence())
	}
	if len(rep.Offending) > 0 {
		fmt.Fprintf(os.Stderr, "check-sleep: %d of %d sleeps in %d test files outside a polling loop (internal/poll; issue 30)\n",
			len(rep.Offending), len(rep.Offending)+len(rep.Allowed), rep.Files)
		os.Exit(1)
	}
	fmt.Printf("check-sleep: %d test files, %d sleeps, each in a deadline loop or marked sleep-ok\n", rep.Files, len(rep.Allowed))
}

// Package hosttools knows the external programs the repository runs and the
// Debian package that ships each, from the table in .ci/tools, the one place
// that says so. Tests that run a program find it with Need: a missing program
// names its package and what installs it, and is a failure wherever the
// tests' packages were installed (make test, CI), a skip elsewhere.
package hosttools

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TableFile is the table's path from the repository root.
const TableFile = ".ci/tools"

// Installers that are not files in the repository.
const (
	// AptList: the package is in .ci/apt-packages, which make deps-test installs.
	AptList = ".ci/apt-packages"
	// Required: a Debian package of priority required, in every Debian root
	// (mmdebstrap's minbase too).
	Required = "required"
	// Machine: on the project's kind of machine before anything runs (the
	// Go toolchain, and git and make, which clone and start .ci/run).
	Machine = "machine"
)

// Tool is one row of the table.
type Tool struct {
	Program string
	// Packages ships the program; more than one where a program comes from
	// either of two (npm: Debian's npm, or the nodejs of another archive).
	Packages []string
	// InstalledBy is AptList, Required, Machine or a repository file that
	// installs the package.
	InstalledBy string
	Line        int
}

// Table maps program names to their rows.
type Table map[string]Tool

// Parse reads the table: "program package[|package] installed-by" a line,
// '#' comments. A malformed or repeated row is an error naming its line.
func Parse(r io.Reader) (Table, error) {
	t := Table{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want 'program package installed-by', got %q", TableFile, n, strings.TrimSpace(line))
		}
		if prev, dup := t[f[0]]; dup {
			return nil, fmt.Errorf("%s:%d: %s already listed on line %d", TableFile, n, f[0], prev.Line)
		}
		t[f[0]] = Tool{Program: f[0], Packages: strings.Split(f[1], "|"), InstalledBy: f[2], Line: n}
	}
	return t, sc.Err()
}

// Root is the repository root: the nearest directory above the working
// directory that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("hosttools: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Load reads the table of the repository at root.
func Load(root string) (Table, error) {
	f, err := os.Open(filepath.Join(root, TableFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f)
}

// Hint says how to get a program: its package and what installs it.
func (t Table) Hint(program string) string {
	tool, ok := t[program]
	if !ok {
		return fmt.Sprintf("%s is not in %s: add it with the Debian package that ships it", program, TableFile)
	}
	pkg := strings.Join(tool.Packages, " or ")
	switch tool.InstalledBy {
	case AptList:
		return fmt.Sprintf("Debian package %s (listed in %s; make deps-test installs it)", pkg, AptList)
	case Required, Machine:
		return fmt.Sprintf("Debian package %s (expected on every machine)", pkg)
	default:
		return fmt.Sprintf("Debian package %s (%s installs it)", pkg, tool.InstalledBy)
	}
}

// Mandatory reports whether a missing program fails a test rather than
// skipping it: under CI=true, and where make test installed the tests'
// packages (POLARIS_TOOLS_REQUIRED=1).
func Mandatory() bool {
	return os.Getenv("CI") == "true" || os.Getenv("POLARIS_TOOLS_REQUIRED") == "1"
}

// TB is the part of testing.TB Need uses.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// Need returns the path of program, the first of alternatives found (for a
// browser known by several names); when none is on the PATH it fails or
// skips the test (see Mandatory) with the Debian package to install.
func Need(t TB, program string, alternatives ...string) string {
	t.Helper()
	return need(t, exec.LookPath, Mandatory(), program, alternatives...)
}

func need(t TB, lookPath func(string) (string, error), required bool, program string, alternatives ...string) string {
	t.Helper()
	for _, name := range append([]string{program}, alternatives...) {
		if p, err := lookPath(name); err == nil {
			return p
		}
	}
	hint := "the Debian package that ships it (" + TableFile + " could not be read)"
	if root, err := Root(); err == nil {
		if table, err := Load(root); err == nil {
			hint = table.Hint(program)
		}
	}
	if required {
		t.Fatalf("%s not found: install %s", program, hint)
	} else {
		t.Skipf("%s not installed: install %s (under make test or CI=true this fails)", program, hint)
	}
	return ""
}

var _ TB = testing.TB(nil)

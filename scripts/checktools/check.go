package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// Host answers what dpkg knows of this machine; a fake in the tests.
type Host interface {
	// Owners maps each program found on the PATH to the packages owning
	// it; a program not on the PATH, or one dpkg cannot tell, is absent.
	Owners(programs []string) map[string][]string
	// Required reports whether a package's priority is required; known is
	// false where dpkg cannot tell (not installed, no dpkg).
	Required(pkg string) (required, known bool)
}

// Report is the outcome of a check.
type Report struct {
	Problems []string
	Listing  []string
	Programs int
	Verified int
}

// Check scans the repository at root and compares what it runs with the
// table and the install list.
func Check(root string, host Host) (Report, error) {
	var rep Report
	table, err := hosttools.Load(root)
	if err != nil {
		return rep, err
	}
	apt, err := aptList(filepath.Join(root, hosttools.AptList))
	if err != nil {
		return rep, err
	}
	uses, err := Scan(root)
	if err != nil {
		return rep, err
	}
	first := map[string]string{}
	for _, u := range uses {
		if _, ok := first[u.Program]; !ok {
			first[u.Program] = u.Where
		}
	}
	var programs []string
	for p := range first {
		programs = append(programs, p)
	}
	sort.Strings(programs)
	rep.Programs = len(programs)
	owned := host.Owners(programs)
	for _, p := range programs {
		tool, ok := table[p]
		if !ok {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s (run at %s) is not in %s: add it with the Debian package that ships it and what installs that", p, first[p], hosttools.TableFile))
			continue
		}
		if prob := checkInstaller(root, tool, apt, host); prob != "" {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s:%d: %s", hosttools.TableFile, tool.Line, prob))
		}
		if tool.InstalledBy != hosttools.Machine {
			if owners, found := owned[p]; found {
				rep.Verified++
				if !overlap(owners, tool.Packages) {
					rep.Problems = append(rep.Problems, fmt.Sprintf("%s:%d: %s on this machine belongs to %s, not %s", hosttools.TableFile, tool.Line, p, strings.Join(owners, ", "), strings.Join(tool.Packages, "|")))
				}
			}
		}
		rep.Listing = append(rep.Listing, fmt.Sprintf("%-24s %-28s %-30s %s", p, strings.Join(tool.Packages, "|"), tool.InstalledBy, first[p]))
	}
	for _, t := range table {
		if _, used := first[t.Program]; !used {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s:%d: %s is listed but nothing runs it: remove the row", hosttools.TableFile, t.Line, t.Program))
		}
	}
	sort.Strings(rep.Problems)
	return rep, nil
}

func checkInstaller(root string, t hosttools.Tool, apt map[string]bool, host Host) string {
	switch t.InstalledBy {
	case hosttools.AptList:
		for _, p := range t.Packages {
			if apt[p] {
				return ""
			}
		}
		return fmt.Sprintf("%s: package %s is not in %s", t.Program, strings.Join(t.Packages, "|"), hosttools.AptList)
	case hosttools.Machine:
		return ""
	case hosttools.Required:
		for _, p := range t.Packages {
			if req, known := host.Required(p); known && !req {
				return fmt.Sprintf("%s: package %s is not of priority required in Debian (not in every root): list it in %s", t.Program, p, hosttools.AptList)
			}
		}
		return ""
	}
	b, err := os.ReadFile(filepath.Join(root, t.InstalledBy))
	if err != nil {
		return fmt.Sprintf("%s: installed by %s, which cannot be read: %v", t.Program, t.InstalledBy, err)
	}
	for _, p := range t.Packages {
		if regexp.MustCompile(`(^|[\s"'(])` + regexp.QuoteMeta(p) + `($|[\s"'):])`).Match(b) {
			return ""
		}
	}
	return fmt.Sprintf("%s: %s does not install package %s", t.Program, t.InstalledBy, strings.Join(t.Packages, "|"))
}

func aptList(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l, _, _ := strings.Cut(sc.Text(), "#")
		for _, w := range strings.Fields(l) {
			m[w] = true
		}
	}
	return m, sc.Err()
}

func overlap(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y || strings.HasPrefix(x, y+":") { // pkg:arch
				return true
			}
		}
	}
	return false
}

// DpkgHost asks this machine's dpkg.
type DpkgHost struct{}

func (DpkgHost) Owners(programs []string) map[string][]string {
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		return nil
	}
	// The real file (alternatives, symlinks), under both names usrmerge
	// gives it; one dpkg-query for all.
	byPath := map[string]string{}
	var paths []string
	for _, prog := range programs {
		p, err := exec.LookPath(prog)
		if err != nil {
			continue
		}
		cands := []string{p}
		if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
			cands = append(cands, r)
		}
		for _, c := range append([]string(nil), cands...) {
			switch {
			case strings.HasPrefix(c, "/usr/bin/"), strings.HasPrefix(c, "/usr/sbin/"):
				cands = append(cands, strings.TrimPrefix(c, "/usr"))
			case strings.HasPrefix(c, "/bin/"), strings.HasPrefix(c, "/sbin/"):
				cands = append(cands, "/usr"+c)
			}
		}
		for _, c := range cands {
			if _, dup := byPath[c]; !dup {
				byPath[c] = prog
				paths = append(paths, c)
			}
		}
	}
	owners := map[string][]string{}
	if len(paths) == 0 {
		return owners
	}
	// Exit status 1 only says some path has no owner; the found ones print.
	out, _ := exec.Command("dpkg-query", append([]string{"-S"}, paths...)...).Output()
	for _, l := range strings.Split(string(out), "\n") {
		pkgs, file, ok := strings.Cut(l, ": ")
		prog, known := byPath[file]
		if !ok || !known {
			continue
		}
		for _, pk := range strings.Split(pkgs, ", ") {
			owners[prog] = append(owners[prog], strings.TrimSpace(pk))
		}
	}
	return owners
}

func (DpkgHost) Required(pkg string) (bool, bool) {
	out, err := exec.Command("dpkg-query", "-W", "-f", "${Priority} ${Status}", pkg).Output()
	if err != nil || !strings.HasSuffix(string(out), " installed") {
		return false, false
	}
	return strings.HasPrefix(string(out), "required "), true
}

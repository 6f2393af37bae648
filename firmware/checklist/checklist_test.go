package checklist

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Checks is how many acceptance checks standards.md §2 lists.
const Checks = 38

var (
	rowRe   = regexp.MustCompile(`^\| checks? (\d+(?:, \d+)*)\b`)
	testRe  = regexp.MustCompile("`(Test\\w+)`")
	fileRe  = regexp.MustCompile("`([\\w.-]+\\.scn)`")
	funcRe  = regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	skipDir = map[string]bool{".git": true, "node_modules": true, "screenshots": true}
)

// problems lists what in readme's check table is not true of the tree
// (tests: every test function name; files: every file base name).
func problems(readme string, tests, files map[string]bool) []string {
	var out []string
	seen := map[int]bool{}
	for _, line := range strings.Split(readme, "\n") {
		m := rowRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, f := range strings.Split(m[1], ", ") {
			n, _ := strconv.Atoi(f)
			seen[n] = true
		}
		names := testRe.FindAllStringSubmatch(line, -1)
		scns := fileRe.FindAllStringSubmatch(line, -1)
		if len(names) == 0 && len(scns) == 0 && !strings.Contains(line, " open") {
			out = append(out, "row without a test that does not say open: "+line[:min(len(line), 80)])
		}
		for _, t := range names {
			if !tests[t[1]] {
				out = append(out, "check "+m[1]+": no test "+t[1])
			}
		}
		for _, f := range scns {
			if !files[f[1]] {
				out = append(out, "check "+m[1]+": no file "+f[1])
			}
		}
	}
	for n := 1; n <= Checks; n++ {
		if !seen[n] {
			out = append(out, "check "+strconv.Itoa(n)+" has no row")
		}
	}
	return out
}

func TestChecklistIsTrue(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "firmware", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	tests, files := map[string]bool{}, map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDir[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		files[d.Name()] = true
		if strings.HasSuffix(p, "_test.go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range funcRe.FindAllStringSubmatch(string(b), -1) {
				tests[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d test functions in the tree", len(tests))
	for _, p := range problems(string(readme), tests, files) {
		t.Error(p)
	}

	// The check can fail: a renamed test, a check without a row, a silent empty row.
	bad := "| check 1 x | `TestGone` |\n| check 2 y | — |\n"
	if got := problems(bad, tests, files); len(got) != 2+Checks-2 {
		t.Errorf("a table with a missing test, an empty row and 36 missing checks gives %d problems: %q", len(got), got)
	}
}

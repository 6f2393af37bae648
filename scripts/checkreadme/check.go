package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Finding is one README line that reads as history, with the rule it
// breaks.
type Finding struct {
	Path string
	Line int
	Rule string
	Text string
}

func (f Finding) String() string {
	text := f.Text
	if len(text) > 100 {
		text = text[:100] + "…"
	}
	return fmt.Sprintf("%s:%d: %s: %s", f.Path, f.Line, f.Rule, strings.TrimSpace(text))
}

// A rule matches a line of prose (code spans and fenced or indented code
// are not prose) and names what makes it history.
type rule struct {
	name  string
	match func(prose, raw string) bool
}

var (
	// 22:48, 13:13–13:16 UTC; not a time of day in a format (18:07:05).
	clockRe = regexp.MustCompile(`(^|[^\d:.])([01]?\d|2[0-3]):[0-5]\d([^\d:]|$)`)
	// load 5–11, load average 18.5, at load ≈ 4, load of ~20, [25–31] is
	// only caught with its clock time.
	loadRe = regexp.MustCompile(`(?i)\bload(\s+average)?(\s+(of|about|at|around|was))*\s*[~≈]?\s*\d`)
	// before issue 17, after issue 15, issue 14's checks, since commit …
	issueRe = regexp.MustCompile(`(?i)\b(before|after|since|until|prior to)\s+(issue|commit)\s+#?\w+|\bissue\s+\d+'s\b|\bcommit\s+[0-9a-f]{7,40}\b`)
	// a short commit hash in brackets or a code span: (a4a4b76), `2e6bcad`
	// (7–12 hex digits with a letter and a digit).
	hashRe = regexp.MustCompile("[(`]([0-9a-f]{7,12})[)`,;]")
	// the authors' sessions and helpers, not the player's session.
	sessionRe = regexp.MustCompile(`(?i)\b(this|other|previous|earlier|same)\s+(helpers?|sessions?|engineers?)('s|')?\b|\bhelpers?('s|')(\s|$)|\bsessions'`)
	dateRe    = regexp.MustCompile(`\b20\d\d-[01]\d-[0-3]\d\b`)
	// a measured figure: a bold span with a number and its unit (a time,
	// a size, a rate, a share, kills, rounds, allocations).
	figureRe = regexp.MustCompile(`\*\*[^*]*\d\s?(ns|µs|ms|s|min|h|KiB|MiB|GiB|%|/s|kills|discrepancies|rounds|allocs|allocations|outcomes)\b[^*]*\*\*`)
	// a command: a code span that runs something.
	commandRe = regexp.MustCompile("`(make|go|bin/|scripts/|polaris-|\\./|POLARIS_|[A-Z_]+=)[^`]*`")
	codeSpan  = regexp.MustCompile("`[^`]*`")
)

func hasHash(s string) bool {
	for _, m := range hashRe.FindAllStringSubmatch(s, -1) {
		if strings.ContainsAny(m[1], "abcdef") && strings.ContainsAny(m[1], "0123456789") {
			return true
		}
	}
	return false
}

var rules = []rule{
	{"clock time", func(p, _ string) bool { return clockRe.MatchString(p) }},
	{"load average", func(p, _ string) bool { return loadRe.MatchString(p) }},
	{"issue or commit history", func(p, raw string) bool { return issueRe.MatchString(p) || hasHash(raw) }},
	{"authors' session or helper", func(p, _ string) bool { return sessionRe.MatchString(p) }},
	{"more than one date", func(_, raw string) bool { return len(distinct(dateRe.FindAllString(raw, -1))) > 1 }},
	{"figure without its command and date", func(_, raw string) bool {
		return figureRe.MatchString(raw) && (!commandRe.MatchString(raw) || !dateRe.MatchString(raw))
	}},
}

func distinct(ss []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		m[s] = true
	}
	return m
}

// CheckFile returns the history lines of one README.
func CheckFile(path string) ([]Finding, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Finding
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	fence, indented, prevBlank := "", false, true
	for n := 1; sc.Scan(); n++ {
		raw := sc.Text()
		trimmed := strings.TrimSpace(raw)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			continue
		}
		// An indented code block starts after a blank line and goes on
		// while lines stay indented (a list item's continuation is not
		// one: it follows its item).
		isIndented := strings.HasPrefix(raw, "    ") || strings.HasPrefix(raw, "\t")
		indented = isIndented && (prevBlank || indented)
		prevBlank = trimmed == ""
		if indented {
			continue
		}
		prose := codeSpan.ReplaceAllString(raw, "``")
		for _, r := range rules {
			if r.match(prose, raw) {
				out = append(out, Finding{Path: path, Line: n, Rule: r.name, Text: raw})
				break
			}
		}
	}
	return out, sc.Err()
}

// skipDirs are never scanned.
var skipDirs = map[string]bool{".git": true, "testdata": true, "node_modules": true, "vendor": true}

// IsReadme: README.md and README-<topic>.md.
func IsReadme(name string) bool {
	return name == "README.md" || strings.HasPrefix(name, "README-") && strings.HasSuffix(name, ".md")
}

// CheckTree checks every README under root; paths are relative to root.
func CheckTree(root string) (files int, found []Finding, err error) {
	var paths []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if IsReadme(d.Name()) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	sort.Strings(paths)
	for _, p := range paths {
		fs, err := CheckFile(p)
		if err != nil {
			return 0, nil, err
		}
		for i := range fs {
			if rel, err := filepath.Rel(root, fs[i].Path); err == nil {
				fs[i].Path = filepath.ToSlash(rel)
			}
		}
		found = append(found, fs...)
	}
	return len(paths), found, nil
}

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The testdata README (named *.md.txt, so the check of the tree never reads
// it) has a contract, figure lines with their command and date, and one
// history line for each rule; the check must list those and nothing else.
func TestHistoryLines(t *testing.T) {
	got, err := CheckFile(filepath.Join("testdata", "history.md.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line int
		rule string
	}{
		{10, "clock time"},
		{11, "load average"},
		{12, "load average"},
		{13, "issue or commit history"},
		{14, "issue or commit history"},
		{15, "authors' session or helper"},
		{16, "authors' session or helper"},
		{17, "more than one date"},
		{18, "figure without its command and date"},
		{19, "figure without its command and date"},
	}
	var lines []int
	for _, f := range got {
		lines = append(lines, f.Line)
	}
	var wantLines []int
	for _, w := range want {
		wantLines = append(wantLines, w.line)
	}
	if !reflect.DeepEqual(lines, wantLines) {
		for _, f := range got {
			t.Log(f)
		}
		t.Fatalf("flagged lines %v, want %v", lines, wantLines)
	}
	for i, w := range want {
		if got[i].Rule != w.rule {
			t.Errorf("line %d: rule %q, want %q", w.line, got[i].Rule, w.rule)
		}
	}
}

// A README with nothing but the contract passes; one planted history line
// in it fails, under README.md and README-<topic>.md alike, and a
// MEASUREMENTS.md beside it (the notebook's place) is not read.
func TestTreePlanted(t *testing.T) {
	root := t.TempDir()
	clean := "# x\n\nThe driver polls every 200 ms.\n\n| **34 rounds/s** | `go test -bench . ./x` | 2026-12-01 |\n"
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/README.md", clean)
	write("a/MEASUREMENTS.md", "Measured at 20:11 UTC, load average 14–20, before issue 17.\n")
	if n, found, err := CheckTree(root); err != nil || n != 1 || len(found) != 0 {
		t.Fatalf("clean tree: %d READMEs, %v, %v", n, found, err)
	}
	write("a/README-load.md", clean+"Measured at load 12–16.\n")
	n, found, err := CheckTree(root)
	if err != nil || n != 2 || len(found) != 1 || found[0].Path != "a/README-load.md" || found[0].Line != 6 {
		t.Fatalf("planted: %d READMEs, %v, %v", n, found, err)
	}
}

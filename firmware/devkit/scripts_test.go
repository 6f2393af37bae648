package devkit

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/scenario"
)

// The scripts in testdata run against a headless devkit cabinet: real
// drivers against emulators over pseudo-terminals, the embedded central
// system, the ledger on disk.
func TestScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.scn")
	if len(files) == 0 {
		t.Fatal("no scripts")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runScript(t, f, "demo") })
	}
}

// The README's headless example runs as written: its market and its
// script (once it named -market cz with a script written for euros).
func TestREADMEHeadlessExampleRuns(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`bin/polaris-devkit headless -market (\\w+) -script firmware/devkit/(testdata/[\\w.-]+)`").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no `bin/polaris-devkit headless -market M -script firmware/devkit/testdata/…` example")
	}
	runScript(t, string(m[2]), string(m[1]))
}

// runScript plays a scenario file on a headless cabinet of market.
func runScript(t *testing.T, f, market string) {
	t.Helper()
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := scenario.Parse(strings.NewReader(string(src)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h, err := StartHeadless(ctx, app.Options{DataDir: t.TempDir(), Market: market, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := scenario.Run(ctx, h, steps); err != nil {
		t.Fatal(err)
	}
}

// A script that expects something false fails: the runner checks.
func TestScriptThatShouldFailFails(t *testing.T) {
	steps, _ := scenario.Parse(strings.NewReader("wait idle\nexpect credit 1\n"))
	h, err := StartHeadless(context.Background(), app.Options{DataDir: t.TempDir(), Market: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := scenario.Run(context.Background(), h, steps); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("error %v", err)
	}
}

package scenario

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/app"
)

func TestParseRefusesBadScripts(t *testing.T) {
	for _, bad := range []string{
		"jump start", "press", "door main ajar", "key attendant maybe", "sleep soon",
		"expect credit lots", "expect meter coin_in", "power on", "note ten",
	} {
		if _, err := Parse(strings.NewReader("wait idle\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: error %v, want one naming line 2", bad, err)
		}
	}
}

// The scripts in testdata run against a headless devkit cabinet: real
// drivers against emulators over pseudo-terminals, the embedded central
// system, the ledger on disk.
func TestScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.scn")
	if len(files) == 0 {
		t.Fatal("no scripts")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			steps, err := Parse(strings.NewReader(string(src)))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			h, err := StartHeadless(ctx, app.Options{DataDir: t.TempDir(), Market: "demo", Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if err := Run(ctx, h, steps); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A script that expects something false fails: the runner checks.
func TestScriptThatShouldFailFails(t *testing.T) {
	steps, _ := Parse(strings.NewReader("wait idle\nexpect credit 1\n"))
	h, err := StartHeadless(context.Background(), app.Options{DataDir: t.TempDir(), Market: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := Run(context.Background(), h, steps); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("error %v", err)
	}
}

package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// A cabinet installed from the package runs on the profile files in
// /etc/polaris (the copies the signed manifest covers) and keeps its
// ledger's second copy on another medium.
func TestProfilesFromFilesAndLedgerCopiesApart(t *testing.T) {
	dir := t.TempDir()
	etc := filepath.Join(dir, "etc")
	copyFile(t, "../../market/profiles/cz.toml", filepath.Join(etc, "cz.toml"))
	copyFile(t, "../../board/profiles/devkit.toml", filepath.Join(etc, "devkit.toml"))
	second := filepath.Join(dir, "second-medium", "ledger-b")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := start(ctx, app.Options{DataDir: filepath.Join(dir, "data"), Market: filepath.Join(etc, "cz.toml"),
		Board: filepath.Join(etc, "devkit.toml"), LedgerB: second, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Market.ID != "cz" || a.Board == nil || a.kit.Devices().Acceptor == nil {
		t.Fatalf("market %q, board %+v: not the files given", a.Market.ID, a.Board)
	}
	go a.Run(ctx)
	waitFor(t, a.App, "idle", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
	for _, p := range []string{filepath.Join(dir, "data", "ledger-a", "ledger.db"), filepath.Join(second, "ledger.db")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("ledger copy missing: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "ledger-b")); err == nil {
		t.Error("the second copy was also made in the data directory")
	}
}

// A broken profile file is refused before anything is opened.
func TestBrokenProfileFileRefused(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "cz.toml")
	os.WriteFile(bad, []byte("id = \"cz\"\ncurrency = 7\n"), 0o600)
	_, err := start(context.Background(), app.Options{DataDir: filepath.Join(dir, "data"), Market: bad})
	if err == nil || !strings.Contains(err.Error(), "market") {
		t.Fatalf("broken market file: err %v", err)
	}
	if _, err := start(context.Background(), app.Options{DataDir: filepath.Join(dir, "data2"), Board: filepath.Join(dir, "none.toml")}); err == nil {
		t.Fatal("a missing board file was accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "ledger-a", "ledger.db")); err == nil {
		t.Error("a ledger was created for a refused profile")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Check 9 through the app: the digest gate hands over is what the cabinet
// compares with the last start's; a development build (no id) is not
// checked, so a rebuilt devkit plays on.
func TestSoftwareChangeLocksThroughTheApp(t *testing.T) {
	dir := t.TempDir()
	boot := func(id string) (*devApp, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		a, err := start(ctx, app.Options{DataDir: dir, Market: "demo", SoftwareID: id, SoftwareVersion: "test", Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		go a.Run(ctx)
		return a, cancel
	}
	stop := func(a *devApp, cancel context.CancelFunc) { cancel(); a.Close() }
	changed := func(s *view.Snapshot) bool {
		for _, x := range s.Tilts {
			if strings.Contains(strings.ToLower(x), "software") {
				return true
			}
		}
		return false
	}
	a, c := boot("sha256:aa")
	s := waitFor(t, a.App, "idle", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
	if changed(s) {
		t.Fatal("the first start locked up")
	}
	stop(a, c)
	a, c = boot("sha256:bb")
	waitFor(t, a.App, "software change lockup", changed)
	stop(a, c)
	a, c = boot("")
	waitFor(t, a.App, "still locked with no id given", changed)
	stop(a, c)
}

// Package zbar decodes barcodes in PNG images with Debian's zbarimg
// (zbar-tools), for tests that prove a rendered ticket scans. Under CI=true
// a missing zbarimg fails the test (make test installs it); elsewhere it skips.
package zbar

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tb is the part of testing.TB Decode uses (so its own test can fake it).
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
	Fatal(args ...any)
	Skip(args ...any)
	TempDir() string
}

// Decode returns every Interleaved 2 of 5 symbol zbarimg finds in png.
func Decode(t testing.TB, png []byte) []string {
	t.Helper()
	return decode(t, png, exec.LookPath, os.Getenv("CI"))
}

// DecodeAll reads every symbology zbarimg knows (and Interleaved 2 of 5,
// which it leaves off by default) and returns "TYPE:data" lines, e.g.
// "QR-Code:https://…", "CODE-128:ABC", "EAN-13:4006381333931", "I2/5:0012…".
func DecodeAll(t testing.TB, png []byte) []string {
	t.Helper()
	return runZbar(t, png, exec.LookPath, os.Getenv("CI"), "--quiet", "--nodbus", "-Si25.enable")
}

func decode(tb tb, png []byte, lookPath func(string) (string, error), ci string) []string {
	tb.Helper()
	// Only I25 is enabled, so nothing else can be mistaken for the ticket's symbol.
	return runZbar(tb, png, lookPath, ci, "--quiet", "--raw", "--nodbus", "-Sdisable", "-Si25.enable")
}

func runZbar(tb tb, png []byte, lookPath func(string) (string, error), ci string, args ...string) []string {
	tb.Helper()
	bin, err := lookPath("zbarimg")
	if err != nil {
		if ci == "true" {
			tb.Fatalf("zbarimg not found under CI=true (Debian package zbar-tools, listed in .ci/apt-packages): %v", err)
		}
		tb.Skip("zbarimg not installed (apt-get install zbar-tools)")
	}
	f := filepath.Join(tb.TempDir(), "ticket.png")
	if err := os.WriteFile(f, png, 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, append(args, f)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		// exit status 4 = no symbol found; the caller's assertion reports it.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 4 {
			tb.Fatalf("zbarimg: %v: %s", err, errb.String())
		}
	}
	var syms []string
	for _, l := range strings.Split(out.String(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			syms = append(syms, l)
		}
	}
	return syms
}

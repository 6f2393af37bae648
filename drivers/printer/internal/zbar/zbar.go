// Package zbar decodes barcodes in PNG images with Debian's zbarimg
// (zbar-tools), for tests that prove a rendered ticket scans. A missing
// zbarimg fails the test under make test and CI, and skips it elsewhere
// (internal/hosttools).
package zbar

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// Decode returns every Interleaved 2 of 5 symbol zbarimg finds in png.
func Decode(t testing.TB, png []byte) []string {
	t.Helper()
	// Only I25 is enabled, so nothing else can be mistaken for the ticket's symbol.
	return run(t, png, "--quiet", "--raw", "--nodbus", "-Sdisable", "-Si25.enable")
}

// DecodeAll reads every symbology zbarimg knows (and Interleaved 2 of 5,
// which it leaves off by default) and returns "TYPE:data" lines, e.g.
// "QR-Code:https://…", "CODE-128:ABC", "EAN-13:4006381333931", "I2/5:0012…".
func DecodeAll(t testing.TB, png []byte) []string {
	t.Helper()
	return run(t, png, "--quiet", "--nodbus", "-Si25.enable")
}

func run(t testing.TB, png []byte, args ...string) []string {
	t.Helper()
	bin := hosttools.Need(t, "zbarimg")
	f := filepath.Join(t.TempDir(), "ticket.png")
	if err := os.WriteFile(f, png, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append(args, f)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		// exit status 4 = no symbol found; the caller's assertion reports it.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 4 {
			t.Fatalf("zbarimg: %v: %s", err, errb.String())
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

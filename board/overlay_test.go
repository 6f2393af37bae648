package board

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// Every rpi-cabinet pin that is not a header GPIOn must be named by the
// lamp overlay, or the cabinet would refuse to start; the overlay must
// compile with dtc (device-tree-compiler, installed by make test).
func TestLampOverlayNamesTheProfilesLines(t *testing.T) {
	src, err := os.ReadFile("overlays/polaris-lamps-overlay.dts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)gpio-line-names\s*=(.*?);`).FindSubmatch(src)
	if m == nil {
		t.Fatal("no gpio-line-names in the overlay")
	}
	named := map[string]bool{}
	for _, q := range regexp.MustCompile(`"([^"]*)"`).FindAllSubmatch(m[1], -1) {
		named[string(q[1])] = true
	}
	if n := len(regexp.MustCompile(`"[^"]*"`).FindAll(m[1], -1)); n != 16 {
		t.Errorf("%d line names, an MCP23017 has 16 lines", n)
	}
	p, err := Load("rpi-cabinet")
	if err != nil {
		t.Fatal(err)
	}
	cfg := p.GPIOConfig()
	header := regexp.MustCompile(`^GPIO([0-9]|1[0-9]|2[0-7])$`)
	for _, l := range append(cfg.InputLines(), cfg.OutputLines()...) {
		if !header.MatchString(l.Name) && !named[l.Name] {
			t.Errorf("%s on %q: neither a header GPIO nor named by the overlay", l.Use, l.Name)
		}
	}
	dtc := hosttools.Need(t, "dtc")
	out := filepath.Join(t.TempDir(), "polaris-lamps.dtbo")
	if b, err := exec.Command(dtc, "-@", "-I", "dts", "-O", "dtb", "-o", out, "overlays/polaris-lamps-overlay.dts").CombinedOutput(); err != nil {
		t.Fatalf("dtc: %v\n%s", err, b)
	}
	dtb, _ := os.ReadFile(out)
	if !strings.Contains(string(dtb), "LAMP_COLLECT") {
		t.Error("compiled overlay lacks the line names")
	}
}

package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// The repository as it stands passes: every program it runs is listed and
// installed by it, and owned by the listed package where dpkg can tell.
func TestRepository(t *testing.T) {
	root, err := hosttools.Root()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Check(root, DpkgHost{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		t.Error(p)
	}
	if rep.Programs < 50 {
		t.Errorf("only %d programs found: the scan lost some", rep.Programs)
	}
}

type fakeHost struct {
	owners   map[string][]string
	required map[string]bool
}

func (h fakeHost) Owners([]string) map[string][]string { return h.owners }
func (h fakeHost) Required(p string) (bool, bool)      { r, ok := h.required[p]; return r, ok }

// repo writes a small repository: a Makefile, a script, a Go test.
func repo(t *testing.T, tools, apt string) string {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":           "module example\n",
		".ci/tools":        tools,
		".ci/apt-packages": apt,
		"Makefile":         "XVFB := xvfb-run -a -s \"-screen 0 8x8x24\"\ncheck:\n\t@$(XVFB) $(GO) test ./...\n\tscripts/t.sh\n",
		"scripts/t.sh":     "#!/usr/bin/env bash\nfail() { echo \"$*\" >&2; exit 1; }\ncommand -v udevadm >/dev/null || fail missing\ntimeout 30 udevadm test /sys/class/tty/tty0\n",
		"x/x_test.go":      "package x\nimport \"os/exec\"\nfunc f() { exec.Command(\"dtc\", \"-v\") }\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const smallTable = `go        golang-go             machine
xvfb-run  xvfb                  .ci/apt-packages
udevadm   udev                  .ci/apt-packages
timeout   coreutils             required
dtc       device-tree-compiler  .ci/apt-packages
`
const smallApt = "xvfb\nudev\ndevice-tree-compiler\n"

func problems(t *testing.T, tools, apt string, host Host) []string {
	t.Helper()
	rep, err := Check(repo(t, tools, apt), host)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Problems
}

func TestSmallRepositoryPasses(t *testing.T) {
	if p := problems(t, smallTable, smallApt, fakeHost{}); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
}

// Each way the table can lie is found, with the program named.
func TestFindsEveryLie(t *testing.T) {
	for _, c := range []struct {
		name, tools, apt, want string
		host                   fakeHost
	}{
		{"program run but not listed", strings.Replace(smallTable, "udevadm   udev                  .ci/apt-packages\n", "", 1), smallApt,
			"udevadm (run at scripts/t.sh:3) is not in .ci/tools", fakeHost{}},
		{"package not in the install list", smallTable, "xvfb\ndevice-tree-compiler\n",
			"udevadm: package udev is not in .ci/apt-packages", fakeHost{}},
		{"listed but not run", smallTable + "lintian lintian .ci/apt-packages\n", smallApt + "lintian\n",
			"lintian is listed but nothing runs it", fakeHost{}},
		{"owned by another package", smallTable, smallApt,
			"udevadm on this machine belongs to systemd, not udev", fakeHost{owners: map[string][]string{"udevadm": {"systemd"}}}},
		{"not of priority required", smallTable, smallApt,
			"package coreutils is not of priority required", fakeHost{required: map[string]bool{"coreutils": false}}},
		{"installer that does not install it", strings.Replace(smallTable, "dtc       device-tree-compiler  .ci/apt-packages", "dtc device-tree-compiler scripts/t.sh", 1), smallApt,
			"dtc: scripts/t.sh does not install package device-tree-compiler", fakeHost{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := problems(t, c.tools, c.apt, c.host)
			if !strings.Contains(strings.Join(p, "\n"), c.want) {
				t.Errorf("problems %q, want one containing %q", p, c.want)
			}
		})
	}
}

// The shell scan sees through wrappers, sh -c, make variables and
// functions, and names what a variable or array hides only by "# tools:".
func TestScanShell(t *testing.T) {
	src := `#!/usr/bin/env bash
# tools: qemu-aarch64-static
set -euo pipefail
here=$(dirname "$0")
q=(qemu-aarch64-static -L /)
die() { echo "$1"; exit 1; }
$sudo apt-get update -qq
sudo -u nobody env A=1 nice -n 5 setsid -w sh -c 'exec lintian --version | grep -q x'
timeout -k 5 30 xvfb-run -a -s "-screen 0 8x8x24" Xvfb :9
CC=aarch64-linux-gnu-gcc go build ./...
"$here/../scripts/need-tools.sh" udevadm
find . -name x -exec stat {} +
"$NFPM" package
./bin/polaris headless
/usr/bin/python3 x.py
die nope
`
	uses, err := scanShell("t.sh", src, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	seen := map[string]bool{}
	for _, u := range uses {
		if !seen[u.Program] {
			seen[u.Program] = true
			got = append(got, u.Program)
		}
	}
	sort.Strings(got)
	want := "Xvfb aarch64-linux-gnu-gcc apt-get dirname env exec? find go grep lintian nice python3 qemu-aarch64-static setsid sh stat sudo timeout udevadm xvfb-run"
	want = strings.Replace(want, " exec?", "", 1)
	if strings.Join(got, " ") != want {
		t.Errorf("programs\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestExpandMake(t *testing.T) {
	vars := map[string]string{"GO": "go", "BIN": "bin", "XVFB": "xvfb-run -a", "TOOL": "$(BIN)/tools/nfpm"}
	var shells []string
	got := expandMake(`$(XVFB) $(GO) test $(if $(X),-x) && $(TOOL) pkg; echo $$HOME $(shell git rev-parse HEAD)`, vars, &shells, 0)
	if want := `xvfb-run -a go test $MAKEFN && bin/tools/nfpm pkg; echo $HOME $MAKEFN`; got != want {
		t.Errorf("expand\n got %s\nwant %s", got, want)
	}
	if len(shells) != 1 || shells[0] != "git rev-parse HEAD" {
		t.Errorf("shells %q", shells)
	}
}

package hosttools

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

type fakeTB struct {
	failed, skipped bool
	msg             string
}

func (f *fakeTB) Helper() {}

// Fatalf and Skipf stop the helper the way the real ones do (Goexit).
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, format
	runtime.Goexit()
}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skipped, f.msg = true, format
	runtime.Goexit()
}

func run(required bool, found map[string]string, program string, alts ...string) (*fakeTB, string) {
	f := &fakeTB{}
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = need(f, func(name string) (string, error) {
			if p, ok := found[name]; ok {
				return p, nil
			}
			return "", errors.New("not found")
		}, required, program, alts...)
	}()
	<-done
	return f, got
}

// A missing program fails where make test installed the packages, skips
// elsewhere; an alternative name is found.
func TestNeed(t *testing.T) {
	if f, _ := run(true, nil, "zbarimg"); !f.failed || f.skipped {
		t.Errorf("required: failed=%v skipped=%v", f.failed, f.skipped)
	}
	if f, _ := run(false, nil, "zbarimg"); f.failed || !f.skipped {
		t.Errorf("not required: failed=%v skipped=%v", f.failed, f.skipped)
	}
	if f, p := run(true, map[string]string{"chromium-browser": "/usr/bin/chromium-browser"}, "chromium", "chromium-browser"); f.failed || p != "/usr/bin/chromium-browser" {
		t.Errorf("alternative: failed=%v path=%q", f.failed, p)
	}
}

// The hint names the package and what installs it, from the real table.
func TestHintFromTable(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	table, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for prog, want := range map[string]string{
		"udevadm":             "Debian package udev (listed in .ci/apt-packages",
		"qemu-aarch64-static": "Debian package qemu-user-static (systemd/tools/arm64-deps.sh installs it)",
		"no-such-program":     "not in .ci/tools",
	} {
		if got := table.Hint(prog); !strings.Contains(got, want) {
			t.Errorf("Hint(%s) = %q, want %q", prog, got, want)
		}
	}
}

func TestParseRefusesBadRows(t *testing.T) {
	for _, in := range []string{"udevadm udev\n", "a b c\na d e\n"} {
		if _, err := Parse(strings.NewReader(in)); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}

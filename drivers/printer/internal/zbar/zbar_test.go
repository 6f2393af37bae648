package zbar

import (
	"errors"
	"runtime"
	"testing"
)

type fakeTB struct {
	failed, skipped bool
}

func (f *fakeTB) Helper()         {}
func (f *fakeTB) TempDir() string { return "" }

// Fatalf and Skip stop the helper the way the real ones do (Goexit), and
// record which one was called.
func (f *fakeTB) Fatalf(format string, args ...any) { f.failed = true; runtime.Goexit() }
func (f *fakeTB) Fatal(args ...any)                 { f.failed = true; runtime.Goexit() }
func (f *fakeTB) Skip(args ...any)                  { f.skipped = true; runtime.Goexit() }

func run(ci string) *fakeTB {
	f := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		decode(f, nil, func(string) (string, error) { return "", errors.New("not found") }, ci)
	}()
	<-done
	return f
}

// Without zbarimg the helper fails under CI=true and skips elsewhere.
func TestMissingZbarimg(t *testing.T) {
	for _, c := range []struct {
		ci         string
		fail, skip bool
	}{{"true", true, false}, {"", false, true}, {"false", false, true}} {
		f := run(c.ci)
		if f.failed != c.fail || f.skipped != c.skip {
			t.Errorf("CI=%q: failed=%v skipped=%v", c.ci, f.failed, f.skipped)
		}
	}
}

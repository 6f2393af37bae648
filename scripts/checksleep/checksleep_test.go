package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Each testdata file (named *.go.txt, so the check of the tree never reads
// them) with the lines of the sleeps the check must list; every other sleep
// in it must be accepted.
func TestCases(t *testing.T) {
	cases := []struct {
		file     string
		flagged  []int
		accepted int
	}{
		// Sleep, then assert what a goroutine should have done; loops that
		// only pace (a counter, a range) are no polling loops.
		{"sleep_then_assert.go.txt", []int{12, 21, 24}, 0},
		// Deadlines in init, condition, body; a select on poll.After and on
		// ctx.Done; a field named deadline; a poll call.
		{"deadline_loop.go.txt", nil, 7},
		// sleep-ok on the line, on the line above, in the block above; a
		// trailing comment does not cover the next line, a blank line breaks it.
		{"allow_comment.go.txt", []int{19, 26}, 4},
		// sleep-ok: without a reason accepts nothing, not even in a loop.
		{"empty_reason.go.txt", []int{7, 8, 11}, 0},
		// import tm "time": tm.Sleep is caught; a local value named time is not the package.
		{"alias.go.txt", []int{13}, 1},
		// import . "time": a bare Sleep is caught.
		{"dot.go.txt", []int{6}, 1},
		// A sleep in a function literal inside a deadline loop is not in
		// that loop; the innermost loop decides; a nested loop's deadline
		// is not the outer loop's.
		{"funclit.go.txt", []int{12, 21, 27, 38}, 1},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", c.file)
			rep, err := CheckFiles([]string{path})
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, s := range rep.Offending {
				got = append(got, s.Line)
				if s.Path != path || s.Why != "" {
					t.Errorf("offending %+v", s)
				}
			}
			if !reflect.DeepEqual(got, c.flagged) {
				t.Errorf("flagged lines %v, want %v", got, c.flagged)
			}
			if len(rep.Allowed) != c.accepted {
				t.Errorf("%d accepted, want %d: %+v", len(rep.Allowed), c.accepted, rep.Allowed)
			}
			for _, s := range rep.Allowed {
				if s.Why == "" {
					t.Errorf("accepted without a reason: %+v", s)
				}
			}
		})
	}
}

// The reasons -v prints: the comment's text (over the block's lines), or
// the loop's deadline.
func TestReasons(t *testing.T) {
	rep, err := CheckFiles([]string{"testdata/allow_comment.go.txt", "testdata/deadline_loop.go.txt"})
	if err != nil {
		t.Fatal(err)
	}
	why := map[int]string{}
	for _, s := range rep.Allowed {
		if s.Path == "testdata/allow_comment.go.txt" {
			why[s.Line] = s.Why
		}
	}
	want := map[int]string{
		6:  "sleep-ok: the emulator's byte gap, on the same line",
		8:  "sleep-ok: the device needs 5 ms between commands (line above)",
		12: "sleep-ok: a reason that goes on over the next line of the block",
		13: "sleep-ok: the other side's late answer",
	}
	if !reflect.DeepEqual(why, want) {
		t.Errorf("reasons %v, want %v", why, want)
	}
	if s := rep.Allowed[len(rep.Allowed)-1]; !strings.HasPrefix(s.Why, "in a polling loop (") {
		t.Errorf("last accepted %+v", s)
	}
}

// The tree walk reads *_test.go only, skips testdata, vendor, node_modules
// and .git, and names files relative to the root.
func TestTree(t *testing.T) {
	root := t.TempDir()
	sleepy := "package x\n\nimport \"time\"\n\nfunc f() {\n\ttime.Sleep(1)\n}\n"
	for _, name := range []string{
		"a/a_test.go", "a/a.go", "a/testdata/b_test.go", "vendor/v/v_test.go",
		"web/node_modules/n/n_test.go", ".git/g_test.go", "c_test.go.txt",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(sleepy), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := CheckTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != 1 || len(rep.Offending) != 1 || len(rep.Allowed) != 0 {
		t.Fatalf("report %+v, want a/a_test.go's sleep only", rep)
	}
	want := "a/a_test.go:6: time.Sleep outside a polling loop (use poll.Until, or mark it // sleep-ok: why)"
	if got := rep.Offending[0].Offence(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// A file that does not parse is an error, not a pass.
func TestParseError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad_test.go")
	if err := os.WriteFile(p, []byte("package x\nfunc {"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckFiles([]string{p}); err == nil {
		t.Fatal("no error for a file that does not parse")
	}
}

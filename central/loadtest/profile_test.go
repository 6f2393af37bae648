package loadtest

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestProfileCountsThisProcess burns CPU in this process between start
// and end and requires the profile to see it under its group, and the
// machine as busy.
func TestProfileCountsThisProcess(t *testing.T) {
	self := os.Getpid()
	p := newProfiler([]procGroup{{name: "self", pids: func() []int { return []int{self} }},
		{name: "gone", pids: func() []int { return []int{1 << 30} }}}, "")
	p.start()
	// Past a few clock ticks of CPU, however loaded the machine is.
	for t0 := time.Now(); ; {
		if tk, _ := procTicks(self); tk-p.cpu0[self] >= 5 || time.Since(t0) > 20*time.Second {
			break
		}
	}
	pr := p.end()
	if len(pr.Groups) != 2 || pr.Groups[0].Procs != 1 || pr.Groups[0].Cores <= 0 {
		t.Fatalf("groups %+v", pr.Groups)
	}
	if pr.Groups[1].Procs != 0 || pr.Groups[1].Cores != 0 {
		t.Fatalf("a pid that does not exist counted: %+v", pr.Groups[1])
	}
	if pr.Machine <= 0 || pr.Machine > 1 {
		t.Fatalf("machine busy share %v", pr.Machine)
	}
	if r := pr.Report(); !strings.Contains(r, "self ") || strings.Contains(r, "pg_stat_activity") {
		t.Fatalf("report %q", r)
	}
}

package health

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// SelfTestEvery is how often the cabinet's self-tests run after the one at
// start-up (check 10: at least every 24 h). It is counted on the local
// clock (clock.Raw), so a time change (check 38) neither hurries nor
// delays it.
const SelfTestEvery = 24 * time.Hour

// SelfTest is one self-test: Run returns nil when what it tests is good,
// or what is wrong.
type SelfTest struct {
	Name string
	Run  func(ctx context.Context) error
}

// SelfTestFailure is a self-test that failed and why.
type SelfTestFailure struct {
	Name string
	Err  error
}

// SelfTestError is the failures of one run of the self-tests.
type SelfTestError []SelfTestFailure

func (e SelfTestError) Error() string {
	parts := make([]string, len(e))
	for i, f := range e {
		parts[i] = fmt.Sprintf("%s: %v", f.Name, f.Err)
	}
	return "SELF-TEST FAILED: " + strings.Join(parts, "; ")
}

// RunSelfTests runs every test in order, each even after another failed
// (the log then names them all), and returns a SelfTestError or nil.
func RunSelfTests(ctx context.Context, tests []SelfTest) error {
	var failed SelfTestError
	for _, t := range tests {
		if err := t.Run(ctx); err != nil {
			failed = append(failed, SelfTestFailure{Name: t.Name, Err: err})
		}
	}
	if failed == nil {
		return nil
	}
	return failed
}

// SelfTestSchedule says when the self-tests are due: at start-up (never
// run yet) and Every after the start of the last run. Every <= 0 or above
// SelfTestEvery is SelfTestEvery. Not safe for concurrent use: its owner
// (the cabinet loop) asks and records.
type SelfTestSchedule struct {
	Every time.Duration
	last  time.Time
	runs  int
}

// Due says whether a run should start at now.
func (s *SelfTestSchedule) Due(now time.Time) bool {
	every := s.Every
	if every <= 0 || every > SelfTestEvery {
		every = SelfTestEvery
	}
	return s.runs == 0 || now.Sub(s.last) >= every
}

// Started records a run starting at now.
func (s *SelfTestSchedule) Started(now time.Time) { s.last, s.runs = now, s.runs+1 }

// Runs is how many runs have started.
func (s *SelfTestSchedule) Runs() int { return s.runs }

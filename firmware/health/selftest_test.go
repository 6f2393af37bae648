package health

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// Due at start, then not before Every (at most 24 h) after the last start;
// every test runs even after a failure, and the error names each failure.
func TestSelfTestScheduleAndRun(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, every := range []time.Duration{0, 48 * time.Hour} {
		s := SelfTestSchedule{Every: every}
		if !s.Due(t0) {
			t.Fatal("not due at start")
		}
		s.Started(t0)
		if s.Due(t0.Add(SelfTestEvery-time.Nanosecond)) || !s.Due(t0.Add(SelfTestEvery)) || s.Runs() != 1 {
			t.Fatalf("every %v: due before 24 h or not at 24 h", every)
		}
	}
	hourly := SelfTestSchedule{Every: time.Hour}
	hourly.Started(t0)
	if hourly.Due(t0.Add(59*time.Minute)) || !hourly.Due(t0.Add(time.Hour)) {
		t.Fatal("every hour")
	}
	ran := 0
	ok := SelfTest{Name: "ok", Run: func(context.Context) error { ran++; return nil }}
	bad := func(n string) SelfTest {
		return SelfTest{Name: n, Run: func(context.Context) error { ran++; return errors.New(n + " broken") }}
	}
	if err := RunSelfTests(context.Background(), []SelfTest{ok, ok}); err != nil {
		t.Fatal(err)
	}
	err := RunSelfTests(context.Background(), []SelfTest{bad("a"), ok, bad("b")})
	var se SelfTestError
	if !errors.As(err, &se) || len(se) != 2 || ran != 5 || !strings.Contains(err.Error(), "a: a broken; b: b broken") {
		t.Fatalf("%v (ran %d)", err, ran)
	}
}

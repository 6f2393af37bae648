package clock_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/clock/clocktest"
)

// Within the tolerance a measurement changes nothing; above it the time
// steps to the reference (forwards or back) and the step says old and new;
// waits and Raw stay on the local clock.
func TestDisciplinedStepsOnlyAboveTheTolerance(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	f := clocktest.New(t0)
	d := clock.NewDisciplined(f, time.Second)
	if _, ok := d.Follow(time.Second); ok {
		t.Fatal("stepped at the tolerance")
	}
	if !d.Now().Equal(t0) {
		t.Fatalf("now %v", d.Now())
	}
	s, ok := d.Follow(90 * time.Second)
	if !ok || !s.Old.Equal(t0) || !s.New.Equal(t0.Add(90*time.Second)) || s.By() != 90*time.Second {
		t.Fatalf("step %+v %v", s, ok)
	}
	if !d.Now().Equal(t0.Add(90*time.Second)) || d.Offset() != 90*time.Second {
		t.Fatalf("now %v offset %v", d.Now(), d.Offset())
	}
	if _, ok := d.Follow(90*time.Second - 900*time.Millisecond); ok {
		t.Fatal("stepped within the tolerance of the current offset")
	}
	s, ok = d.Follow(30 * time.Second)
	if !ok || s.By() != -60*time.Second {
		t.Fatalf("back step %+v %v", s, ok)
	}
	if clock.Raw(d) != clock.Clock(f) || clock.Raw(f) != clock.Clock(f) {
		t.Fatal("Raw")
	}
	w := d.After(time.Second)
	f.Advance(time.Second)
	select {
	case <-w:
	default:
		t.Fatal("a wait did not follow the local clock")
	}
	if d := clock.NewDisciplined(f, 0); d.Tolerance() != clock.DefaultTolerance {
		t.Fatal("default tolerance")
	}
}

package clocktest_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/clock/clocktest"
)

// The clock moves only when told, and a wait fires when the clock reaches
// it, not before.
func TestMovesOnlyWhenTold(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	c := clocktest.New(t0)
	w := c.After(time.Second)
	select {
	case <-c.After(0):
	default:
		t.Fatal("a wait of 0 did not fire at once")
	}
	if n := c.Waiting(); n != 1 {
		t.Fatalf("%d waits pending, want 1 (a wait of 0 is not one)", n)
	}
	c.Advance(999 * time.Millisecond)
	select {
	case <-w:
		t.Fatal("fired early")
	default:
	}
	c.Advance(time.Millisecond)
	select {
	case at := <-w:
		if !at.Equal(t0.Add(time.Second)) {
			t.Fatalf("fired at %v", at)
		}
	default:
		t.Fatal("did not fire when due")
	}
	if n := c.Waiting(); n != 0 {
		t.Fatalf("%d waits pending after the last fired", n)
	}
	if !c.Now().Equal(t0.Add(time.Second)) {
		t.Fatalf("now %v", c.Now())
	}
	var _ clock.Clock = clock.System{}
}

package link_test

import (
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
)

// fakeClock records every backoff wait and lets it pass at once.
type fakeClock struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (c *fakeClock) Now() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }
func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

// With the central system unreachable, a call is tried 1+Retries times,
// waiting a doubling backoff (with jitter, capped) on the injected clock.
func TestBoundedRetryWithBackoff(t *testing.T) {
	e := testenv.Start(t, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close() // nothing listens here any more
	clk := &fakeClock{}
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Addr, cfg.Clock = dead, clk
		cfg.Retries, cfg.Backoff, cfg.MaxBackoff = 5, 100*time.Millisecond, 400*time.Millisecond
		cfg.CallTimeout = time.Second
	})
	_, err = c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 5)
	var ue *link.UnavailableError
	if !errors.As(err, &ue) || ue.Attempts != 6 {
		t.Fatalf("want 6 attempts then UnavailableError, got %v", err)
	}
	want := []time.Duration{100, 200, 400, 400, 400}
	clk.mu.Lock()
	defer clk.mu.Unlock()
	if len(clk.waits) != len(want) {
		t.Fatalf("waits %v", clk.waits)
	}
	for i, w := range want {
		w *= time.Millisecond
		if d := clk.waits[i]; d < w/2 || d > w {
			t.Errorf("wait %d is %v, want within [%v, %v]", i, d, w/2, w)
		}
	}
	if c.State() != link.Down {
		t.Fatalf("state %v after failing calls", c.State())
	}
	if e.Count("rounds", "") != 0 {
		t.Fatal("a round was drawn")
	}
}

package link

import (
	"sync/atomic"
	"testing"

	"google.golang.org/grpc/codes"
)

// A node that drops or refuses the connection is left at once; one that
// answers late is left only at its slowLimit-th late answer in a row, and
// an answer in between forgives it (callN resets the count on success).
func TestFailoverWaitsForASecondTimeOut(t *testing.T) {
	c := &Client{eps: make([]endpoint, 3), slow: make([]atomic.Int32, 3)}
	c.failover(0, codes.DeadlineExceeded)
	if got := c.cur.Load(); got != 0 {
		t.Fatalf("left node 0 at its first late answer (now on %d)", got)
	}
	c.failover(0, codes.DeadlineExceeded)
	if got := c.cur.Load(); got != 1 {
		t.Fatalf("on node %d after two late answers in a row, want 1", got)
	}
	c.failover(1, codes.Unavailable)
	if got := c.cur.Load(); got != 2 {
		t.Fatalf("on node %d after node 1 was unavailable, want 2 at once", got)
	}
	c.failover(2, codes.DeadlineExceeded)
	c.slow[2].Store(0) // an answer came
	c.failover(2, codes.DeadlineExceeded)
	if got := c.cur.Load(); got != 2 {
		t.Fatalf("left node 2 for two late answers with an answer between them (now on %d)", got)
	}
}

package link_test

import (
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
)

// The link page's numbers: before any call nothing is measured; after
// Hello the clock offset and a round trip are, and the node in use is the
// first of the two configured; a later call's round trip replaces Hello's.
func TestStatsMeasureRoundTripAndOffset(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", func(cfg *link.Config) { cfg.Addr = e.Addr + ",127.0.0.1:1" })
	s := c.Stats()
	if !s.RTTAt.IsZero() || !s.OffsetAt.IsZero() || s.Calls != 0 || s.State != link.Unknown {
		t.Fatalf("measured before any call: %+v", s)
	}
	if s.Endpoint != e.Addr || len(s.Endpoints) != 2 || s.Endpoints[1] != "127.0.0.1:1" {
		t.Fatalf("endpoints %q of %q, want %s first of two", s.Endpoint, s.Endpoints, e.Addr)
	}
	info, err := c.Hello(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	s = c.Stats()
	if s.OffsetAt.IsZero() || s.Offset != info.Offset || s.RTT <= 0 || s.RTTCall != "hello" || s.Calls != 1 || s.State != link.Up {
		t.Fatalf("after Hello: %+v (Hello said offset %v)", s, info.Offset)
	}
	if _, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10); err != nil {
		t.Fatal(err)
	}
	if s2 := c.Stats(); s2.RTTCall != "outcome" || s2.Calls != 2 || s2.RTTAt.Before(s.RTTAt) {
		t.Fatalf("after a round: %+v", s2)
	}
}

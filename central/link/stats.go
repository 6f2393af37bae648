package link

import "time"

// Stats is what the client measured of its link, for the technician's link
// page: the node in use of the ones configured, the state, the round trip
// of the last call that succeeded and the clock offset of the last Hello.
// Zero times mean not measured yet.
type Stats struct {
	Endpoint  string   // the central node in use
	Endpoints []string // all configured, in failover order
	State     State
	RTT       time.Duration // the last successful call's round trip
	RTTCall   string        // which call it was
	RTTAt     time.Time
	Offset    time.Duration // central time minus the cabinet's, at the last Hello
	OffsetAt  time.Time
	Calls     int64 // calls that succeeded
	Failures  int64 // attempts that failed for want of a link
	Returns   int64 // times the link went back to its home node (HomeProbe)
}

// Stats is a copy of the client's link statistics; safe from any goroutine.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	s := c.stats
	s.State = c.state
	c.mu.Unlock()
	s.Endpoint = c.Endpoint()
	for _, e := range c.eps {
		s.Endpoints = append(s.Endpoints, e.addr)
	}
	return s
}

// measured records a call's round trip (from its attempt's start to its
// reply), once it succeeded.
func (c *Client) measured(call string, rtt time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.RTT, c.stats.RTTCall, c.stats.RTTAt = rtt, call, c.cfg.Clock.Now()
	c.stats.Calls++
}

func (c *Client) attemptFailed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Failures++
}

// offsetMeasured records Hello's clock offset.
func (c *Client) offsetMeasured(off time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Offset, c.stats.OffsetAt = off, c.cfg.Clock.Now()
}

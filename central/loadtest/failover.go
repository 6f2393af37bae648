package loadtest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/status"

	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// timeline is the run's log of what was done to the system, one line per
// event with its time into the run and the wall clock (to set beside the
// nodes' and PostgreSQL's own logs).
type timeline struct {
	t0    time.Time
	mu    sync.Mutex
	lines []string
	marks map[string]time.Duration
	logf  func(string, ...any)
}

func newTimeline(logf func(string, ...any)) *timeline {
	return &timeline{marks: map[string]time.Duration{}, logf: logf}
}

// mark records event name (one of the phase boundaries, or "" for a
// plain line) and its text.
func (tl *timeline) mark(name, format string, a ...any) time.Duration {
	now := time.Now()
	tl.mu.Lock()
	defer tl.mu.Unlock()
	at := now.Sub(tl.t0)
	line := fmt.Sprintf("+%7.3f s  %s  %s", at.Seconds(), now.UTC().Format("15:04:05.000"), fmt.Sprintf(format, a...))
	tl.lines = append(tl.lines, line)
	if name != "" {
		tl.marks[name] = at
	}
	tl.logf("%s", line)
	return at
}

func (tl *timeline) at(name string) (time.Duration, bool) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	d, ok := tl.marks[name]
	return d, ok
}

// The phase boundaries the scenario marks.
const (
	markNodeKilled  = "node-killed"
	markNodeServing = "node-serving"
	markDBKilled    = "db-killed"
	markDBPromoted  = "db-promoted"
)

// scenario runs the failures of a run with nodes as processes: FailNode
// into the run node 2 is SIGKILLed, NodeDown later started again (the
// same address and configuration) and probed until it answers a Hello;
// then, FailDB into the run (and not before node 2 serves again), the
// database primary is killed (immediate shutdown: no checkpoint, every
// connection cut) and the replica promoted. Each step goes on the
// timeline. done is closed when the last step is over.
func scenario(o Options, tl *timeline, nodes []*node, primary, replica *pgcluster.Cluster, probe func(addr string) error, quit <-chan struct{}) (done chan struct{}) {
	done = make(chan struct{})
	sleepUntil := func(d time.Duration) bool {
		select {
		case <-time.After(time.Until(tl.t0.Add(d))):
			return true
		case <-quit:
			return false
		}
	}
	go func() {
		defer close(done)
		if o.FailNode > 0 && len(nodes) > 1 {
			if !sleepUntil(o.FailNode) {
				return
			}
			nd := nodes[1]
			pid := nd.pid()
			nd.kill()
			tl.mark(markNodeKilled, "node %d (pid %d, %s) SIGKILLed: its cabinets fail over to the others", nd.k, pid, nd.addr)
			select {
			case <-time.After(o.NodeDown):
			case <-quit:
				return
			}
			tl.mark("", "node %d starting again (same address, configuration and database)", nd.k)
			if err := nd.start(60 * time.Second); err != nil {
				tl.mark("", "node %d did not start again: %v", nd.k, err)
				return
			}
			tl.mark("", "node %d (pid %d) listening", nd.k, nd.pid())
			for {
				err := probe(nd.addr)
				if err == nil {
					break
				}
				select {
				case <-time.After(50 * time.Millisecond):
				case <-quit:
					return
				}
			}
			tl.mark(markNodeServing, "node %d serving again: a probe cabinet's Hello answered", nd.k)
		}
		if o.FailDB > 0 && primary != nil && replica != nil {
			if !sleepUntil(o.FailDB) {
				return
			}
			tl.mark(markDBKilled, "PostgreSQL primary 127.0.0.1:%d killed (immediate shutdown: a crash, every connection cut)", primary.Port)
			if err := primary.Kill(); err != nil {
				tl.mark("", "kill the primary: %v", err)
			}
			tl.mark("", "promoting the synchronous replica 127.0.0.1:%d", replica.Port)
			if err := replica.Promote(); err != nil {
				tl.mark("", "promote the replica: %v", err)
				return
			}
			tl.mark(markDBPromoted, "replica 127.0.0.1:%d promoted: the primary now; nodes reconnect through the URL naming both (target_session_attrs=read-write)", replica.Port)
		}
	}()
	return done
}

// call is one answered call of a virtual cabinet: what, when it was asked
// (into the run), how long until the answer (retries and failovers
// included: the time this cabinet had no answer), and the node that gave
// it.
type call struct {
	kind  byte // 'o' outcome, 'e' events, 'v' voucher issue, 'r' redeem, 'c' confirm, 'd' last drain
	start time.Duration
	took  time.Duration
	node  int32 // index in the node list, -1 unknown
	from  int32 // the node the cabinet was on before the call
}

// linkDown is one cabinet's link going down (link.StateEvent): when, and
// the error's kind.
type linkDown struct {
	at    time.Duration
	cause string
}

// downCause is an error's kind: its gRPC code and message with numbers
// and addresses blanked, cut short, so that equal causes count together.
func downCause(err error) string {
	msg := err.Error()
	if st, ok := status.FromError(err); ok {
		msg = st.Code().String() + ": " + st.Message()
	}
	b := []byte(msg)
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			b[i] = '#'
		case c == '\n' || c == '\t':
			b[i] = ' '
		}
	}
	if len(b) > 140 {
		b = append(b[:140], "…"...)
	}
	return string(b)
}

// Phase is what the cabinets saw in one stretch of a failover run.
type Phase struct {
	Name     string
	From, To time.Duration // into the run
	Calls    int           // answered calls asked in it, of every kind
	Outcomes int
	P50, P99 time.Duration // of every call asked in it
	// Max is the longest one cabinet waited for an answer (a call asked
	// in this phase, retries and failovers included).
	Max time.Duration
	// Gap is the longest time in it in which no cabinet got an outcome.
	Gap    time.Duration
	ByNode []int // answers per node
	// Moves counts the cabinets' moves from one node to another
	// ("1→2"): a call answered by another node than the one the cabinet
	// was on.
	Moves map[string]int
	// Downs counts the cabinets' links going down in it, by cause.
	Downs map[string]int
}

// phases splits the run's calls at the timeline's marks.
func phases(tl *timeline, calls []call, outcomesAt []time.Duration, downs []linkDown, end time.Duration, nodes int) []Phase {
	type b struct {
		name string
		at   time.Duration
	}
	bounds := []b{{"steady", 0}}
	if d, ok := tl.at(markNodeKilled); ok {
		bounds = append(bounds, b{"node 2 killed, until it serves again", d})
	}
	if d, ok := tl.at(markNodeServing); ok {
		bounds = append(bounds, b{"node 2 back", d})
	}
	if d, ok := tl.at(markDBKilled); ok {
		bounds = append(bounds, b{"database primary killed, until promoted + 2 s", d})
		if p, ok := tl.at(markDBPromoted); ok {
			bounds = append(bounds, b{"after the database failover", p + 2*time.Second})
		}
	}
	var out []Phase
	for i, bd := range bounds {
		to := end
		if i+1 < len(bounds) {
			to = bounds[i+1].at
		}
		p := Phase{Name: bd.name, From: bd.at, To: to, ByNode: make([]int, nodes), Moves: map[string]int{}}
		var lat []time.Duration
		for _, c := range calls {
			if c.start < p.From || c.start >= p.To {
				continue
			}
			lat = append(lat, c.took)
			p.Calls++
			if c.kind == 'o' {
				p.Outcomes++
			}
			if c.node >= 0 && int(c.node) < nodes {
				p.ByNode[c.node]++
			}
			if c.from != c.node && c.from >= 0 && c.node >= 0 {
				p.Moves[fmt.Sprintf("%d→%d", c.from+1, c.node+1)]++
			}
			p.Max = max(p.Max, c.took)
		}
		slices.Sort(lat)
		p.P50, p.P99 = Pct(lat, 50), Pct(lat, 99)
		p.Downs = map[string]int{}
		for _, d := range downs {
			if d.at >= p.From && d.at < p.To {
				p.Downs[d.cause]++
			}
		}
		last := p.From
		for _, t := range outcomesAt {
			if t < p.From {
				continue
			}
			if t >= p.To {
				break
			}
			p.Gap = max(p.Gap, t-last)
			last = t
		}
		if i+1 < len(bounds) {
			// Up to the next phase: a phase with its last outcome early
			// was without service from then on. (The last phase ends
			// when the last cabinet is done, after its final drain.)
			p.Gap = max(p.Gap, p.To-last)
		}
		if len(out) > 0 || p.To > p.From {
			out = append(out, p)
		}
	}
	return out
}

// FailoverReport is the printout of a failover run: the timeline, the
// nodes' own lines about their database, and one line per phase.
func (r *Result) FailoverReport() string {
	if r.timeline == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("timeline (time into the run, UTC):\n")
	for _, l := range r.timeline.lines {
		b.WriteString("  " + l + "\n")
	}
	if len(r.NodeLog) > 0 {
		b.WriteString("the nodes' own log lines about their database and start:\n")
		for _, l := range r.NodeLog {
			b.WriteString("  " + l + "\n")
		}
	}
	b.WriteString("per phase (calls by when they were asked; wait = ask to answer, retries and failovers included):\n")
	for _, p := range r.Phases {
		var by []string
		for k, n := range p.ByNode {
			by = append(by, fmt.Sprintf("node %d %d", k+1, n))
		}
		var moves []string
		for m, n := range p.Moves {
			moves = append(moves, fmt.Sprintf("%s %d", m, n))
		}
		slices.Sort(moves)
		if len(moves) == 0 {
			moves = []string{"none"}
		}
		fmt.Fprintf(&b, "  %-46s %6.1f–%6.1f s: %6d calls (%6d outcomes), p50 %6.1f ms, p99 %7.1f ms, longest a cabinet waited %7.1f ms, longest with no outcome answered %7.1f ms; answered by %s; cabinets moved %s\n",
			p.Name, p.From.Seconds(), p.To.Seconds(), p.Calls, p.Outcomes, ms(p.P50), ms(p.P99), ms(p.Max), ms(p.Gap), strings.Join(by, ", "), strings.Join(moves, ", "))
		var causes []string
		for c := range p.Downs {
			causes = append(causes, c)
		}
		slices.SortFunc(causes, func(a, b string) int { return p.Downs[b] - p.Downs[a] })
		for i, c := range causes {
			if i == 4 {
				fmt.Fprintf(&b, "      … and %d other causes\n", len(causes)-4)
				break
			}
			fmt.Fprintf(&b, "      %5d links went down: %s\n", p.Downs[c], c)
		}
	}
	return b.String()
}

package server

import (
	"context"
	"database/sql"
	"os"
	"path"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"github.com/polaris-vlt/polaris/central/pki"
)

// Link statistics per cabinet for the back office's cabinet page (issue 21).
//
// In the store (table cabinet_link, migration 5), because they must survive
// a restart and be seen by every node on one PostgreSQL: the last Hello
// (when, software version, the clock offset it showed, the node that
// answered it) and the last command stream opened (when, on which node).
// Counts of rounds, vouchers and events of the last hour and alarms of the
// last 24 h are read from the store's own tables.
//
// In the node's memory, because they are the node's own and a store write
// per request would double the writer's work: the streams open now, the
// last request the node served for the cabinet, and its refusals of the
// last 24 h by reason (lost at a restart; another node counts its own).

const linkV5 = `
CREATE TABLE IF NOT EXISTS cabinet_link(
	cabinet TEXT PRIMARY KEY,
	hello_at INTEGER NOT NULL DEFAULT 0,
	software TEXT NOT NULL DEFAULT '',
	offset_ns INTEGER NOT NULL DEFAULT 0,
	hello_node TEXT NOT NULL DEFAULT '',
	stream_at INTEGER NOT NULL DEFAULT 0,
	stream_node TEXT NOT NULL DEFAULT ''
);
`

const pgLinkV5 = `
CREATE TABLE IF NOT EXISTS cabinet_link(
	cabinet TEXT PRIMARY KEY,
	hello_at BIGINT NOT NULL DEFAULT 0,
	software TEXT NOT NULL DEFAULT '',
	offset_ns BIGINT NOT NULL DEFAULT 0,
	hello_node TEXT NOT NULL DEFAULT '',
	stream_at BIGINT NOT NULL DEFAULT 0,
	stream_node TEXT NOT NULL DEFAULT ''
);
`

// defaultNodeID names a node whose configuration gives none: the host.
func defaultNodeID() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "central"
}

// NodeID is the node's name (Config.NodeID).
func (s *Links) NodeID() string { return s.cfg.NodeID }

// linkMem is what this node alone knows of its cabinets' links.
type linkMem struct {
	mu   sync.Mutex
	cabs map[string]*cabLink
}

type cabLink struct {
	lastAt   time.Time
	lastKind string
	// refused counts refusals per hour (Unix hour) and reason; hours
	// older than 24 are dropped at the next refusal.
	refused map[int64]map[string]int64
}

// noteCall records a call the node answered for the cabinet the caller's
// certificate names (the kind is the RPC method's name).
func (s *Links) noteCall(ctx context.Context, method string, err error) {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return
	}
	ti, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok {
		return
	}
	id, e := pki.CabinetID(ti.State)
	if e != nil {
		return
	}
	reason := ""
	if st, ok := status.FromError(err); ok && err != nil {
		for _, d := range st.Details() {
			if info, ok := d.(*errdetails.ErrorInfo); ok {
				reason = info.GetReason()
			}
		}
		if reason == "" {
			reason = st.Code().String()
		}
	}
	now := s.now()
	m := &s.link
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cabs == nil {
		m.cabs = map[string]*cabLink{}
	}
	c := m.cabs[id]
	if c == nil {
		c = &cabLink{refused: map[int64]map[string]int64{}}
		m.cabs[id] = c
	}
	c.lastAt, c.lastKind = now, path.Base(method)
	if reason == "" {
		return
	}
	h := now.Unix() / 3600
	for k := range c.refused {
		if k <= h-24 {
			delete(c.refused, k)
		}
	}
	if c.refused[h] == nil {
		c.refused[h] = map[string]int64{}
	}
	c.refused[h][reason]++
}

// noteHello stores what a Hello told of the link (inside its transaction).
func (s *Links) noteHello(tx *sql.Tx, cab string, now time.Time, software string, cabinetNano int64) error {
	var off int64
	if cabinetNano != 0 {
		off = cabinetNano - now.UnixNano()
	}
	_, err := tx.Exec(`INSERT INTO cabinet_link(cabinet, hello_at, software, offset_ns, hello_node) VALUES(?,?,?,?,?)
		ON CONFLICT(cabinet) DO UPDATE SET hello_at=excluded.hello_at, software=excluded.software, offset_ns=excluded.offset_ns, hello_node=excluded.hello_node`,
		cab, now.UnixNano(), software, off, s.cfg.NodeID)
	return err
}

// noteStream stores that a command stream opened on this node.
func (s *Links) noteStream(ctx context.Context, cab string, at time.Time) {
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO cabinet_link(cabinet, stream_at, stream_node) VALUES(?,?,?)
			ON CONFLICT(cabinet) DO UPDATE SET stream_at=excluded.stream_at, stream_node=excluded.stream_node`,
			cab, at.UnixNano(), s.cfg.NodeID)
		return err
	})
	if err != nil {
		s.log.Warn("stream start not stored", "cabinet", cab, "err", err)
	}
}

// LinkStats is what the central system knows of one cabinet's link.
type LinkStats struct {
	Node string // the node answering this query

	// This node's memory.
	Connected    bool      // a command stream open on this node now
	Since        time.Time // opened at, on the server's clock (the oldest open stream)
	LastRequest  time.Time // the last call this node answered (zero: none since start)
	LastKind     string    // its RPC method: Hello, Outcome, Subscribe, …
	Refusals24h  map[string]int64
	RefusalsNode string // the node the refusals were counted on (this one)

	// The store.
	HelloAt       int64 // Unix ns; 0: never
	Software      string
	OffsetNanos   int64 // the cabinet's clock minus the server's at that Hello
	HelloNode     string
	StreamAt      int64 // the last stream opened, Unix ns, on StreamNode
	StreamNode    string
	Rounds1h      int64
	VouchersOut1h int64 // vouchers issued in the last hour
	VouchersIn1h  int64 // vouchers redeemed in the last hour
	Events1h      int64
	Alarms24h     map[string]int64
}

// Reasons returns m's keys in order, for a stable page.
func Reasons(m map[string]int64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Link returns cab's link statistics as of the server's clock.
func (s *Links) Link(ctx context.Context, cab string) (LinkStats, error) {
	now := s.now()
	ls := LinkStats{Node: s.cfg.NodeID, RefusalsNode: s.cfg.NodeID, Refusals24h: map[string]int64{}, Alarms24h: map[string]int64{}}
	s.subMu.Lock()
	for sub := range s.subs {
		if sub.cabinet == cab && (!ls.Connected || sub.at.Before(ls.Since)) {
			ls.Connected, ls.Since = true, sub.at
		}
	}
	s.subMu.Unlock()
	s.link.mu.Lock()
	if c := s.link.cabs[cab]; c != nil {
		ls.LastRequest, ls.LastKind = c.lastAt, c.lastKind
		h := now.Unix() / 3600
		for k, m := range c.refused {
			if k > h-24 {
				for r, n := range m {
					ls.Refusals24h[r] += n
				}
			}
		}
	}
	s.link.mu.Unlock()
	db := s.st.db
	err := db.QueryRowContext(ctx, `SELECT hello_at, software, offset_ns, hello_node, stream_at, stream_node FROM cabinet_link WHERE cabinet=?`, cab).
		Scan(&ls.HelloAt, &ls.Software, &ls.OffsetNanos, &ls.HelloNode, &ls.StreamAt, &ls.StreamNode)
	if err != nil && err != sql.ErrNoRows {
		return ls, err
	}
	hour, day := now.Add(-time.Hour).UnixNano(), now.Add(-24*time.Hour).UnixNano()
	for _, q := range []struct {
		sql string
		v   *int64
	}{
		{`SELECT count(*) FROM rounds WHERE cabinet=? AND drawn_at>=?`, &ls.Rounds1h},
		{`SELECT count(*) FROM vouchers WHERE cabinet=? AND issued_at>=?`, &ls.VouchersOut1h},
		{`SELECT count(*) FROM vouchers WHERE hold_cabinet=? AND state='redeemed' AND redeemed_at>=?`, &ls.VouchersIn1h},
		{`SELECT count(*) FROM events WHERE cabinet=? AND at>=?`, &ls.Events1h},
	} {
		if err := db.QueryRowContext(ctx, q.sql, cab, hour).Scan(q.v); err != nil {
			return ls, err
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT reason, count(*) FROM alarms WHERE cabinet=? AND at>=? GROUP BY reason`, cab, day)
	if err != nil {
		return ls, err
	}
	defer rows.Close()
	for rows.Next() {
		var r string
		var n int64
		if err := rows.Scan(&r, &n); err != nil {
			return ls, err
		}
		ls.Alarms24h[r] = n
	}
	return ls, rows.Err()
}

type refusals struct {
	n    atomic.Int64
	mu   sync.Mutex
	last error
}

func (r *refusals) note(err error) {
	r.n.Add(1)
	r.mu.Lock()
	r.last = err
	r.mu.Unlock()
}

// HandshakeRefusals returns how many TLS handshakes the server refused and
// the last reason.
func (s *Links) HandshakeRefusals() (int64, error) {
	s.refused.mu.Lock()
	defer s.refused.mu.Unlock()
	return s.refused.n.Load(), s.refused.last
}

package server

import (
	"context"
	"database/sql"
)

// What the operator's back office (central/backoffice) needs from a running
// server beyond the read queries of backoffice_queries.go.

// Write runs fn in the store's single writer's transaction (its own
// savepoint: fn's error undoes what fn did) and returns once it is
// committed. The back office writes its own tables (users, sessions, audit,
// payouts) and a voucher void through here, never beside the writer.
func (s *Server) Write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.st.write(ctx, fn)
}

// Connected lists the cabinets with a command stream open now (online).
func (s *Server) Connected() map[string]bool {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	out := map[string]bool{}
	for sub := range s.subs {
		out[sub.cabinet] = true
	}
	return out
}

// HallOf is the hall a cabinet is in by the configuration ("" if the
// configuration does not name it).
func (s *Server) HallOf(cabinet string) string { return s.cfg.Halls[cabinet] }

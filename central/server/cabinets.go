package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"

	"github.com/polaris-vlt/polaris/central/pki"
	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// Cabinets admits the callers and keeps each cabinet's hall and whether
// it is enabled. The enabled state is durable (table cabinets) and cached
// here; both change only inside a store write, so a Disable cannot slip
// in between a job reading the row and caching it.
type Cabinets struct {
	base
	reg   *pki.RegistryCheck // nil: no registry
	links *Links             // tells a cabinet its new state on its stream

	mu   sync.Mutex
	cabs map[string]*cabinet
}

type cabinet struct {
	id, hall string
	enabled  bool
	reason   string
}

// admit identifies the caller from its verified certificate and admits it.
func (s *Cabinets) admit(ctx context.Context) (*cabinet, error) {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return nil, refuse(codes.Unauthenticated, refusal.UnknownCabinet, "no peer")
	}
	ti, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok {
		return nil, refuse(codes.Unauthenticated, refusal.UnknownCabinet, "not a TLS peer")
	}
	id, err := pki.CabinetID(ti.State)
	if err != nil {
		return nil, refuse(codes.Unauthenticated, refusal.UnknownCabinet, "%v", err)
	}
	if s.reg != nil {
		// Checked on every call too: a connection made before the
		// certificate was revoked ends with it.
		if err := s.reg.Check(ti.State.VerifiedChains[0][0]); err != nil {
			s.log.Warn("revoked certificate refused", "cabinet", id, "err", err)
			return nil, refuse(codes.Unauthenticated, refusal.Revoked, "%v", err)
		}
	}
	s.mu.Lock()
	c := s.cabs[id]
	s.mu.Unlock()
	if c != nil {
		return c, nil
	}
	hall, named := s.cfg.Halls[id]
	if !named {
		if !s.cfg.AllowUnknownCabinets {
			return nil, refuse(codes.PermissionDenied, refusal.UnknownCabinet, "cabinet %q is not configured", id)
		}
		hall = s.cfg.DefaultHall
	}
	now := s.now().UnixNano()
	// The cache is filled inside the write job: jobs run one at a time, so
	// a Disable cannot slip in between reading the row and caching it.
	err = s.st.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO cabinets(id, hall, first_seen, last_seen) VALUES(?,?,?,?)
			ON CONFLICT(id) DO UPDATE SET hall=excluded.hall`, id, hall, now, now); err != nil {
			return err
		}
		nc := &cabinet{id: id, hall: hall}
		var en int
		if err := tx.QueryRow(`SELECT enabled, reason FROM cabinets WHERE id=?`, id).Scan(&en, &nc.reason); err != nil {
			return err
		}
		nc.enabled = en != 0
		s.mu.Lock()
		if c = s.cabs[id]; c == nil {
			c = nc
			s.cabs[id] = c
		}
		s.mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return c, nil
}

// state is the cabinet's enabled state as cached at its admission (and
// changed by Disable and Enable since); a cabinet never admitted is enabled.
func (s *Cabinets) state(id string) (enabled bool, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.cabs[id]; c != nil {
		return c.enabled, c.reason
	}
	return true, ""
}

// HallOf is the hall a cabinet is in by the configuration ("" if the
// configuration does not name it).
func (s *Cabinets) HallOf(cabinet string) string { return s.cfg.Halls[cabinet] }

func (s *Cabinets) setEnabled(ctx context.Context, cabinet string, enabled bool, reason string) error {
	now := s.now().UnixNano()
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		hall, ok := s.cfg.Halls[cabinet]
		if !ok {
			hall = s.cfg.DefaultHall
		}
		// A mistyped id must not report success: the cabinet is one that
		// connected, is configured, or has a registered certificate.
		var seen int
		if err := tx.QueryRow(`SELECT count(*) FROM cabinets WHERE id=?`, cabinet).Scan(&seen); err != nil {
			return err
		}
		if seen == 0 && !ok && (s.reg == nil || !s.reg.Has(cabinet)) {
			return fmt.Errorf("%w: %q has never connected, is not configured and has no registered certificate", ErrUnknownCabinet, cabinet)
		}
		en := 0
		if enabled {
			en = 1
		}
		_, err := tx.Exec(`INSERT INTO cabinets(id, hall, enabled, reason, first_seen, last_seen) VALUES(?,?,?,?,?,?)
			ON CONFLICT(id) DO UPDATE SET enabled=excluded.enabled, reason=excluded.reason`, cabinet, hall, en, reason, now, now)
		if err != nil {
			return err
		}
		s.mu.Lock()
		if c := s.cabs[cabinet]; c != nil {
			c.enabled, c.reason = enabled, reason
		}
		s.mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	kind := pb.Command_DISABLE
	if enabled {
		kind = pb.Command_ENABLE
	}
	s.links.send(cabinet, &pb.Command{Kind: kind, Reason: reason, ServerTimeUnixNano: now})
	return nil
}

// ErrUnknownCabinet refuses Disable or Enable of a cabinet id nobody knows.
var ErrUnknownCabinet = errors.New("central server: unknown cabinet")

// Disable stops a cabinet from drawing new rounds (stored rounds are still
// answered) and tells it so on its stream. The state is durable.
func (s *Cabinets) Disable(ctx context.Context, cabinet, reason string) error {
	return s.setEnabled(ctx, cabinet, false, reason)
}

// Enable lifts Disable.
func (s *Cabinets) Enable(ctx context.Context, cabinet string) error {
	return s.setEnabled(ctx, cabinet, true, "")
}

// seen records a cabinet's Hello: its games' models and when.
func (s *Cabinets) seen(tx *sql.Tx, id string, models []*pb.GameModel, at time.Time) error {
	var ms []string
	for _, m := range models {
		ms = append(ms, m.GetGame()+"="+m.GetModelId())
	}
	_, err := tx.Exec(`UPDATE cabinets SET models=?, last_seen=? WHERE id=?`, strings.Join(ms, ","), at.UnixNano(), id)
	return err
}

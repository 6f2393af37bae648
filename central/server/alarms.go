package server

import (
	"context"
	"database/sql"
	"sync"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// alarmReasons are the refusals a sound cabinet never provokes: each is
// logged as an alarm with the cabinet id, counted and kept in the store.
var alarmReasons = map[refusal.Reason]bool{
	refusal.RoundConflict: true, refusal.RoundSequence: true, refusal.RoundOpen: true, refusal.RiskNotOpen: true, refusal.RiskConflict: true,
	refusal.VoucherAboveCredit: true, refusal.MetersDecreased: true, refusal.CreditUnknown: true,
	refusal.DisabledRisk: true, refusal.DisabledVoucher: true, refusal.VoucherVoid: true,
}

// Alarms are what an operator must look at: the refusals a sound cabinet
// never provokes, what the server saw (a mirror that differs at Hello)
// and the operators' own actions (audit rows). Each is stored (table
// alarms) and logged; this node counts them per cabinet and reason since
// it started.
type Alarms struct {
	base
	mu sync.Mutex
	n  map[[2]string]int64
}

// count adds one of reason to cab's count.
func (s *Alarms) count(cab, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == nil {
		s.n = map[[2]string]int64{}
	}
	s.n[[2]string{cab, reason}]++
}

// raised records err as an alarm if it is one of alarmReasons, and
// returns err unchanged.
func (s *Alarms) raised(cab string, err error) error {
	st, ok := status.FromError(err)
	if !ok || err == nil {
		return err
	}
	reason := ""
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			reason = info.GetReason()
		}
	}
	if alarmReasons[refusal.Reason(reason)] {
		s.raise(cab, reason, st.Message())
	}
	return err
}

// raise logs, counts and stores one alarm (a write of its own: the
// refused request's savepoint was rolled back).
func (s *Alarms) raise(cab, reason, text string) {
	s.log.Error("central alarm", "cabinet", cab, "reason", reason, "detail", text)
	s.count(cab, reason)
	now := s.now().UnixNano()
	if err := s.st.write(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO alarms(cabinet, at, reason, text) VALUES(?,?,?,?)`, cab, now, reason, text)
		return err
	}); err != nil {
		s.log.Error("central alarm not stored", "cabinet", cab, "reason", reason, "err", err)
	}
}

// Count returns how many alarms of each reason a cabinet raised since the
// server started ("" cabinet: all cabinets together). The store keeps
// every alarm (table alarms).
func (s *Alarms) Count(cab string) map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int64{}
	for k, v := range s.n {
		if cab == "" || k[0] == cab {
			out[k[1]] += v
		}
	}
	return out
}

// audit stores an audit row in tx; logAudit logs and counts it once the
// transaction committed.
func (s *Alarms) audit(tx *sql.Tx, cab, reason, text string) error {
	_, err := s.st.exec(tx, `INSERT INTO alarms(cabinet, at, reason, text) VALUES(?,?,?,?)`, cab, s.now().UnixNano(), reason, text)
	return err
}

func (s *Alarms) logAudit(cab, reason, text string) {
	s.log.Warn("central audit", "cabinet", cab, "reason", reason, "detail", text)
	s.count(cab, reason)
}

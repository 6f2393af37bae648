package server

import (
	"context"
	"database/sql"
	"fmt"

	"google.golang.org/grpc/codes"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// intake stores what the cabinets report (events and meter snapshots),
// each message once, and raises the alarm of a cabinet that refused a
// drawn outcome.
type intake struct {
	base
	alarms *Alarms
}

// dedupe records (cabinet, message id) and reports whether it was new.
func dedupe(tx *sql.Tx, cab string, id int64, kind string, now int64) (bool, error) {
	res, err := tx.Exec(`INSERT INTO messages(cabinet, message_id, kind, received_at) VALUES(?,?,?,?) ON CONFLICT DO NOTHING`, cab, id, kind, now)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Bounds on one report: a batch is one writer transaction, which must not
// hold the store long enough to push another cabinet's round past its
// deadline (a million events held it 7 s).
const (
	maxRefusedAlarms   = 4 // alarms one event batch may raise
	MaxEventsPerBatch  = 1000
	MaxMetersPerReport = 1000
)

// events stores a batch of events once per message id.
func (s *intake) events(ctx context.Context, c *cabinet, req *pb.EventBatch) (*pb.Ack, error) {
	id := req.GetMessageId()
	if id <= 0 {
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "message id %d is not positive", id)
	}
	if n := len(req.GetEvents()); n > MaxEventsPerBatch {
		s.log.Warn("report refused", "cabinet", c.id, "reason", refusal.BadRequest, "events", n)
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "%d events in one batch, at most %d", n, MaxEventsPerBatch)
	}
	dup := false
	var refused []string
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		refused = refused[:0]
		fresh, err := dedupe(tx, c.id, id, "events", s.now().UnixNano())
		if err != nil || !fresh {
			dup = !fresh
			return err
		}
		for _, e := range req.GetEvents() {
			if e.GetKind() == EventOutcomeRefused {
				refused = append(refused, e.GetText())
			}
			if _, err := tx.Exec(`INSERT INTO events(cabinet, message_id, seq, at, kind, text, amount, data) VALUES(?,?,?,?,?,?,?,?)`,
				c.id, id, e.GetSeq(), e.GetAtUnixNano(), e.GetKind(), e.GetText(), e.GetAmount(), e.GetData()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	// The cabinet refused a drawn outcome (it did not mirror or verify):
	// the round stays open here, its stake booked, until an operator voids
	// it; the operator learns it from this alarm.
	if len(refused) > maxRefusedAlarms {
		// A copied key must not turn one batch into a thousand writes.
		refused = append(refused[:maxRefusedAlarms-1], fmt.Sprintf("and %d more outcome_refused events in message %d", len(refused)-maxRefusedAlarms+1, id))
	}
	for _, t := range refused {
		s.alarms.raise(c.id, ReasonOutcomeRefused, t)
	}
	return &pb.Ack{MessageId: id, Duplicate: dup}, nil
}

// meters stores a meter snapshot once per message id.
func (s *intake) meters(ctx context.Context, c *cabinet, req *pb.MeterReport) (*pb.Ack, error) {
	id := req.GetMessageId()
	if id <= 0 {
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "message id %d is not positive", id)
	}
	if n := len(req.GetMeters()); n > MaxMetersPerReport {
		s.log.Warn("report refused", "cabinet", c.id, "reason", refusal.BadRequest, "meters", n)
		return nil, refuse(codes.InvalidArgument, refusal.BadRequest, "%d meters in one report, at most %d", n, MaxMetersPerReport)
	}
	dup := false
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		fresh, err := dedupe(tx, c.id, id, "meters", s.now().UnixNano())
		if err != nil || !fresh {
			dup = !fresh
			return err
		}
		for _, m := range req.GetMeters() {
			if _, err := tx.Exec(`INSERT INTO meters(cabinet, message_id, at, name, value) VALUES(?,?,?,?,?)`,
				c.id, id, req.GetAtUnixNano(), m.GetName(), m.GetValue()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return &pb.Ack{MessageId: id, Duplicate: dup}, nil
}

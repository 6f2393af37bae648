package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// MaxRoundGap bounds how far above its last drawn round a cabinet may ask:
// the numbers between are rounds the cabinet refunded after a refusal that
// drew nothing (disabled, jackpot refused, ...). Without a bound one
// request could burn the number space (2^62) and lock the cabinet out.
const MaxRoundGap = 1024

// latestRound is the cabinet's highest drawn round (0: none) and whether
// it is settled. Rounds are drawn strictly upwards, so it is the only
// round that can be open.
func (s *Server) latestRound(tx *sql.Tx, cab string) (n uint64, settled bool, err error) {
	var r int64
	var at sql.NullInt64
	err = s.st.queryRow(tx, `SELECT round, committed_at FROM rounds WHERE cabinet=? ORDER BY round DESC LIMIT 1`, cab).Scan(&r, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, true, nil
	}
	return uint64(r), at.Valid, err
}

// checkSequence refuses a request for a round that is not stored: only a
// number above the cabinet's last drawn round (within MaxRoundGap) may be
// drawn. Anything else means another round of this cabinet was drawn (or
// the cabinet's journal and the store disagree): never a new draw.
func checkSequence(n, last uint64) error {
	if n <= last {
		return refuse(codes.FailedPrecondition, refusal.RoundSequence,
			"round %d is behind the cabinet's last drawn round %d", n, last)
	}
	if n > last+MaxRoundGap {
		return refuse(codes.FailedPrecondition, refusal.RoundSequence,
			"round %d is more than %d above the cabinet's last drawn round %d", n, MaxRoundGap, last)
	}
	return nil
}

// alarmReasons are the refusals a sound cabinet never provokes: each is
// logged as an alarm with the cabinet id, counted and kept in the store.
var alarmReasons = map[refusal.Reason]bool{
	refusal.RoundConflict: true, refusal.RoundSequence: true, refusal.RoundOpen: true, refusal.RiskNotOpen: true, refusal.RiskConflict: true,
	refusal.VoucherAboveCredit: true, refusal.MetersDecreased: true, refusal.CreditUnknown: true,
	refusal.DisabledRisk: true, refusal.DisabledVoucher: true, refusal.VoucherVoid: true,
}

// alarms counts alarms per cabinet and reason.
type alarms struct {
	mu sync.Mutex
	n  map[[2]string]int64
}

// raised records err as an alarm if it is one of alarmReasons, and
// returns err unchanged.
func (s *Server) raised(cab string, err error) error {
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
		s.alarm(cab, reason, st.Message())
	}
	return err
}

// alarm logs, counts and stores one alarm (a write of its own: the
// refused request's savepoint was rolled back).
func (s *Server) alarm(cab, reason, text string) {
	s.log.Error("central alarm", "cabinet", cab, "reason", reason, "detail", text)
	s.alarms.mu.Lock()
	if s.alarms.n == nil {
		s.alarms.n = map[[2]string]int64{}
	}
	s.alarms.n[[2]string{cab, reason}]++
	s.alarms.mu.Unlock()
	now := s.now().UnixNano()
	if err := s.st.write(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO alarms(cabinet, at, reason, text) VALUES(?,?,?,?)`, cab, now, reason, text)
		return err
	}); err != nil {
		s.log.Error("central alarm not stored", "cabinet", cab, "reason", reason, "err", err)
	}
}

// Alarms returns how many alarms of each reason a cabinet raised since the
// server started ("" cabinet: all cabinets together). The store keeps
// every alarm (table alarms).
func (s *Server) Alarms(cab string) map[string]int64 {
	s.alarms.mu.Lock()
	defer s.alarms.mu.Unlock()
	out := map[string]int64{}
	for k, v := range s.alarms.n {
		if cab == "" || k[0] == cab {
			out[k[1]] += v
		}
	}
	return out
}

// OpenRound answers the cabinet's latest drawn round with its stored bytes.
func (s *Server) OpenRound(ctx context.Context, _ *pb.OpenRoundRequest) (*pb.OpenRoundReply, error) {
	c, err := s.admit(ctx)
	if err != nil {
		return nil, err
	}
	out := &pb.OpenRoundReply{}
	err = s.st.write(ctx, func(tx *sql.Tx) error {
		last, settled, err := s.latestRound(tx, c.id)
		if err != nil || last == 0 {
			return err
		}
		r, err := s.loadRound(tx, c.id, last)
		if err != nil || r == nil {
			return err
		}
		out.Round, out.Committed, out.LastRound = &pb.SignedBody{Body: r.body, Signature: r.sig}, settled, last
		return nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return out, nil
}

// The credit mirror: what the central system knows a cabinet's credit
// meter must be. It books stakes and wins as it draws them, vouchers as it
// issues them and tickets as they are redeemed; the cabinet's cumulative
// meters for what it cannot see (notes, a technician's base credit,
// cancelled-credit handpays, and which wins went to credit rather than
// to a hand pay) ride on the request that needs them.
type mirror struct {
	stakes, wins, ticketsIn, vouchers      int64
	base, billsIn, winsToCredit, cancelled int64
	reported                               bool
}

// credit is the mirrored credit meter. Wins count at most as far as the
// cabinet says it credited them (a large win paid by hand never reached
// the meter) and never beyond what was drawn here.
func (m *mirror) credit() int64 {
	return m.base + m.billsIn + m.ticketsIn + min(m.wins, m.winsToCredit) - m.stakes - m.vouchers - m.cancelled
}

func (s *Server) loadMirror(tx *sql.Tx, cab string) (*mirror, error) {
	var m mirror
	var rep int
	err := s.st.queryRow(tx, `SELECT stakes, wins, tickets_in, vouchers, base, bills_in, wins_to_credit, cancelled, reported FROM credit WHERE cabinet=?`, cab).
		Scan(&m.stakes, &m.wins, &m.ticketsIn, &m.vouchers, &m.base, &m.billsIn, &m.winsToCredit, &m.cancelled, &rep)
	if errors.Is(err, sql.ErrNoRows) {
		return &m, nil
	}
	m.reported = rep != 0
	return &m, err
}

// book adds to the central system's own columns of the mirror.
func (s *Server) book(tx *sql.Tx, cab string, stakes, wins, ticketsIn, vouchers int64) error {
	return s.st.execLater(tx, `INSERT INTO credit(cabinet, stakes, wins, tickets_in, vouchers) VALUES(?,?,?,?,?)
		ON CONFLICT(cabinet) DO UPDATE SET stakes=credit.stakes+excluded.stakes, wins=credit.wins+excluded.wins,
		tickets_in=credit.tickets_in+excluded.tickets_in, vouchers=credit.vouchers+excluded.vouchers`, cab, stakes, wins, ticketsIn, vouchers)
}

// report takes the cabinet's cumulative meters into the mirror. They never
// decrease: a lower value is refused (nothing changes) and is an alarm.
func (s *Server) report(tx *sql.Tx, cab string, m *mirror, cm *pb.CreditMeters) error {
	if !cm.GetPresent() {
		return nil
	}
	vals := []struct {
		name      string
		have, got int64
	}{{"base", m.base, cm.GetBase()}, {"bills_in", m.billsIn, cm.GetBillsIn()},
		{"wins_to_credit", m.winsToCredit, cm.GetWinsToCredit()}, {"handpay_cancelled", m.cancelled, cm.GetHandpayCancelled()}}
	for _, v := range vals {
		if v.got < 0 || (m.reported && v.got < v.have) {
			return refuse(codes.FailedPrecondition, refusal.MetersDecreased, "meter %s went from %d to %d", v.name, v.have, v.got)
		}
	}
	m.base, m.billsIn, m.winsToCredit, m.cancelled, m.reported = cm.GetBase(), cm.GetBillsIn(), cm.GetWinsToCredit(), cm.GetHandpayCancelled(), true
	_, err := s.st.exec(tx, `INSERT INTO credit(cabinet, base, bills_in, wins_to_credit, cancelled, reported) VALUES(?,?,?,?,?,1)
		ON CONFLICT(cabinet) DO UPDATE SET base=excluded.base, bills_in=excluded.bills_in,
		wins_to_credit=excluded.wins_to_credit, cancelled=excluded.cancelled, reported=1`,
		cab, m.base, m.billsIn, m.winsToCredit, m.cancelled)
	return err
}

// MirrorCredit is the central system's mirror of a cabinet's credit meter
// (ok false: the cabinet never reported its meters).
func (s *Server) MirrorCredit(ctx context.Context, cab string) (credit int64, ok bool, err error) {
	err = s.st.write(ctx, func(tx *sql.Tx) error {
		m, err := s.loadMirror(tx, cab)
		if err != nil {
			return err
		}
		credit, ok = m.credit(), m.reported
		return nil
	})
	return credit, ok, err
}

func describeMirror(m *mirror) string {
	return fmt.Sprintf("base %d + bills %d + tickets in %d + wins %d (credited %d) - stakes %d - vouchers %d - cancelled %d",
		m.base, m.billsIn, m.ticketsIn, m.wins, m.winsToCredit, m.stakes, m.vouchers, m.cancelled)
}

// UnprintedVoidWindow is how long after issue a voucher the cabinet says
// it never printed is voided. Later, or once held or redeemed, it stays
// (the mirror then stays lower: a voucher is refused, never overpaid).
const UnprintedVoidWindow = 15 * time.Minute

// voidUnprinted voids the cabinet's vouchers it reports as never printed
// and gives their amounts back to the mirror; a report of one that was
// held or redeemed is returned as suspect (an alarm after the write).
func (s *Server) voidUnprinted(tx *sql.Tx, cab string, seqs []uint64) (suspect []string, err error) {
	if len(seqs) > 16 {
		seqs = seqs[len(seqs)-16:]
	}
	since := s.now().Add(-UnprintedVoidWindow).UnixNano()
	for _, q := range seqs {
		var number, state string
		var amount, issued int64
		err := tx.QueryRow(`SELECT number, state, amount, issued_at FROM vouchers WHERE cabinet=? AND sequence=?`, cab, int64(q)).
			Scan(&number, &state, &amount, &issued)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		switch {
		case state == "void":
		case state == "issued" && issued >= since:
			if _, err := tx.Exec(`UPDATE vouchers SET state='void' WHERE number=?`, number); err != nil {
				return nil, err
			}
			if err := s.book(tx, cab, 0, 0, 0, -amount); err != nil {
				return nil, err
			}
		case state != "issued":
			suspect = append(suspect, fmt.Sprintf("voucher sequence %d reported unprinted but %s", q, state))
		}
	}
	return suspect, nil
}

// AdjustCredit changes a cabinet's credit mirror by delta, an operator's
// correction by a delta (rounds played against another central system;
// after a RAM clear SetMirror or ReconcileMirror take the new meters):
// logged, and kept as an alarm row "MIRROR_ADJUSTED" with the reason.
func (s *Server) AdjustCredit(ctx context.Context, cab string, delta int64, reason string) error {
	if delta == 0 {
		return nil
	}
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		// Booked as tickets in (positive) or vouchers out (negative):
		// outside the min() that bounds wins by what was drawn here.
		if delta > 0 {
			return s.book(tx, cab, 0, 0, delta, 0)
		}
		return s.book(tx, cab, 0, 0, 0, -delta)
	})
	if err != nil {
		return storeErr(err)
	}
	s.alarm(cab, ReasonMirrorAdjusted, fmt.Sprintf("mirror adjusted by %d: %s", delta, reason))
	return nil
}

package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// Mirror keeps each cabinet's credit mirror (table credit) and the
// operator's corrections of it: every booking, report and correction of
// the mirror is one of its methods, inside the caller's store transaction
// or one of its own.
type Mirror struct {
	base
	alarms *Alarms
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

func (s *Mirror) load(tx *sql.Tx, cab string) (*mirror, error) {
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
func (s *Mirror) book(tx *sql.Tx, cab string, stakes, wins, ticketsIn, vouchers int64) error {
	return s.st.execLater(tx, `INSERT INTO credit(cabinet, stakes, wins, tickets_in, vouchers) VALUES(?,?,?,?,?)
		ON CONFLICT(cabinet) DO UPDATE SET stakes=credit.stakes+excluded.stakes, wins=credit.wins+excluded.wins,
		tickets_in=credit.tickets_in+excluded.tickets_in, vouchers=credit.vouchers+excluded.vouchers`, cab, stakes, wins, ticketsIn, vouchers)
}

// report takes the cabinet's cumulative meters into the mirror. They never
// decrease: a lower value is refused (nothing changes) and is an alarm.
func (s *Mirror) report(tx *sql.Tx, cab string, m *mirror, cm *pb.CreditMeters) error {
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

// Credit is the central system's mirror of a cabinet's credit meter
// (ok false: the cabinet never reported its meters).
func (s *Mirror) Credit(ctx context.Context, cab string) (credit int64, ok bool, err error) {
	err = s.st.write(ctx, func(tx *sql.Tx) error {
		m, err := s.load(tx, cab)
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

// Adjust changes a cabinet's credit mirror by delta, an operator's
// correction by a delta (rounds played against another central system;
// after a RAM clear Set or Reconcile take the new meters):
// logged, and kept as an alarm row "MIRROR_ADJUSTED" with the reason.
func (s *Mirror) Adjust(ctx context.Context, cab string, delta int64, reason string) error {
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
	s.alarms.raise(cab, ReasonMirrorAdjusted, fmt.Sprintf("mirror adjusted by %d: %s", delta, reason))
	return nil
}

// keepHelloMeters stores what the cabinet reported at Hello, also when the
// report was refused: "mirror reconcile" starts from it.
func (s *Mirror) keepHelloMeters(tx *sql.Tx, cab string, at time.Time, credit, base, bills, wtc, cancelled int64) error {
	_, err := s.st.exec(tx, `INSERT INTO hello_meters(cabinet, at, credit, base, bills_in, wins_to_credit, cancelled) VALUES(?,?,?,?,?,?,?)
		ON CONFLICT(cabinet) DO UPDATE SET at=excluded.at, credit=excluded.credit, base=excluded.base, bills_in=excluded.bills_in,
		wins_to_credit=excluded.wins_to_credit, cancelled=excluded.cancelled`, cab, at.UnixNano(), credit, base, bills, wtc, cancelled)
	return err
}

// MirrorChange is what Set or Reconcile did.
type MirrorChange struct {
	Cabinet string `json:"cabinet"`
	Before  int64  `json:"before"`
	After   int64  `json:"after"`
	// Meters the mirror starts from again (the cabinet's at its last
	// Hello): after a RAM clear they are lower than the ones kept.
	Meters string `json:"meters"`
}

// Set sets cabinet's credit mirror to credit, from the meters the
// cabinet reported at its last Hello (a RAM clear resets the cabinet's
// meters: they are taken as the new baseline, and later reports count up
// from them). Refused while the cabinet has an open round or played after
// that Hello (rounds drawn, vouchers issued or redeemed since): the mirror
// would lose them; reconcile after its next Hello.
func (s *Mirror) Set(ctx context.Context, cab string, credit int64, by, reason string) (MirrorChange, error) {
	return s.rebaseline(ctx, cab, &credit, by, reason)
}

// Reconcile sets the mirror to the credit the cabinet reported at
// its last Hello (see Set).
func (s *Mirror) Reconcile(ctx context.Context, cab, by, reason string) (MirrorChange, error) {
	return s.rebaseline(ctx, cab, nil, by, reason)
}

func (s *Mirror) rebaseline(ctx context.Context, cab string, target *int64, by, reason string) (MirrorChange, error) {
	mc := MirrorChange{Cabinet: cab}
	if by == "" || reason == "" {
		return mc, ErrActionArgs
	}
	var text string
	err := s.st.write(ctx, func(tx *sql.Tx) error {
		var at, credit, base, bills, wtc, cancelled int64
		err := s.st.queryRow(tx, `SELECT at, credit, base, bills_in, wins_to_credit, cancelled FROM hello_meters WHERE cabinet=?`, cab).
			Scan(&at, &credit, &base, &bills, &wtc, &cancelled)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: cabinet %q never reported its meters at Hello", ErrNoReport, cab)
		}
		if err != nil {
			return err
		}
		last, settled, err := latestRound(s.st, tx, cab)
		if err != nil {
			return err
		}
		if !settled {
			return fmt.Errorf("%w: cabinet %s has round %d open: settle or void it first", ErrMirrorBusy, cab, last)
		}
		var since int
		if err := s.st.queryRow(tx, `SELECT (SELECT count(*) FROM rounds WHERE cabinet=? AND drawn_at>?) +
			(SELECT count(*) FROM vouchers WHERE cabinet=? AND issued_at>?) +
			(SELECT count(*) FROM vouchers WHERE hold_cabinet=? AND redeemed_at>?)`, cab, at, cab, at, cab, at).Scan(&since); err != nil {
			return err
		}
		if since > 0 {
			return fmt.Errorf("%w: cabinet %s played after its last Hello (%s): reconcile after its next Hello",
				ErrMirrorBusy, cab, time.Unix(0, at).UTC().Format(time.RFC3339))
		}
		m, err := s.load(tx, cab)
		if err != nil {
			return err
		}
		mc.Before = m.credit()
		want := credit
		if target != nil {
			want = *target
		}
		// The new baseline: the reported meters, every win so far counted
		// as credited (wins = wins_to_credit keeps min() exact for the
		// wins drawn from now on), the rest in tickets in or vouchers out.
		nm := mirror{base: base, billsIn: bills, winsToCredit: wtc, wins: wtc, cancelled: cancelled, reported: true}
		if d := want - nm.credit(); d >= 0 {
			nm.ticketsIn = d
		} else {
			nm.vouchers = -d
		}
		if _, err := s.st.exec(tx, `INSERT INTO credit(cabinet, stakes, wins, tickets_in, vouchers, base, bills_in, wins_to_credit, cancelled, reported)
			VALUES(?,?,?,?,?,?,?,?,?,1) ON CONFLICT(cabinet) DO UPDATE SET stakes=excluded.stakes, wins=excluded.wins,
			tickets_in=excluded.tickets_in, vouchers=excluded.vouchers, base=excluded.base, bills_in=excluded.bills_in,
			wins_to_credit=excluded.wins_to_credit, cancelled=excluded.cancelled, reported=1`,
			cab, nm.stakes, nm.wins, nm.ticketsIn, nm.vouchers, nm.base, nm.billsIn, nm.winsToCredit, nm.cancelled); err != nil {
			return err
		}
		mc.After, mc.Meters = nm.credit(), describeMirror(&nm)
		how := "reconciled"
		if target != nil {
			how = "set"
		}
		text = fmt.Sprintf("mirror %s by %s: %s; credit %d -> %d (cabinet reported %d at its Hello of %s); was %s, now %s",
			how, by, reason, mc.Before, mc.After, credit, time.Unix(0, at).UTC().Format(time.RFC3339), describeMirror(m), mc.Meters)
		return s.alarms.audit(tx, cab, ReasonMirrorAdjusted, text)
	})
	if err != nil {
		return mc, actionErr(err)
	}
	s.alarms.logAudit(cab, ReasonMirrorAdjusted, text)
	return mc, nil
}

// helloCheck is what a Hello's reconciliation found; its alarms are
// raised once the Hello's transaction committed (raiseHello).
type helloCheck struct {
	credit   int64 // the mirror's credit
	differs  bool  // the cabinet reported another credit
	reported int64 // the credit the cabinet reported
	meterErr error // its meters were refused (kept as they were)
}

// reconcile takes the meters a cabinet reports at Hello: kept for "mirror
// reconcile" even when refused, and compared with the mirror (after the
// vouchers it never printed were voided).
func (s *Mirror) reconcile(tx *sql.Tx, cab string, cm *pb.CreditMeters, at time.Time) (helloCheck, error) {
	var h helloCheck
	m, err := s.load(tx, cab)
	if err != nil {
		return h, err
	}
	if cm.GetPresent() {
		if err := s.keepHelloMeters(tx, cab, at, cm.GetCredit(), cm.GetBase(), cm.GetBillsIn(), cm.GetWinsToCredit(), cm.GetHandpayCancelled()); err != nil {
			return h, err
		}
		if err := s.report(tx, cab, m, cm); err != nil {
			if _, ok := status.FromError(err); !ok {
				return h, err
			}
			h.meterErr = err // kept as they were; an alarm, but Hello goes on
		}
		h.differs, h.reported = m.credit() != cm.GetCredit(), cm.GetCredit()
	}
	h.credit = m.credit()
	return h, nil
}

// raiseHello raises the alarms of a committed Hello's reconciliation.
func (s *Mirror) raiseHello(cab string, h helloCheck) {
	if h.meterErr != nil {
		s.alarms.raised(cab, h.meterErr)
	}
	if h.differs {
		s.alarms.raise(cab, ReasonMirrorDiffers, fmt.Sprintf("Hello: cabinet credit %d, central mirror %d", h.reported, h.credit))
	}
}

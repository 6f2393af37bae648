package reports

import (
	"context"
	"fmt"
	"time"
)

// CabinetRow is a cabinet as the back office lists it.
type CabinetRow struct {
	ID, Hall, Reason, Models string
	Enabled                  bool
	FirstSeen, LastSeen      int64 // unix ns
	Rounds                   int64
	Stakes, Wins             int64
	LastTilt, LastTiltClear  int64 // unix ns of the last "tilt" / "tilt_cleared" event, 0 if none
	LastRoundAt              int64 // unix ns of the newest round drawn
}

// LastActive is when the cabinet last said Hello or drew a round.
func (c CabinetRow) LastActive() int64 { return max(c.LastSeen, c.LastRoundAt) }

// Tilted: the cabinet reported a tilt that it has not reported cleared.
func (c CabinetRow) Tilted() bool { return c.LastTilt > c.LastTiltClear }

// Cabinets lists every cabinet the store knows, by id.
func Cabinets(ctx context.Context, db Querier) ([]CabinetRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT c.id, c.hall, c.enabled, c.reason, c.models, c.first_seen, c.last_seen,
		(SELECT count(*) FROM rounds r WHERE r.cabinet = c.id),
		(SELECT coalesce(sum(stake), 0) FROM rounds r WHERE r.cabinet = c.id),
		(SELECT coalesce(sum(total), 0) FROM rounds r WHERE r.cabinet = c.id),
		(SELECT coalesce(max(at), 0) FROM events e WHERE e.cabinet = c.id AND e.kind = 'tilt'),
		(SELECT coalesce(max(at), 0) FROM events e WHERE e.cabinet = c.id AND e.kind = 'tilt_cleared'),
		(SELECT coalesce(max(drawn_at), 0) FROM rounds r WHERE r.cabinet = c.id)
		FROM cabinets c ORDER BY c.id`)
	if err != nil {
		return nil, fmt.Errorf("reports: cabinets: %w", err)
	}
	defer rows.Close()
	var out []CabinetRow
	for rows.Next() {
		var c CabinetRow
		var en int
		if err := rows.Scan(&c.ID, &c.Hall, &en, &c.Reason, &c.Models, &c.FirstSeen, &c.LastSeen, &c.Rounds, &c.Stakes, &c.Wins, &c.LastTilt, &c.LastTiltClear, &c.LastRoundAt); err != nil {
			return nil, fmt.Errorf("reports: cabinets: %w", err)
		}
		c.Enabled = en != 0
		out = append(out, c)
	}
	return out, rows.Err()
}

// HourBucket is the rounds drawn in one hour (Hour = unix ns / 1h).
type HourBucket struct {
	Hour           int64
	Rounds, Stakes int64
}

const nsPerHour = int64(3600) * 1e9

// RoundsPerHour counts rounds and stakes per hour drawn at or after since
// (GROUP BY 1: PostgreSQL does not see `drawn_at / $1` and `drawn_at / $3`
// as one expression).
func RoundsPerHour(ctx context.Context, db Querier, since int64) ([]HourBucket, error) {
	rows, err := db.QueryContext(ctx, `SELECT drawn_at / ? AS h, count(*), coalesce(sum(stake), 0) FROM rounds WHERE drawn_at >= ? GROUP BY 1 ORDER BY h`, nsPerHour, since)
	if err != nil {
		return nil, fmt.Errorf("reports: rounds per hour: %w", err)
	}
	defer rows.Close()
	var out []HourBucket
	for rows.Next() {
		var b HourBucket
		if err := rows.Scan(&b.Hour, &b.Rounds, &b.Stakes); err != nil {
			return nil, fmt.Errorf("reports: rounds per hour: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// AlarmRecord is one stored alarm or audit row.
type AlarmRecord struct {
	ID                    int64
	Cabinet, Reason, Text string
	At                    int64
}

// AlarmFilter says which alarms AlarmList reads: of one cabinet ("" all),
// at or after Since (Unix ns; 0 all), at most Limit (0: 100).
type AlarmFilter struct {
	Cabinet string
	Since   int64
	Limit   int
}

// AlarmList is the one reader of the alarms, newest first; the back office
// and the operator's admin socket (ListAlarms) both read through it.
func AlarmList(ctx context.Context, db Querier, f AlarmFilter) ([]AlarmRecord, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	rows, err := db.QueryContext(ctx, `SELECT id, cabinet, at, reason, text FROM alarms
		WHERE (?='' OR cabinet=?) AND at >= ? ORDER BY at DESC, id DESC LIMIT ?`, f.Cabinet, f.Cabinet, f.Since, f.Limit)
	if err != nil {
		return nil, fmt.Errorf("reports: alarms: %w", err)
	}
	defer rows.Close()
	var out []AlarmRecord
	for rows.Next() {
		var a AlarmRecord
		if err := rows.Scan(&a.ID, &a.Cabinet, &a.At, &a.Reason, &a.Text); err != nil {
			return nil, fmt.Errorf("reports: alarms: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// RoundRow is one drawn round as the back office shows it.
type RoundRow struct {
	Round                uint64
	Game, Model          string
	Stake, Total         int64
	JackpotPool          string
	Jackpot              int64
	RiskOK, Committed    bool
	DrawnAt, CommittedAt int64
	Body, Sig            []byte // the signed outcome as sent to the cabinet
}

// LastRounds lists a cabinet's newest rounds, at most limit.
func LastRounds(ctx context.Context, db Querier, cabinet string, limit int) ([]RoundRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT round, game, model_id, stake, total, jackpot_pool, jackpot_amount, risk_ok, drawn_at, coalesce(committed_at, 0), body, sig
		FROM rounds WHERE cabinet = ? ORDER BY round DESC LIMIT ?`, cabinet, limit)
	if err != nil {
		return nil, fmt.Errorf("reports: rounds: %w", err)
	}
	defer rows.Close()
	var out []RoundRow
	for rows.Next() {
		var r RoundRow
		var risk int
		if err := rows.Scan(&r.Round, &r.Game, &r.Model, &r.Stake, &r.Total, &r.JackpotPool, &r.Jackpot, &risk, &r.DrawnAt, &r.CommittedAt, &r.Body, &r.Sig); err != nil {
			return nil, fmt.Errorf("reports: rounds: %w", err)
		}
		r.RiskOK, r.Committed = risk != 0, r.CommittedAt != 0
		out = append(out, r)
	}
	return out, rows.Err()
}

// EventRow is one event a cabinet reported.
type EventRow struct {
	At         int64
	Kind, Text string
	Amount     int64
}

// LastEvents lists a cabinet's newest events, at most limit.
func LastEvents(ctx context.Context, db Querier, cabinet string, limit int) ([]EventRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT at, kind, text, amount FROM events WHERE cabinet = ? ORDER BY at DESC, message_id DESC, seq DESC LIMIT ?`, cabinet, limit)
	if err != nil {
		return nil, fmt.Errorf("reports: events: %w", err)
	}
	defer rows.Close()
	var out []EventRow
	for rows.Next() {
		var e EventRow
		if err := rows.Scan(&e.At, &e.Kind, &e.Text, &e.Amount); err != nil {
			return nil, fmt.Errorf("reports: events: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// MeterRow is one meter of a cabinet's latest report.
type MeterRow struct {
	Name  string
	Value int64
	At    int64
}

// LatestMeters lists the meters of a cabinet's newest meter report.
func LatestMeters(ctx context.Context, db Querier, cabinet string) ([]MeterRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, value, at FROM meters WHERE cabinet = ? AND message_id = (SELECT max(message_id) FROM meters WHERE cabinet = ?) ORDER BY name`, cabinet, cabinet)
	if err != nil {
		return nil, fmt.Errorf("reports: meters: %w", err)
	}
	defer rows.Close()
	var out []MeterRow
	for rows.Next() {
		var m MeterRow
		if err := rows.Scan(&m.Name, &m.Value, &m.At); err != nil {
			return nil, fmt.Errorf("reports: meters: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// JackpotWin is a round that awarded a progressive jackpot (the payout
// register's source: the central system's own round record, whatever
// jackpot engine drew it).
type JackpotWin struct {
	Cabinet, Hall, Pool string
	Round               uint64
	Amount              int64
	At                  int64
}

// JackpotWins lists every round with a jackpot, newest first.
func JackpotWins(ctx context.Context, db Querier) ([]JackpotWin, error) {
	rows, err := db.QueryContext(ctx, `SELECT r.cabinet, coalesce(c.hall, ''), r.jackpot_pool, r.round, r.jackpot_amount, r.drawn_at
		FROM rounds r LEFT JOIN cabinets c ON c.id = r.cabinet WHERE r.jackpot_amount > 0 ORDER BY r.drawn_at DESC, r.cabinet, r.round DESC`)
	if err != nil {
		return nil, fmt.Errorf("reports: jackpot wins: %w", err)
	}
	defer rows.Close()
	var out []JackpotWin
	for rows.Next() {
		var w JackpotWin
		if err := rows.Scan(&w.Cabinet, &w.Hall, &w.Pool, &w.Round, &w.Amount, &w.At); err != nil {
			return nil, fmt.Errorf("reports: jackpot wins: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// VoucherRow is a voucher as the back office lists it.
type VoucherRow struct {
	Number, Cabinet, Hall, State, RedeemedAt string
	Amount                                   int64
	IssuedAt, ExpiresAt, RedeemedAtNs        int64
}

// Vouchers lists vouchers whose number contains q ("" any), in state
// (one of issued, held, redeemed, void; "" any), newest first, at most limit.
func Vouchers(ctx context.Context, db Querier, q, state string, limit int) ([]VoucherRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT v.number, v.cabinet, coalesce(c.hall, ''), v.state, v.hold_cabinet, v.amount, v.issued_at, v.expires_at, v.redeemed_at
		FROM vouchers v LEFT JOIN cabinets c ON c.id = v.cabinet
		WHERE (? = '' OR v.number LIKE ?) AND (? = '' OR v.state = ?) ORDER BY v.issued_at DESC, v.number LIMIT ?`,
		q, "%"+q+"%", state, state, limit)
	if err != nil {
		return nil, fmt.Errorf("reports: vouchers: %w", err)
	}
	defer rows.Close()
	var out []VoucherRow
	for rows.Next() {
		var v VoucherRow
		if err := rows.Scan(&v.Number, &v.Cabinet, &v.Hall, &v.State, &v.RedeemedAt, &v.Amount, &v.IssuedAt, &v.ExpiresAt, &v.RedeemedAtNs); err != nil {
			return nil, fmt.Errorf("reports: vouchers: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// DayRow is one cabinet's totals of one UTC day (Day = unix ns / 24h).
type DayRow struct {
	Day                     int64
	Cabinet, Hall           string
	Rounds, Stakes, Wins    int64
	Jackpots, Handpays      int64
	VouchersOut, VouchersIn int64 // issued by the cabinet / redeemed at it
}

const nsPerDay = 24 * nsPerHour

// DailyTotals sums rounds, jackpots, handpays ("handpay_paid" events) and
// vouchers per cabinet and UTC day for [from, to) unix ns.
func DailyTotals(ctx context.Context, db Querier, from, to int64) ([]DayRow, error) {
	type key struct {
		day int64
		cab string
	}
	acc := map[key]*DayRow{}
	get := func(day int64, cab, hall string) *DayRow {
		k := key{day, cab}
		if r := acc[k]; r != nil {
			if r.Hall == "" {
				r.Hall = hall
			}
			return r
		}
		r := &DayRow{Day: day, Cabinet: cab, Hall: hall}
		acc[k] = r
		return r
	}
	// GROUP BY 1, the day's column, as in RoundsPerHour.
	queries := []struct {
		q   string
		add func(r *DayRow, a, b, c int64)
	}{
		{`SELECT r.drawn_at / ?, r.cabinet, coalesce(c.hall, ''), count(*), coalesce(sum(r.stake), 0), coalesce(sum(r.total), 0) FROM rounds r LEFT JOIN cabinets c ON c.id = r.cabinet
			WHERE r.drawn_at >= ? AND r.drawn_at < ? GROUP BY 1, r.cabinet, c.hall`,
			func(r *DayRow, a, b, c int64) { r.Rounds += a; r.Stakes += b; r.Wins += c }},
		{`SELECT r.drawn_at / ?, r.cabinet, coalesce(c.hall, ''), count(*), coalesce(sum(r.jackpot_amount), 0), 0 FROM rounds r LEFT JOIN cabinets c ON c.id = r.cabinet
			WHERE r.drawn_at >= ? AND r.drawn_at < ? AND r.jackpot_amount > 0 GROUP BY 1, r.cabinet, c.hall`,
			func(r *DayRow, _, b, _ int64) { r.Jackpots += b }},
		{`SELECT e.at / ?, e.cabinet, coalesce(c.hall, ''), count(*), coalesce(sum(e.amount), 0), 0 FROM events e LEFT JOIN cabinets c ON c.id = e.cabinet
			WHERE e.at >= ? AND e.at < ? AND e.kind = 'handpay_paid' GROUP BY 1, e.cabinet, c.hall`,
			func(r *DayRow, _, b, _ int64) { r.Handpays += b }},
		{`SELECT v.issued_at / ?, v.cabinet, coalesce(c.hall, ''), count(*), coalesce(sum(v.amount), 0), 0 FROM vouchers v LEFT JOIN cabinets c ON c.id = v.cabinet
			WHERE v.issued_at >= ? AND v.issued_at < ? GROUP BY 1, v.cabinet, c.hall`,
			func(r *DayRow, _, b, _ int64) { r.VouchersOut += b }},
		{`SELECT v.redeemed_at / ?, v.hold_cabinet, coalesce(c.hall, ''), count(*), coalesce(sum(v.amount), 0), 0 FROM vouchers v LEFT JOIN cabinets c ON c.id = v.hold_cabinet
			WHERE v.state = 'redeemed' AND v.redeemed_at >= ? AND v.redeemed_at < ? GROUP BY 1, v.hold_cabinet, c.hall`,
			func(r *DayRow, _, b, _ int64) { r.VouchersIn += b }},
	}
	for _, qq := range queries {
		rows, err := db.QueryContext(ctx, qq.q, nsPerDay, from, to)
		if err != nil {
			return nil, fmt.Errorf("reports: daily totals: %w", err)
		}
		for rows.Next() {
			var day, a, b, c int64
			var cab, hall string
			if err := rows.Scan(&day, &cab, &hall, &a, &b, &c); err != nil {
				rows.Close()
				return nil, fmt.Errorf("reports: daily totals: %w", err)
			}
			qq.add(get(day, cab, hall), a, b, c)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("reports: daily totals: %w", err)
		}
	}
	out := make([]DayRow, 0, len(acc))
	for _, r := range acc {
		out = append(out, *r)
	}
	return out, nil
}

// AlarmRow is one stored alarm or audit row.
type AlarmRow struct {
	ID      int64  `json:"id"`
	Cabinet string `json:"cabinet"`
	At      string `json:"at"`
	Reason  string `json:"reason"`
	Text    string `json:"text"`
}

// ListAlarms is AlarmList as the admin socket answers it (JSON, times as
// RFC 3339): of one cabinet ("" all), at most limit of them (0: 100).
func ListAlarms(ctx context.Context, db Querier, cab string, limit int) ([]AlarmRow, error) {
	recs, err := AlarmList(ctx, db, AlarmFilter{Cabinet: cab, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]AlarmRow, 0, len(recs))
	for _, a := range recs {
		out = append(out, AlarmRow{ID: a.ID, Cabinet: a.Cabinet, At: time.Unix(0, a.At).UTC().Format(time.RFC3339Nano), Reason: a.Reason, Text: a.Text})
	}
	return out, nil
}

package loadtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"strings"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/server"
)

// audit reopens the store after the server closed it and checks the
// jackpot books three ways: the identity and journal on every pool
// (jackpot.Audit), the contributions the cabinets' stakes imply, and the
// hits the signed bodies carried against the rounds table.
func (r *Result) audit(path string) error {
	var db *sql.DB
	var err error
	if server.IsPostgresURL(path) {
		db, err = server.OpenPostgres(path)
	} else {
		db, err = server.OpenReadOnly(path)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	if r.Audit, err = jackpot.Audit(ctx, db); err != nil {
		return err
	}
	bad := func(format string, a ...any) { r.Checks = append(r.Checks, fmt.Sprintf(format, a...)) }
	want := map[string]jackpot.Units{}
	for cab, staked := range r.stakes {
		pool, _, err := r.jackpot.Route(cab, r.halls[cab])
		if err != nil {
			return err
		}
		p, _ := r.jackpot.Pool(pool)
		want[pool] += jackpot.Units(staked * p.RateBP)
	}
	var rounds int64
	if err := db.QueryRow(`SELECT COUNT(*) FROM rounds`).Scan(&rounds); err != nil {
		return err
	}
	if rounds != r.Outcomes {
		bad("rounds stored %d ≠ outcomes received %d", rounds, r.Outcomes)
	}
	if r.Commits != "none" {
		var open int64
		if err := db.QueryRow(`SELECT COUNT(*) FROM rounds WHERE committed_at IS NULL`).Scan(&open); err != nil {
			return err
		}
		if open != 0 {
			bad("%d rounds never committed", open)
		}
	}
	var games int64
	for _, l := range r.Audit {
		games += l.Games
		if !l.OK() {
			bad("%v", l)
		}
		if l.Contributed != want[l.Pool] {
			bad("pool %s: contributions %d units, the cabinets' stakes imply %d", l.Pool, l.Contributed, want[l.Pool])
		}
		var stored, storedHits int64
		if err := db.QueryRow(`SELECT COALESCE(SUM(jackpot_amount), 0), COUNT(*) FROM rounds WHERE jackpot_pool = ?`, l.Pool).Scan(&stored, &storedHits); err != nil {
			return err
		}
		if jackpot.Units(r.hits[l.Pool]*jackpot.UnitsPerCrown) != l.Paid || stored != r.hits[l.Pool] || storedHits != l.Hits || r.hitN[l.Pool] != l.Hits {
			bad("pool %s: paid %s in %d hits; the signed bodies carried %d CZK in %d hits; the rounds table %d CZK in %d",
				l.Pool, l.Paid, l.Hits, r.hits[l.Pool], r.hitN[l.Pool], stored, storedHits)
		}
	}
	if games != r.Outcomes {
		bad("jackpot games %d ≠ outcomes %d", games, r.Outcomes)
	}
	if err := r.auditRounds(ctx, db, bad); err != nil {
		return err
	}
	if r.Vouchers > 0 || r.Events > 0 {
		if err := r.auditMix(ctx, db, bad); err != nil {
			return err
		}
	}
	return nil
}

// auditRounds checks every round against what its cabinet was answered:
// each cabinet's rounds are 1…n with no gap, none twice, and each stored
// body is the one the cabinet got (its SHA-256); and the credit mirror's
// stakes are what the cabinets staked.
func (r *Result) auditRounds(ctx context.Context, db *sql.DB, bad func(string, ...any)) error {
	rows, err := db.QueryContext(ctx, `SELECT cabinet, round, body FROM rounds ORDER BY cabinet, round`)
	if err != nil {
		return err
	}
	defer rows.Close()
	next := map[string]int{}
	var lost, doubled, other, strange int
	for rows.Next() {
		var cab string
		var n int64
		var body []byte
		if err := rows.Scan(&cab, &n, &body); err != nil {
			return err
		}
		got, ok := r.bodies[cab]
		switch {
		case !ok || n < 1 || int(n) > len(got):
			strange++ // a round no cabinet was answered
		case int(n) <= next[cab]:
			doubled++
		case sha256.Sum256(body) != got[n-1]:
			other++
		}
		if int(n) > next[cab]+1 && ok {
			lost += int(n) - next[cab] - 1
		}
		next[cab] = max(next[cab], int(n))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for cab, b := range r.bodies {
		// Rounds past the last answered one are counted above (stored,
		// never answered: a cabinet that gave up while it waited).
		lost += max(0, len(b)-next[cab])
	}
	if lost != 0 || doubled != 0 || other != 0 || strange != 0 {
		bad("rounds: %d answered but not stored, %d stored twice, %d stored with a body other than the cabinet's, %d stored that no cabinet was answered (a cabinet that gave up waiting: it would ask again and get it)", lost, doubled, other, strange)
	}
	var stakes int64
	var want int64
	for _, s := range r.stakes {
		want += s
	}
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(SUM(stakes), 0) FROM credit`).Scan(&stakes); err != nil {
		return err
	}
	if stakes != want {
		bad("credit mirror: stakes %d, the cabinets staked %d", stakes, want)
	}
	return nil
}

// auditMix checks the vouchers and events of a Mix run: every voucher a
// cabinet printed is stored once with its number, sequence and amount and
// redeemed (no other voucher exists); the credit mirror's vouchers and
// tickets in are their sums; every event a cabinet's outbox sent is stored
// once.
func (r *Result) auditMix(ctx context.Context, db *sql.DB, bad func(string, ...any)) error {
	type stored struct {
		cab    string
		seq    int64
		amount int64
		state  string
	}
	rows, err := db.QueryContext(ctx, `SELECT number, cabinet, sequence, amount, state FROM vouchers`)
	if err != nil {
		return err
	}
	have := map[string]stored{}
	for rows.Next() {
		var num string
		var v stored
		if err := rows.Scan(&num, &v.cab, &v.seq, &v.amount, &v.state); err != nil {
			rows.Close()
			return err
		}
		have[num] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var missing, wrong, open int
	var sum int64
	for cab, vs := range r.vouchers {
		for _, v := range vs {
			sum += v.amount
			h, ok := have[v.number]
			switch {
			case !ok:
				missing++
			case h.cab != cab || h.seq != int64(v.seq) || h.amount != v.amount:
				wrong++
			case h.state != "redeemed":
				open++
			}
		}
	}
	if missing != 0 || wrong != 0 || open != 0 || int64(len(have)) != r.Vouchers {
		bad("vouchers: %d printed, %d stored; %d printed but not stored, %d stored otherwise than printed, %d not redeemed", r.Vouchers, len(have), missing, wrong, open)
	}
	var vouchers, ticketsIn int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(SUM(vouchers), 0), COALESCE(SUM(tickets_in), 0) FROM credit`).Scan(&vouchers, &ticketsIn); err != nil {
		return err
	}
	if vouchers != sum || ticketsIn != sum {
		bad("credit mirror: vouchers %d and tickets in %d, the cabinets printed and redeemed %d", vouchers, ticketsIn, sum)
	}
	rows, err = db.QueryContext(ctx, `SELECT cabinet, COUNT(*), COUNT(DISTINCT seq) FROM events WHERE kind IN ('round_played', 'meters') GROUP BY cabinet`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var events, twice, off int64
	for rows.Next() {
		var cab string
		var n, distinct int64
		if err := rows.Scan(&cab, &n, &distinct); err != nil {
			return err
		}
		events += n
		twice += n - distinct
		if n != r.events[cab] {
			off++
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if events != r.Events || twice != 0 || off != 0 {
		bad("events: the outboxes sent %d, %d stored, %d of them twice; %d cabinets with other than they sent", r.Events, events, twice, off)
	}
	return nil
}

// MixReport is the audit's line on rounds, vouchers and events.
func (r *Result) MixReport() string {
	if len(r.Checks) > 0 {
		return ""
	}
	s := fmt.Sprintf("rounds: %d answered, every one stored once with the body its cabinet got (0 lost, 0 doubled); credit mirror stakes exact", r.Outcomes)
	if r.Vouchers > 0 || r.Events > 0 {
		v := fmt.Sprintf("%d printed, each stored once and redeemed once (0 lost, 0 doubled), mirror vouchers and tickets in exact", r.Vouchers)
		if r.Vouchers == 0 {
			v = "none printed (no cabinet reached its 10th round)"
		}
		s += fmt.Sprintf("\nvouchers: %s; events: %d sent from the outboxes, each stored once (0 lost, 0 doubled)", v, r.Events)
	}
	return s + "\n"
}

// AuditReport is the audit's printout: one line per pool and a verdict.
func (r *Result) AuditReport() string {
	var b strings.Builder
	for _, l := range r.Audit {
		b.WriteString(l.String() + "\n")
	}
	for _, c := range r.Checks {
		b.WriteString("CHECK FAILED: " + c + "\n")
	}
	if len(r.Audit) > 0 && len(r.Checks) == 0 {
		b.WriteString("jackpot identity seed + contributions − hits = pool: EXACT on every pool; contributions match the stakes played; hits match the signed outcomes and the rounds table\n")
	}
	return b.String()
}

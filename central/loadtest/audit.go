package loadtest

import (
	"context"
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
	return nil
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

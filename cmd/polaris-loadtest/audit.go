package main

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/polaris-vlt/polaris/central/jackpot"
)

// audit reopens the store after the server closed it and checks the
// jackpot books three ways: the identity on every pool (jackpot.Audit),
// the contributions the cabinets' stakes imply, and the hits the signed
// bodies carried and the rounds table recorded.
func audit(path string, j *jackpot.Jackpot, halls map[string]string, res *result) (bool, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return false, err
	}
	defer db.Close()
	ctx := context.Background()
	lines, err := jackpot.Audit(ctx, db)
	if err != nil {
		return false, err
	}
	want := map[string]jackpot.Units{}
	for cab, staked := range res.stakes {
		pool, _, err := j.Route(cab, halls[cab])
		if err != nil {
			return false, err
		}
		p, _ := j.Pool(pool)
		want[pool] += jackpot.Units(staked * p.RateBP)
	}
	var rounds int64
	if err := db.QueryRow(`SELECT COUNT(*) FROM rounds`).Scan(&rounds); err != nil {
		return false, err
	}
	ok := rounds == res.n
	if !ok {
		fmt.Printf("rounds stored %d ≠ outcomes received %d\n", rounds, res.n)
	}
	for _, l := range lines {
		fmt.Println(l)
		ok = ok && l.OK()
		if l.Contributed != want[l.Pool] {
			fmt.Printf("  pool %s: contributions %d units, the cabinets' stakes imply %d\n", l.Pool, l.Contributed, want[l.Pool])
			ok = false
		}
		var stored, storedHits int64
		if err := db.QueryRow(`SELECT COALESCE(SUM(jackpot_amount), 0), COUNT(*) FROM rounds WHERE jackpot_pool = ?`, l.Pool).Scan(&stored, &storedHits); err != nil {
			return false, err
		}
		if jackpot.Units(res.hits[l.Pool]*jackpot.UnitsPerCrown) != l.Paid || stored != res.hits[l.Pool] || storedHits != l.Hits || res.hitCount[l.Pool] != l.Hits {
			fmt.Printf("  pool %s: paid %s in %d hits; signed bodies carried %d CZK in %d hits; rounds table %d CZK in %d\n",
				l.Pool, l.Paid, l.Hits, res.hits[l.Pool], res.hitCount[l.Pool], stored, storedHits)
			ok = false
		}
	}
	if ok {
		fmt.Println("jackpot identity seed + contributions − hits = pool: EXACT on every pool; contributions match the stakes played, hits match the signed outcomes")
	} else {
		fmt.Println("jackpot identity: FAILED")
	}
	return ok, nil
}

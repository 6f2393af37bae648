package loadtest

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/polaris-vlt/polaris/engine/games"
)

// TestSmallRunBalances runs a small load through the real server and link
// clients, with ceilings 20 CZK above the seeds so that every pool is hit
// many times, and requires every book to balance.
func TestSmallRunBalances(t *testing.T) {
	res, err := Run(context.Background(), Options{Cabinets: 12, Rounds: 25, HitGap: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Line())
	t.Log("\n" + res.AuditReport())
	if !res.OK() {
		t.Fatalf("errors %d (first %v), checks %v", res.Errors, res.FirstErr, res.Checks)
	}
	if res.Outcomes != 12*25 || !strings.Contains(res.Line(), "outcomes/s, p50 ") {
		t.Fatalf("%d outcomes; line %q", res.Outcomes, res.Line())
	}
	if len(res.Audit) != 3 {
		t.Fatalf("%d pools audited, want 3", len(res.Audit))
	}
	for _, l := range res.Audit {
		if l.Hits == 0 || l.Games == 0 {
			t.Errorf("pool %s: %d games, %d hits; the forced ceiling should give hits", l.Pool, l.Games, l.Hits)
		}
	}
}

// The protocol's first form (a CommitOutcome per round), pacing and the
// cabinets' own journal: every round still ends up committed (the audit
// counts rounds never committed) and journalled.
func TestSeparateCommitsPaced(t *testing.T) {
	dir := t.TempDir()
	res, err := Run(context.Background(), Options{Cabinets: 6, Rounds: 5, Every: 40 * time.Millisecond, SeparateCommits: true, Journal: true, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// The cabinets' journal: WAGER and SETTLE (17 bytes each) and OUTCOME
	// (17 + body + 64-byte signature) for each of the 30 rounds.
	if fi, err := os.Stat(filepath.Join(dir, "cabinets.journal")); err != nil || fi.Size() < 30*(3*17+64+100) {
		t.Fatalf("cabinet journal: %v, %v", fi, err)
	}
	if !res.OK() || res.Outcomes != 30 || len(res.Commit) != 30 || res.Rate != 150 {
		t.Fatalf("%s; checks %v, first error %v", res.Line(), res.Checks, res.FirstErr)
	}
	if !strings.Contains(res.Line(), "paced at 150/s") || !strings.Contains(res.Line(), "CommitOutcome p50") {
		t.Fatalf("line %q", res.Line())
	}
}

// The audit of rounds, vouchers and events fails on a store that lost a
// round, holds one with other bytes, lost a voucher's redemption, lost an
// event and holds another twice: each its own check.
func TestMixAuditCatchesLossAndDoubles(t *testing.T) {
	dir := t.TempDir()
	res, err := Run(context.Background(), Options{Cabinets: 4, Rounds: 20, Mix: true, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || res.Vouchers != 8 || res.Events != 40 {
		t.Fatalf("%s: checks %v, first error %v, %d vouchers, %d events", res.Line(), res.Checks, res.FirstErr, res.Vouchers, res.Events)
	}
	if !strings.Contains(res.MixReport(), "8 printed") {
		t.Fatalf("report %q", res.MixReport())
	}
	path := filepath.Join(dir, "central.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`DELETE FROM rounds WHERE cabinet='load-00001' AND round=20`,
		`UPDATE rounds SET body=X'00' WHERE cabinet='load-00002' AND round=3`,
		`UPDATE vouchers SET state='issued' WHERE rowid=(SELECT MIN(rowid) FROM vouchers)`,
		`DELETE FROM events WHERE rowid=(SELECT MIN(rowid) FROM events)`,
		`INSERT INTO events SELECT * FROM events WHERE rowid=(SELECT MAX(rowid) FROM events)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	res.Checks = nil
	if err := res.audit(path); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Checks, "\n")
	for _, want := range []string{"1 answered but not stored", "1 stored with a body other than the cabinet's", "1 not redeemed", "1 of them twice"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the checks:\n%s", want, all)
		}
	}
}

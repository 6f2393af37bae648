package jpserver

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"

	_ "modernc.org/sqlite"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
)

type zero struct{}

func (zero) Intn(int) int { return 0 } // every draw hits

func TestAdapter(t *testing.T) {
	cfg, err := jackpot.ParseTOML([]byte(`
[[pool]]
id = "system"
name = "Jackpot"
scope = "system"
seed = 1000
must_hit_by = 2000
rate_bp = 100
[[pool]]
id = "h1"
scope = "hall"
halls = ["hall-1"]
seed = 500
must_hit_by = 600
rate_bp = 100
[[hall]]
id = "hall-1"
`))
	if err != nil {
		t.Fatal(err)
	}
	j, err := jackpot.New(cfg, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	a := New(j)
	db, err := sql.Open("sqlite", fmt.Sprintf("file:%s?_pragma=journal_mode(WAL)&_txlock=immediate", filepath.Join(t.TempDir(), "c.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, _ := db.Begin()
	if err := a.Setup(tx); err != nil {
		t.Fatal(err)
	}
	tx.Commit()
	changed, cancel := a.Subscribe()
	defer cancel()

	// Before the server reports commits, a value is published at once.
	tx, _ = db.Begin()
	hit, err := a.Contribute(tx, server.Contribution{Cabinet: "c1", Hall: "hall-1", Game: engine.MagicStars, Round: 1, Stake: 100}, zero{})
	if err != nil || hit == nil || hit.Pool != "h1" || hit.Name != "h1" || hit.Amount != 501 {
		t.Fatalf("hit %+v, %v", hit, err)
	}
	tx.Commit()
	<-changed
	if v := a.Values("hall-1"); len(v) != 1 || v[0].Pool != "h1" || v[0].Amount != 500 || v[0].Game != engine.MagicStars {
		t.Fatalf("values %+v", v)
	}
	// Wish Upon a Star: nothing.
	tx, _ = db.Begin()
	if hit, err := a.Contribute(tx, server.Contribution{Cabinet: "c1", Game: engine.WishStar, Round: 2, Stake: 100}, zero{}); hit != nil || err != nil {
		t.Fatalf("wishstar: %+v %v", hit, err)
	}
	tx.Commit()

	// With the commit hook, a rolled-back game never shows; a committed one
	// shows after the hook.
	a.Committed(db)
	tx, _ = db.Begin()
	if _, err := a.Contribute(tx, server.Contribution{Cabinet: "c2", Hall: "elsewhere", Game: engine.MagicStars, Round: 1, Stake: 1000}, zero{}); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	a.Committed(db)
	// The loader takes its kicks one at a time, each after the read of
	// the one before: once it has taken the kick above and then one more,
	// it has read the store after the rollback (no signal tells, the
	// values must not change).
	taken := func(what string) {
		poll.Until(t, 5*time.Second, what, func() bool { return len(a.kick) == 0 })
	}
	taken("the loader took the kick after the rollback")
	a.kick <- db
	taken("the loader read the store after the rollback (took the next kick)")
	if v := a.Values("elsewhere"); v[0].Pool != "system" || v[0].Amount != 1000 {
		t.Fatalf("a rolled-back game shows: %+v", v)
	}
	tx, _ = db.Begin()
	if _, err := a.Contribute(tx, server.Contribution{Cabinet: "c2", Hall: "elsewhere", Game: engine.MagicStars, Round: 1, Stake: 1000}, noHit{}); err != nil {
		t.Fatal(err)
	}
	tx.Commit()
	a.Committed(db)
	poll.Until(t, 5*time.Second, "the committed value shown", func() bool { return a.Values("elsewhere")[0].Amount == 1010 },
		func() string { return fmt.Sprintf("%+v", a.Values("elsewhere")) })
	lines, err := jackpot.Audit(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if !l.OK() {
			t.Error(l)
		}
	}
}

type noHit struct{}

func (noHit) Intn(n int) int { return n - 1 }

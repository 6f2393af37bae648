package jackpot

import (
	"context"
	"errors"
	"math/big"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
)

func TestRouting(t *testing.T) {
	j, _ := newTest(t, testConfig)
	for _, c := range []struct{ cab, given, pool, hall string }{
		{"CAB-P1", "", "praha", "praha-1"},
		{"CAB-P2", "", "praha", "praha-1"},
		{"CAB-B1", "", "morava", "brno-1"},
		{"CAB-O1", "", "morava", "olomouc-1"},
		{"CAB-X1", "", "system", "ostrava-1"},       // hall without a pool of its own
		{"CAB-NEW", "", "system", ""},               // in no hall
		{"CAB-NEW", "brno-1", "morava", "brno-1"},   // the server's hall register
		{"CAB-NEW", "default", "system", "default"}, // a hall the file does not know
		{"CAB-P1", "brno-1", "praha", "praha-1"},    // the file's list wins
	} {
		pool, hall, err := j.Route(c.cab, c.given)
		if err != nil || pool != c.pool || hall != c.hall {
			t.Errorf("Route(%s, %q) = %q, %q, %v; want %q, %q", c.cab, c.given, pool, hall, err, c.pool, c.hall)
		}
	}

	// Without a system pool, a cabinet in no hall feeds nothing: refused.
	noSystem := `
[[pool]]
id = "praha"
scope = "hall"
halls = ["praha-1"]
seed = 100
must_hit_by = 200
rate_bp = 100
[[hall]]
id = "praha-1"
cabinets = ["CAB-P1"]
`
	j2, db2 := newTest(t, noSystem)
	var re *RouteError
	if _, _, err := j2.Route("CAB-NEW", ""); !errors.As(err, &re) || re.Cabinet != "CAB-NEW" {
		t.Fatalf("Route of a cabinet in no hall: %v, want *RouteError", err)
	}
	tx, _ := db2.Begin()
	defer tx.Rollback()
	if _, err := j2.Play(context.Background(), tx, Game{Cabinet: "CAB-NEW", Round: 1, Game: engine.MagicStars, Stake: 5}, noDraw{t}); !errors.As(err, &re) {
		t.Fatalf("Play of an unrouted cabinet: %v, want *RouteError", err)
	}
}

// TestPlayExact follows the Praha pool (seed 1 000, must hit by 1 010 CZK,
// 2.5 %) through a miss, a drawn hit with a carried fraction, and a hit
// forced by the ceiling, checking every unit.
func TestPlayExact(t *testing.T) {
	j, db := newTest(t, testConfig)
	g := Game{Cabinet: "CAB-P1", Round: 1, Game: engine.MagicStars, Stake: 100}

	// 100 CZK × 250 bp = 25 000 units; the pool holds 10 000 000 of a
	// 10 100 000 ceiling, so the draw is from 100 000 and hits below 25 000.
	out := play(t, j, db, g, &script{t: t, draws: []int{25000}, ranges: []int{100000}})
	want := Outcome{Pool: "praha", Hall: "praha-1", Contribution: 25000, Value: 10_025_000}
	if out != want {
		t.Fatalf("miss: %+v, want %+v", out, want)
	}

	g.Round, g.Stake = 2, 5 // 1 250 units, draw from 75 000
	out = play(t, j, db, g, &script{t: t, draws: []int{1249}, ranges: []int{75000}})
	// The pool reaches 10 026 250 units = 1 002.625 CZK: 1 002 CZK are paid,
	// 0.625 CZK stays, on top of the 1 000 CZK seed.
	want = Outcome{Pool: "praha", Hall: "praha-1", Contribution: 1250, Hit: true, Paid: 1002, Value: 10_006_250}
	if out != want {
		t.Fatalf("hit: %+v, want %+v", out, want)
	}

	g.Round, g.Stake = 3, 1000 // 250 000 units ≥ the 93 750 left: hit, nothing drawn
	out = play(t, j, db, g, noDraw{t})
	want = Outcome{Pool: "praha", Hall: "praha-1", Contribution: 250000, Hit: true, Paid: 1025, Value: 10_006_250}
	if out != want {
		t.Fatalf("ceiling: %+v, want %+v", out, want)
	}

	lines := audit(t, db)
	var praha AuditLine
	for _, l := range lines {
		if l.Pool == "praha" {
			praha = l
		}
	}
	if praha.Seeded != 30_000_000 || praha.Contributed != 276_250 || praha.Paid != 20_270_000 || praha.Value != 10_006_250 || praha.Hits != 2 || praha.Games != 3 {
		t.Fatalf("books: %v", praha)
	}

	// MS-19: the hits are recorded with what was paid and what was carried.
	rows, err := db.Query(`SELECT cabinet, round, hall, amount, pool_value, carried FROM jackpot_hit ORDER BY round`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type hit struct {
		cab                    string
		round                  int64
		hall                   string
		amount, value, carried int64
	}
	var hits []hit
	for rows.Next() {
		var h hit
		if err := rows.Scan(&h.cab, &h.round, &h.hall, &h.amount, &h.value, &h.carried); err != nil {
			t.Fatal(err)
		}
		hits = append(hits, h)
	}
	wantHits := []hit{{"CAB-P1", 2, "praha-1", 1002, 10_026_250, 6250}, {"CAB-P1", 3, "praha-1", 1025, 10_256_250, 6250}}
	if len(hits) != 2 || hits[0] != wantHits[0] || hits[1] != wantHits[1] {
		t.Fatalf("hit records %+v, want %+v", hits, wantHits)
	}
	recs, err := HitRecords(context.Background(), db, time.Time{})
	if err != nil || len(recs) != 2 || recs[1] != (HitRecord{Pool: "praha", Cabinet: "CAB-P1", Hall: "praha-1", Round: 3,
		Amount: 1025, PoolValue: 10_256_250, Carried: 6250, At: fixedClock()()}) {
		t.Fatalf("HitRecords %+v, %v", recs, err)
	}
	if recs, _ := HitRecords(context.Background(), db, fixedClock()().Add(time.Second)); len(recs) != 0 {
		t.Fatalf("HitRecords since later: %+v", recs)
	}
}

func TestIdempotentAndRollback(t *testing.T) {
	j, db := newTest(t, testConfig)
	ctx := context.Background()
	g := Game{Cabinet: "CAB-B1", Round: 7, Game: engine.MagicStars, Stake: 50}
	first := play(t, j, db, g, &script{t: t, draws: []int{999_999}})
	before := audit(t, db)

	again := play(t, j, db, g, noDraw{t})
	first.Replayed = true
	if again != first {
		t.Fatalf("replay %+v, want %+v", again, first)
	}
	if after := audit(t, db); !reflect.DeepEqual(after, before) {
		t.Fatalf("a replay changed the books: %v → %v", before, after)
	}

	// The same round at another stake is refused, nothing changed.
	tx, _ := db.Begin()
	var ge *GameError
	if _, err := j.Play(ctx, tx, Game{Cabinet: "CAB-B1", Round: 7, Game: engine.MagicStars, Stake: 100}, noDraw{t}); !errors.As(err, &ge) {
		t.Fatalf("another stake: %v, want *GameError", err)
	}
	tx.Rollback()

	// A game whose round transaction rolls back leaves no trace.
	tx, _ = db.Begin()
	if _, err := j.Play(ctx, tx, Game{Cabinet: "CAB-B1", Round: 8, Game: engine.MagicStars, Stake: 50}, &script{t: t, draws: []int{0}}); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	if after := audit(t, db); !reflect.DeepEqual(after, before) {
		t.Fatalf("a rolled-back game changed the books: %v → %v", before, after)
	}

	// Bad games are refused before anything is drawn or written.
	tx, _ = db.Begin()
	defer tx.Rollback()
	for _, bad := range []Game{
		{Cabinet: "", Round: 1, Game: engine.MagicStars, Stake: 5},
		{Cabinet: "CAB-B1", Round: 1 << 63, Game: engine.MagicStars, Stake: 5},
		{Cabinet: "CAB-B1", Round: 1, Game: engine.MagicStars, Stake: 0},
		{Cabinet: "CAB-B1", Round: 1, Game: engine.MagicStars, Stake: -5},
		{Cabinet: "CAB-B1", Round: 1, Game: engine.MagicStars, Stake: MaxStake + 1},
	} {
		if _, err := j.Play(ctx, tx, bad, noDraw{t}); !errors.As(err, &ge) {
			t.Errorf("%+v: %v, want *GameError", bad, err)
		}
	}
	// Wish Upon a Star has fixed jackpots only: no contribution, no draw.
	if out, err := j.Play(ctx, tx, Game{Cabinet: "CAB-B1", Round: 9, Game: engine.WishStar, Stake: 100}, noDraw{t}); err != nil || out != (Outcome{}) {
		t.Fatalf("wishstar: %+v, %v", out, err)
	}
}

// TestHitModelExact proves the per-game draw is the hidden-trigger model:
// for a pool opened at v0 with ceiling H, the chance that game k is the hit
// must be |(p_k, min(p_k+c_k, H)]| / (H − v0), i.e. the trigger is uniform
// over the units. It enumerates every value Hits can draw, in exact
// rationals, for an irregular run of contributions.
func TestHitModelExact(t *testing.T) {
	const v0, H = 7, 40
	cs := []Units{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7}
	reach := big.NewRat(1, 1) // P(no hit before game k)
	total := new(big.Rat)
	p := Units(v0)
	for k, c := range cs {
		if reach.Sign() == 0 {
			break
		}
		m := int64(H - p)
		hits := int64(0)
		if m <= int64(c) {
			if !Hits(noDraw{t}, p, c, H) {
				t.Fatalf("game %d at %d+%d ≥ ceiling %d: no hit", k, p, c, H)
			}
			hits, m = 1, 1
		} else {
			for x := int64(0); x < m; x++ {
				if Hits(&script{t: t, draws: []int{int(x)}, ranges: []int{int(m)}}, p, c, H) {
					hits++
				}
			}
		}
		pk := new(big.Rat).Mul(reach, big.NewRat(hits, m))
		want := big.NewRat(int64(min(p+c, H)-p), H-v0)
		if pk.Cmp(want) != 0 {
			t.Fatalf("game %d (pool %d, +%d): P(hit) = %v, want %v", k, p, c, pk, want)
		}
		total.Add(total, pk)
		reach.Sub(reach, pk)
		p += c
	}
	if total.Cmp(big.NewRat(1, 1)) != 0 {
		t.Fatalf("the pool must be hit by its ceiling: P(hit by then) = %v", total)
	}
}

// TestBelowWide checks the draw for ranges of 2^32 units and more (a ceiling
// above ~429 496 CZK): two 31-bit draws, and the incomplete top block is
// drawn again.
func TestBelowWide(t *testing.T) {
	const m = 3 << 40 // 2^62 mod m = 2^40, so the top 2^40 words are rejected
	top := 1<<31 - 1
	src := &script{t: t, draws: []int{top, top, 0, 5}, ranges: []int{1 << 31, 1 << 31, 1 << 31, 1 << 31}}
	if got := below(src, m); got != 5 || src.n != 4 {
		t.Fatalf("below = %d after %d draws, want 5 after 4 (the first word is rejected)", got, src.n)
	}
	src = &script{t: t, draws: []int{1, 2}}
	if got := below(src, m); got != (1<<31|2)%m {
		t.Fatalf("below = %d, want %d", got, (1<<31|2)%m)
	}
	// A seeded run stays in range.
	s := draw.NewSeeded(1, 2)
	for range 10000 {
		if x := below(s, m); x < 0 || x >= m {
			t.Fatalf("below out of range: %d", x)
		}
	}
}

// TestConcurrentIdentity plays many cabinets at once, each game in its own
// committed transaction on a real SQLite file, with racing replays of the
// same rounds, and checks the books to the unit against the sums the
// players saw.
func TestConcurrentIdentity(t *testing.T) {
	j, db := newTest(t, testConfig)
	if err := j.Prepare(context.Background(), db); err != nil { // the server's way
		t.Fatal(err)
	}
	cabinets := []string{"CAB-P1", "CAB-P2", "CAB-B1", "CAB-O1", "CAB-X1", "CAB-NEW"}
	stakes := []engine.Money{5, 10, 15, 25, 50, 100, 200, 300, 500, 1000}
	const rounds = 120
	ctx := context.Background()

	type sums struct {
		contributed Units
		paidCZK     int64
		hits        int64
		games       int64
	}
	var mu sync.Mutex
	got := map[string]*sums{}
	record := map[[2]any]Outcome{}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 2 * len(cabinets) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cab := cabinets[w%len(cabinets)]
			src := draw.NewCrypto()
			// Workers w and w+6 play the same cabinet's rounds: every round
			// is asked twice, concurrently; it must count once.
			for r := 1; r <= rounds; r++ {
				g := Game{Cabinet: cab, Round: uint64(r), Game: engine.MagicStars, Stake: stakes[(r*7+len(cab))%len(stakes)]}
				tx, err := db.BeginTx(ctx, nil)
				if err != nil {
					errs <- err
					return
				}
				out, err := j.Play(ctx, tx, g, src)
				if err == nil {
					err = tx.Commit()
				} else {
					tx.Rollback()
				}
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				key := [2]any{cab, r}
				if prev, ok := record[key]; ok {
					prev.Replayed, out.Replayed = false, false
					if prev != out {
						errs <- errors.New("a round asked twice gave two outcomes")
					}
				} else {
					record[key] = out
					s := got[out.Pool]
					if s == nil {
						s = &sums{}
						got[out.Pool] = s
					}
					s.contributed += out.Contribution
					s.paidCZK += int64(out.Paid)
					s.games++
					if out.Hit {
						s.hits++
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	lines := audit(t, db)
	seeds := map[string]int64{"system": 10000, "praha": 1000, "morava": 5000}
	var totalHits int64
	for _, l := range lines {
		s := got[l.Pool]
		if s == nil {
			t.Fatalf("no games reached pool %s", l.Pool)
		}
		seeded := Units(seeds[l.Pool] * UnitsPerCrown * (1 + s.hits))
		if l.Contributed != s.contributed || l.Paid != Units(s.paidCZK*UnitsPerCrown) || l.Games != s.games ||
			l.Hits != s.hits || l.Seeded != seeded || l.Value != seeded+s.contributed-Units(s.paidCZK*UnitsPerCrown) {
			t.Errorf("pool %s: books %v; players saw %+v", l.Pool, l, *s)
		}
		totalHits += s.hits
		t.Log(l)
	}
	if got["praha"].hits < 10 {
		t.Errorf("the Praha pool (10 CZK between seed and ceiling) was hit only %d times", got["praha"].hits)
	}
	if n := int64(len(record)); n != rounds*int64(len(cabinets)) {
		t.Fatalf("%d distinct rounds recorded, want %d", n, rounds*len(cabinets))
	}
}

// TestAuditCatchesTampering makes sure the audit can fail: each change to
// the books is reported.
func TestAuditCatchesTampering(t *testing.T) {
	for _, tamper := range []string{
		`UPDATE jackpot_pool SET value = value + 1 WHERE id = 'praha'`,
		`UPDATE jackpot_pool SET value = value + 1, contributed = contributed + 1 WHERE id = 'praha'`,
		`UPDATE jackpot_game SET contribution = contribution + 1 WHERE pool = 'praha' AND seq = 1`,
		`DELETE FROM jackpot_hit WHERE pool = 'praha'`,
		`UPDATE jackpot_game SET value_before = value_before + 1, contribution = contribution - 1 WHERE pool = 'praha' AND seq = 2`,
	} {
		t.Run(tamper, func(t *testing.T) {
			j, db := newTest(t, testConfig)
			for r := 1; r <= 5; r++ {
				play(t, j, db, Game{Cabinet: "CAB-P1", Round: uint64(r), Game: engine.MagicStars, Stake: 100}, draw.NewSeeded(9, uint64(r)))
			}
			audit(t, db)
			if _, err := db.Exec(tamper); err != nil {
				t.Fatal(err)
			}
			lines, err := Audit(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range lines {
				if l.Pool == "praha" {
					if l.OK() {
						t.Fatalf("tampering not seen: %v", l)
					}
					t.Log(l)
				} else if !l.OK() {
					t.Fatalf("untouched pool reported: %v", l)
				}
			}
		})
	}
}

// TestReopenKeepsValue: a restart with a changed file keeps the pool's
// value and counters; the new rate applies at once, the new seed at the
// next reset.
func TestReopenKeepsValue(t *testing.T) {
	j, db := newTest(t, testConfig)
	ctx := context.Background()
	play(t, j, db, Game{Cabinet: "CAB-P1", Round: 1, Game: engine.MagicStars, Stake: 100}, &script{t: t, draws: []int{99999}})
	cfg, _ := ParseTOML([]byte(testConfig))
	cfg.Pools[1].RateBP = 100
	cfg.Pools[1].Seed = 900
	j2, err := New(cfg, fixedClock())
	if err != nil {
		t.Fatal(err)
	}
	if err := j2.Init(ctx, db); err != nil {
		t.Fatal(err)
	}
	vals, err := j2.Values(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if vals[1].ID != "praha" || vals[1].Value != 10_025_000 || vals[1].Games != 1 {
		t.Fatalf("after reopening: %+v", vals[1])
	}
	// 100 CZK at the new 1 %: +10 000 units; the ceiling is 10 100 000, the
	// pool 10 025 000: draw from 75 000, 0 hits; reset to the new 900 CZK seed.
	out := play(t, j2, db, Game{Cabinet: "CAB-P1", Round: 2, Game: engine.MagicStars, Stake: 100}, &script{t: t, draws: []int{0}, ranges: []int{75000}})
	if out.Contribution != 10000 || !out.Hit || out.Paid != 1003 || out.Value != 9_005_000 {
		t.Fatalf("after reopening: %+v", out)
	}
	audit(t, db)
}

func TestWishStarFixed(t *testing.T) {
	f := WishStarFixed(nil)
	if len(f) != 7 || f[0] != (FixedValues{Stake: 25, Mini: 500, Minor: 750, Major: 1250, Grand: 5000}) ||
		f[6] != (FixedValues{Stake: 2500, Mini: 50000, Minor: 75000, Major: 125000, Grand: 500000}) {
		t.Fatalf("WS-10 values: %+v", f)
	}
	for _, v := range f {
		got := []engine.Money{v.Mini, v.Minor, v.Major, v.Grand}
		for i, m := range FixedMultiples {
			if got[i] != engine.Money(m.Multiple)*v.Stake {
				t.Fatalf("%s at %d: %d", m.Name, v.Stake, got[i])
			}
		}
	}
}

// TestPrepareOtherDB: statements prepared on another *sql.DB than the
// transaction's (a server that gives its writer its own pool) fall back to
// unprepared ones instead of failing the round.
func TestPrepareOtherDB(t *testing.T) {
	j, db := newTest(t, testConfig)
	other := openDB(t)
	if err := j.Init(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	if err := j.Prepare(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	out := play(t, j, db, Game{Cabinet: "CAB-B1", Round: 1, Game: engine.MagicStars, Stake: 100}, &script{t: t, draws: []int{1 << 30}})
	if out.Contribution != 5000 || j.stmts.Load() != nil {
		t.Fatalf("%+v; prepared statements kept: %v", out, j.stmts.Load() != nil)
	}
	if again := play(t, j, db, Game{Cabinet: "CAB-B1", Round: 1, Game: engine.MagicStars, Stake: 100}, noDraw{t}); !again.Replayed {
		t.Fatalf("replay %+v", again)
	}
	audit(t, db)
}

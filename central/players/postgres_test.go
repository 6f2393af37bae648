package players_test

import (
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
)

// TestOnPostgres runs the players' tests on a PostgreSQL store (one
// throwaway cluster for the package, a database per rig), and the ones
// only PostgreSQL has: two central nodes on one database.
func TestOnPostgres(t *testing.T) {
	testenv.OnPostgres(t)
	for _, c := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"Registration", TestRegistration},
		{"LimitRules", TestLimitRules},
		{"ExclusionRegisterFile", TestExclusionRegisterFile},
		{"RegisterKeysMatchTheRule", TestRegisterKeysMatchTheRule},
		{"ExcludedNameVariants", TestExcludedNameVariants},
		{"SecondAccountByPassport", TestSecondAccountByPassport},
		{"CarryOverFollowsThePerson", TestCarryOverFollowsThePerson},
		{"ProbableMatchReview", TestProbableMatchReview},
		{"RegisterFreshness", TestRegisterFreshness},
		{"BetCountsOnceAcrossRetryAndRestart", TestBetCountsOnceAcrossRetryAndRestart},
		{"LoginRepeated", TestLoginRepeated},
		{"WinsRecordedWithRisk", TestWinsRecordedWithRisk},
		{"NoWagerWithoutSession", TestCheck36NoWagerWithoutSession},
		{"DemoPlaysWithoutCard", TestCheck36DemoPlaysWithoutCard},
		{"CardOutMidRound", TestCheck36CardOutMidRound},
		{"UndecidedLimitsRefused", TestCheck36UndecidedLimitsRefused},
		{"ExcludedRefused", TestCheck36ExcludedRefused},
		{"DailyBetLimitStopsExactly", TestCheck36DailyBetLimitStopsExactly},
		{"NetLossLimitStopsExactly", TestCheck36NetLossLimitStopsExactly},
		{"BreakAfter120MinSharedAcrossCabinets", TestCheck36BreakAfter120MinSharedAcrossCabinets},
		{"ClonedCardRefused", TestCheck36ClonedCardRefused},
		{"BlockedAccount", TestCheck36BlockedAccount},
		{"CoolingOff", TestCheck37CoolingOff},
		{"BreakAcrossTwoNodes", testBreakAcrossTwoNodes},
		{"LimitAcrossTwoNodes", testLimitAcrossTwoNodes},
	} {
		t.Run(c.name, c.run)
	}
}

// secondNode starts another central node on the rig's PostgreSQL store
// (its PKI, signing key, clock, database) with its own players registry,
// as an operator runs N nodes; the rig's cabinet id is then served by it.
func (r *rig) secondNode(id string) *link.Client {
	r.t.Helper()
	if !server.IsPostgresURL(r.e.DB) {
		r.t.Fatalf("the rig's store is not PostgreSQL: %s", r.e.DB)
	}
	prof, err := players.ProfileFor("cz")
	if err != nil {
		r.t.Fatal(err)
	}
	cfg := r.e.Cfg
	cfg.Players, err = players.New(players.Config{Profile: prof, HashKey: make([]byte, 32), Cards: cardAuth(r.t, r.cards.master),
		RegisterKey: r.regKey.Public().(ed25519.PublicKey), Now: cfg.Now})
	if err != nil {
		r.t.Fatal(err)
	}
	s, err := server.New(cfg)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { s.Close() })
	a, err := s.Listen("127.0.0.1:0")
	if err != nil {
		r.t.Fatal(err)
	}
	c := r.e.Client(id, func(cfg *link.Config) { cfg.Addr = a.String() })
	if _, err := c.Hello(r.ctx()); err != nil {
		r.t.Fatal(err)
	}
	return c
}

// The break across two cabinets served by two nodes of one PostgreSQL: the
// played time goes on at the cabinet of the other node, and a player who
// walks to it in the break cannot escape it.
func testBreakAcrossTwoNodes(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	a := r.cabinet("cab-1")    // node A
	b := r.secondNode("cab-2") // node B
	r.mustLogin(a, "4000000000000001")
	for i := 0; i < 10; i++ { // 100 minutes at cab-1 on node A
		r.mustPlay(a, 5)
		r.e.Clock.Advance(10 * time.Minute)
	}
	r.mustLogin(b, "4000000000000001") // the session moves to node B's cabinet
	r.refused(a, r.play(a, 5), refusal.PlayerNoSession)
	r.e.Clock.Advance(5 * time.Minute) // 105 min
	r.mustPlay(b, 5)
	r.e.Clock.Advance(10 * time.Minute) // 115 min
	st, err := b.PlayerState(r.ctx())
	if err != nil {
		t.Fatal(err)
	}
	if !st.GetBreakWarning() || st.GetInBreak() || st.GetPlayedSeconds() != 115*60 {
		t.Fatalf("at 115 minutes on node B: %v", st)
	}
	r.mustPlay(b, 5)
	r.e.Clock.Advance(5 * time.Minute) // 120 min
	r.refused(b, r.play(b, 5), refusal.PlayerBreak)
	// Back to node A's cabinet: still in the break.
	r.mustLogin(a, "4000000000000001")
	r.refused(a, r.play(a, 5), refusal.PlayerBreak)
	if st, err = a.PlayerState(r.ctx()); err != nil || !st.GetInBreak() {
		t.Fatalf("in the break on node A: %v %v", st, err)
	}
	// And to node B's again, halfway through the break.
	r.wait(a, 7*time.Minute)
	r.mustLogin(b, "4000000000000001")
	r.refused(b, r.play(b, 5), refusal.PlayerBreak)
	r.wait(b, 8*time.Minute) // 135 min: the break is over
	r.mustPlay(b, 5)
	if st, err = b.PlayerState(r.ctx()); err != nil || st.GetInBreak() || st.GetPlayedSeconds() != 0 {
		t.Fatalf("after the break on node B: %v %v", st, err)
	}
}

// A daily bet limit counts the bets taken by both nodes, each once, and
// stops exactly at the limit on either.
func testLimitAcrossTwoNodes(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", map[string]int64{players.BetsDay: 25})
	a := r.cabinet("cab-1")
	b := r.secondNode("cab-2")
	r.mustLogin(a, "4000000000000001")
	r.mustPlay(a, 10)
	r.mustLogin(b, "4000000000000001")
	r.mustPlay(b, 10)
	r.refused(b, r.play(b, 10), refusal.PlayerLimit) // 30 > 25
	r.mustLogin(a, "4000000000000001")
	r.refused(a, r.play(a, 10), refusal.PlayerLimit)
	r.mustPlay(a, 5) // 25: at the limit
	r.mustLogin(b, "4000000000000001")
	r.refused(b, r.play(b, 5), refusal.PlayerLimit)
	st, err := b.PlayerState(r.ctx())
	if err != nil {
		t.Fatal(err)
	}
	if used, left := r.limit(st, players.BetsDay); used != 25 || left != 0 {
		t.Fatalf("at the limit on node B: used %d left %d", used, left)
	}
	if n := r.e.Count("player_bets", ""); n != 3 {
		t.Fatalf("%d bets stored, want 3", n)
	}
}

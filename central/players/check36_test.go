package players_test

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Standards check 36 (Czech responsible gaming), the central half: every
// test goes through real gRPC over mutual TLS to the real server and its
// SQLite store; the cabinet side is central/link's client.

func TestCheck36NoWagerWithoutSession(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	c := r.cabinet("cab-1")
	err := r.play(c, 10)
	r.refused(c, err, refusal.PlayerNoSession)
	st, err := c.PlayerState(r.ctx())
	if err != nil || st.GetActive() || !st.GetCardRequired() {
		t.Fatalf("state without a card: %v %v", st, err)
	}
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 10)
	if _, err := c.PlayerLogout(r.ctx(), "card removed"); err != nil {
		t.Fatal(err)
	}
	r.refused(c, r.play(c, 10), refusal.PlayerNoSession)
	if n := r.e.Count("player_bets", ""); n != 1 {
		t.Fatalf("%d bets booked, want 1", n)
	}
	// A session idle for SessionIdle (a cabinet that died with the card in)
	// ends: no wager on it.
	r.mustLogin(c, "4000000000000001")
	r.e.Clock.Advance(players.SessionIdle)
	r.refused(c, r.play(c, 10), refusal.PlayerNoSession)
}

func TestCheck36DemoPlaysWithoutCard(t *testing.T) {
	r := newRig(t, "demo")
	c := r.cabinet("cab-1")
	r.mustPlay(c, 10)
	if n := r.e.Count("player_bets", ""); n != 0 {
		t.Fatalf("an anonymous round was booked to a player")
	}
	// With a card, the player's limits hold in demo too.
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", map[string]int64{players.BetsDay: 10})
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 10)
	r.refused(c, r.play(c, 5), refusal.PlayerLimit)
}

// The card taken out mid-round: the round drawn is completed (its commit
// is taken), the session ends, no new round.
func TestCheck36CardOutMidRound(t *testing.T) {
	r := newRig(t, "cz")
	id := r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	r.rounds["cab-1"] = 1
	if _, err := c.RequestOutcome(r.ctx(), 1, "testgame", "test-model-1", 10); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PlayerLogout(r.ctx(), "card removed"); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitOutcome(r.ctx(), 1); err != nil {
		t.Fatalf("the round in play when the card came out: %v", err)
	}
	r.refused(c, r.play(c, 10), refusal.PlayerNoSession)
	hist, err := r.reg.History(r.ctx(), id, time.Time{}, r.e.Clock.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var bets, ended int
	for _, h := range hist {
		switch {
		case h.Kind == "bet" && h.Round == 1 && h.Stake == 10:
			bets++
		case h.Kind == "session" && !h.Ended.IsZero() && h.Text == "card removed":
			ended++
		}
	}
	if bets != 1 || ended != 1 {
		t.Fatalf("history %+v: want the bet and the ended session", hist)
	}
}

func TestCheck36UndecidedLimitsRefused(t *testing.T) {
	r := newRig(t, "cz")
	a, err := r.reg.Register(r.ctx(), players.Registration{Name: "Eva Malá", BirthDate: "1990-02-02", DocumentNumber: "CD998877", IdentityVerified: true, VerifiedBy: "clerk 7"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.reg.IssueCard(r.ctx(), a.ID, "4000000000000002"); err != nil {
		t.Fatal(err)
	}
	c := r.cabinet("cab-1")
	_, err = r.login(c, "4000000000000002")
	r.refused(c, err, refusal.PlayerLimitsUndecided)
	for _, k := range players.Kinds {
		if _, err := r.reg.SetLimit(r.ctx(), a.ID, k, nil); err != nil { // each explicitly refused
			t.Fatal(err)
		}
	}
	r.mustLogin(c, "4000000000000002")
	r.mustPlay(c, 50)
}

func TestCheck36ExcludedRefused(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	r.player("Petr Dvořák", "1970-07-07", "XY 55-44-33", "4000000000000003", nil)
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 10)
	// A new register of the day names Jan Novák (name and birth date) and,
	// by his document number only, Petr Dvořák.
	r.e.Clock.Advance(10 * time.Minute)
	res := r.importRegister(r.e.Clock.Now().Format("2006-01-02"), "NOVÁK   jan|1980-01-31|", "Someone Else|1970-07-07|xy554433")
	if len(res.Excluded) != 2 {
		t.Fatalf("import: %+v, want both accounts excluded", res)
	}
	// At the wager, in the session opened before the import.
	r.refused(c, r.play(c, 10), refusal.PlayerExcluded)
	// At the login.
	if _, err := c.PlayerLogout(r.ctx(), "card removed"); err != nil {
		t.Fatal(err)
	}
	_, err := r.login(c, "4000000000000003")
	r.refused(c, err, refusal.PlayerExcluded)
	_, err = r.login(c, "4000000000000001")
	r.refused(c, err, refusal.PlayerExcluded)
	if n := r.e.Count("player_bets", ""); n != 1 {
		t.Fatalf("%d bets, want the one before the import", n)
	}
	// No register of today's date or yesterday's: cz refuses logins.
	r.e.Clock.Advance(72 * time.Hour)
	r.player("Anna Nová", "1985-03-03", "EF112233", "4000000000000004", nil)
	_, err = r.login(c, "4000000000000004")
	r.refused(c, err, refusal.ExclusionsStale)
}

func TestCheck36DailyBetLimitStopsExactly(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", map[string]int64{players.BetsDay: 25})
	c := r.cabinet("cab-1")
	st := r.mustLogin(c, "4000000000000001")
	if used, left := r.limit(st, players.BetsDay); used != 0 || left != 25 {
		t.Fatalf("before play: used %d left %d", used, left)
	}
	r.mustPlay(c, 10)
	r.mustPlay(c, 10)
	r.refused(c, r.play(c, 10), refusal.PlayerLimit) // 30 > 25: crosses
	r.mustPlay(c, 5)                                 // 25: at the limit, taken
	r.refused(c, r.play(c, 5), refusal.PlayerLimit)
	// The refusals are in the player's log (a write after the refused one).
	poll.Until(t, 5*time.Second, "the two refused rounds in the player's log", func() bool {
		return r.e.Count("player_log", "kind='refused' AND text LIKE '%PLAYER_LIMIT%'") == 2
	})
	st, err := c.PlayerState(r.ctx())
	if err != nil {
		t.Fatal(err)
	}
	if used, left := r.limit(st, players.BetsDay); used != 25 || left != 0 {
		t.Fatalf("at the limit: used %d left %d", used, left)
	}
	// The next calendar day (Prague) the limit is new.
	r.e.Clock.Advance(12 * time.Hour)
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 10)
}

func TestCheck36NetLossLimitStopsExactly(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", map[string]int64{players.LossDay: 30})
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	r.src.win()
	r.mustPlay(c, 10) // wins 30: net loss -20
	for i := 0; i < 5; i++ {
		r.mustPlay(c, 10) // -10, 0, 10, 20, 30
	}
	r.refused(c, r.play(c, 10), refusal.PlayerLimit)
	r.refused(c, r.play(c, 5), refusal.PlayerLimit)
	st, err := c.PlayerState(r.ctx())
	if err != nil {
		t.Fatal(err)
	}
	if used, left := r.limit(st, players.LossDay); used != 30 || left != 0 {
		t.Fatalf("net loss used %d left %d, want 30 and 0", used, left)
	}
	if used, _ := r.limit(st, players.BetsDay); used != 60 {
		t.Fatalf("bets of the day %d, want 60", used)
	}
}

func TestCheck36BreakAfter120MinSharedAcrossCabinets(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	c1, c2 := r.cabinet("cab-1"), r.cabinet("cab-2")
	r.mustLogin(c1, "4000000000000001")
	for i := 0; i < 10; i++ { // 100 minutes at cab-1
		r.mustPlay(c1, 5)
		r.e.Clock.Advance(10 * time.Minute)
	}
	// Walking to the next cabinet (a 10-minute pause) does not restart the clock.
	r.mustLogin(c2, "4000000000000001")
	r.refused(c1, r.play(c1, 5), refusal.PlayerNoSession)
	r.e.Clock.Advance(5 * time.Minute) // 105 min
	r.mustPlay(c2, 5)
	r.e.Clock.Advance(10 * time.Minute) // 115 min
	st, err := c2.PlayerState(r.ctx())
	if err != nil {
		t.Fatal(err)
	}
	if !st.GetBreakWarning() || st.GetInBreak() || st.GetPlayedSeconds() != 115*60 {
		t.Fatalf("at 115 minutes: %v", st)
	}
	r.mustPlay(c2, 5)
	r.e.Clock.Advance(5 * time.Minute) // 120 min
	r.refused(c2, r.play(c2, 5), refusal.PlayerBreak)
	// The other cabinet does not escape it.
	r.mustLogin(c1, "4000000000000001")
	r.refused(c1, r.play(c1, 5), refusal.PlayerBreak)
	st, err = c1.PlayerState(r.ctx())
	if err != nil || !st.GetInBreak() || st.GetBreakCredit() != "keep" {
		t.Fatalf("in the break: %v %v", st, err)
	}
	r.wait(c1, 14*time.Minute)
	r.refused(c1, r.play(c1, 5), refusal.PlayerBreak)
	r.wait(c1, time.Minute) // 135 min: the break is over
	r.mustPlay(c1, 5)
	st, err = c1.PlayerState(r.ctx())
	if err != nil || st.GetInBreak() || st.GetPlayedSeconds() != 0 {
		t.Fatalf("after the break: %v %v", st, err)
	}
}

func TestCheck36ClonedCardRefused(t *testing.T) {
	r := newRig(t, "cz")
	acc := r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	c := r.cabinet("cab-1")
	// The right card number, not the card's key.
	_, err := c.PlayerLogin(r.ctx(), "4000000000000001", respond(make([]byte, 32), "4000000000000001"))
	r.refused(c, err, refusal.CardAuth)
	r.refused(c, r.play(c, 10), refusal.PlayerNoSession)
	// A genuine answer recorded and replayed to a new challenge.
	var resp []byte
	if _, err := c.PlayerLogin(r.ctx(), "4000000000000001", func(ch []byte) ([]byte, error) {
		resp, _ = respond(r.cards.key("4000000000000001"), "4000000000000001")(ch)
		return resp, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PlayerLogout(r.ctx(), "card removed"); err != nil {
		t.Fatal(err)
	}
	_, err = c.PlayerLogin(r.ctx(), "4000000000000001", func([]byte) ([]byte, error) { return resp, nil })
	r.refused(c, err, refusal.CardAuth)
	// Unknown and blocked cards.
	_, err = r.login(c, "4000000000000009")
	r.refused(c, err, refusal.CardUnknown)
	if err := r.reg.BlockCard(r.ctx(), "4000000000000001", "reported stolen"); err != nil {
		t.Fatal(err)
	}
	_, err = r.login(c, "4000000000000001")
	r.refused(c, err, refusal.CardBlocked)
	hist, err := r.reg.History(r.ctx(), acc, time.Time{}, r.e.Clock.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	refusals := 0
	for _, h := range hist {
		if h.Kind == "refused" {
			refusals++
		}
	}
	if refusals != 3 {
		t.Fatalf("%d refused logins in the player's log, want the copy, the replay and the blocked card: %+v", refusals, hist)
	}
}

// A blocked account: its session ends, no login until unblocked.
func TestCheck36BlockedAccount(t *testing.T) {
	r := newRig(t, "cz")
	id := r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	if err := r.reg.Block(r.ctx(), id, "asked by the player"); err != nil {
		t.Fatal(err)
	}
	r.refused(c, r.play(c, 10), refusal.PlayerNoSession)
	_, err := r.login(c, "4000000000000001")
	r.refused(c, err, refusal.PlayerBlocked)
	if err := r.reg.Block(r.ctx(), id, ""); err != nil {
		t.Fatal(err)
	}
	r.mustLogin(c, "4000000000000001")
	r.mustPlay(c, 10)
}

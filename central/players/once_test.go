package players_test

import (
	"bytes"
	"database/sql"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/engine"
)

// A bet counts against a limit once per (cabinet, round): a round asked
// again, also after a server restart, is the stored round and no new bet.
func TestBetCountsOnceAcrossRetryAndRestart(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", map[string]int64{players.BetsDay: 20})
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	a, err := c.RequestOutcome(r.ctx(), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		b, err := c.RequestOutcome(r.ctx(), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
		if err != nil || !bytes.Equal(a.Body, b.Body) {
			t.Fatalf("asked again: %v", err)
		}
	}
	r.e.Restart()
	b, err := c.RequestOutcome(r.ctx(), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil || !bytes.Equal(a.Body, b.Body) {
		t.Fatalf("asked again after a restart: %v", err)
	}
	if err := c.CommitOutcome(r.ctx(), 1); err != nil {
		t.Fatal(err)
	}
	r.rounds["cab-1"] = 1
	if n := r.e.Count("player_bets", ""); n != 1 {
		t.Fatalf("%d bets for one round", n)
	}
	r.mustPlay(c, 10) // 20: at the limit
	r.refused(c, r.play(c, 5), refusal.PlayerLimit)
}

// A login whose reply was lost is answered again with its session; the
// challenge opens no second one.
func TestLoginRepeated(t *testing.T) {
	r := newRig(t, "cz")
	r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	c := r.cabinet("cab-1")
	var ch []byte
	err := r.e.Server.Write(r.ctx(), func(tx *sql.Tx) (err error) {
		ch, _, err = r.reg.Challenge(tx, "cab-1", "4000000000000001")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := respond(r.cards.key("4000000000000001"), "4000000000000001")(ch)
	var sessions []int64
	for i := 0; i < 2; i++ {
		err := r.e.Server.Write(r.ctx(), func(tx *sql.Tx) error {
			st, ref, err := r.reg.Login(tx, "cab-1", "4000000000000001", ch, resp)
			if err == nil && ref != nil {
				err = ref
			}
			if err == nil {
				sessions = append(sessions, st.Session)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if sessions[0] != sessions[1] || r.e.Count("player_sessions", "") != 1 {
		t.Fatalf("sessions %v, %d rows", sessions, r.e.Count("player_sessions", ""))
	}
	// The same challenge at another cabinet: refused.
	err = r.e.Server.Write(r.ctx(), func(tx *sql.Tx) error {
		_, ref, err := r.reg.Login(tx, "cab-2", "4000000000000001", ch, resp)
		if err == nil && ref != nil {
			return ref
		}
		return err
	})
	wantReason(t, err, refusal.CardAuth)
	r.mustPlay(c, 10)
}

// Every bet and win is recorded per player: a round's total, then a Risk
// card's change, in the player's history.
func TestWinsRecordedWithRisk(t *testing.T) {
	r := newRig(t, "cz")
	id := r.player("Jan Novák", "1980-01-31", "AB123456", "4000000000000001", nil)
	c := r.cabinet("cab-1")
	r.mustLogin(c, "4000000000000001")
	r.src.win()
	if _, err := c.RequestOutcome(r.ctx(), 1, testenv.GameID, testenv.TheGame.ModelID(), 10); err != nil {
		t.Fatal(err)
	}
	card, err := c.RequestRiskStep(r.ctx(), 1, 1, engine.Red)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CommitOutcome(r.ctx(), 1); err != nil {
		t.Fatal(err)
	}
	hist, err := r.reg.History(r.ctx(), id, time.Time{}, r.e.Clock.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	// The jackpot form's data (MS-18): the verified account of the round.
	if a, err := r.reg.RoundPlayer(r.ctx(), "cab-1", 1); err != nil || a == nil || a.ID != id || a.Name != "Jan Novák" || a.BirthDate != "1980-01-31" || a.VerifiedBy != "clerk 7" {
		t.Fatalf("round player: %+v %v", a, err)
	}
	if a, err := r.reg.RoundPlayer(r.ctx(), "cab-1", 2); err != nil || a != nil {
		t.Fatalf("a round never played: %+v %v", a, err)
	}
	want := int64(card.Step.After) // the round's 30, doubled or lost
	for _, h := range hist {
		if h.Kind == "bet" {
			if h.Stake != 10 || h.Win != want || h.Cabinet != "cab-1" || h.Round != 1 {
				t.Fatalf("bet %+v, want stake 10 win %d", h, want)
			}
			return
		}
	}
	t.Fatalf("no bet in %+v", hist)
}

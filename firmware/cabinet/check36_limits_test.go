package cabinet

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/pki/mint"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/drivers/cardreader/cardemu"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Standards checks 36 and 37 at the cabinet, the rest: the excluded
// player, the daily bet and net-loss limits reached exactly, the break
// after 120 minutes shared by two cabinets, and Austria's cooling-off; all
// through pcscd, vpcd and the card emulator (check36_cabinet_test.go's
// rig), the wagers checked by the embedded central system's players.

// stake selects stake on the cabinet's ladder with Bet+ and Bet−.
func (r *rig) stake(v engine.Money) {
	r.t.Helper()
	r.until(fmt.Sprintf("stake %d", v), time.Millisecond, func(s *view.Snapshot) bool {
		switch {
		case s.Bet < v:
			r.press(view.BetPlus)
		case s.Bet > v:
			r.press(view.BetMinus)
		}
		return s.Bet == v
	})
}

// taken plays one round at the stake shown (playOne) and checks that it
// was taken and debited.
func (r *rig) taken() {
	r.t.Helper()
	games, credit := r.meter(ledger.GamesPlayed), r.credit()
	s := r.playOne()
	if r.meter(ledger.GamesPlayed) != games+1 {
		r.t.Fatalf("round at stake %d not played: %q (credit %d)", s.Bet, s.Message, s.Credit)
	}
	if c := r.credit(); c != credit-s.Bet {
		r.t.Fatalf("credit %d after a round of %d from %d (the rig's rounds win nothing)", c, s.Bet, credit)
	}
}

// refusedRound presses Start and expects the central system's refusal
// reason on screen and the round refunded: no game played, the credit as
// before; the ledger books the stake in and, refused before the draw,
// back out (wagers_refunded), the round refunded with the reason.
func (r *rig) refusedRound(reason string) *view.Snapshot {
	r.t.Helper()
	games, credit, next := r.meter(ledger.GamesPlayed), r.credit(), r.led.NextRound()
	in, back := r.meter(ledger.CoinIn), r.meter(ledger.WagersRefunded)
	r.press(view.Start)
	var round bool
	s := r.until("round refused "+reason, 50*time.Millisecond, func(s *view.Snapshot) bool {
		r.cab.Do(func() { round = r.cab.play.round != nil })
		rd, ok := r.led.Round(next) // this press's round, refunded: the message is its
		return ok && rd.Status == ledger.RoundRefunded && s.Message == view.MsgPlayer+reason && !round && s.Credit == credit
	})
	if r.meter(ledger.GamesPlayed) != games || r.credit() != credit {
		r.t.Fatalf("refused round %s: games %d→%d credit %d→%d", reason, games, r.meter(ledger.GamesPlayed), credit, r.credit())
	}
	if d := r.meter(ledger.CoinIn) - in; d != int64(s.Bet) || r.meter(ledger.WagersRefunded)-back != d {
		r.t.Fatalf("refused round %s: coin in +%d, refunded +%d, want both +%d", reason, d, r.meter(ledger.WagersRefunded)-back, s.Bet)
	}
	if rd, ok := r.led.Round(next); !ok || rd.Status != ledger.RoundRefunded || rd.RefundReason != "refused: "+reason {
		r.t.Fatalf("refused round %d in the ledger: %+v", next, rd)
	}
	return s
}

// noGame presses Start and expects the cabinet itself to refuse it
// (blocked for why): no round asked for, nothing debited.
func (r *cardRig) noGame(why string) {
	r.t.Helper()
	games, credit, next := r.gamesPlayed(), r.credit(), r.led.NextRound()
	r.press(view.Start)
	r.handled() // a round this press began is in the ledger now
	r.untilReal("start refused: "+why, func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+why })
	if r.gamesPlayed() != games || r.credit() != credit || r.led.NextRound() != next {
		r.t.Fatalf("blocked %s: games %d→%d credit %d→%d round %d→%d", why, games, r.gamesPlayed(), credit, r.credit(), next, r.led.NextRound())
	}
}

// bets are the stakes the central system booked for account, and how
// many refusals its log holds.
func (r *cardRig) bets(account string) (stakes []int64, refused int) {
	r.t.Helper()
	h, err := r.reg.History(r.ctx(), account, time.Time{}, r.clock.Now().Add(time.Hour))
	if err != nil {
		r.t.Fatal(err)
	}
	for _, e := range h {
		switch e.Kind {
		case "bet":
			stakes = append(stakes, e.Stake)
		case "refused":
			refused++
		}
	}
	return stakes, refused
}

// refusalsLogged waits until the central system's log for account holds
// at least n refusals: a refused round is written to the player's log
// after the refusal is answered (queued behind the writer's batch), so
// the refusal on screen does not mean it is there yet.
func (r *cardRig) refusalsLogged(account string, n int) {
	r.t.Helper()
	var refused int
	poll.Until(r.t, 10*time.Second, fmt.Sprintf("%d refusals in the player's log", n), func() bool {
		_, refused = r.bets(account)
		return refused >= n
	}, func() string { return fmt.Sprintf("%d logged", refused) })
}

func (r *cardRig) centralLimit(account, kind string) players.Limit {
	r.t.Helper()
	in, err := r.reg.Show(r.ctx(), account)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, l := range in.Limits {
		if l.Kind == kind {
			return l
		}
	}
	r.t.Fatalf("no limit %s for %s", kind, account)
	return players.Limit{}
}

// TestCheck36CabinetExcludedRefused: a person in the register of
// excluded persons opens no session (the card's login refused, the reason
// on screen, no money taken, no game), and one entered in the register
// while playing has the next wager refused (the reason on screen, the
// stake not debited).
func TestCheck36CabinetExcludedRefused(t *testing.T) {
	t.Run("at login", func(t *testing.T) {
		r := newCardRig(t, true)
		r.idle()
		acct := r.player("Jan Novák", cardA, map[string]int64{players.BetsDay: 1000})
		r.importRegister("NOVÁK Jan|1980-05-17|")
		r.insert(cardemu.PlayerCard(cardMaster, cardA))
		s := r.untilReal("login refused", func(s *view.Snapshot) bool { return s.Message == view.MsgPlayer+"PLAYER_EXCLUDED" })
		if s.Player != nil || r.session(acct) != nil {
			t.Fatalf("an excluded person has a session: screen %+v", s.Player)
		}
		r.cab.Do(func() {
			if r.cab.canAccept() {
				t.Error("the cabinet takes money for an excluded person")
			}
		})
		r.press(view.Start)
		r.untilReal("start refused", func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"no_card" })
		if r.gamesPlayed() != 0 || r.credit() != 0 {
			t.Fatalf("games %d credit %d", r.gamesPlayed(), r.credit())
		}
		if stakes, refused := r.bets(acct); len(stakes) != 0 || refused == 0 {
			t.Fatalf("central: bets %v, refusals logged %d (want none, at least 1)", stakes, refused)
		}
	})
	t.Run("while playing", func(t *testing.T) {
		r := newCardRigWith(t, cardRigConfig{market: "cz", reader: true, noWin: true})
		r.idle()
		acct := r.player("Eva Malá", cardA, map[string]int64{players.BetsDay: 1000})
		r.insert(cardemu.PlayerCard(cardMaster, cardA))
		r.loggedIn()
		r.insertNote(100, 0)
		r.taken()
		r.importRegister("Eva Malá|1980-05-17|AB" + cardA[8:])
		r.refusedRound("PLAYER_EXCLUDED")
		if r.gamesPlayed() != 1 || r.credit() != 95 {
			t.Fatalf("games %d credit %d, want 1 and 95", r.gamesPlayed(), r.credit())
		}
		r.refusalsLogged(acct, 1)
		if stakes, refused := r.bets(acct); !slices.Equal(stakes, []int64{5}) || refused != 1 {
			t.Fatalf("central: bets %v refusals %d, want [5] and 1", stakes, refused)
		}
	})
}

// TestCheck36CabinetLimitStopsExactly: a daily bet limit and a daily
// net-loss limit of 25 Kč each: 10 and 10 are taken, the next 10 (30) is
// refused with the reason on screen and nothing debited, 5 (reaching 25
// exactly) is taken, then even 5 is refused. The rounds win nothing (the
// rig's RNG), so the net loss is the stakes. The ledger counts three
// games of 25 in all; the central system booked the same three bets, has
// the two refusals in the player's log and the limit used up; the screen
// shows nothing left.
func TestCheck36CabinetLimitStopsExactly(t *testing.T) {
	for _, kind := range []string{players.BetsDay, players.LossDay} {
		t.Run(kind, func(t *testing.T) {
			r := newCardRigWith(t, cardRigConfig{market: "cz", reader: true, noWin: true})
			r.idle()
			acct := r.player("Tomáš Marek", cardA, map[string]int64{kind: 25})
			r.insert(cardemu.PlayerCard(cardMaster, cardA))
			r.loggedIn()
			r.insertNote(100, 0)
			r.stake(10)
			r.taken()
			r.taken()
			r.refusedRound("PLAYER_LIMIT")
			r.stake(5)
			r.taken()
			r.refusedRound("PLAYER_LIMIT")
			if g, in, c := r.gamesPlayed(), r.meter(ledger.CoinIn)-r.meter(ledger.WagersRefunded), r.credit(); g != 3 || in != 25 || c != 75 {
				t.Fatalf("ledger: games %d net coin in %d credit %d, want 3, 25, 75", g, in, c)
			}
			r.refusalsLogged(acct, 2)
			if stakes, refused := r.bets(acct); !slices.Equal(stakes, []int64{10, 10, 5}) || refused != 2 {
				t.Fatalf("central: bets %v refusals %d, want [10 10 5] and 2", stakes, refused)
			}
			if l := r.centralLimit(acct, kind); l.Used != 25 || l.Left != 0 {
				t.Fatalf("central: %s used %d left %d, want 25 and 0", kind, l.Used, l.Left)
			}
			s := r.untilReal("nothing left on screen", func(s *view.Snapshot) bool {
				if s.Player == nil {
					return false
				}
				for _, l := range s.Player.Limits {
					if l.Kind == kind {
						return l.Set && l.Amount == 25 && l.Left == 0
					}
				}
				return false
			})
			if s.Credit != 75 {
				t.Fatalf("credit on screen %d", s.Credit)
			}
		})
	}
}

// secondCabinet is cab-2 on the same central system, clock and pcscd:
// its own ledger, link client (with its own certificate) and vpcd's
// second slot as its reader.
func (r *cardRig) secondCabinet(market string) (*rig, *cardemu.Slot) {
	r.t.Helper()
	const id = "cab-2"
	pkiDir := filepath.Join(r.central.Dir, "pki")
	if _, _, err := mint.IssueCabinet(pkiDir, id, r.clock.Now()); err != nil {
		r.t.Fatal(err)
	}
	ctls, err := pki.CabinetTLSDir(pkiDir, id, "localhost")
	if err != nil {
		r.t.Fatal(err)
	}
	r2 := &rig{t: r.t, dir: r.t.TempDir(), clock: r.clock, central: r.central, outbox: &gatedOutbox{}}
	cl, err := link.Dial(link.Config{Addr: r.central.Addr.String(), TLS: ctls, Cabinet: id, SigningKey: r.central.Server.PublicKey(),
		Games: engine.Games(), Outbox: r2.outbox, CarryCommits: true})
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); cl.Run(ctx) }()
	r.t.Cleanup(func() { cancel(); <-done; cl.Close() })
	r2.start(market, func(c *Config) { c.ID, c.Central = id, cl })
	return r2, r.attachReader(r2.cab, 1)
}

// minutes lets d of fake time pass a minute at a time, each minute seen
// by the cabinets (their session polls keep the sessions alive, as in a
// hall).
func (r *cardRig) minutes(d time.Duration, cabs ...*rig) {
	r.t.Helper()
	for ; d > 0; d -= time.Minute {
		r.clock.Advance(min(d, time.Minute))
		for _, c := range cabs {
			var polled bool
			poll.Until(r.t, 10*time.Second, "session poll", func() bool {
				c.cab.Do(func() {
					polled = c.cab.player.session == nil || !c.cab.player.polling && c.cab.player.pollAt.After(r.clock.Now())
				})
				return polled
			}, nil)
		}
	}
}

// TestCheck36CabinetBreakAcrossCabinets: 100 minutes of play at cab-1,
// the card moved to cab-2: the warning there at 115 minutes, the break at
// 120 (the round asked for is refused, the break screen shows, the credit
// is kept), the card back at cab-1 halfway through the break is in the
// break there too; at 135 minutes play resumes at cab-1.
func TestCheck36CabinetBreakAcrossCabinets(t *testing.T) {
	r := newCardRigWith(t, cardRigConfig{market: "cz", reader: true, noWin: true})
	r.idle()
	cab2, slot2 := r.secondCabinet("cz")
	cab2.idle()
	acct := r.player("Lucie Horáková", cardA, map[string]int64{players.BetsDay: 100000})
	r.insert(cardemu.PlayerCard(cardMaster, cardA))
	r.loggedIn()
	t0 := r.clock.Now() // the stretch of play starts at the login
	r.insertNote(100, 0)
	r.taken()
	r.minutes(100*time.Minute, r.rig)
	r.taken()
	r.slot.Remove()
	r.untilReal("out at cab-1", func(s *view.Snapshot) bool { return s.Player == nil })
	if err := slot2.Insert(cardemu.PlayerCard(cardMaster, cardA)); err != nil {
		t.Fatal(err)
	}
	c2 := &cardRig{rig: cab2, reg: r.reg}
	c2.loggedIn()
	if s := r.session(acct); s == nil || s.Cabinet != "cab-2" {
		t.Fatalf("session after the move: %+v", s)
	}
	cab2.insertNote(100, 0)
	cab2.taken()
	r.minutes(14*time.Minute, cab2)
	if s := c2.untilReal("no warning yet", func(*view.Snapshot) bool { return true }); s.Player == nil || s.Player.BreakWarning {
		t.Fatalf("at 114 minutes: %+v", s.Player)
	}
	r.minutes(time.Minute, cab2)
	c2.untilReal("warning at 115 minutes", func(s *view.Snapshot) bool { return s.Player != nil && s.Player.BreakWarning })
	cab2.taken()
	r.minutes(5*time.Minute, cab2)
	s := c2.untilReal("break screen", func(s *view.Snapshot) bool { return s.Mode == view.ModeBreak })
	if s.Player == nil || !s.Player.InBreak || s.Player.BreakCredit != "keep" || s.Credit != 90 {
		t.Fatalf("break at cab-2: %+v credit %d", s.Player, s.Credit)
	}
	until := t0.Add(135 * time.Minute)
	if d := s.Player.BreakUntil.Sub(until); d < 0 || d > 30*time.Second {
		t.Fatalf("break until %v, want 135 minutes after the login at %v", s.Player.BreakUntil, t0)
	}
	c2.noGame("break")
	// Halfway through the break the player walks back to cab-1.
	r.minutes(7*time.Minute, cab2)
	slot2.Remove()
	c2.untilReal("out at cab-2", func(s *view.Snapshot) bool { return s.Player == nil })
	r.insert(cardemu.PlayerCard(cardMaster, cardA))
	s = r.untilReal("break at cab-1", func(s *view.Snapshot) bool { return s.Mode == view.ModeBreak })
	if !s.Player.BreakUntil.Equal(until) && s.Player.BreakUntil.Sub(until).Abs() > 30*time.Second {
		t.Fatalf("break until %v at cab-1, want %v", s.Player.BreakUntil, until)
	}
	r.noGame("break")
	r.minutes(8*time.Minute, r.rig)
	r.untilReal("break over at cab-1", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle && s.Player != nil })
	r.taken()
	if stakes, _ := r.bets(acct); len(stakes) != 5 {
		t.Fatalf("central: bets %v, want 5", stakes)
	}
}

// TestCheck37CabinetCoolingOff: Austria's cooling-off at the cabinet
// (profile at): warned 5 minutes before, at 120 minutes of play no new
// game, the break screen in German saying the credit was paid out (a
// voucher printed), play refused for the 5 minutes, then allowed again.
func TestCheck37CabinetCoolingOff(t *testing.T) {
	r := newCardRigWith(t, cardRigConfig{market: "at", reader: true, noWin: true})
	r.idle()
	acct := r.player("Anna Huber", cardA, nil)
	r.insert(cardemu.PlayerCard(cardMaster, cardA))
	r.loggedIn()
	r.insertNote(1000, 2)
	r.taken()
	r.minutes(115*time.Minute, r.rig)
	r.untilReal("warning", func(s *view.Snapshot) bool { return s.Player != nil && s.Player.BreakWarning })
	r.taken()
	r.minutes(5*time.Minute, r.rig)
	s := r.untilReal("cooling-off", func(s *view.Snapshot) bool { return s.Mode == view.ModeBreak && s.Credit == 0 })
	if s.Language != "de" || s.Player == nil || s.Player.BreakCredit != "payout" || s.Player.BreakUntil.IsZero() {
		t.Fatalf("cooling-off screen: language %s %+v", s.Language, s.Player)
	}
	if n := r.meter(ledger.TicketsOutCount); n != 1 {
		t.Fatalf("vouchers at the cooling-off: %d, want 1", n)
	}
	r.noGame("break")
	r.minutes(4*time.Minute, r.rig)
	if s := r.cab.View(); s.Mode != view.ModeBreak {
		t.Fatalf("cooling-off over after 4 minutes: %s", s.Mode)
	}
	r.minutes(time.Minute, r.rig)
	r.untilReal("cooling-off over", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle && s.Player != nil })
	r.insertNote(1000, 2)
	r.taken()
	if stakes, _ := r.bets(acct); len(stakes) != 3 {
		t.Fatalf("central: bets %v, want 3", stakes)
	}
}

package cabinet

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/clock/clocktest"
	"github.com/polaris-vlt/polaris/drivers/cardreader/cardemu"
	"github.com/polaris-vlt/polaris/drivers/cardreader/pcsc"
	"github.com/polaris-vlt/polaris/drivers/cardreader/readeremu"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/hosttools"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Standards check 36 at the cabinet, end to end: the cabinet's player
// part → the PC/SC reader driver → a private pcscd → vsmartcard-vpcd →
// TCP → the project's card emulator; the wager and the login go to the
// embedded central system over gRPC with mutual TLS, with its players
// (central/players, the cz profile) on its SQLite store.

const (
	cardA = "4000123456789010"
	cardB = "4000123456789028"
)

var cardMaster = bytes.Repeat([]byte{0x36}, 32)

// cardRig is the cabinet rig with a card reader and the players.
type cardRig struct {
	*rig
	reg    *players.Registry
	regKey ed25519.PrivateKey // signs the register of excluded persons
	slot   *cardemu.Slot
	pcsc   *readeremu.Rig
}

// newCardRig starts pcscd with vpcd, the central system with the cz
// players, and a cz cabinet reading cards through them; withReader false
// leaves the cabinet without a reader (the central system alone refuses).
func newCardRig(t *testing.T, withReader bool, opts ...rigOption) *cardRig {
	return newCardRigWith(t, cardRigConfig{market: "cz", reader: withReader}, opts...)
}

// cardRigConfig is what a card rig differs in.
type cardRigConfig struct {
	market string // the cabinet's market and the players' profile
	reader bool
	// noWin: the central RNG draws rounds that win nothing, so a net loss
	// is the sum of the stakes and a limit's end is known in advance.
	noWin bool
}

// noWinSource draws 3 (or n-1) every time: no Magic Stars or Wish Upon a
// Star round drawn with it wins anything (found by playing both games
// with it at every stake of the ladders used here).
type noWinSource struct{}

func (noWinSource) Intn(n int) int { return min(3, n-1) }

func newCardRigWith(t *testing.T, rc cardRigConfig, opts ...rigOption) *cardRig {
	t.Helper()
	hosttools.Need(t, "pcscd")
	prof, err := players.ProfileFor(rc.market)
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := players.CardAuth(cardMaster)
	if err != nil {
		t.Fatal(err)
	}
	// One time for the cabinets and the central system: the fake clock
	// moves the 120 minutes of play for both.
	fake := clocktest.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	reg, err := players.New(players.Config{Profile: prof, HashKey: make([]byte, 32), Cards: verifier, RegisterKey: pub, Now: fake.Now})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &rig{t: t, dir: dir, clock: fake, outbox: &gatedOutbox{}}
	eo := embedded.Options{DataDir: dir, Cabinet: "cab-1", Games: engine.Games(),
		Outbox: r.outbox, NoJackpot: true, Players: reg, Now: fake.Now}
	if rc.noWin {
		eo.NewSource = func() engine.Source { return noWinSource{} }
	}
	r.central, err = embedded.Start(context.Background(), eo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.central.Close() })
	cr := &cardRig{rig: r, reg: reg, regKey: priv}
	cr.importRegister()
	r.start(rc.market, opts...)
	if !rc.reader {
		return cr
	}
	var log lockedLog
	cr.pcsc, err = readeremu.Start(t.TempDir(), &log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cr.pcsc.Close()
		if t.Failed() {
			t.Logf("pcscd log:\n%s", log.String())
		}
	})
	cr.slot = cr.attachReader(r.cab, 0)
	return cr
}

// attachReader gives cab the reader of vpcd's slot (0 or 1) through the
// rig's pcscd, and returns the slot its cards go into.
func (r *cardRig) attachReader(cab *Cabinet, slot int) *cardemu.Slot {
	r.t.Helper()
	name := []string{readeremu.Slot0, readeremu.Slot1}[slot]
	rd, err := pcsc.Open(pcsc.Config{Socket: r.pcsc.Socket, Reader: name, RetryInterval: 200 * time.Millisecond,
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		r.t.Fatal(err)
	}
	s := r.pcsc.Slot(slot)
	r.t.Cleanup(func() { s.Remove(); rd.Close() })
	cab.Do(func() { cab.SetCardReader(rd) })
	go func() {
		for e := range rd.Events() {
			cab.Post(CardEvent{e})
		}
	}()
	return s
}

// importRegister imports the register of excluded persons dated today
// with lines (cz refuses logins without a fresh one).
func (r *cardRig) importRegister(lines ...string) {
	r.t.Helper()
	if _, err := r.reg.ImportExclusions(r.ctx(), players.SignExclusions(r.regKey, r.clock.Now().Format("2006-01-02"), lines)); err != nil {
		r.t.Fatal(err)
	}
}

func (r *cardRig) ctx() context.Context {
	c, cancel := context.WithTimeout(context.Background(), poll.Scaled(20*time.Second))
	r.t.Cleanup(cancel)
	return c
}

// player registers a verified person with card and the limits given (the
// other kinds explicitly refused).
func (r *cardRig) player(name, card string, limits map[string]int64) string {
	r.t.Helper()
	a, err := r.reg.Register(r.ctx(), players.Registration{Name: name, BirthDate: "1980-05-17", DocumentNumber: "AB" + card[8:], IdentityVerified: true, VerifiedBy: "clerk 7"})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.reg.IssueCard(r.ctx(), a.ID, card); err != nil {
		r.t.Fatal(err)
	}
	for _, k := range players.Kinds {
		var v *int64
		if x, ok := limits[k]; ok {
			v = &x
		}
		if _, err := r.reg.SetLimit(r.ctx(), a.ID, k, v); err != nil {
			r.t.Fatal(err)
		}
	}
	return a.ID
}

func (r *cardRig) insert(c cardemu.Card) {
	r.t.Helper()
	if err := r.slot.Insert(c); err != nil {
		r.t.Fatal(err)
	}
}

// loggedIn waits for the session on screen (pcscd polls vpcd every 400 ms).
func (r *cardRig) loggedIn() *view.Snapshot {
	r.t.Helper()
	return r.untilReal("player logged in", func(s *view.Snapshot) bool { return s.Player != nil })
}

// untilReal waits in real time, the fake clock still: the reader and the
// central system answer on their own time.
func (r *cardRig) untilReal(what string, ok func(*view.Snapshot) bool) *view.Snapshot {
	r.t.Helper()
	var s *view.Snapshot
	poll.Until(r.t, 20*time.Second, what, func() bool {
		r.cab.Do(func() { r.cab.publish(); s = r.cab.View() })
		return ok(s)
	}, func() string {
		s := r.cab.View()
		return "mode " + string(s.Mode) + " msg " + s.Message
	})
	return s
}

func (r *cardRig) session(account string) *players.State {
	r.t.Helper()
	in, err := r.reg.Show(r.ctx(), account)
	if err != nil {
		r.t.Fatal(err)
	}
	return in.Session
}

func (r *cardRig) gamesPlayed() int64 { return r.meter(ledger.GamesPlayed) }

// TestCheck36CabinetNoWagerWithoutCard: in cz no game starts without a
// player logged in: the cabinet refuses Start itself (no_card) once the
// card is out, takes no money, and a cabinet without a reader has its
// round refused by the central system (PLAYER_NO_SESSION), refunded, the
// reason on screen.
func TestCheck36CabinetNoWagerWithoutCard(t *testing.T) {
	t.Run("reader", func(t *testing.T) {
		r := newCardRig(t, true)
		r.idle()
		r.player("Jana Nováková", cardA, map[string]int64{players.BetsDay: 1000})
		r.cab.Do(func() {
			if why := r.cab.blocked(); why != "no_card" || r.cab.canAccept() {
				t.Errorf("without a card: blocked %q, money taken %v", why, r.cab.canAccept())
			}
		})
		r.insert(cardemu.PlayerCard(cardMaster, cardA))
		r.loggedIn()
		r.insertNote(100, 0)
		r.slot.Remove()
		r.untilReal("session ended", func(s *view.Snapshot) bool { return s.Player == nil })
		before := r.led.NextRound()
		r.press(view.Start)
		s := r.untilReal("start refused", func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"no_card" })
		if s.Credit != 100 || r.gamesPlayed() != 0 || r.led.NextRound() != before {
			t.Fatalf("a wager without a card: credit %d, games %d, next round %d→%d", s.Credit, r.gamesPlayed(), before, r.led.NextRound())
		}
	})
	t.Run("central", func(t *testing.T) {
		r := newCardRig(t, false)
		r.idle()
		r.insertNote(100, 0)
		r.press(view.Start)
		s := r.untilReal("round refused", func(s *view.Snapshot) bool { return s.Message == view.MsgPlayer+"PLAYER_NO_SESSION" })
		if s.Credit != 100 || r.gamesPlayed() != 0 || len(s.Tilts) != 0 {
			t.Fatalf("refused round: credit %d (want 100: refunded), games %d, tilts %v", s.Credit, r.gamesPlayed(), s.Tilts)
		}
	})
}

// TestCheck36CabinetClonedCardRefused: a card with a genuine number and
// no key (cardemu.ClonedCard) opens no session: the central system
// refuses its answer, the screen says why, Start stays refused; the
// genuine card then logs in.
func TestCheck36CabinetClonedCardRefused(t *testing.T) {
	r := newCardRig(t, true)
	r.idle()
	acct := r.player("Petr Svoboda", cardA, map[string]int64{players.BetsDay: 1000})
	r.insert(cardemu.ClonedCard(cardA))
	r.untilReal("clone refused", func(s *view.Snapshot) bool { return s.Message == view.MsgPlayer+"CARD_AUTH_FAILED" })
	if s := r.cab.View(); s.Player != nil || r.session(acct) != nil {
		t.Fatalf("a cloned card opened a session: %+v", s.Player)
	}
	r.press(view.Start)
	r.untilReal("start refused", func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"no_card" })
	r.slot.Remove()
	r.untilReal("card out", func(*view.Snapshot) bool {
		var in string
		r.cab.Do(func() { in = r.cab.player.card })
		return in == ""
	})
	r.insert(cardemu.PlayerCard(cardMaster, cardA))
	r.loggedIn()
	if r.session(acct) == nil {
		t.Fatal("the genuine card has no session at the central system")
	}
}

// TestCheck36CabinetLimitsOnScreen: the player's limits are on screen
// with what is left, and what is left follows the bets.
func TestCheck36CabinetLimitsOnScreen(t *testing.T) {
	r := newCardRig(t, true)
	r.idle()
	r.player("Eva Dvořáková", cardA, map[string]int64{players.BetsDay: 500, players.LossMonth: 3000})
	r.insert(cardemu.PlayerCard(cardMaster, cardA))
	s := r.loggedIn()
	want := map[string]view.PlayerLimit{
		players.BetsDay:   {Kind: players.BetsDay, Set: true, Amount: 500, Left: 500},
		players.BetsMonth: {Kind: players.BetsMonth},
		players.LossDay:   {Kind: players.LossDay},
		players.LossMonth: {Kind: players.LossMonth, Set: true, Amount: 3000, Left: 3000},
	}
	checkLimits(t, s.Player, want)
	r.insertNote(100, 0)
	r.press(view.Start)
	collect := collectOnce(r.rig) // one Collect a Risk offer: a second would cash out
	r.until("round played", 50*time.Millisecond, func(s *view.Snapshot) bool {
		collect(s)
		return s.Mode == view.ModeIdle && r.gamesPlayed() == 1
	})
	win := engine.Money(r.meter(ledger.CoinOut))
	s = r.untilReal("limits after the bet", func(s *view.Snapshot) bool {
		return s.Player != nil && len(s.Player.Limits) > 0 && s.Player.Limits[0].Left == 495
	})
	want[players.BetsDay] = view.PlayerLimit{Kind: players.BetsDay, Set: true, Amount: 500, Left: 495}
	want[players.LossMonth] = view.PlayerLimit{Kind: players.LossMonth, Set: true, Amount: 3000, Left: max(0, 3000-5+win)}
	checkLimits(t, s.Player, want)
}

func checkLimits(t *testing.T, p *view.Player, want map[string]view.PlayerLimit) {
	t.Helper()
	if p == nil || len(p.Limits) != len(want) {
		t.Fatalf("limits on screen %+v, want %d", p, len(want))
	}
	for _, l := range p.Limits {
		if w := want[l.Kind]; l != w {
			t.Errorf("limit %s on screen %+v, want %+v", l.Kind, l, w)
		}
	}
}

// TestCheck36CabinetCardRemovedMidRound: the card taken out while the
// reels spin: the round completes (paid as drawn, counted for the
// player), then the session ends at the cabinet and the central system,
// and the next Start is refused.
func TestCheck36CabinetCardRemovedMidRound(t *testing.T) {
	r := newCardRig(t, true, withTiming(DefaultTiming))
	acct, round := r.spinning("Karel Novák")
	r.slot.Remove()
	r.untilReal("card out seen", func(*view.Snapshot) bool {
		var in string
		r.cab.Do(func() { in = r.cab.player.card })
		return in == ""
	})
	if s := r.cab.View(); s.Mode != view.ModePresenting || s.Player == nil {
		t.Fatalf("card out ended the round or the session early: mode %s player %v", s.Mode, s.Player)
	}
	if r.session(acct) == nil {
		t.Fatal("the session ended at the central system before the round completed")
	}
	// Its win counted up too: a Start during the count-up only ends it.
	r.until("round completed", 50*time.Millisecond, func(s *view.Snapshot) bool {
		return s.Mode == view.ModeIdle && s.Player == nil && !s.CountUp.Running(r.clock.Now())
	})
	if r.gamesPlayed() != 1 {
		t.Fatalf("games played %d, want 1", r.gamesPlayed())
	}
	poll.Until(t, 10*time.Second, "session ended at the central system", func() bool { return r.session(acct) == nil }, nil)
	who, err := r.reg.RoundPlayer(r.ctx(), "cab-1", round)
	if err != nil || who == nil || who.ID != acct {
		t.Fatalf("round %d counted for %v (%v), want %s", round, who, err, acct)
	}
	r.press(view.Start)
	r.untilReal("start refused", func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"no_card" })
}

// spinning registers name with card A, logs in, inserts 100 and starts a
// round the fake clock holds on screen (a rig with DefaultTiming); it
// returns the account and the round's number.
func (r *cardRig) spinning(name string) (string, uint64) {
	r.t.Helper()
	r.idle()
	acct := r.player(name, cardA, map[string]int64{players.BetsDay: 1000})
	r.insert(cardemu.PlayerCard(cardMaster, cardA))
	r.loggedIn()
	r.insertNote(100, 0)
	r.press(view.Start)
	r.untilReal("spinning", func(s *view.Snapshot) bool { return s.Mode == view.ModePresenting })
	return acct, r.led.NextRound() - 1
}

type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

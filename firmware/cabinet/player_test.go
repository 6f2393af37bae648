package cabinet

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/drivers/cardreader/cardreadertest"
	"github.com/polaris-vlt/polaris/firmware/view"
	"google.golang.org/protobuf/proto"
)

// stubPlayers is the embedded central system for rounds and a scripted
// player session: the break's timing is the central system's (tested in
// central/players); here the cabinet's answer to it.
type stubPlayers struct {
	*link.Client
	mu      sync.Mutex
	state   *pb.PlayerState
	logouts []string
	calls   []string      // "login" and "logout" in the order they were answered
	hold    chan struct{} // when set, a logout is answered once it is closed
	down    atomic.Bool   // a logout gets no answer (the link's retries spent)
}

func (s *stubPlayers) set(fn func(*pb.PlayerState)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.state)
}

func (s *stubPlayers) PlayerLogin(ctx context.Context, card string, respond func([]byte) ([]byte, error)) (*link.PlayerState, error) {
	if _, err := respond(make([]byte, 32)); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.calls = append(s.calls, "login")
	s.mu.Unlock()
	return s.PlayerState(ctx)
}

func (s *stubPlayers) PlayerState(context.Context) (*link.PlayerState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return proto.Clone(s.state).(*pb.PlayerState), nil
}

func (s *stubPlayers) PlayerLogout(ctx context.Context, reason string) (*link.PlayerState, error) {
	if s.down.Load() {
		return nil, &link.UnavailableError{Attempts: 5, Err: errors.New("connection refused")}
	}
	if s.hold != nil {
		select {
		case <-s.hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.logouts = append(s.logouts, reason)
	s.calls = append(s.calls, "logout")
	return &pb.PlayerState{}, nil
}

func (s *stubPlayers) answered() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

func (s *stubPlayers) loggedOut() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.logouts...)
}

// fakeReader gives the cabinet a cardreadertest.Reader as its card reader.
func (r *rig) fakeReader() *cardreadertest.Reader {
	fake := cardreadertest.New("test")
	r.cab.Do(func() { r.cab.SetCardReader(fake) })
	go func() {
		for e := range fake.Events() {
			r.cab.Post(CardEvent{e})
		}
	}()
	r.t.Cleanup(func() { fake.Close() })
	return fake
}

func newPlayerRig(t *testing.T, credit string) (*rig, *stubPlayers, *cardreadertest.Reader) {
	stub := &stubPlayers{state: &pb.PlayerState{Active: true, Name: "Jana Nováková", CardRequired: true, BreakCredit: credit,
		Limits: []*pb.PlayerLimit{{Kind: "bets_day", Decided: true, Set: true, Amount: 1000, Left: 1000}}}}
	r := newRig(t, "cz", func(c *Config) { stub.Client = c.Central.(*link.Client); c.Central = stub })
	fake := r.fakeReader()
	r.idle()
	fake.Insert(cardA, nil)
	r.until("logged in", time.Millisecond, func(s *view.Snapshot) bool { return s.Player != nil })
	return r, stub, fake
}

// At the break the round on screen completes, then no new game starts;
// the break screen shows, the credit stays (the market's "keep"), and play
// resumes when the break ends.
func TestPlayerBreakNoNewGameCreditKept(t *testing.T) {
	r, stub, _ := newPlayerRig(t, "keep")
	r.insertNote(100, 0)
	r.press(view.Start)
	r.settleRound(r.until("a round", time.Millisecond, func(s *view.Snapshot) bool {
		return r.meter("games_played") == 1 && s.Mode == view.ModeIdle || s.RiskOffer
	}))
	stub.set(func(s *pb.PlayerState) {
		s.InBreak, s.BreakUntilUnixNano = true, r.clock.Now().Add(15*time.Minute).UnixNano()
	})
	s := r.until("break", 10*time.Second, func(s *view.Snapshot) bool { return s.Mode == view.ModeBreak })
	credit := s.Credit
	if s.Player == nil || !s.Player.InBreak || s.Player.BreakCredit != "keep" || s.Player.BreakUntil.IsZero() {
		t.Fatalf("break on screen: %+v", s.Player)
	}
	r.press(view.Start)
	r.until("start refused", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"break" })
	if r.meter("games_played") != 1 || r.credit() != credit {
		t.Fatalf("at the break: games %d credit %d (was %d)", r.meter("games_played"), r.credit(), credit)
	}
	stub.set(func(s *pb.PlayerState) { s.InBreak = false })
	r.until("break over", 10*time.Second, func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
}

// Where the market pays the credit out at the break, the cabinet issues
// the voucher once, when the break begins.
func TestPlayerBreakPaysOut(t *testing.T) {
	r, stub, _ := newPlayerRig(t, "payout")
	r.insertNote(100, 0)
	stub.set(func(s *pb.PlayerState) { s.InBreak = true })
	r.until("paid out", 10*time.Second, func(s *view.Snapshot) bool { return s.Mode == view.ModeBreak && s.Credit == 0 })
	if n := r.meter("tickets_out_count"); n != 1 {
		t.Fatalf("vouchers at the break: %d, want 1", n)
	}
}

// The reader lost ends the session at once (no round on screen); in cz
// no game and no money in while it is gone (card_reader, the reason on
// screen), then the card is asked for again. The pcscd end to end is
// TestCheck36CabinetReaderLost.
func TestPlayerReaderLostEndsSession(t *testing.T) {
	r, stub, fake := newPlayerRig(t, "keep")
	fake.Lose()
	r.until("session ended", time.Millisecond, func(s *view.Snapshot) bool { return s.Player == nil })
	// The reader reports the card out before itself lost (cardreader.ReaderLost).
	poll := func() bool { l := stub.loggedOut(); return len(l) == 1 && l[0] == "card_removed" }
	r.until("logged out at the central system", time.Millisecond, func(*view.Snapshot) bool { return poll() })
	r.until("the reason on screen", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"card_reader" })
	r.cab.Do(func() {
		if why := r.cab.blocked(); why != "card_reader" || r.cab.canAccept() {
			t.Errorf("reader lost: blocked %q, money taken %v", why, r.cab.canAccept())
		}
	})
	fake.Back()
	r.until("no card", time.Millisecond, func(s *view.Snapshot) bool {
		var why string
		r.cab.Do(func() { why = r.cab.blocked() })
		return why == "no_card" && s.Message == ""
	})
}

// Where cards are optional (demo) a lost reader stops nothing and calls
// nobody.
func TestPlayerReaderLostDemoPlaysOn(t *testing.T) {
	r := newRig(t, "demo")
	fake := r.fakeReader()
	r.idle()
	fake.Lose()
	r.until("reader lost seen", time.Millisecond, func(*view.Snapshot) bool {
		var lost bool
		r.cab.Do(func() { lost = r.cab.player.readerLost })
		return lost
	})
	if why, s := r.cab.Blocked(), r.state(); why != "" || s.Message != "" || s.Tower != "off" {
		t.Errorf("demo, reader lost: blocked %q, message %q, tower %q", why, s.Message, s.Tower)
	}
}

// A lost reader in cz stops play until it is back, so an attendant must
// come: the tower light calls one, as for a handpay, and goes dark when the
// reader is back. Where cards are optional nobody is called
// (TestPlayerReaderLostDemoPlaysOn).
func TestPlayerReaderLostCallsTheAttendant(t *testing.T) {
	r, _, fake := newPlayerRig(t, "keep")
	if s := r.cab.View(); s.Tower != "off" {
		t.Fatalf("tower %q before the reader is lost, want off", s.Tower)
	}
	fake.Lose()
	r.until("the attendant called", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"card_reader" })
	if s := r.cab.View(); s.Tower != "call" {
		t.Fatalf("cz, reader lost: tower %q, want call (the handpay's signal)", s.Tower)
	}
	fake.Back()
	r.until("reader back", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == "" })
	if s := r.cab.View(); s.Tower != "off" {
		t.Fatalf("cz, reader back: tower %q, want off", s.Tower)
	}
}

// The central system books a round to the session it holds for the
// cabinet, so a card out ends that session there before anything else:
// until the logout is answered Start is refused (player_logout: the round
// would be the last player's, and refused at that player's limit, the
// devkit's card test saw) and a card put in waits, its login sent only
// after the logout (beside it, the login could land first and the logout
// end the new session). Then the card logs in, and once it is out again a
// round plays anonymously (demo).
func TestLogoutBeforeTheNextRoundAndLogin(t *testing.T) {
	stub := &stubPlayers{state: &pb.PlayerState{Active: true, Name: "Jana Nováková"}, hold: make(chan struct{})}
	r := newRig(t, "demo", func(c *Config) { stub.Client = c.Central.(*link.Client); c.Central = stub })
	fake := r.fakeReader()
	r.idle()
	fake.Insert(cardA, nil)
	r.until("logged in", time.Millisecond, func(s *view.Snapshot) bool { return s.Player != nil })
	r.insertNote(10000, 2)
	fake.Remove()
	r.until("card out", time.Millisecond, func(s *view.Snapshot) bool { return s.Player == nil })
	r.press(view.Start)
	r.until("start refused", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"player_logout" })
	fake.Insert(cardB, nil)
	r.until("card B seen", time.Millisecond, func(*view.Snapshot) bool {
		var card string
		r.cab.Do(func() { card = r.cab.player.card })
		return card == cardB
	})
	r.cab.Do(func() {})
	if got := stub.answered(); len(got) != 1 || r.meter("games_played") != 0 {
		t.Fatalf("with the logout unanswered: calls %v, games %d; want the first login alone, no game", got, r.meter("games_played"))
	}
	close(stub.hold)
	r.until("card B logged in", time.Millisecond, func(s *view.Snapshot) bool { return s.Player != nil })
	if got := stub.answered(); len(got) != 3 || got[1] != "logout" || got[2] != "login" {
		t.Fatalf("calls %v, want login, logout, login", got)
	}
	fake.Remove()
	r.until("card B out, its logout answered", time.Millisecond, func(s *view.Snapshot) bool {
		var leaving string
		r.cab.Do(func() { leaving = r.cab.player.leaving })
		return s.Player == nil && leaving == ""
	})
	r.press(view.Start)
	r.until("an anonymous round", time.Millisecond, func(*view.Snapshot) bool { return r.meter("games_played") == 1 })
}

// In cz Start and Auto stay dark without a card, credit on the meter
// (pressed, Start says why); Collect is lit, the cash-out works without a
// card. With the session Start and Auto light.
func TestNoCardLeavesStartDark(t *testing.T) {
	stub := &stubPlayers{state: &pb.PlayerState{Active: true, Name: "Jana Nováková", CardRequired: true,
		Limits: []*pb.PlayerLimit{{Kind: "bets_day", Decided: true, Set: true, Amount: 1000, Left: 1000}}}}
	r := newRig(t, "cz", func(c *Config) { stub.Client = c.Central.(*link.Client); c.Central = stub })
	fake := r.fakeReader()
	r.idle()
	lit := func(s *view.Snapshot) []view.Button {
		var out []view.Button
		for _, b := range []view.Button{view.Start, view.Auto} {
			if s.Lamps[b] != view.LampOff {
				out = append(out, b)
			}
		}
		return out
	}
	fake.Insert(cardA, nil)
	r.until("logged in", time.Millisecond, func(s *view.Snapshot) bool { return s.Player != nil })
	r.insertNote(100, 0)
	fake.Remove()
	s := r.until("no card, idle", time.Millisecond, func(s *view.Snapshot) bool {
		var leaving string
		r.cab.Do(func() { leaving = r.cab.player.leaving })
		return s.Player == nil && leaving == "" && s.Mode == view.ModeIdle
	})
	if got := lit(s); len(got) != 0 || s.Credit == 0 || s.Lamps[view.Collect] != view.LampOn {
		t.Fatalf("no card, credit %d: %v lit, Collect %v", s.Credit, got, s.Lamps[view.Collect])
	}
	r.press(view.Start)
	r.until("the reason", time.Millisecond, func(s *view.Snapshot) bool { return s.Message == view.MsgBlocked+"no_card" })
	fake.Insert(cardA, nil)
	s = r.until("logged in again", time.Millisecond, func(s *view.Snapshot) bool { return s.Player != nil })
	if got := lit(s); len(got) != 2 {
		t.Fatalf("with the session: %v lit, want Start and Auto", got)
	}
}

// A logout with no answer (the link down as the card left) keeps Start
// refused and is asked again as soon as the link is back, not after its
// back-off (the fake clock stands still here).
func TestLogoutAskedAgainAtLinkUp(t *testing.T) {
	r, stub, fake := newPlayerRig(t, "keep")
	stub.down.Store(true)
	fake.Remove()
	leaving := func() string {
		var l string
		r.cab.Do(func() { l = r.cab.player.leaving })
		return l
	}
	r.until("the logout unanswered", 0, func(*view.Snapshot) bool {
		var call bool
		r.cab.Do(func() { call = r.cab.player.leaveCall })
		return leaving() != "" && !call
	})
	r.cab.Post(LinkState{Up: false})
	stub.down.Store(false)
	r.cab.Post(LinkState{Up: true})
	r.until("logged out at link-up", 0, func(*view.Snapshot) bool { return leaving() == "" })
	if l := stub.loggedOut(); len(l) != 1 || l[0] != "card_removed" {
		t.Fatalf("logouts answered %v", l)
	}
}

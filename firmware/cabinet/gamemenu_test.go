package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The demo market offers both games: Risk in idle opens the game menu,
// Bet+ moves to the other game, Start takes it with the credit kept and
// logs the choice; then the language row steps the screen's language.
func TestGameMenuChoosesTheGameAndKeepsTheCredit(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(5000, 2)
	first := r.cab.View().Game
	if l := r.cab.View().Lamps[view.Risk]; l != view.LampOn {
		t.Fatalf("Risk lamp %v in idle with a game menu to open", l)
	}
	seq := r.lastEventSeq()
	r.press(view.Risk)
	s := r.until("game menu", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == menuGames })
	if len(s.Menu.Lines) != 4 || s.Menu.Lines[0].Key != "menu.games.game_on" || s.Menu.Lines[2].Key != "menu.games.language" {
		t.Fatalf("game menu %v", s.Menu.Lines)
	}
	r.press(view.BetPlus)
	r.press(view.Start)
	s = r.until("other game", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu == nil && s.Game != first })
	if s.Credit != 5000 || s.Mode != view.ModeIdle {
		t.Fatalf("after the choice: mode %s credit %d", s.Mode, s.Credit)
	}
	if ev := r.eventsOf(seq, "game_chosen"); len(ev) != 1 || ev[0].Text != string(s.Game) {
		t.Fatalf("choices logged %+v", ev)
	}
	// The language: the third row; Start steps en → de.
	r.press(view.Risk)
	r.until("game menu", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == menuGames })
	r.press(view.BetMinus) // from the game played (row 1) back to row 0, then round to the last
	r.press(view.BetMinus)
	r.press(view.Start)
	s = r.until("German", time.Millisecond, func(s *view.Snapshot) bool { return s.Language == "de" })
	if s.Menu == nil || s.Menu.Lines[2].Key != "menu.games.language_on" {
		t.Fatalf("menu after the language: %+v", s.Menu)
	}
	r.press(view.Stop)
	s = r.until("back", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu == nil })
	if s.Language != "de" {
		t.Fatalf("language %q after leaving the menu, want de kept (no player session)", s.Language)
	}
	// During a round Risk opens no menu.
	r.press(view.Start)
	r.cab.Do(func() {
		if r.cab.play.round != nil {
			r.cab.press(view.Risk)
			if r.cab.menus.menu != nil && r.cab.menus.menu.Title == menuGames {
				t.Error("the game menu opened during a round")
			}
		}
	})
}

// A market with one game and several languages offers the language row
// alone; the choice ends with the player's session (the card out).
func TestLanguageEndsWithThePlayerSession(t *testing.T) {
	stub := &stubPlayers{state: &pb.PlayerState{Active: true, Name: "Jana Nováková"}}
	r := newRig(t, "at", func(c *Config) { stub.Client = c.Central.(*link.Client); c.Central = stub })
	card := r.fakeReader()
	r.idle()
	card.Insert(cardA, nil)
	r.until("logged in", time.Millisecond, func(s *view.Snapshot) bool { return s.Player != nil })
	r.press(view.Risk)
	s := r.until("game menu", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == menuGames })
	if s.Menu.Lines[0].Key != "menu.games.language_on" || len(s.Menu.Lines) != 2 {
		t.Fatalf("one game: menu %v", s.Menu.Lines)
	}
	r.press(view.Start)
	r.until("English", time.Millisecond, func(s *view.Snapshot) bool { return s.Language == "en" })
	r.press(view.Stop)
	card.Remove() // the session ends: its language with it
	r.until("German again", time.Millisecond, func(s *view.Snapshot) bool { return s.Language == "de" && s.Player == nil })
}

// A market with one game and one language has no game menu: Risk in idle
// does nothing.
func TestNoGameMenuWithNothingToChoose(t *testing.T) {
	r := newRig(t, "cz", func(c *Config) { c.Market.Languages = nil })
	r.idle()
	r.press(view.Risk)
	s := r.state()
	if s.Menu != nil {
		t.Errorf("menu %s opened", s.Menu.Title)
	}
	if l := s.Lamps[view.Risk]; l != view.LampOff {
		t.Fatalf("Risk lamp %v with nothing to choose", l)
	}
}

package main

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// A round is the player's who logged in last before its wager, and
// nobody's once the card left, another card came, or the cabinet powered
// up; before the oldest kept event it is unknown.
func TestLoggedIn(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	evs := []ledger.Event{
		{Wall: at(0), Kind: ledger.EventPowerUp},
		{Wall: at(1), Kind: "card_inserted", Text: "4000123456789010"},
		{Wall: at(2), Kind: "player_login", Text: "P1"},
		{Wall: at(3), Kind: "door_open"},
		{Wall: at(5), Kind: "card_out"},
		{Wall: at(6), Kind: "card_inserted"},
		{Wall: at(7), Kind: "player_login", Text: "P2"},
		{Wall: at(9), Kind: ledger.EventPowerUp},
		{Wall: at(10), Kind: "card_inserted"},
		{Wall: at(11), Kind: "card_refused"},
	}
	for _, c := range []struct {
		at   int
		who  string
		kept bool
	}{{-1, "", false}, {1, "", true}, {2, "P1", true}, {4, "P1", true}, {5, "", true}, {8, "P2", true}, {9, "", true}, {12, "", true}} {
		who, kept := loggedIn(evs, at(c.at))
		if who != c.who || kept != c.kept {
			t.Errorf("at %ds: %q %v, want %q %v", c.at, who, kept, c.who, c.kept)
		}
	}
}

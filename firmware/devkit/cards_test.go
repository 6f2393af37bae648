package devkit

import (
	"context"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// The devkit's cards: the demo market plays without a card, card 1 logs
// Jana in (her limits on screen), card 3 swapped in logs Eva in, whose
// daily bets stop after three games at 1.00 (the fourth refused, the
// reason on screen, the credit as before), and the card out ends the session
// (anonymous play again). Through the devkit's own pcscd and vpcd.
func TestDevkitCards(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a devkit cabinet with pcscd")
	}
	hosttools.Need(t, "pcscd")
	dir := t.TempDir()
	ctx := context.Background()
	o, cards := WithCards(app.Options{DataDir: dir, Market: "demo", Logf: t.Logf})
	t.Cleanup(func() { cards.Close() })
	if err := cards.Err(); err != nil {
		t.Fatal(err)
	}
	h, err := StartHeadless(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	run(t, h, "wait idle\ngame wishstar\nnote 1000\npress start\nwait idle\nexpect meter games_played 1\n")
	player := func(name string) {
		t.Helper()
		if err := h.until(ctx, 20*time.Second, func(s *view.Snapshot) bool { return s.Player != nil && s.Player.Name == name }, name+" logged in"); err != nil {
			t.Fatal(err)
		}
	}
	if err := cards.Insert(1); err != nil {
		t.Fatal(err)
	}
	player("Jana Nováková")
	if l := h.App.Cabinet.View().Player.Limits; len(l) != 4 || !l[0].Set || l[0].Amount != 50000 {
		t.Fatalf("Jana's limits on screen: %+v", l)
	}
	if err := cards.Insert(3); err != nil {
		t.Fatal(err)
	}
	player("Eva Dvořáková")
	run(t, h, "press start\nwait idle\npress start\nwait idle\npress start\nwait idle\nexpect meter games_played 4\n")
	credit := h.credit()
	run(t, h, "press start\nsleep 1s\nwait idle\nexpect meter games_played 4\n")
	if s := h.App.Cabinet.View(); s.Message != view.MsgPlayer+"PLAYER_LIMIT" || h.credit() != credit {
		t.Fatalf("the fourth game at Eva's limit: message %q, credit %d→%d", s.Message, credit, h.credit())
	}
	if err := cards.Remove(); err != nil {
		t.Fatal(err)
	}
	if err := h.until(ctx, 20*time.Second, func(s *view.Snapshot) bool { return s.Player == nil }, "card out"); err != nil {
		t.Fatal(err)
	}
	// The session ends at the central system before the next round.
	run(t, h, "wait ready\npress start\nwait idle\nexpect meter games_played 5\n")
}

// In cz the same cards: no game without one (Start refused, no_card),
// card 1 logs in and plays (every limit of the demo players decided, the
// devkit's register of excluded persons fresh).
func TestDevkitCardsCZ(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a devkit cabinet with pcscd")
	}
	hosttools.Need(t, "pcscd")
	ctx := context.Background()
	o, cards := WithCards(app.Options{DataDir: t.TempDir(), Market: "cz", Logf: t.Logf})
	t.Cleanup(func() { cards.Close() })
	h, err := StartHeadless(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	run(t, h, "wait idle\npress start\nsleep 500ms\nexpect meter games_played 0\n")
	if s := h.App.Cabinet.View(); s.Message != view.MsgBlocked+"no_card" {
		t.Fatalf("Start without a card in cz: message %q", s.Message)
	}
	if err := cards.Insert(1); err != nil {
		t.Fatal(err)
	}
	if err := h.until(ctx, 20*time.Second, func(s *view.Snapshot) bool { return s.Player != nil }, "card 1 logged in"); err != nil {
		t.Fatal(err)
	}
	run(t, h, "note 100\npress start\nwait round\n")
	if h.App.Cabinet.View().RiskOffer {
		run(t, h, "press collect\n") // a Magic Stars win offers Risk: the win is taken
	}
	run(t, h, "wait idle\nexpect meter games_played 1\n")
}

package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

func waitFor(t *testing.T, a *app.App, what string, ok func(*view.Snapshot) bool) *view.Snapshot {
	t.Helper()
	var s *view.Snapshot
	poll.Until(t, 20*time.Second, what, func() bool { s = a.Cabinet.View(); return s != nil && ok(s) },
		func() string { return fmt.Sprintf("mode %s credit %d tilts %v", s.Mode, s.Credit, s.Tilts) })
	return s
}

// The devkit cabinet end to end: the real ID-003 driver against its
// emulator over a pseudo-terminal, the keyboard GPIO through the debouncer,
// the embedded central system over mutual TLS, the ledger on disk.
func TestDevkitCabinetPlays(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := start(ctx, app.Options{DataDir: t.TempDir(), Market: "demo", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	waitFor(t, a.App, "idle", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
	if a.kit.Devices().Acceptor == nil {
		t.Skip("no acceptor emulator on the devkit board yet")
	}
	// The acceptor comes up through RESET and its settings; a note
	// inserted while it is still inhibited is refused by the emulator.
	var err2 error
	waitFor(t, a.App, "note credited", func(s *view.Snapshot) bool {
		if s.Credit == 0 && time.Now().UnixMilli()%500 < 5 {
			err2 = a.kit.Devices().Acceptor.InsertNote(0x63) // EUR 10
		}
		return s.Credit == 1000
	})
	t.Logf("last insert: %v", err2)
	// The lamps follow the snapshots the cabinet publishes (lampLoop waits
	// on Changed): with credit for a bet, Start is lit.
	waitFor(t, a.App, "Start lamp lit", func(*view.Snapshot) bool {
		on, _ := a.Board.FakeGPIO.Output("LAMP_START")
		return on
	})
	// Start held until the cabinet has begun the round: the debounced
	// press has been taken, however slowly the board's scan ran.
	a.Board.SetInput(gpio.BtnStart, true)
	waitFor(t, a.App, "the round begun (Start held)", func(s *view.Snapshot) bool { return s.Round != nil })
	a.Board.SetInput(gpio.BtnStart, false)
	s := waitFor(t, a.App, "round settled", func(s *view.Snapshot) bool {
		return s.Round != nil && (s.Mode == view.ModeIdle || s.RiskOffer)
	})
	ms, _ := a.Ledger.Meters(ledger.ScopeCabinet)
	if ms[ledger.CoinIn] != int64(s.Bet) || ms[ledger.BillsInValue] != 1000 {
		t.Fatalf("meters %v", ms)
	}
	// The hard "in" meter clicks once per euro of the note, after the
	// ledger committed it.
	hm := app.NewTestHardMeters(a.Ledger, 100)
	waitFor(t, a.App, "the in meter pulsed 10 times", func(*view.Snapshot) bool { return hm.Pulsed(gpio.MeterIn) == 10 })
	if o, _ := hm.Owed(gpio.MeterIn); o != 0 {
		t.Fatalf("in meter still owed %d", o)
	}
	a.Cabinet.Post(cabinet.PowerOff{})
	<-done
}

// Check 8: with software verification failed the cabinet opens no device
// and no connection, shows why, and refuses play and money.
func TestSoftwareErrorRefusesPlay(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const why = "SOFTWARE VERIFICATION FAILED, play and money refused: bin/polaris: digest differs"
	a, err := start(ctx, app.Options{DataDir: t.TempDir(), Market: "demo", SoftwareError: why})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Board != nil || a.Central != nil {
		t.Fatal("devices or the central link were opened")
	}
	go a.Run(ctx)
	s := waitFor(t, a.App, "software error", func(s *view.Snapshot) bool { return s.Mode == view.ModeSoftware })
	if len(s.Tilts) != 1 || s.Tilts[0] != why {
		t.Fatalf("tilts %v", s.Tilts)
	}
	a.Cabinet.Post(cabinet.Press{Button: view.Start})
	a.Cabinet.Post(cabinet.Press{Button: view.Collect})
	a.Cabinet.Sync() // both presses decided on the loop, the snapshot published after them
	if s := a.Cabinet.View(); s.Mode != view.ModeSoftware || s.Round != nil {
		t.Fatalf("mode %s round %v", s.Mode, s.Round)
	}
	logged := false
	for _, e := range a.Ledger.Events(10) {
		logged = logged || e.Kind == "software_verification_failed"
	}
	if !logged {
		t.Fatal("the failure was not logged")
	}
}

// Issue 18, fix 1: the Wish Upon a Star meters show WS-10's 20/30/50/200 ×
// the bet on screen at every stake, from the values the embedded central
// system sends for all stakes (they read €5 000 Grand at every bet).
func TestWishStarJackpotMetersFollowTheBet(t *testing.T) {
	a := running(t, "at")
	multiple := map[string]engine.Money{"mini": 20, "minor": 30, "major": 50, "grand": 200}
	meters := func(s *view.Snapshot) map[string]engine.Money {
		m := map[string]engine.Money{}
		for _, j := range s.Jackpots {
			m[j.Name] = j.Amount
		}
		return m
	}
	stakes := a.Market.Games[0].Stakes
	for i, stake := range stakes {
		s := waitFor(t, a.App, fmt.Sprintf("bet %d with its jackpot meters", stake), func(s *view.Snapshot) bool {
			return s.Mode == view.ModeIdle && s.Bet == stake && len(s.Jackpots) == 4
		})
		for name, k := range multiple {
			if got := meters(s)[name]; got != k*stake {
				t.Errorf("bet %d: %s shows %d, want %d × %d = %d", stake, name, got, k, stake, k*stake)
			}
		}
		if i+1 < len(stakes) {
			// Straight to the loop: the deck's debounce is not under test, and
			// on a loaded machine a short press through it can be missed.
			a.Cabinet.Post(cabinet.Press{Button: view.BetPlus})
		}
	}
}

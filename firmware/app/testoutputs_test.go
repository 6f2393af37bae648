package app_test

import (
	"context"
	"testing"

	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// Test mode's output tests reach the board's lines (the devkit's GPIO
// fake): Info lights the red tier alone, steady, then yellow and white; the
// next Info gives each of the five hard meters one pulse on its coil,
// which the meter store does not record (nothing owed changes).
func TestTowerAndMeterTestOnTheBoard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := start(ctx, app.Options{DataDir: t.TempDir(), Market: "demo", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	go a.Run(ctx)
	waitFor(t, a.App, "idle", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
	fake := a.kit.Devices().GPIO
	a.Cabinet.Post(cabinet.Key{Name: deck.Technician, On: true})
	s := waitFor(t, a.App, "menu", func(s *view.Snapshot) bool { return s.Menu != nil })
	for s.Menu.Title != "menu.test" {
		page := s.Menu.Page
		a.Cabinet.Post(cabinet.Press{Button: view.BetPlus})
		s = waitFor(t, a.App, "next page", func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Page == page+1 })
	}
	a.Cabinet.Post(cabinet.Press{Button: view.Start})
	waitFor(t, a.App, "test mode", func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == "menu.test_mode" })
	tiers := map[gpio.Colour]string{gpio.Red: "TOWER_RED", gpio.Yellow: "TOWER_YELLOW", gpio.White: "TOWER_WHITE"}
	for _, c := range []gpio.Colour{gpio.Red, gpio.Yellow, gpio.White} {
		a.Cabinet.Post(cabinet.Press{Button: view.InfoButton})
		waitFor(t, a.App, "tier "+string(c)+" alone", func(*view.Snapshot) bool {
			for k, line := range tiers {
				if on, _ := fake.Output(line); on != (k == c) {
					return false
				}
			}
			return true
		})
	}
	hm := app.NewTestHardMeters(a.Ledger, 100)
	coils := []string{"METER_IN", "METER_OUT", "METER_DROP", "METER_JACKPOT", "METER_GAMES"}
	before := map[string]int{}
	for _, l := range coils {
		before[l] = len(fake.History(l))
	}
	a.Cabinet.Post(cabinet.Press{Button: view.InfoButton})
	waitFor(t, a.App, "each coil pulsed once", func(*view.Snapshot) bool {
		for _, l := range coils {
			if len(fake.History(l)) != before[l]+2 { // on, then off
				return false
			}
		}
		return true
	})
	for _, m := range []gpio.Meter{gpio.MeterIn, gpio.MeterOut, gpio.MeterDrop, gpio.MeterJackpot, gpio.MeterGames} {
		if p := hm.Pulsed(m); p != 0 {
			t.Fatalf("meter %s: the store recorded %d pulses for a test", m, p)
		}
	}
	var tests int
	for _, e := range a.Ledger.Events(100) {
		if e.Kind == "meter_test" {
			tests++
		}
	}
	if tests != 5 {
		t.Fatalf("%d meter tests logged, want 5", tests)
	}
	if ms, _ := a.Ledger.Meters(ledger.ScopeCabinet); ms[ledger.GamesPlayed] != 0 {
		t.Fatalf("meters %v", ms)
	}
	a.Cabinet.Post(cabinet.PowerOff{})
}

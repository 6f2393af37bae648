package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/devkit"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// devApp is a cabinet with the devkit's parts, as polaris-devkit runs it.
type devApp struct {
	*app.App
	kit *devkit.Kit
}

// start is app.Start with the devkit's parts (devkit.With).
func start(ctx context.Context, o app.Options) (*devApp, error) {
	o, kit := devkit.With(o)
	a, err := app.Start(ctx, o)
	if err != nil {
		return nil, err
	}
	return &devApp{a, kit}, nil
}

// running starts a devkit cabinet of market and runs it until the test
// ends (powered off, then closed).
func running(t *testing.T, market string) *devApp {
	t.Helper()
	return runningWith(t, app.Options{DataDir: t.TempDir(), Market: market, Logf: t.Logf})
}

// runningWith is running with the options given.
func runningWith(t *testing.T, o app.Options) *devApp {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a, err := start(ctx, o)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		a.Cabinet.Post(cabinet.PowerOff{})
		<-done
		a.Close()
		cancel()
	})
	return a
}

// The cabinet binary's app embeds no central system: without an address
// it refuses to start, saying where one is.
func TestNoCentralSystemRefuses(t *testing.T) {
	_, err := app.Start(context.Background(), app.Options{DataDir: t.TempDir(), Market: "demo"})
	if err == nil || !strings.Contains(err.Error(), "no central system") || !strings.Contains(err.Error(), "polaris-devkit") {
		t.Fatalf("Start without a central system: %v", err)
	}
}

// In the cz market the devkit's acceptor carries the CZK table: escrow
// code 61 is a 100 Kč note and is credited as 100 Kč (it carried the euro
// table, so the keys put the Kč value of euro notes on the meter).
// The cz cabinet takes no money without a player's card in its reader (the
// devkit's own pcscd and demo players, as polaris-devkit run starts them).
func TestDevkitAcceptorTakesTheMarketsCurrency(t *testing.T) {
	hosttools.Need(t, "pcscd")
	o, cards := devkit.WithCards(app.Options{DataDir: t.TempDir(), Market: "cz", Logf: t.Logf})
	t.Cleanup(func() { cards.Close() })
	if err := cards.Err(); err != nil {
		t.Fatal(err)
	}
	a := runningWith(t, o)
	waitFor(t, a.App, "idle", func(s *view.Snapshot) bool { return s.Mode == view.ModeIdle })
	if err := cards.Insert(1); err != nil { // cz: no money in without a player
		t.Fatal(err)
	}
	waitFor(t, a.App, "card 1 logged in", func(s *view.Snapshot) bool { return s.Player != nil })
	waitFor(t, a.App, "100 Kč credited", func(s *view.Snapshot) bool {
		if s.Credit == 0 && time.Now().UnixMilli()%500 < 5 {
			a.kit.Devices().Acceptor.InsertNote(0x61) // refused while the unit still starts up
		}
		return s.Credit != 0
	})
	if s := a.Cabinet.View(); s.Credit != 100 {
		t.Fatalf("code 61 credited %d Kč, want 100", s.Credit)
	}
}

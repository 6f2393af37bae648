//go:build display

package display

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/scenario"
)

// TestWindowKeysReachCabinet presses devkit keys on the X server (xdotool
// through XTEST, as a keyboard would) while this process's ebiten window
// has the focus, and watches a real headless cabinet: key 1 inserts a 5 €
// note into the emulated acceptor and the ledger's credit rises by 5 €;
// "=" is Bet+ and the bet moves one step up the ladder.
func TestWindowKeysReachCabinet(t *testing.T) {
	xdotool, err := exec.LookPath("xdotool")
	if err != nil {
		if os.Getenv("POLARIS_DISPLAY_TEST") != "" {
			t.Fatal("xdotool not installed (make display-test installs it)")
		}
		t.Skip("xdotool not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	xdo := func(args ...string) string {
		t.Helper()
		out, err := exec.CommandContext(ctx, xdotool, args...).Output()
		if err != nil {
			t.Fatalf("xdotool %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}

	h, err := scenario.StartHeadless(ctx, app.Options{DataDir: t.TempDir(), Market: "demo", Timing: cabinet.Timing{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	steps, err := scenario.Parse(strings.NewReader("wait idle\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := scenario.Run(ctx, h, steps); err != nil {
		t.Fatal(err)
	}
	dk := &boardDevkit{h: h}
	g := NewGame(Options{Source: h.App.Cabinet.View, Devkit: dk, Renderer: rend})
	onMain(func() { loop.game = g })
	defer onMain(func() { loop.game = nil })

	// the window exists from the start; give it the keyboard (there is no
	// window manager on Xvfb to do it)
	win := strings.Fields(xdo("search", "--sync", "--name", "^"+windowTitle+"$"))
	if len(win) != 1 {
		t.Fatalf("windows titled %q: %v", windowTitle, win)
	}
	xdo("windowfocus", "--sync", win[0])

	// press waits for the game to act on the key (the devkit saw the
	// call), then releases it: no key is lost between two frames
	press := func(key, call string) error {
		n := dk.count(call)
		xdo("keydown", key)
		defer exec.Command(xdotool, "keyup", key).Run()
		for dk.count(call) == n {
			if ctx.Err() != nil {
				t.Fatalf("key %s: no %s from the window", key, call)
			}
			time.Sleep(5 * time.Millisecond)
		}
		return dk.lastErr()
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			if ctx.Err() != nil {
				t.Fatalf("%s: not within the deadline", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	ledger := func() engine.Money { c, _ := h.App.Ledger.Credit(); return engine.Money(c) }
	credit0 := ledger()
	// the acceptor may refuse while it is still being enabled: press again
	for press("1", "note") != nil {
	}
	note := engine.Money(5)
	for range h.App.Cabinet.View().Currency.MinorUnits {
		note *= 10
	}
	waitFor("note credited", func() bool { return ledger() == credit0+note })
	waitFor("credit on the snapshot", func() bool { return h.App.Cabinet.View().Credit == credit0+note })

	s := h.App.Cabinet.View()
	i := indexOf(s.Bets, s.Bet)
	if i < 0 || i+1 >= len(s.Bets) {
		t.Fatalf("bet %d has no step up in %v", s.Bet, s.Bets)
	}
	if err := press("equal", "set bet_plus true"); err != nil {
		t.Fatal(err)
	}
	waitFor("key released", func() bool { return dk.count("set bet_plus false") > 0 })
	waitFor("bet raised", func() bool { return h.App.Cabinet.View().Bet == s.Bets[i+1] })
}

func indexOf(ladder []engine.Money, m engine.Money) int {
	for i, v := range ladder {
		if v == m {
			return i
		}
	}
	return -1
}

// boardDevkit is the devkit as polaris run has it, over the headless
// cabinet's board, counting the calls the window makes.
type boardDevkit struct {
	h     *scenario.Headless
	mu    sync.Mutex
	calls map[string]int
	err   error
}

func (d *boardDevkit) record(call string, err error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.calls == nil {
		d.calls = map[string]int{}
	}
	d.calls[call]++
	d.err = err
	return err
}

func (d *boardDevkit) count(call string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls[call]
}

func (d *boardDevkit) lastErr() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

func (d *boardDevkit) SetInput(in gpio.Input, on bool) error {
	return d.record(fmt.Sprintf("set %s %v", in, on), d.h.App.Board.SetInput(in, on))
}

func (d *boardDevkit) Toggle(in gpio.Input) (bool, error) {
	on, err := d.h.App.Board.Toggle(in)
	return on, d.record(fmt.Sprintf("toggle %s", in), err)
}

func (d *boardDevkit) InsertNote(code byte) error {
	return d.record("note", d.h.App.Board.AcceptorEmulator.InsertNote(code))
}

func (d *boardDevkit) InsertLastTicket() error { return d.record("ticket", nil) }
func (d *boardDevkit) AcceptorJam(bool) error  { return d.record("jam", nil) }
func (d *boardDevkit) PrinterPaperOut(bool)    { d.record("paper", nil) }
func (d *boardDevkit) PrinterJamNext()         { d.record("printer jam", nil) }
func (d *boardDevkit) NextGame()               { d.record("next game", nil) }
func (d *boardDevkit) Keys() []string          { return nil }
func (d *boardDevkit) Status() string          { return "" }

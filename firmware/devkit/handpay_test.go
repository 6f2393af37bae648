package devkit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// pinMarket is testdata/handpays.toml with attendants identified by PIN:
// A17's is 2468.
func pinMarket(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/handpays.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `language = "en"`, "language = \"en\"\nattendant_id = \"pin\"", 1)
	s += "\n[[attendants]]\nid = \"A17\"\npin_hash = \"" + market.HashPIN("2468", []byte("hall-salt-a17")) + "\"\n"
	p := filepath.Join(dir, "market.toml")
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pinScript enters pin on the deck: Bet+ to each digit, Stop takes it.
func pinScript(pin string) string {
	var b strings.Builder
	for _, d := range pin {
		for i := '0'; i < d; i++ {
			b.WriteString("press bet+\nsleep 60ms\n")
		}
		b.WriteString("press stop\nsleep 60ms\n")
	}
	return b.String()
}

// A cancel-credit handpay with the TCL printer out of paper: the
// attendant's PIN is taken, the lockup stays and nothing is paid until
// the paper is back; then the receipt the emulator printed names the
// attendant (never the PIN), and the ledger's handpay event does too.
func TestHandpayReceiptNamesTheAttendant(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a devkit cabinet")
	}
	dir := t.TempDir()
	os.MkdirAll(DocumentDir(dir), 0o700)
	ctx := context.Background()
	h, err := StartHeadless(ctx, app.Options{DataDir: dir, Market: pinMarket(t, dir), Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	run(t, h, "wait idle\nnote 2000\nnote 1000\nexpect credit 3000\npress collect\nwait lockup\n")
	h.Emulated().TCL.SetPaperOut(true)
	if err := h.until(ctx, 10*time.Second, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt }, "the paper-out tilt"); err != nil {
		t.Fatal(err)
	}
	run(t, h, "key attendant on\nsleep 200ms\n"+pinScript("2468")+"sleep 1s\n")
	s := h.App.Cabinet.View()
	if s.Lockup == nil || len(h.Emulated().TCL.Printouts()) != 0 || s.Message != view.MsgHandpayWaitsPrinter {
		t.Fatalf("paper out: lockup %+v, message %q, %d printouts: paid without its receipt", s.Lockup, s.Message, len(h.Emulated().TCL.Printouts()))
	}
	run(t, h, "key attendant off\nexpect credit 3000\n")
	h.Emulated().TCL.SetPaperOut(false)
	if err := h.until(ctx, 20*time.Second, func(s *view.Snapshot) bool { return s.Lockup == nil }, "the handpay paid"); err != nil {
		t.Fatal(err)
	}
	ps := h.Emulated().TCL.Printouts()
	if len(ps) != 1 {
		t.Fatalf("%d printouts, want the receipt", len(ps))
	}
	text := strings.Join(ps[0].Lines, "\n")
	if !strings.Contains(text, "A17") || strings.Contains(text, "2468") || strings.Contains(text, ": key") {
		t.Fatalf("the receipt reads\n%s\nwant attendant A17 and no PIN", text)
	}
	run(t, h, "expect credit 0\nexpect meter handpay_cancelled_credit 3000\n")
	found := false
	for _, e := range h.App.Ledger.Events(50) {
		if e.Kind == ledger.EventHandpay {
			found = e.Source == "A17"
			break
		}
	}
	if !found {
		t.Fatal("the ledger's handpay event does not name A17")
	}
}

package scenario

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/board"
	id003emu "github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/firmware/app"
)

// Reproductions of what the crash harness found in the cabinet, each a
// power cut at a chosen instant of the paper's movement followed by the
// reconciliation that must find nothing. Those named KnownBug fail until the
// cabinet is fixed, so they run only with POLARIS_KNOWN_BUGS=1.

func knownBug(t *testing.T) (string, *Headless) {
	t.Helper()
	if os.Getenv("POLARIS_KNOWN_BUGS") == "" {
		t.Skip("a known cabinet bug: POLARIS_KNOWN_BUGS=1 runs it")
	}
	return withPaper(t)
}

// withPaper is a headless demo cabinet whose emulators keep document logs.
func withPaper(t *testing.T) (string, *Headless) {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(DocumentDir(dir), 0o700)
	h, err := StartHeadless(context.Background(), app.Options{DataDir: dir, Market: "demo", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return dir, h
}

func run(t *testing.T, h *Headless, script string) {
	t.Helper()
	steps, err := Parse(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), h, steps); err != nil {
		t.Fatal(err)
	}
}

// untilLogged waits for the last line of a document log to be event.
func untilLogged(t *testing.T, path, event string) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		var last string
		if strings.HasSuffix(path, board.AcceptorLogFile) {
			if es, _ := id003emu.ReadLog(path); len(es) > 0 {
				last = es[len(es)-1].Event
			}
		} else if es, _ := tclemu.ReadLog(path); len(es) > 0 {
			last = es[len(es)-1].Event
		}
		if last == event {
			return
		}
	}
	t.Fatalf("%s never logged %q", path, event)
}

func reconcileClean(t *testing.T, dir string, h *Headless) {
	t.Helper()
	h.Close()
	bad, err := Reconcile(dir, "dev-1", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Fatalf("discrepancies:\n%s", strings.Join(bad, "\n"))
	}
}

// A ticket the power cut catches stacked (VEND VALID) before the cabinet
// journaled its credit powers up as "bill in stacker". The central system
// validated it and the hold is journaled, so it is credited once and the
// hold confirmed. (Found by the crash harness: "ticket … in the cash box
// 1 time(s), credited 0"; fixed.)
func TestTicketStackedBeforeItsCreditIsCredited(t *testing.T) {
	dir, h := withPaper(t)
	run(t, h, "wait idle\nnote 2000\n")
	cashOut(t, h)
	run(t, h, "sleep 500ms\nprinter take\n")
	insertLastVoucher(t, h)
	acc := filepath.Join(DocumentDir(dir), board.AcceptorLogFile)
	untilLogged(t, acc, id003emu.LogStacking)
	h.App.Board.AcceptorEmulator.Silence(true) // the driver never sees VEND VALID
	untilLogged(t, acc, id003emu.LogStacked)
	run(t, h, "power cut\nwait idle\nsleep 8s\n")
	reconcileClean(t, dir, h)
}

// A voucher whose validation number reached paper when the power went,
// before the driver reported it, is voided by the technician key ("no
// voucher came out") while the central system keeps it issued: printed,
// never debited, redeemable. (Harness: "voucher … printed but not
// debited".)
func TestKnownBugInterruptedVoucherOnPaperIsVoided(t *testing.T) {
	dir, h := knownBug(t)
	run(t, h, "wait idle\nnote 2000\npress collect\n")
	prn := filepath.Join(DocumentDir(dir), board.PrinterLogFile)
	untilLogged(t, prn, tclemu.LogPrinting)
	h.App.Board.TCLEmulator.SetSilent(true) // the driver sees no more status
	untilLogged(t, prn, tclemu.LogComplete)
	run(t, h, "power cut\nsleep 2s\nkey technician on\nkey technician off\nsleep 1s\n")
	reconcileClean(t, dir, h)
}

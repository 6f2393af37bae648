package tclemu

import (
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"
)

var voucherFields = []string{"03-4108-0745", "CASH-OUT VOUCHER", "Polaris devkit", "0", "Site DEV-1",
	"034108074560484854", "VALIDATION 03-4108-0745", "Date", "Ticket 0001", "EUR 12,50", "twelve euros fifty",
	"CASHABLE", "Expires"}

// newLogged starts an emulator with a document log on one end of a pipe
// nobody reads: the test moves paper, it asks no status.
func newLogged(t *testing.T, path string, opt Options) *Emulator {
	t.Helper()
	dev, other := net.Pipe()
	t.Cleanup(func() { dev.Close(); other.Close() })
	opt.Log = path
	e := New(dev, opt)
	t.Cleanup(e.Close)
	if err := e.LogError(); err != nil {
		t.Fatal(err)
	}
	return e
}

func printVoucher(e *Emulator) {
	e.set(func() { e.print(append([]string{"2", "1"}, voucherFields...)) })
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	poll.Until(t, 5*time.Second, what, ok)
}

func inChute(e *Emulator) bool { return e.Flags()[2]&0x08 != 0 }

func TestLogTicketInTheChuteOutlivesThePowerCut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "printer.jsonl")
	e := newLogged(t, path, Options{PrintTime: 20 * time.Millisecond})
	printVoucher(e)
	waitFor(t, "the voucher in the chute", func() bool { return inChute(e) })
	e.Close()

	e = newLogged(t, path, Options{})
	if !inChute(e) {
		t.Fatal("the ticket left the chute with the power")
	}
	pos := e.Printouts()
	if len(pos) != 1 || !pos[0].Complete || !pos[0].ValidationPrinted || pos[0].Barcodes[0] != "034108074560484854" {
		t.Fatalf("printouts after the power cut: %+v", pos)
	}
	e.TakeTicket()
	e.Close()

	e = newLogged(t, path, Options{})
	if inChute(e) {
		t.Fatal("a taken ticket is back in the chute")
	}
	if n := len(e.Printouts()); n != 1 {
		t.Fatalf("%d printouts, want 1", n)
	}
}

func TestLogPrintCutByThePowerKeepsItsValidationNumber(t *testing.T) {
	path := filepath.Join(t.TempDir(), "printer.jsonl")
	e := newLogged(t, path, Options{PrintTime: 2 * time.Second, ValidationAt: 0.05})
	printVoucher(e)
	waitFor(t, "the validation number on paper", func() bool {
		pos := e.Printouts()
		return len(pos) == 1 && pos[0].ValidationPrinted
	})
	e.Close() // mid-print

	e = newLogged(t, path, Options{})
	pos := e.Printouts()
	if len(pos) != 1 || pos[0].Complete || !pos[0].ValidationPrinted || pos[0].Failed != "power lost" {
		t.Fatalf("printouts after the power cut: %+v", pos)
	}
	if inChute(e) {
		t.Fatal("an interrupted ticket was presented")
	}
	entries, err := ReadLog(path)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, le := range entries {
		events = append(events, le.Event)
	}
	want := []string{LogPrinting, LogValidation, LogFailed}
	if len(events) != len(want) || events[0] != want[0] || events[1] != want[1] || events[2] != want[2] {
		t.Fatalf("log %v, want %v", events, want)
	}
}

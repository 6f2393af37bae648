package escposemu

import (
	"fmt"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"
)

func newLogged(t *testing.T, path string) *Emulator {
	t.Helper()
	dev, other := net.Pipe()
	t.Cleanup(func() { dev.Close(); other.Close() })
	e := New(dev, Options{Log: path})
	t.Cleanup(e.Close)
	if err := e.LogError(); err != nil {
		t.Fatal(err)
	}
	return e
}

// voucherBytes is a ticket up to its ITF barcode (GS k 70, function B).
func voucherBytes() []byte {
	b := []byte("CASH-OUT VOUCHER\n\x1dw\x02") // module 2: 18 digits at the default 3 exceed 512 dots
	data := "034108074560484854"
	b = append(b, 0x1d, 'k', 70, byte(len(data)))
	return append(append(b, data...), []byte("\nEUR 12,50\n")...)
}

func waitLog(t *testing.T, path, event string) {
	t.Helper()
	var entries []LogEntry
	poll.Until(t, 5*time.Second, fmt.Sprintf("%q in the log", event), func() bool {
		var err error
		if entries, err = ReadLog(path); err != nil {
			t.Fatal(err)
		}
		n := len(entries)
		return n > 0 && entries[n-1].Event == event
	}, func() string { return fmt.Sprintf("%+v", entries) })
}

func TestLogPrintoutsOutliveThePowerCut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "printer.jsonl")
	e := newLogged(t, path)
	e.receive(append(voucherBytes(), 0x1b, 'i'))
	waitLog(t, path, LogComplete)
	e.receive(voucherBytes()) // the second is cut short by the power
	waitLog(t, path, LogValidation)
	e.Close()

	e = newLogged(t, path)
	pos := e.Printouts()
	if len(pos) != 2 {
		t.Fatalf("%d printouts after the power cut, want 2: %+v", len(pos), pos)
	}
	if !pos[0].Complete || pos[0].Barcodes[0] != "034108074560484854" || pos[0].Text() != "CASH-OUT VOUCHER\nEUR 12,50" {
		t.Fatalf("first printout %+v", pos[0])
	}
	if pos[1].Complete || !pos[1].ValidationPrinted || pos[1].Failed != "power lost" {
		t.Fatalf("interrupted printout %+v", pos[1])
	}
	e.receive(append(voucherBytes(), 0x1b, 'i'))
	waitLog(t, path, LogComplete)
	if pos := e.Printouts(); len(pos) != 3 || pos[2].Seq != 3 {
		t.Fatalf("the next ticket after the power cut: %+v", pos)
	}
}

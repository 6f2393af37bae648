package cabinet

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// silentPrinter takes a job and never reports on it: the power is cut
// while the voucher is on its way to paper.
type silentPrinter struct{ *printer.Fake }

func (silentPrinter) Print(document.Document) (printer.JobID, error) { return 1, nil }

// A cabinet restarted between a voucher's issue and its print says hello
// with the credit the mirror holds: the central system counted the voucher
// out at issue, the meter keeps it until the duplicate prints. (Crash
// harness: "Hello: cabinet credit 500, central mirror 0" after a kill
// mid-print.) Over the real link to the embedded central system.
func TestHelloMidPrintMatchesTheMirror(t *testing.T) {
	r := newRig(t, "demo", func(c *Config) { c.Printer = silentPrinter{c.Printer.(*printer.Fake)} })
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.idle()
	r.insertNote(10000, 2)
	r.press(view.Collect)
	r.until("voucher printing", time.Millisecond, func(*view.Snapshot) bool { return r.pendingVoucher() != "" })
	r.powerCut()
	r.start("demo", func(c *Config) { c.Printer = silentPrinter{c.Printer.(*printer.Fake)} })
	if r.pendingVoucher() == "" || r.credit() != 10000 {
		t.Fatalf("after the cut: pending voucher %q, credit %d, want the voucher pending and 10000 on the meter", r.pendingVoucher(), r.credit())
	}
	info, err := r.central.Client.Hello(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if info.MirrorDiffers || info.MirrorCredit != 0 {
		t.Fatalf("Hello mid-print: mirror %d, differs %v; want 0, no difference", info.MirrorCredit, info.MirrorDiffers)
	}
	if n := r.central.Server.Alarms("cab-1")[server.ReasonMirrorDiffers]; n != 0 {
		t.Fatalf("%d MIRROR_DIFFERS alarms", n)
	}
}

package cabinet

import (
	"context"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/printer/printertest"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// silentPrinter takes a job and never reports on it: the power is cut
// while the voucher is on its way to paper.
type silentPrinter struct{ *printertest.Printer }

func (silentPrinter) Print(document.Document) (printer.JobID, error) { return 1, nil }

// A cabinet restarted between a voucher's issue and its print says hello
// with the credit the mirror holds: the central system counted the voucher
// out at issue, the meter keeps it until the duplicate prints. (Crash
// harness: "Hello: cabinet credit 500, central mirror 0" after a kill
// mid-print.) Over the real link to the embedded central system.
func TestHelloMidPrintMatchesTheMirror(t *testing.T) {
	r := newRig(t, "demo", func(c *Config) { c.Printer = silentPrinter{c.Printer.(*printertest.Printer)} })
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.idle()
	r.insertNote(10000, 2)
	r.press(view.Collect)
	r.until("voucher printing", time.Millisecond, func(*view.Snapshot) bool { return r.pendingVoucher() != "" })
	r.powerCut()
	r.start("demo", func(c *Config) { c.Printer = silentPrinter{c.Printer.(*printertest.Printer)} })
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
	if n := r.central.Server.Alarms().Count("cab-1")[server.ReasonMirrorDiffers]; n != 0 {
		t.Fatalf("%d MIRROR_DIFFERS alarms", n)
	}
}

// unreachedDraw is a central system the outcome requests never reach: the
// power is cut between the wager and its draw.
type unreachedDraw struct{ Central }

func (unreachedDraw) RequestOutcome(ctx context.Context, _ uint64, _ engine.GameID, _ string, _ engine.Money) (*link.Outcome, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// A cabinet restarted with a stake the central system never booked (the
// power cut before the draw) says hello without meters: its credit is the
// stake lower than the mirror until the round is asked again, and the
// next Hello compares. (Crash harness: "Hello: cabinet credit 5360,
// central mirror 5560".)
func TestHelloWithAStakeInFlightDoesNotCompare(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(1000, 2)
	r.stop()
	r.start("demo", func(c *Config) { c.Central = unreachedDraw{c.Central} })
	r.idle()
	credit := r.credit()
	r.press(view.Start)
	r.until("wagered", time.Millisecond, func(*view.Snapshot) bool { _, open := r.led.OpenRound(); return open })
	r.powerCut()
	r.start("demo", func(c *Config) { c.Central = unreachedDraw{c.Central} })
	rd, open := r.led.OpenRound()
	if !open || rd.Outcome != nil || r.credit() != credit-engine.Money(rd.Stake) {
		t.Fatalf("after the cut: round %+v open %v, credit %d from %d", rd, open, r.credit(), credit)
	}
	if rounds, err := reports.DrawnRounds(t.Context(), r.central.Server.DB(), "cab-1"); err != nil || len(rounds) != 0 {
		t.Fatalf("central rounds %+v %v, want none drawn", rounds, err)
	}
	helloDoesNotDiffer(t, r, "with the stake in flight")
	// Once the round is drawn and played, the next Hello compares again.
	r.stop()
	r.start("demo")
	r.until("played", time.Millisecond, func(s *view.Snapshot) bool { _, open := r.led.OpenRound(); return !open && s.Mode == view.ModeIdle })
	if info, err := r.central.Client.Hello(t.Context()); err != nil || info.MirrorDiffers || info.MirrorCredit != r.credit() {
		t.Fatalf("Hello after the round: %+v %v, credit %d", info, err, r.credit())
	}
}

// helloDoesNotDiffer: a Hello now is no MIRROR_DIFFERS, in its answer or as
// an alarm at the central system.
func helloDoesNotDiffer(t *testing.T, r *rig, when string) {
	t.Helper()
	info, err := r.central.Client.Hello(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if info.MirrorDiffers {
		t.Fatalf("Hello %s: mirror %d differs from the credit %d", when, info.MirrorCredit, r.credit())
	}
	if n := r.central.Server.Alarms().Count("cab-1")[server.ReasonMirrorDiffers]; n != 0 {
		t.Fatalf("Hello %s: %d MIRROR_DIFFERS alarms", when, n)
	}
}

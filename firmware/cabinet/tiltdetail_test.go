package cabinet

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/drivers/acceptor"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/money"
)

// Every device fault word the drivers name, and a reason of each kind the
// cabinet writes (built as its code builds them), reads back as a line
// whose keys are in every catalogue; the parts that vary are kept.
func TestTiltDetailsTranslated(t *testing.T) {
	reasons := map[string][]string{
		"printer":  {"printer: communication lost"},
		"acceptor": {"acceptor: communication lost", "ticket stacked without validation", "ticket in stacker at power-up: check with the central system"},
		"storage":  {fmt.Sprintf("storage low: %d MiB free, below %d MiB", 12, 64), "storage: cannot read free space: " + errors.New("EIO").Error()},
		tiltVoucher: {"voucher print not confirmed (" + "time-out" + "): printing it again",
			"voucher print interrupted by power loss: printing it again"},
		"central_round":     {fmt.Sprintf("central round differs from journal round %d: %v", 17, "ROUND_CONFLICT")},
		"central_refused":   {fmt.Sprintf("central system refused round %d (%s): held, not refunded", 18, "VOIDED")},
		"game":              {"open round of unknown game " + "pinball"},
		"outcome":           {"stored outcome of round unreadable: x", "outcome mismatch: x", "risk card mismatch", "risk card mismatch: x"},
		"ledger":            {fmt.Sprintf("ledger refused %s: %v", "the credit", "disk full")},
		tiltSoftwareChanged: {fmt.Sprintf("software changed — technician reset required (%s → %s)", "sha256:aa", "sha256:bb")},
		"test":              {"critical state changed in test mode"},
	}
	for f := printer.PaperLow; f <= printer.Offline; f++ {
		reasons["printer"] = append(reasons["printer"], "printer: "+f.String())
	}
	for k := acceptor.StackerFull; k <= acceptor.Failure; k++ {
		reasons["acceptor"] = append(reasons["acceptor"], "acceptor: "+k.String())
	}
	for kind, rs := range reasons {
		for _, r := range rs {
			l := tiltDetail(kind, r)
			if l.Key == "" {
				t.Errorf("%s %q: no catalogue line", kind, r)
				continue
			}
			for _, k := range i18n.LineKeys(l) {
				if !i18n.Has(k) {
					t.Errorf("%s %q: %q not in every catalogue", kind, r, k)
				}
			}
		}
	}
	cur := money.Currency{Code: "CZK"}
	if got := i18n.Line("cs", cur, tiltDetail("printer", "printer: paper out")); got != "došel papír" {
		t.Errorf("cs paper out: %q", got)
	}
	if got := i18n.Line("de", cur, tiltDetail("central_refused", "central system refused round 18 (VOIDED): held, not refunded")); got != "Spiel 18 (VOIDED): gehalten, nicht erstattet" {
		t.Errorf("de central refused: %q", got)
	}
	if l := tiltDetail("game", "engine: something new"); l.Key != "" {
		t.Errorf("an unknown reason read as %v", l)
	}
}

// On the cabinet: the printer's paper out is published with its line, so a
// Czech screen says "došel papír", not "paper out".
func TestTiltLineInTheSnapshot(t *testing.T) {
	r := newRig(t, "cz")
	r.idle()
	r.cab.Post(PrinterEvent{printer.FaultSet{At: printer.At{Time: r.clock.Now()}, Fault: printer.PaperOut}})
	s := r.until("tilt", time.Millisecond, func(s *view.Snapshot) bool { return len(s.Tilts) == 1 })
	if len(s.TiltLines) != 1 || i18n.Line("cs", s.Currency, s.TiltLines[0]) != "došel papír" || !strings.Contains(s.Tilts[0], "paper out") {
		t.Fatalf("tilts %q lines %v", s.Tilts, s.TiltLines)
	}
}

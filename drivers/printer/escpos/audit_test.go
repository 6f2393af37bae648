package escpos_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
)

// The audit ticket prints through the driver onto the emulator's paper,
// with its meters; it is not money. make printer-png keeps the picture.
func TestAuditTicket(t *testing.T) {
	r := newRig(t, nil)
	a := document.AuditTicket{Lang: document.Czech, Site: "Casino", SiteID: "AT-3", Machine: "cab-1",
		Printed: time.Date(2026, 12, 1, 16, 5, 9, 0, time.UTC), Currency: document.CZK, Version: "1.2.3",
		Software: "sha256:9f2c4e1a77b0d3c2e1d7c0a9b3f28c6d4e5a7b9c0d1e2f3a8f14e45fceea167a", By: "technician",
		Meters: []document.AuditMeter{{Name: "coin_in", Value: 1234567, Money: true}, {Name: "coin_out", Value: 1100020, Money: true},
			{Name: "games_played", Value: 48211}, {Name: "door_opens", Value: 5}}}
	if _, err := r.drv.Print(a); err != nil {
		t.Fatal(err)
	}
	evs := r.until("complete", is[printer.PrintComplete], 3*time.Second)
	if count[printer.ValidationPrinted](evs) != 0 {
		t.Fatal("an audit ticket is not a voucher")
	}
	ps := r.emu.Printouts()

	txt := ps[0].Text()
	for _, want := range []string{"AUDITNÍ TIKET", "Vsazeno", "1 234 567", "Odehrané hry", "48 211", "Vytiskl: technik", "sha256:9f2c4e1a"} {
		if !strings.Contains(txt, want) {
			t.Errorf("audit ticket lacks %q:\n%s", want, txt)
		}
	}
	png, err := ps[0].PNG(512)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("PRINTER_PNG_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, "escpos-audit.png"), png, 0o644)
	}
}

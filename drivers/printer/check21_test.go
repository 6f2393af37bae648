package printer_test

// Check 21 (standards.md §2): a voucher's content, read back from the paper.
// Each voucher goes through the real driver (TCL and ESC/POS) to its
// emulator over a pseudo-terminal; what the emulator put on paper (its
// printed regions or lines, and the rendered ticket for the barcode) is
// compared with literal expectations written here, not with the document
// package's own formatting, so a change in what is printed fails the check.

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/printer/escpos"
	"github.com/polaris-vlt/polaris/drivers/printer/escposemu"
	"github.com/polaris-vlt/polaris/drivers/printer/internal/zbar"
	"github.com/polaris-vlt/polaris/drivers/printer/tcl"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/drivers/ptypair"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// paper is what a scan of one ticket yields: its text lines in the order
// they leave the printer (the leading edge first), and the barcodes a
// barcode reader decodes from the rendered image.
type paper struct {
	lines    []string
	barcodes []string
}

type check21Case struct {
	name string
	v    document.Voucher
	// want: every text that must be on the paper, whole words (whitespace collapsed).
	want []string
	// edge: the leading edge's text; grouped: the validation number as printed.
	edge, grouped string
	// dupWord must appear exactly when v.Duplicate.
	dupWord string
}

func check21Cases() []check21Case {
	// 18:07:05 — an afternoon time a 12-hour clock would print as 6:07.
	at := time.Date(2026, 11, 29, 18, 7, 5, 0, time.UTC)
	cz := document.Voucher{Lang: document.Czech, Site: "Herna U Hvězdy", SiteID: "CZ-0042", Address: "Praha 1",
		Machine: "0017", Issued: at, Amount: 1234, Currency: document.CZK, Sequence: 42,
		Validation: "001234567890123456", Type: document.Cashable, Expiry: at.Add(30 * 24 * time.Hour)}
	czWant := []string{"Herna U Hvězdy", "Provozovna CZ-0042 Terminál 0017", "Datum 29.11.2026 Čas 18:07:05",
		"Tiket č. 0042", "1 234 CZK", "tisíc dvě stě třicet čtyři koruny české", "HOTOVOSTNÍ",
		"Platí do 29.12.2026 18:07", "VALIDAČNÍ ČÍSLO 00-1234-5678-9012-3456"}
	dup := cz
	dup.Duplicate = true
	de := document.Voucher{Lang: document.German, Site: "Casino Linz", SiteID: "AT-0003", Machine: "0112",
		Issued: time.Date(2026, 3, 7, 23, 59, 58, 0, time.UTC), Amount: 12345, Currency: document.EUR, Sequence: 7,
		Validation: "900000000000000001", Type: document.Promotional,
		Expiry: time.Date(2026, 6, 5, 23, 59, 0, 0, time.UTC), Duplicate: true}
	en := document.Voucher{Lang: document.English, Site: "Star Hall", SiteID: "EN-9", Machine: "5",
		Issued: time.Date(2026, 1, 2, 13, 0, 0, 0, time.UTC), Amount: 12350, Currency: document.EUR, Sequence: 9999,
		Validation: "123456789012345678", Type: document.Cashable,
		Expiry: time.Date(2026, 2, 1, 13, 0, 0, 0, time.UTC)}
	return []check21Case{
		{name: "cz-original", v: cz, edge: "00-1234-5678-9012-3456", grouped: "00-1234-5678-9012-3456", dupWord: "DUPLIKÁT",
			want: append([]string{"VÝPLATNÍ TIKET"}, czWant...)},
		{name: "cz-reprint", v: dup, edge: "00-1234-5678-9012-3456", grouped: "00-1234-5678-9012-3456", dupWord: "DUPLIKÁT",
			want: append([]string{"VÝPLATNÍ TIKET - DUPLIKÁT"}, czWant...)},
		{name: "de-promo-reprint", v: de, edge: "90-0000-0000-0000-0001", grouped: "90-0000-0000-0000-0001", dupWord: "DUPLIKAT",
			want: []string{"AUSZAHLUNGSBELEG - DUPLIKAT", "Casino Linz", "Standort AT-0003 Gerät 0112",
				"Datum 07.03.2026 Uhrzeit 23:59:58", "Beleg Nr. 0007", "123,45 EUR",
				"einhundertdreiundzwanzig Euro fünfundvierzig Cent", "PROMOTION", "Gültig bis 05.06.2026 23:59",
				"VALIDIERUNG 90-0000-0000-0000-0001"}},
		{name: "en", v: en, edge: "12-3456-7890-1234-5678", grouped: "12-3456-7890-1234-5678", dupWord: "DUPLICATE",
			want: []string{"CASH-OUT VOUCHER", "Star Hall", "Site EN-9 Machine 5", "Date 2026-01-02 Time 13:00:00",
				"Ticket no. 9999", "EUR 123.50", "one hundred twenty-three euros and fifty cents", "CASHABLE",
				"Valid until 2026-02-01 13:00", "VALIDATION 12-3456-7890-1234-5678"}},
	}
}

var ampm = regexp.MustCompile(`(?i)\b[0-9]{1,2}:[0-9]{2}(:[0-9]{2})?\s*(am|pm)\b`)

func checkPaper(t *testing.T, c check21Case, p paper) {
	t.Helper()
	var lines []string
	for _, l := range p.lines {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	text := strings.Join(lines, "\n")
	if len(lines) == 0 {
		t.Fatal("nothing on the paper")
	}
	if !strings.Contains(lines[0], c.edge) {
		t.Errorf("leading edge %q lacks the validation number %s", lines[0], c.edge)
	}
	if n := strings.Count(text, c.grouped); n < 2 {
		t.Errorf("validation number %s printed %d times, want the leading edge and elsewhere:\n%s", c.grouped, n, text)
	}
	if v := c.v.Validation; len(v) < 18 {
		t.Errorf("validation number %q shorter than 18", v)
	}
	// A long line wraps on the narrow paper; a reader reads on across the break.
	flow := " " + strings.Join(lines, " ") + " "
	for _, w := range c.want {
		if !strings.Contains(flow, " "+w+" ") {
			t.Errorf("%q is not on the paper:\n%s", w, text)
		}
	}
	if got := strings.Contains(text, c.dupWord); got != c.v.Duplicate {
		t.Errorf("%q on the paper = %v, want %v (reprint)", c.dupWord, got, c.v.Duplicate)
	}
	if ampm.MatchString(text) {
		t.Errorf("a 12-hour time on the paper:\n%s", text)
	}
	if len(p.barcodes) != 1 || p.barcodes[0] != c.v.Validation {
		t.Errorf("barcode reader decoded %q, want exactly [%s]", p.barcodes, c.v.Validation)
	}
}

// waitPrinted waits for the driver's PrintComplete of job id; a failure ends the test.
func waitPrinted(t *testing.T, evs <-chan printer.Event, id printer.JobID) {
	t.Helper()
	deadline := poll.After(5 * time.Second)
	for {
		select {
		case e, ok := <-evs:
			if !ok {
				t.Fatal("events closed before the print completed")
			}
			switch v := e.(type) {
			case printer.PrintComplete:
				if v.Job == id {
					return
				}
			case printer.PrintFailed:
				t.Fatalf("print failed: %+v", v)
			}
		case <-deadline:
			t.Fatalf("no PrintComplete within %v", poll.Scaled(5*time.Second))
		}
	}
}

func printTCL(t *testing.T, v document.Voucher) paper {
	t.Helper()
	pair, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	emu := tclemu.New(pair.Device, tclemu.Options{PrintTime: 250 * time.Millisecond})
	drv, err := tcl.Open(tcl.Config{Path: pair.HostPath, PollIdle: 25 * time.Millisecond, PollPrinting: 10 * time.Millisecond,
		CommTimeout: time.Second, StartTimeout: 500 * time.Millisecond, PrintTimeout: 3 * time.Second,
		OpenTimeout: 2 * time.Second, Pacing: 5 * time.Millisecond, ByteTime: -1})
	if err != nil {
		emu.Close()
		pair.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { drv.Close(); emu.Close(); pair.Close() })
	id, err := drv.Print(v)
	if err != nil {
		t.Fatal(err)
	}
	waitPrinted(t, drv.Events(), id)
	ps := emu.Printouts()
	if len(ps) != 1 || !ps[0].Complete {
		t.Fatalf("printouts %+v", ps)
	}
	po := ps[0]
	// The leading edge is the region nearest y = 0 of the ticket; read
	// the regions in the order the paper leaves the printer.
	var p paper
	lastY := -1
	for _, r := range po.Regions {
		if r.Y < lastY {
			t.Fatalf("template regions not in paper order: %+v", po.Regions)
		}
		lastY = r.Y
		if !r.Barcode() {
			p.lines = append(p.lines, r.Text)
		}
	}
	png, err := po.PNG()
	if err != nil {
		t.Fatal(err)
	}
	p.barcodes = zbar.Decode(t, png)
	return p
}

func printESCPOS(t *testing.T, v document.Voucher) paper {
	t.Helper()
	pair, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	emu := escposemu.New(pair.Device, escposemu.Options{})
	cfg := escpos.Config{Path: pair.HostPath, PollIdle: 30 * time.Millisecond, PollPrinting: 15 * time.Millisecond,
		ReplyTimeout: 400 * time.Millisecond, PrintTimeout: 3 * time.Second}
	drv, err := escpos.Open(cfg)
	if err != nil {
		emu.Close()
		pair.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { drv.Close(); pair.Close(); emu.Close() })
	id, err := drv.Print(v)
	if err != nil {
		t.Fatal(err)
	}
	waitPrinted(t, drv.Events(), id)
	ps := emu.Printouts()
	if len(ps) != 1 || !ps[0].Complete || !ps[0].Cut {
		t.Fatalf("printouts %+v", ps)
	}
	png, err := ps[0].PNG(512)
	if err != nil {
		t.Fatal(err)
	}
	return paper{lines: ps[0].Lines, barcodes: zbar.Decode(t, png)}
}

func TestCheck21VoucherReadBackFromPaper(t *testing.T) {
	for _, drv := range []struct {
		name  string
		print func(*testing.T, document.Voucher) paper
	}{{"tcl", printTCL}, {"escpos", printESCPOS}} {
		for _, c := range check21Cases() {
			t.Run(fmt.Sprintf("%s/%s", drv.name, c.name), func(t *testing.T) {
				checkPaper(t, c, drv.print(t, c.v))
			})
		}
	}
}

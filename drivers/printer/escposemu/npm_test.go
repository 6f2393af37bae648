package escposemu

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer/internal/zbar"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// receiptsDir holds receipts written by three public ESC/POS encoders
// (testdata/npm/gen.mjs, pinned in its package-lock.json); make test sets
// it (mk/printer.mk, printer-npm-receipts).
const receiptsDir = "ESCPOS_NPM_RECEIPTS"

type receipt struct {
	Name  string `json:"name"`
	Text  []string
	Codes []struct{ Type, Data string }
}

// Receipts from esc-pos-encoder, @point-of-sale/receipt-printer-encoder and
// node-thermal-printer print on 80 mm receipt paper with no argument byte
// leaking into the text, nothing refused, every text line whole (48
// columns of font A fit 576 dots), and every barcode and QR code decoded
// by zbarimg to the data the encoder was given.
func TestNPMEncoderReceipts(t *testing.T) {
	dir := os.Getenv(receiptsDir)
	if dir == "" {
		t.Skip(receiptsDir + " not set: run make printer-npm-receipts")
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rs []receipt
	if err := json.Unmarshal(b, &rs); err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("%d receipts in the manifest, want 3", len(rs))
	}
	for _, r := range rs {
		t.Run(r.Name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, r.Name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			p := printBytes(t, Options{Paper: ReceiptPaper}, data)
			if len(p.Refused) != 0 {
				t.Errorf("refused: %q", p.Refused)
			}
			for _, want := range r.Text {
				if !slices.ContainsFunc(p.Lines, func(l string) bool { return strings.TrimSpace(l) == want || strings.Contains(l, want) }) {
					t.Errorf("no line %q in %q", want, p.Lines)
				}
			}
			for _, l := range p.Lines {
				if strings.ContainsAny(l, "\x00\x1b\x1d") || strings.Contains(l, "1A2") || strings.Contains(l, "1Q0") {
					t.Errorf("argument bytes leaked into the text: %q", l)
				}
			}
			png, err := p.PNG(0)
			if err != nil {
				t.Fatal(err)
			}
			if out := os.Getenv("PRINTER_PNG_DIR"); out != "" {
				os.WriteFile(filepath.Join(out, "escpos-npm-"+r.Name+".png"), png, 0o644)
			}
			got := zbar.DecodeAll(t, png)
			for _, c := range r.Codes {
				if !slices.Contains(got, c.Type+":"+c.Data) {
					t.Errorf("zbarimg did not read %s %q; read %q (symbols %+v)", c.Type, c.Data, got, p.Symbols)
				}
			}
		})
	}
}

// printBytes runs data through an emulator fed directly (no line) and
// returns the first ticket it cut.
func printBytes(t *testing.T, opt Options, data []byte) Printout {
	t.Helper()
	d := nullDev{make(chan struct{})}
	opt.LineTime, opt.CutTime = time.Microsecond, time.Microsecond
	e := New(d, opt)
	defer func() { close(d.stop); e.Close() }()
	e.receive(data)
	poll.Until(t, 5*time.Second, fmt.Sprintf("a ticket cut from % x", data[:min(len(data), 64)]),
		func() bool { return len(e.Printouts()) > 0 })
	return e.Printouts()[0]
}

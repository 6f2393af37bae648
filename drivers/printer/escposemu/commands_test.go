package escposemu

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

const cut = "\x1dV\x01"

// Every command of the common Epson set takes exactly its argument bytes:
// with printable arguments, a wrong count would show in the text between
// "A" and "B".
func TestArgumentLengths(t *testing.T) {
	for _, c := range []struct{ name, cmd string }{
		{"ESC SP n", "\x1b XX"[:3]},
		{"ESC ! n", "\x1b!X"},
		{"ESC $ nL nH", "\x1b$XY"},
		{"ESC 3 n", "\x1b3X"},
		{"ESC 2", "\x1b2"},
		{"ESC = n", "\x1b=X"},
		{"ESC B n t", "\x1bBXY"},
		{"ESC M n", "\x1bMX"[:2] + "\x00"},
		{"ESC \\ nL nH", "\x1b\\XY"},
		{"ESC a n", "\x1ba1"},
		{"ESC c 5 n", "\x1bc5X"},
		{"ESC p m t1 t2", "\x1bpXYZ"},
		{"ESC t n", "\x1btX"},
		{"ESC { n", "\x1b{\x00"},
		{"ESC D tabs NUL", "\x1bDXYZ\x00"},
		{"ESC * m nL nH (8-dot, 3 columns)", "\x1b*\x00\x03\x00XYZ"},
		{"ESC * m nL nH (24-dot, 2 columns)", "\x1b*\x21\x02\x00XYZXYZ"},
		{"ESC & y c1 c2", "\x1b&\x03AA\x02XYZXYZ"},
		{"FS .", "\x1c."},
		{"FS &", "\x1c&"},
		{"FS ! n", "\x1c!X"},
		{"FS C n", "\x1cCX"},
		{"FS S n1 n2", "\x1cSXY"},
		{"FS p n m", "\x1cpXY"},
		{"GS ! n", "\x1d!\x00"},
		{"GS $ nL nH", "\x1d$XY"},
		{"GS B n", "\x1dB\x00"},
		{"GS H n", "\x1dH\x00"},
		{"GS L nL nH", "\x1dLXY"},
		{"GS P x y", "\x1dPXY"},
		{"GS W nL nH", "\x1dWXY"},
		{"GS a n", "\x1da\x00"},
		{"GS f n", "\x1dfX"},
		{"GS h n", "\x1dhX"},
		{"GS w n", "\x1dw\x02"},
		{"GS ( k QR store", "\x1d(k\x06\x001P0XYZ"},
		{"GS ( k QR model", "\x1d(k\x04\x001A2\x00"},
		{"GS ( k PDF417", "\x1d(k\x03\x000AX"},
		{"GS ( L graphics", "\x1d(L\x02\x000E"},
		{"GS ( H process ID", "\x1d(H\x06\x0000ABCD"},
		{"GS 8 L p1-p4", "\x1d8L\x02\x00\x00\x000E"},
		{"GS v 0 raster 1x2", "\x1dv0\x00\x01\x00\x02\x00XY"},
		{"GS * x y", "\x1d*\x01\x01XYZXYZXY"},
		{"DLE DC4 fn m t", "\x10\x14\x01\x00\x01"},
		{"GS k function B", "\x1dkE\x03XYZ"},
		{"GS k function A", "\x1dk\x04XYZ\x00"},
	} {
		p := printBytes(t, Options{}, []byte("A"+c.cmd+"B\n"+cut))
		if p.Text() != "AB" && !(strings.HasPrefix(c.name, "ESC * ") || strings.HasPrefix(c.name, "GS v 0") || strings.HasPrefix(c.name, "GS k") || strings.HasPrefix(c.name, "GS ( k QR")) {
			t.Errorf("%s: text %q, want \"AB\"", c.name, p.Text())
		}
		if strings.ContainsAny(p.Text(), "XYZ0") {
			t.Errorf("%s: argument bytes in the text %q", c.name, p.Text())
		}
	}
}

// A barcode a printer would refuse prints nothing and the job goes on: an
// ITF with an odd digit count (no validation on paper), an EAN-13 with a
// wrong check digit, a CODE128 without its code set, and a function-A
// symbol without its NUL, which ends at the first byte not allowed in it
// instead of swallowing the rest of the job and the cut.
func TestInvalidBarcodesRefused(t *testing.T) {
	for _, c := range []struct{ name, cmd string }{
		{"ITF odd", "\x1dkF\x03123"},
		{"ITF odd, function A", "\x1dk\x05123\x00"},
		{"EAN13 check digit", "\x1dkC\x0d4006381333932"},
		{"CODE128 without code set", "\x1dkI\x05ABCDE"},
		{"CODE39 bad character", "\x1dkE\x03a#b"},
		{"function A without NUL", "\x1dk\x0512345678"},
	} {
		p := printBytes(t, Options{}, []byte(c.cmd+"\nNEXT\n"+cut))
		if len(p.Refused) != 1 || len(p.Symbols) != 0 || p.ValidationPrinted {
			t.Errorf("%s: refused %q, symbols %+v, validation %v", c.name, p.Refused, p.Symbols, p.ValidationPrinted)
		}
		if !p.Cut || !strings.Contains(p.Text(), "NEXT") {
			t.Errorf("%s: the job did not go on: %q cut=%v", c.name, p.Text(), p.Cut)
		}
	}
	// and the valid forms print
	p := printBytes(t, Options{}, []byte("\x1dkF\x041234\x1dk\x024006381333931\x00\x1dkI\x0d{BPOLARIS-128\x1dkE\x03ABC\x1dkI\x04{C\x0c\x22"+cut))
	want := []string{"1234", "4006381333931", "POLARIS-128", "ABC", "1234"}
	if strings.Join(p.Barcodes, ",") != strings.Join(want, ",") || len(p.Refused) != 0 || !p.ValidationPrinted {
		t.Fatalf("barcodes %q refused %q", p.Barcodes, p.Refused)
	}
}

// Styles apply per run of characters, not per line.
func TestStylesPerRun(t *testing.T) {
	p := printBytes(t, Options{}, []byte("a\x1bE\x01b\x1bE\x00c\x1b-\x01d\x1b-\x00\x1dB\x01e\x1dB\x00\x1d!\x11f\x1d!\x00\n"+cut))
	it := p.Items[0]
	if it.Text != "abcdef" || len(it.Runs) != 6 {
		t.Fatalf("%+v", it)
	}
	r := it.Runs
	if r[0].Bold || !r[1].Bold || r[2].Bold || !r[3].Underline || !r[4].Invert || r[5].W != 2 || r[5].H != 2 || it.Bold {
		t.Fatalf("runs %+v", r)
	}
}

// 48 columns of font A fit receipt paper (576 dots) whole; on a 512-dot
// ticket the 43rd character starts a new line, as the printer wraps.
func TestLineWidthAndWrap(t *testing.T) {
	line := strings.Repeat("0123456789", 5)[:48]
	p := printBytes(t, Options{Paper: ReceiptPaper}, []byte(line+"\n"+cut))
	if len(p.Lines) != 1 || p.Lines[0] != line {
		t.Fatalf("receipt: %q", p.Lines)
	}
	p = printBytes(t, Options{}, []byte(line+"\n"+cut))
	if len(p.Lines) != 2 || p.Lines[0] != line[:42] || p.Lines[1] != line[42:] {
		t.Fatalf("ticket: %q", p.Lines)
	}
}

// Tickets render at the fixed 65 × 156 mm size; receipts as long as printed.
func TestFixedTicketSize(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		w, h int
	}{{Options{}, TicketWidthDots, TicketLengthDots}, {Options{Paper: ReceiptPaper}, 576, 0}} {
		p := printBytes(t, c.opt, []byte("\x1ba\x01TICKET\n\x1dh\x50\x1dw\x02\x1dkF\x04123456"+cut))
		b, err := p.PNG(0)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		if w != c.w || (c.h != 0 && h != c.h) || (c.h == 0 && h >= TicketLengthDots) {
			t.Fatalf("paper %d: %d × %d", c.opt.Paper, w, h)
		}
	}
}

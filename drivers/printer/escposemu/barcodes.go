package escposemu

import (
	"fmt"
	"image"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer/render"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/codabar"
	"github.com/boombuler/barcode/code128"
	"github.com/boombuler/barcode/code39"
	"github.com/boombuler/barcode/code93"
	"github.com/boombuler/barcode/ean"
	"github.com/boombuler/barcode/qr"
)

// Symbologies, named as zbarimg reports them where it can read them.
const (
	SymUPCA    = "UPC-A"
	SymUPCE    = "UPC-E"
	SymEAN13   = "EAN-13"
	SymEAN8    = "EAN-8"
	SymCODE39  = "CODE-39"
	SymITF     = "I2/5"
	SymCODABAR = "Codabar"
	SymCODE93  = "CODE-93"
	SymCODE128 = "CODE-128"
	SymQR      = "QR-Code"
)

// GS k m: function A (m 0–6, data up to NUL) and function B (m 65–73, n
// data bytes) of Epson's set.
var symbologyA = []string{SymUPCA, SymUPCE, SymEAN13, SymEAN8, SymCODE39, SymITF, SymCODABAR}
var symbologyB = []string{SymUPCA, SymUPCE, SymEAN13, SymEAN8, SymCODE39, SymITF, SymCODABAR, SymCODE93, SymCODE128}

// validByte says whether b may appear in sym's data (Epson's ranges).
func validByte(sym string, b byte) bool {
	digit := b >= '0' && b <= '9'
	switch sym {
	case SymUPCA, SymUPCE, SymEAN13, SymEAN8, SymITF:
		return digit
	case SymCODE39:
		return digit || b >= 'A' && b <= 'Z' || strings.IndexByte(" $%*+-./", b) >= 0
	case SymCODABAR:
		return digit || b >= 'A' && b <= 'D' || b >= 'a' && b <= 'd' || strings.IndexByte("$+-./:", b) >= 0
	}
	return b < 0x80 // CODE93, CODE128
}

// Symbol is a barcode or QR code on paper: its symbology, the data it
// carries (as a reader gives it back) and how it was drawn.
type Symbol struct {
	Type   string
	Data   string
	Height int // bar height (dots); 0 for QR
	Module int // narrow bar / QR module (dots)
	HRI    byte
	Level  qr.ErrorCorrectionLevel
}

// encode makes the symbol's bars; ITF is drawn by render (not here).
func (s Symbol) encode() (barcode.Barcode, error) {
	switch s.Type {
	case SymUPCA:
		return ean.Encode("0" + s.Data)
	case SymEAN13, SymEAN8:
		return ean.Encode(s.Data)
	case SymCODE39:
		return code39.Encode(s.Data, false, false)
	case SymCODABAR:
		return codabar.Encode(s.Data)
	case SymCODE93:
		return code93.Encode(s.Data, false, false)
	case SymCODE128:
		return code128.Encode(s.Data)
	case SymQR:
		return qr.Encode(s.Data, s.Level, qr.Auto)
	}
	return nil, fmt.Errorf("%s cannot be drawn", s.Type)
}

// checkSymbol refuses data a printer would refuse (Epson's lengths and
// check digits); the data returned is what a reader gives back.
func checkSymbol(sym string, d []byte) (string, error) {
	for _, b := range d {
		if !validByte(sym, b) {
			return "", fmt.Errorf("%s: byte %#02x not allowed", sym, b)
		}
	}
	s, n := string(d), len(d)
	switch sym {
	case SymUPCA:
		if n != 11 && n != 12 {
			return "", fmt.Errorf("UPC-A takes 11 or 12 digits, got %d", n)
		}
		if _, err := ean.Encode("0" + s); err != nil {
			return "", fmt.Errorf("UPC-A: %w", err)
		}
	case SymUPCE:
		return "", fmt.Errorf("UPC-E is not drawn by this printer")
	case SymEAN13, SymEAN8:
		min := 12
		if sym == SymEAN8 {
			min = 7
		}
		if n != min && n != min+1 {
			return "", fmt.Errorf("%s takes %d or %d digits, got %d", sym, min, min+1, n)
		}
		bc, err := ean.Encode(s)
		if err != nil {
			return "", fmt.Errorf("%s: %w", sym, err)
		}
		s = bc.Content()
	case SymITF:
		if n < 2 || n%2 != 0 {
			return "", fmt.Errorf("ITF takes an even number of digits, got %d", n)
		}
	case SymCODE39:
		s = strings.Trim(s, "*") // start/stop characters, if sent
		if s == "" || strings.Contains(s, "*") {
			return "", fmt.Errorf("CODE39 %q", d)
		}
	case SymCODABAR:
		if n < 2 || !isCodabarEnd(d[0]) || !isCodabarEnd(d[n-1]) {
			return "", fmt.Errorf("CODABAR needs start and stop characters A–D")
		}
	case SymCODE93:
		if n < 1 {
			return "", fmt.Errorf("CODE93 is empty")
		}
	case SymCODE128:
		var err error
		if s, err = code128Data(d); err != nil {
			return "", err
		}
	}
	return s, nil
}

func isCodabarEnd(b byte) bool { return b >= 'A' && b <= 'D' || b >= 'a' && b <= 'd' }

// code128Data reads Epson's CODE128 data: it starts with a code set ({A,
// {B or {C), "{" escapes the next byte ({{ is "{", {1–{4 are FNC1–4,
// {S shift); in set C each byte is a value 0–99, two digits on the symbol.
func code128Data(d []byte) (string, error) {
	if len(d) < 2 || d[0] != '{' || d[1] < 'A' || d[1] > 'C' {
		return "", fmt.Errorf("CODE128 must start with a code set ({A, {B or {C), got % x", d[:min(len(d), 2)])
	}
	set := d[1]
	var out strings.Builder
	for i := 2; i < len(d); i++ {
		b := d[i]
		if b == '{' {
			if i+1 >= len(d) {
				return "", fmt.Errorf("CODE128: '{' at the end")
			}
			i++
			switch c := d[i]; c {
			case 'A', 'B', 'C':
				set = c
			case '{':
				out.WriteByte('{')
			case '1', '2', '3', '4', 'S':
				// function characters and shift carry no data
			default:
				return "", fmt.Errorf("CODE128: {%c", c)
			}
			continue
		}
		if set == 'C' {
			if b > 99 {
				return "", fmt.Errorf("CODE128 set C value %d > 99", b)
			}
			out.WriteString(fmt.Sprintf("%02d", b))
			continue
		}
		out.WriteByte(b)
	}
	if out.Len() == 0 {
		return "", fmt.Errorf("CODE128 without data")
	}
	return out.String(), nil
}

// barcode runs GS k. A function-A symbol ends at NUL or, as Epson's
// printers do, at the first byte not allowed in it: that byte and what
// follows are processed as normal data, so a missing NUL cannot swallow
// the rest of the job. Invalid data prints nothing; the job goes on.
func (e *Emulator) barcode(q []byte) (int, time.Duration) {
	if len(q) < 3 {
		return 0, 0
	}
	m := q[2]
	var sym string
	var data []byte
	var n int
	switch {
	case int(m) < len(symbologyA):
		sym = symbologyA[m]
		i := 3
		for ; i < len(q) && q[i] != 0 && validByte(sym, q[i]); i++ {
		}
		if i == len(q) {
			return 0, 0 // more may come
		}
		data, n = q[3:i], i
		if q[i] == 0 {
			n++
		} else {
			e.refuse(sym, data, "no NUL: ended at the first byte not allowed")
			return n, 0
		}
	case m >= 65 && int(m-65) < len(symbologyB):
		sym = symbologyB[m-65]
		if len(q) < 4 || len(q) < 4+int(q[3]) {
			return 0, 0
		}
		data, n = q[4:4+int(q[3])], 4+int(q[3])
	default:
		return 3, 0
	}
	content, err := checkSymbol(sym, data)
	if err != nil {
		e.refuse(sym, data, err.Error())
		return n, 0
	}
	s := Symbol{Type: sym, Data: content, Height: int(e.barH), Module: int(e.module), HRI: e.hri}
	if w := e.symbolWidth(s); w > e.opt.Width {
		e.refuse(sym, data, fmt.Sprintf("%d dots wide, the print area is %d", w, e.opt.Width))
		return n, 0
	}
	itf := sym == SymITF
	if itf {
		if f := e.failNext; f != nil && f.w == BeforeBarcode {
			e.failNext = nil
			e.fault(f.f)
			return n, 0
		}
	}
	e.flushLine(false)
	p := e.ticket()
	p.Items = append(p.Items, Item{Barcode: content, Symbol: &s, Height: s.Height, Module: s.Module, HRI: s.HRI, Align: e.align})
	p.Barcodes = append(p.Barcodes, content)
	p.Symbols = append(p.Symbols, s)
	if itf {
		p.ValidationPrinted = true
		e.logPaper(LogValidation, p, "")
		if f := e.failNext; f != nil && f.w == AfterBarcode {
			e.failNext = nil
			e.fault(f.f)
		}
	}
	return n, e.opt.LineTime * time.Duration(int(e.barH)/24+1)
}

// refuse records a symbol the printer would not print.
func (e *Emulator) refuse(sym string, data []byte, why string) {
	p := e.ticket()
	p.Refused = append(p.Refused, fmt.Sprintf("%s %q: %s", sym, data, why))
}

// qrcode runs GS ( k cn 49 (QR): model (fn 65), module size (67), error
// correction (69), store (80), print (81); other functions and symbols
// (PDF417, cn 48) are parsed and skipped.
func (e *Emulator) qrcode(d []byte) time.Duration {
	if len(d) < 2 || d[0] != 49 {
		return 0
	}
	a := d[2:]
	switch d[1] {
	case 65:
		if len(a) >= 1 {
			e.qr.model = a[0] % 48
		}
	case 67:
		if len(a) >= 1 && a[0] >= 1 && a[0] <= 16 {
			e.qr.size = a[0]
		}
	case 69:
		if len(a) >= 1 && a[0] >= 48 && a[0] <= 51 {
			e.qr.level = a[0]
		}
	case 80:
		if len(a) >= 1 && a[0] == 48 {
			e.qr.data = append([]byte(nil), a[1:]...)
		}
	case 81:
		if len(e.qr.data) == 0 {
			e.refuse(SymQR, nil, "print without stored data")
			return 0
		}
		lvl := []qr.ErrorCorrectionLevel{qr.L, qr.M, qr.Q, qr.H}[e.qr.level-48]
		s := Symbol{Type: SymQR, Data: string(e.qr.data), Module: int(e.qr.size), Level: lvl}
		if _, err := s.encode(); err != nil {
			e.refuse(SymQR, e.qr.data, err.Error())
			return 0
		}
		if w := e.symbolWidth(s); w > e.opt.Width {
			e.refuse(SymQR, e.qr.data, fmt.Sprintf("%d dots wide, the print area is %d", w, e.opt.Width))
			return 0
		}
		e.flushLine(false)
		p := e.ticket()
		p.Items = append(p.Items, Item{Barcode: s.Data, Symbol: &s, Module: s.Module, Align: e.align})
		p.Barcodes = append(p.Barcodes, s.Data)
		p.Symbols = append(p.Symbols, s)
		return e.opt.LineTime * 4
	}
	return 0
}

// symbolWidth is how wide s prints, quiet zones included for ITF.
func (e *Emulator) symbolWidth(s Symbol) int {
	if s.Type == SymITF {
		w, err := render.ITFWidth(s.Data, render.Bars{Narrow: max(s.Module, 1), Ratio: e.opt.ITFRatio, Height: max(s.Height, 1), Quiet: 10})
		if err != nil {
			return 1 << 30
		}
		return w
	}
	bc, err := s.encode()
	if err != nil {
		return 1 << 30
	}
	return bc.Bounds().Dx() * max(s.Module, 1) // as bars scales it, without drawing it
}

// bars draws a symbol (not ITF) as black-on-white, scaled to its module
// and height.
func (s Symbol) bars() (image.Image, error) {
	bc, err := s.encode()
	if err != nil {
		return nil, err
	}
	b := bc.Bounds()
	mod := max(s.Module, 1)
	if s.Type == SymQR {
		return barcode.Scale(bc, b.Dx()*mod, b.Dy()*mod)
	}
	return barcode.Scale(bc, b.Dx()*mod, max(s.Height, 1))
}

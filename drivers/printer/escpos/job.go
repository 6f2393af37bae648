package escpos

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"golang.org/x/text/encoding/charmap"
)

// Charset is how text is sent.
type Charset int

const (
	// CP852 (PC852 Latin 2, ESC t 18) carries Czech and German letters.
	CP852 Charset = iota
	// ASCII folds letters to ASCII for printers without PC852.
	ASCII
)

// Barcode settings of the voucher's ITF symbol.
type Barcode struct {
	Height    byte // dots (80)
	Module    byte // GS w, 2–6 (2)
	HRI       byte // GS H (HRIBelow)
	FunctionA bool // GS k 05 … NUL instead of GS k 70 n …
}

// JobOptions shape the bytes of a document.
type JobOptions struct {
	Columns int // characters per line at normal size (42)
	Charset Charset
	Barcode Barcode
	CutFeed byte // lines fed before the partial cut (3)
}

func (o *JobOptions) defaults() {
	if o.Columns <= 0 {
		o.Columns = 42
	}
	if o.Barcode.Height == 0 {
		o.Barcode.Height = 80
	}
	if o.Barcode.Module == 0 {
		o.Barcode.Module = 2
	}
	if o.CutFeed == 0 {
		o.CutFeed = 3
	}
}

func encodeText(s string, cs Charset) ([]byte, error) {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return nil, bad("control character %U in text", r)
		}
	}
	if cs == ASCII {
		return []byte(fold(s)), nil
	}
	b, err := charmap.CodePage852.NewEncoder().Bytes([]byte(s))
	if err != nil {
		// not in PC852 (e.g. €): fold just those letters
		b, err = charmap.CodePage852.NewEncoder().Bytes([]byte(fold(s)))
	}
	return b, err
}

var foldMap = map[rune]string{
	'á': "a", 'č': "c", 'ď': "d", 'é': "e", 'ě': "e", 'í': "i", 'ň': "n", 'ó': "o", 'ř': "r", 'š': "s",
	'ť': "t", 'ú': "u", 'ů': "u", 'ý': "y", 'ž': "z", 'ä': "ae", 'ö': "oe", 'ü': "ue", 'ß': "ss",
	'Á': "A", 'Č': "C", 'Ď': "D", 'É': "E", 'Ě': "E", 'Í': "I", 'Ň': "N", 'Ó': "O", 'Ř': "R", 'Š': "S",
	'Ť': "T", 'Ú': "U", 'Ů': "U", 'Ý': "Y", 'Ž': "Z", 'Ä': "Ae", 'Ö': "Oe", 'Ü': "Ue", '€': "EUR",
}

func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case foldMap[r] != "":
			b.WriteString(foldMap[r])
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

// Job encodes a document from its layout: initialise, code page, one line
// per block (justified, bold and double size as the block says), the
// barcode as ITF, then feed and partial cut.
func Job(doc document.Document, o JobOptions) ([]byte, error) {
	o.defaults()
	var b bytes.Buffer
	b.Write(Initialize())
	if o.Charset == CP852 {
		b.Write(CodePage(18))
	}
	for _, bl := range doc.Layout() {
		j, _ := Justify(byte(bl.Align))
		b.Write(j)
		switch bl.Kind {
		case document.BlockText:
			if bl.Bold {
				b.Write(Bold(true))
			}
			cols := o.Columns
			if bl.Large {
				sz, _ := Size(2, 2)
				b.Write(sz)
				cols /= 2
			}
			for _, line := range document.Wrap(bl.Text, cols) {
				t, err := encodeText(line, o.Charset)
				if err != nil {
					return nil, err
				}
				b.Write(t)
				b.WriteByte(LF)
			}
			if bl.Large {
				sz, _ := Size(1, 1)
				b.Write(sz)
			}
			if bl.Bold {
				b.Write(Bold(false))
			}
		case document.BlockBarcode:
			h, err := BarcodeHeight(o.Barcode.Height)
			if err != nil {
				return nil, err
			}
			w, err := ModuleWidth(o.Barcode.Module)
			if err != nil {
				return nil, err
			}
			hri, err := HRIPosition(o.Barcode.HRI)
			if err != nil {
				return nil, err
			}
			var k []byte
			if o.Barcode.FunctionA {
				k, err = ITFA(bl.Text)
			} else {
				k, err = ITFB(bl.Text)
			}
			if err != nil {
				return nil, err
			}
			b.Write(h)
			b.Write(w)
			b.Write(hri)
			b.Write(k)
			b.WriteByte(LF)
		case document.BlockSignature:
			label, err := encodeText(bl.Text+": ", o.Charset)
			if err != nil {
				return nil, err
			}
			b.WriteByte(LF)
			b.Write(label)
			b.WriteString(strings.Repeat("_", max(10, o.Columns-len([]rune(bl.Text))-2)))
			b.WriteByte(LF)
		case document.BlockRule:
			b.WriteString(strings.Repeat("-", o.Columns))
			b.WriteByte(LF)
		default:
			return nil, fmt.Errorf("escpos: unknown block kind %d", bl.Kind)
		}
	}
	b.Write(FeedCutPartial(o.CutFeed))
	return b.Bytes(), nil
}

package tcl

import (
	"bytes"
	"strings"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
)

// Page geometry of a TCL ticket at 203 dpi (JCM 512 × 1100; Nanoptix is
// 520 wide, so 512 fits both).
const (
	PageWidth  = 512
	PageLength = 1100
)

// Font objects Polaris's own regions use: '1' regular, '2' bold, '3' double size.
const (
	FontRegular = "1"
	FontBold    = "2"
	FontLarge   = "3"
)

// OwnRegion is a region of Polaris's downloadable templates and the
// document field that fills it ("" for static text).
type OwnRegion struct {
	Region
	Field string
}

// Own template ids: 'V' voucher, 'H' handpay receipt.
const (
	OwnVoucher = 'V'
	OwnHandpay = 'H'
)

func txt(id byte, y, dy, just int, font, field string) OwnRegion {
	return OwnRegion{Region{ID: id, Mem: 'R', X: 8, Y: y, DX: PageWidth - 16, DY: dy, Just: just, Obj: font, M1: 1, M2: 1, PrintAttr: PrintDynamic}, field}
}

// OwnVoucherRegions lays out the voucher. The barcode region comes last in
// the template because Nanoptix NextGen wants it last; on paper it sits under
// the site block.
func OwnVoucherRegions() []OwnRegion {
	return []OwnRegion{
		txt('a', 8, 24, JustCenter, FontBold, document.FValidationText), // leading edge
		txt('b', 44, 48, JustCenter, FontLarge, document.FTitle),
		txt('c', 96, 24, JustCenter, FontBold, document.FSite),
		txt('d', 122, 24, JustCenter, FontRegular, document.FAddress),
		txt('e', 148, 24, JustCenter, FontRegular, document.FLineSite),
		txt('f', 286, 24, JustCenter, FontBold, document.FLineValidation),
		txt('g', 322, 24, JustLeft, FontRegular, document.FLineDateTime),
		txt('h', 348, 24, JustLeft, FontRegular, document.FLineTicket),
		txt('i', 382, 48, JustCenter, FontLarge, document.FAmount),
		txt('j', 434, 72, JustCenter, FontRegular, document.FAmountWords),
		txt('k', 512, 24, JustCenter, FontBold, document.FType),
		txt('m', 540, 24, JustCenter, FontRegular, document.FLineExpiry),
		// ITF: 2-dot narrow, 6-dot wide (ratio 3), 80 dots high, centred.
		{Region{ID: 'n', Mem: 'R', X: 8, Y: 190, DX: PageWidth - 16, DY: 80, Just: JustCenter, Obj: ObjITF, M1: 2, M2: 6, PrintAttr: PrintDynamic}, document.FValidation},
	}
}

// OwnHandpayRegions lays out the handpay receipt.
func OwnHandpayRegions() []OwnRegion {
	return []OwnRegion{
		txt('A', 8, 48, JustCenter, FontLarge, document.FTitle),
		txt('B', 60, 24, JustCenter, FontBold, document.FSite),
		txt('C', 86, 24, JustCenter, FontRegular, document.FLineSite),
		txt('D', 124, 24, JustLeft, FontRegular, document.FLineDateTime),
		txt('E', 150, 24, JustLeft, FontRegular, document.FLineTicket),
		txt('F', 176, 24, JustLeft, FontRegular, document.FLineReason),
		txt('G', 210, 48, JustCenter, FontLarge, document.FAmount),
		txt('H', 262, 72, JustCenter, FontRegular, document.FAmountWords),
		txt('I', 340, 24, JustLeft, FontRegular, document.FLineAttendant),
		txt('J', 400, 24, JustLeft, FontRegular, document.FSigAttendant),
		txt('K', 460, 24, JustLeft, FontRegular, document.FSigPlayer),
		txt('L', 510, 48, JustCenter, FontBold, document.FNotice),
	}
}

// OwnDownload returns the bytes that replace the printer's regions and our
// templates with Polaris's own, and the routes that use them.
func OwnDownload() ([][]byte, map[document.Kind]Route, error) {
	cmds := [][]byte{DeleteAllRegions}
	routes := DefaultRoutes()
	for _, t := range []struct {
		id   byte
		kind document.Kind
		rs   []OwnRegion
	}{{OwnVoucher, document.KindVoucher, OwnVoucherRegions()}, {OwnHandpay, document.KindHandpay, OwnHandpayRegions()}} {
		del, _ := DeleteTemplate(t.id)
		cmds = append(cmds, del)
		tpl := Template{ID: t.id, Mem: 'R', Width: PageWidth, Length: PageLength}
		var fields []string
		for _, r := range t.rs {
			b, err := r.Encode()
			if err != nil {
				return nil, nil, err
			}
			cmds = append(cmds, b)
			tpl.Regions = append(tpl.Regions, r.ID)
			fields = append(fields, r.Field)
		}
		b, err := tpl.Encode()
		if err != nil {
			return nil, nil, err
		}
		cmds = append(cmds, b)
		routes[t.kind] = Route{Template: t.id, Fields: fields}
	}
	return cmds, routes, nil
}

// LineWidth is the characters per line in line mode (12-dot font, 512 dots).
const LineWidth = 42

// LineModeJob encodes a document for line mode: switch to line mode, reset,
// one CR LF line per layout block (wrapped at LineWidth), FF to eject, and
// back to template mode.
func LineModeJob(doc document.Document, translit bool) ([]byte, error) {
	var b bytes.Buffer
	b.Write(LineMode)
	b.Write([]byte{0x1b, '@'})
	for _, bl := range doc.Layout() {
		var text string
		switch bl.Kind {
		case document.BlockText:
			text = bl.Text
		case document.BlockSignature:
			// the blank fills the rest of the line, at least 10 wide
			text = bl.Text + ": " + strings.Repeat("_", max(10, LineWidth-len([]rune(bl.Text))-2))
		case document.BlockRule:
			text = strings.Repeat("-", LineWidth)
		case document.BlockBarcode:
			return nil, bad("line mode cannot print a barcode")
		}
		if translit {
			text = Transliterate(text)
		}
		for _, r := range text {
			if r < 0x20 || r == 0x7f {
				return nil, bad("control character %U in line-mode text", r)
			}
		}
		for _, l := range document.Wrap(text, LineWidth) {
			if bl.Align == document.Center {
				if pad := (LineWidth - len([]rune(l))) / 2; pad > 0 {
					l = strings.Repeat(" ", pad) + l
				}
			}
			b.WriteString(l)
			b.WriteString("\r\n")
		}
	}
	b.WriteByte(0x0c)
	b.Write(TemplateMode)
	return b.Bytes(), nil
}

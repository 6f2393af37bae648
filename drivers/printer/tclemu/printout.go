package tclemu

import (
	"bytes"
	"image"
	"strings"

	"github.com/polaris-vlt/polaris/drivers/printer/render"
)

// PrintedRegion is one region as printed: its definition and its text.
type PrintedRegion struct {
	Region
	Text string
}

// Printout is the structured record of one printed (or interrupted) ticket.
type Printout struct {
	Seq      int
	Template byte // 0 for line mode and form feed
	// Width and Length of the template (dots) the ticket was printed with.
	Width, Length int
	LineMode      bool
	FormFeed      bool
	Fields        []string        // the ^P fields, unescaped, as received
	Regions       []PrintedRegion // template regions in template order
	Lines         []string        // text, in region (or line) order
	Barcodes      []string        // Interleaved 2 of 5 data
	// ValidationPrinted: the validation (barcode) region made it to paper.
	ValidationPrinted bool
	Complete          bool
	Failed            string // why it stopped ("" if it did not)
	printedTo         int    // on a failure: paper printed down to this y (dots); -1 all
}

func (p Printout) hasBarcode() bool { return len(p.Barcodes) > 0 }

func (p Printout) barcodeTop() int {
	for _, r := range p.Regions {
		if r.Barcode() {
			return r.Y
		}
	}
	return 0
}

func (p Printout) barcodeBottom() int {
	for _, r := range p.Regions {
		if r.Barcode() {
			return r.Y + r.DY
		}
	}
	return 0
}

// layout fills template t with fields: each dynamic region (print attribute
// '0') takes the next field; others print their own data. A field "0" marks
// an unused field and prints nothing.
func layout(t Template, fields []string) (Printout, bool) {
	po := Printout{Fields: fields}
	k := 0
	for _, r := range t.Regions {
		text := r.Data
		if r.PrintAttr == '0' {
			if k >= len(fields) {
				return po, false
			}
			text = fields[k]
			k++
			if text == "0" {
				text = ""
			}
		}
		po.Regions = append(po.Regions, PrintedRegion{r, text})
		if r.Barcode() {
			if text != "" {
				po.Barcodes = append(po.Barcodes, text)
			}
		} else if text != "" {
			po.Lines = append(po.Lines, text)
		}
	}
	return po, true
}

// Text joins the printout's text lines.
func (p Printout) Text() string { return strings.Join(p.Lines, "\n") }

// Ticket stock of TCL printers: 65 × 156 mm at 203 dpi, 512 dots
// printable across (the TCL templates' width).
const (
	TicketWidthDots  = 520
	TicketLengthDots = 1248
	printableDots    = 512
)

// Canvas draws the printout as it came out of the printer, on the whole
// 65 × 156 mm ticket (520 × 1248 dots; longer if a template is): the
// regions printed (all of them, or down to where a fault stopped the
// paper), at their positions in the 512-dot printable area, in the
// emulator's fonts: '1' regular, '2' bold, '3' double size; 'l' an
// Interleaved 2 of 5 symbol with M1-dot narrow and M2-dot wide elements.
// Line-mode text and form feeds come out on a ticket too.
func (p Printout) Canvas() (*render.Canvas, error) {
	const x0 = (TicketWidthDots - printableDots) / 2
	if p.LineMode || p.FormFeed {
		c := render.New(TicketWidthDots, max(TicketLengthDots, 24*len(p.Lines)+48))
		for i, l := range p.Lines {
			c.Text(x0+8, 16+24*i, l, render.Style{Scale: 1})
		}
		return c, nil
	}
	bottom := 0
	for _, r := range p.Regions {
		if r.Y+r.DY > bottom {
			bottom = r.Y + r.DY
		}
	}
	c := render.New(TicketWidthDots, max(TicketLengthDots, p.Length, bottom+24))
	for _, r := range p.Regions {
		r.X += x0
		if !p.Complete && p.printedTo >= 0 && r.Y+r.DY > p.printedTo {
			continue // the paper stopped before this region
		}
		if r.Text == "" {
			continue
		}
		if r.Barcode() {
			b := render.Bars{Narrow: max(r.M1, 1), Ratio: float64(r.M2) / float64(max(r.M1, 1)), Height: r.DY, Quiet: 10}
			w, err := render.ITFWidth(r.Text, b)
			if err != nil {
				return nil, err
			}
			x := r.X + justify(r.Just, r.DX, w)
			if _, err := c.ITF(x, r.Y, r.Text, b, render.Rotation(r.Rot)); err != nil {
				return nil, err
			}
			continue
		}
		drawText(c, r)
	}
	return c, nil
}

func justify(just, room, w int) int {
	switch just {
	case 1:
		return max((room-w)/2, 0)
	case 2:
		return max(room-w, 0)
	}
	return 0
}

func drawText(c *render.Canvas, r PrintedRegion) {
	st := render.Style{Scale: 1, Rot: render.Rotation(r.Rot)}
	switch r.Obj {
	case "2":
		st.Bold = true
	case "3":
		st.Scale = 2
		if w, _ := render.TextSize(r.Text, st); w > r.DX {
			st = render.Style{Scale: 1, Bold: true, Rot: st.Rot} // too wide for double size
		}
	}
	if st.Rot != render.RotNone {
		c.Text(r.X, r.Y, r.Text, st)
		return
	}
	_, lh := render.TextSize("X", st)
	y := r.Y
	for _, line := range wrapTo(r.Text, r.DX, st) {
		if y+lh > r.Y+r.DY+lh/2 {
			break // the region is full
		}
		w, _ := render.TextSize(line, st)
		c.Text(r.X+justify(r.Just, r.DX, w), y, line, st)
		y += lh
	}
}

func wrapTo(s string, width int, st render.Style) []string {
	words := strings.Fields(s)
	var lines []string
	cur := ""
	for _, w := range words {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if tw, _ := render.TextSize(try, st); tw <= width || cur == "" {
			cur = try
			continue
		}
		lines = append(lines, cur)
		cur = w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// PNG renders the printout.
func (p Printout) PNG() ([]byte, error) {
	c, err := p.Canvas()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := c.PNG(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Image renders the printout to an image.
func (p Printout) Image() (image.Image, error) {
	c, err := p.Canvas()
	if err != nil {
		return nil, err
	}
	return c.Image(), nil
}

func txt(id byte, y, dy, just int, font string) Region {
	return Region{ID: id, Mem: 'F', X: 8, Y: y, DX: 496, DY: dy, Just: just, Obj: font, M1: 1, M2: 1, PrintAttr: '0'}
}

// ResidentTemplates are the emulator's firmware templates, on the whole
// 65 × 156 mm ticket: '2' cash-out voucher (13 fields) and 'F'
// handpay/jackpot receipt (12 fields). Real firmware's resident layouts are
// not public (firmware-specific, Monaco's mapping files only name template
// and field order); '2' places the fields the voucher rules list
// (standards.md §1.8: validation number at the leading edge and again with
// the barcode, site, machine, date and time, sequence, amount in figures
// and words, type, expiry) top to bottom from the leading edge, with the
// barcode across the middle of the ticket. Field i fills the i-th region:
//
//	'2': edge validation, title, site, address, site/machine line, barcode
//	     digits, validation line, date/time line, ticket line, amount,
//	     amount in words, type, expiry line
//	'F': title, site, site/machine line, date/time line, ticket line,
//	     reason, amount, amount in words, attendant, attendant signature,
//	     player signature, notice
func ResidentTemplates() map[byte]Template {
	return map[byte]Template{
		'2': {ID: '2', Width: printableDots, Length: TicketLengthDots, Regions: []Region{
			txt('a', 16, 24, 1, "2"), // the validation number at the leading edge
			txt('b', 72, 48, 1, "3"),
			txt('c', 150, 24, 1, "2"),
			txt('d', 180, 24, 1, "1"),
			txt('e', 210, 24, 1, "1"),
			// the barcode across the middle of the ticket, the number again under it
			{ID: 'f', Mem: 'F', X: 8, Y: 290, DX: 496, DY: 160, Just: 1, Obj: "l", M1: 2, M2: 5, PrintAttr: '0'},
			txt('g', 470, 24, 1, "2"),
			txt('h', 560, 24, 0, "1"),
			txt('i', 592, 24, 0, "1"),
			txt('j', 680, 48, 1, "3"),
			txt('k', 744, 72, 1, "1"),
			txt('m', 880, 24, 1, "2"),
			txt('n', 916, 24, 1, "1"),
		}},
		'F': {ID: 'F', Width: printableDots, Length: TicketLengthDots, Regions: []Region{
			txt('A', 8, 48, 1, "3"),
			txt('B', 60, 24, 1, "2"),
			txt('C', 86, 24, 1, "1"),
			txt('D', 124, 24, 0, "1"),
			txt('E', 150, 24, 0, "1"),
			txt('F', 176, 24, 0, "1"),
			txt('G', 210, 48, 1, "3"),
			txt('H', 262, 72, 1, "1"),
			txt('I', 340, 24, 0, "1"),
			txt('J', 400, 24, 0, "1"),
			txt('K', 460, 24, 0, "1"),
			txt('L', 510, 48, 1, "2"),
		}},
	}
}

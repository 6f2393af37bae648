package escposemu

import (
	"bytes"
	"image"
	"strings"

	"github.com/polaris-vlt/polaris/drivers/printer/render"
)

// Item is one printed line (text runs, each with its style), a symbol
// (barcode or QR), a bit image, or a feed.
type Item struct {
	Text    string // the line's text, all runs
	Runs    []Run
	Align   byte // 0 left, 1 centre, 2 right
	Bold    bool // every run of the line is bold
	W, H    int  // the largest size multipliers on the line
	Spacing int  // line spacing in force (ESC 3; 0: the font's)
	Feed    int  // dots fed (ESC J, ESC d)
	// Barcode is the data of a symbol (Symbol says which), with the
	// symbol's height, module width and HRI position.
	Barcode string
	Symbol  *Symbol
	Height  int
	Module  int
	HRI     byte
	Image   *image.Gray // GS v 0 / ESC * bit image
}

// Printout is the structured record of one ticket.
type Printout struct {
	Seq               int
	Items             []Item
	Lines             []string // non-empty text lines in order
	Barcodes          []string // data of every symbol printed, in order
	Symbols           []Symbol
	Refused           []string // symbols the printer refused (nothing printed), and why
	ValidationPrinted bool     // an ITF symbol made it to paper
	Cut               bool
	Complete          bool
	Failed            string
	ratio             float64
	paper             Paper
	width             int
}

// Text joins the ticket's text lines.
func (p Printout) Text() string { return strings.Join(p.Lines, "\n") }

// PNG renders the ticket top to bottom as printed, one pixel per dot, in
// a printable area width dots wide (0: the printer's): on ticket paper the
// page is the whole 65 × 156 mm ticket (520 × 1248 dots, the printable
// area centred), on receipt paper as long as what was printed. Text is
// 12×24-dot characters (font B 9×17) scaled by the size multipliers, bold,
// underlined and inverted per run; ITF with the module width sent and
// wide = 3 × narrow; other symbols and QR as their encoders draw them.
func (p Printout) PNG(width int) ([]byte, error) {
	if width <= 0 {
		width = p.width
	}
	if width <= 0 {
		width = 512
	}
	ratio := p.ratio
	if ratio == 0 {
		ratio = 3
	}
	h := 16
	for _, it := range p.Items {
		h += itemHeight(it)
	}
	pageW, pageH := width, h+16
	if p.paper == TicketPaper {
		pageW, pageH = max(TicketWidthDots, width), max(TicketLengthDots, h+16)
	}
	c := render.New(pageW, pageH)
	x0 := (pageW - width) / 2
	y := 8
	for _, it := range p.Items {
		switch {
		case it.Feed > 0:
			y += it.Feed
		case it.Image != nil:
			c.Draw(x0+place(it.Align, width, it.Image.Bounds().Dx()), y, it.Image)
			y += it.Image.Bounds().Dy()
		case it.Symbol != nil && it.Symbol.Type == SymITF || it.Symbol == nil && it.Barcode != "":
			b := render.Bars{Narrow: max(it.Module, 1), Ratio: ratio, Height: max(it.Height, 1), Quiet: 10}
			if it.HRI == 1 || it.HRI == 3 {
				y += hri(c, x0, width, y, it.Barcode)
			}
			w, err := render.ITFWidth(it.Barcode, b)
			if err != nil {
				return nil, err
			}
			if _, err := c.ITF(x0+place(it.Align, width, w), y, it.Barcode, b, render.RotNone); err != nil {
				return nil, err
			}
			y += b.Height
			if it.HRI == 2 || it.HRI == 3 {
				y += hri(c, x0, width, y, it.Barcode)
			}
			y += 8
		case it.Symbol != nil:
			img, err := it.Symbol.bars()
			if err != nil {
				return nil, err
			}
			if it.HRI == 1 || it.HRI == 3 {
				y += hri(c, x0, width, y, it.Barcode)
			}
			c.Draw(x0+place(it.Align, width, img.Bounds().Dx()), y+quietTop(it), img)
			y += img.Bounds().Dy() + quietTop(it)
			if it.HRI == 2 || it.HRI == 3 {
				y += hri(c, x0, width, y, it.Barcode)
			}
			y += 8
		default:
			x := x0 + place(it.Align, width, runsWidth(it.Runs))
			rowH := rowHeightOf(it)
			for _, r := range it.Runs {
				st := render.Style{Scale: 1, Bold: r.Bold}
				cw, ch := 12, 24
				if r.FontB {
					cw, ch = 9, 17
				}
				w := len([]rune(r.Text)) * cw * max(r.W, 1)
				box := image.Rect(x, y+rowH-ch*max(r.H, 1), x+w, y+rowH)
				if r.Invert {
					c.FillRect(box)
				}
				c.TextScaled(box.Min.X, box.Min.Y, r.Text, st, cw, ch, max(r.W, 1), max(r.H, 1), r.Invert)
				if r.Underline {
					c.FillRect(image.Rect(box.Min.X, box.Max.Y-2, box.Max.X, box.Max.Y))
				}
				x += w
			}
			y += rowH
		}
	}
	var out bytes.Buffer
	err := c.PNG(&out)
	return out.Bytes(), err
}

// quietTop leaves room above a 2-D symbol so a reader finds its finder
// patterns clear of the line before.
func quietTop(it Item) int {
	if it.Symbol != nil && it.Symbol.Type == SymQR {
		return 4 * max(it.Module, 1)
	}
	return 0
}

func runsWidth(rs []Run) int {
	w := 0
	for _, r := range rs {
		cw := 12
		if r.FontB {
			cw = 9
		}
		w += len([]rune(r.Text)) * cw * max(r.W, 1)
	}
	return w
}

func rowHeightOf(it Item) int {
	h := 24
	for _, r := range it.Runs {
		ch := 24
		if r.FontB {
			ch = 17
		}
		h = max(h, ch*max(r.H, 1))
	}
	if it.Spacing > h {
		h = it.Spacing
	}
	return h
}

func itemHeight(it Item) int {
	switch {
	case it.Feed > 0:
		return it.Feed
	case it.Image != nil:
		return it.Image.Bounds().Dy()
	case it.Symbol != nil && it.Symbol.Type != SymITF:
		img, err := it.Symbol.bars()
		if err != nil {
			return 0
		}
		h := img.Bounds().Dy() + 8 + quietTop(it)
		if it.HRI == 1 || it.HRI == 2 {
			h += 24
		}
		if it.HRI == 3 {
			h += 48
		}
		return h
	case it.Barcode != "":
		h := it.Height + 8
		if it.HRI != 0 {
			h += 24
		}
		if it.HRI == 3 {
			h += 24
		}
		return h
	}
	return rowHeightOf(it)
}

func hri(c *render.Canvas, x0, width, y int, digits string) int {
	w, h := render.TextSize(digits, render.Style{Scale: 1})
	c.Text(x0+max((width-w)/2, 0), y, digits, render.Style{Scale: 1})
	return h
}

func place(align byte, width, w int) int {
	switch align {
	case 1:
		return max((width-w)/2, 0)
	case 2:
		return max(width-w, 0)
	}
	return 0
}

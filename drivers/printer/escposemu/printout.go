package escposemu

import (
	"bytes"
	"strings"

	"github.com/polaris-vlt/polaris/drivers/printer/render"
)

// Item is one printed line: text with its style, a barcode, or a blank feed.
type Item struct {
	Text  string
	Align byte // 0 left, 1 centre, 2 right
	Bold  bool
	W, H  int // character size multipliers
	// Barcode (ITF) data, with the symbol's height, module width and HRI position.
	Barcode string
	Height  int
	Module  int
	HRI     byte
}

// Printout is the structured record of one ticket.
type Printout struct {
	Seq               int
	Items             []Item
	Lines             []string // non-empty text lines in order
	Barcodes          []string // ITF data
	ValidationPrinted bool     // an ITF symbol made it to paper
	Cut               bool
	Complete          bool
	Failed            string
	ratio             float64
}

// Text joins the ticket's text lines.
func (p Printout) Text() string { return strings.Join(p.Lines, "\n") }

// PNG renders the ticket top to bottom as printed: 12×24-dot characters
// scaled by the size multipliers, ITF symbols with the module width sent
// and wide = 3 × narrow, HRI digits where GS H put them.
func (p Printout) PNG(width int) ([]byte, error) {
	if width <= 0 {
		width = 512
	}
	ratio := p.ratio
	if ratio == 0 {
		ratio = 3
	}
	// first pass: height
	h := 16
	for _, it := range p.Items {
		h += itemHeight(it)
	}
	c := render.New(width, h+16)
	y := 8
	for _, it := range p.Items {
		if it.Barcode != "" {
			b := render.Bars{Narrow: max(it.Module, 1), Ratio: ratio, Height: max(it.Height, 1), Quiet: 10}
			if it.HRI == 1 || it.HRI == 3 {
				y += hri(c, width, y, it.Barcode)
			}
			w, err := render.ITFWidth(it.Barcode, b)
			if err != nil {
				return nil, err
			}
			if _, err := c.ITF(place(it.Align, width, w), y, it.Barcode, b, render.RotNone); err != nil {
				return nil, err
			}
			y += b.Height
			if it.HRI == 2 || it.HRI == 3 {
				y += hri(c, width, y, it.Barcode)
			}
			y += 8
			continue
		}
		st := render.Style{Scale: max(it.W, it.H, 1), Bold: it.Bold}
		if it.Text != "" {
			w, _ := render.TextSize(it.Text, st)
			c.Text(place(it.Align, width, w), y, it.Text, st)
		}
		y += 24 * max(it.H, 1)
	}
	var out bytes.Buffer
	err := c.PNG(&out)
	return out.Bytes(), err
}

func itemHeight(it Item) int {
	if it.Barcode != "" {
		h := it.Height + 8
		if it.HRI != 0 {
			h += 24
		}
		if it.HRI == 3 {
			h += 24
		}
		return h
	}
	return 24 * max(it.H, 1)
}

func hri(c *render.Canvas, width, y int, digits string) int {
	w, h := render.TextSize(digits, render.Style{Scale: 1})
	c.Text((width-w)/2, y, digits, render.Style{Scale: 1})
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

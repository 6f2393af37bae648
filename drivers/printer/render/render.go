// Package render draws printed documents as the paper would look: a
// 203-dpi page of dots with text in Go Mono and real Interleaved 2 of 5
// barcodes (narrow/wide ratio and quiet zones as specified), written out as
// PNG. The printer emulators use it to render what they printed; a barcode
// drawn here must decode with zbarimg to the digits sent.
package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// DPI of thermal ticket printers (TCL geometry: 512 × 1100 dots at 203 dpi).
const DPI = 203

// Rotation of text or a barcode, as TCL regions number it: 0 = right (normal),
// 1 = down, 2 = left (upside down), 3 = up.
type Rotation int

const (
	RotNone Rotation = iota
	RotDown
	RotLeft
	RotUp
)

// Style of a run of text.
type Style struct {
	Scale int // 1 = 12×24-dot cell, 2 = double width and height
	Bold  bool
	Rot   Rotation
}

// Canvas is a white page of printer dots.
type Canvas struct {
	img *image.Gray
}

// New returns a blank page w × h dots.
func New(w, h int) *Canvas {
	c := &Canvas{img: image.NewGray(image.Rect(0, 0, w, h))}
	draw.Draw(c.img, c.img.Bounds(), image.White, image.Point{}, draw.Src)
	return c
}

// Image returns the page.
func (c *Canvas) Image() *image.Gray { return c.img }

// Bounds of the page.
func (c *Canvas) Bounds() image.Rectangle { return c.img.Bounds() }

// PNG writes the page as a PNG.
func (c *Canvas) PNG(w io.Writer) error { return png.Encode(w, c.img) }

// Crop cuts the page to height h (paper cut after the last line).
func (c *Canvas) Crop(h int) {
	if h <= 0 || h >= c.img.Bounds().Dy() {
		return
	}
	c.img = c.img.SubImage(image.Rect(0, 0, c.img.Bounds().Dx(), h)).(*image.Gray)
}

// FillRect blackens r (clipped to the page).
func (c *Canvas) FillRect(r image.Rectangle) {
	draw.Draw(c.img, r.Intersect(c.img.Bounds()), image.Black, image.Point{}, draw.Src)
}

var (
	faceOnce sync.Once
	faces    map[[2]int]font.Face // {scale, bold}
	faceErr  error
)

// cell is the character cell of scale 1 (a 12×24 thermal font).
const cellH = 24

func face(scale int, bold bool) (font.Face, error) {
	faceOnce.Do(func() {
		faces = map[[2]int]font.Face{}
		for b, ttf := range [][]byte{gomono.TTF, gomonobold.TTF} {
			f, err := opentype.Parse(ttf)
			if err != nil {
				faceErr = err
				return
			}
			for s := 1; s <= 4; s++ {
				fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(20 * s), DPI: 72, Hinting: font.HintingFull})
				if err != nil {
					faceErr = err
					return
				}
				faces[[2]int{s, b}] = fc
			}
		}
	})
	if faceErr != nil {
		return nil, faceErr
	}
	if scale < 1 {
		scale = 1
	}
	if scale > 4 {
		scale = 4
	}
	b := 0
	if bold {
		b = 1
	}
	return faces[[2]int{scale, b}], nil
}

// TextSize is the width and height in dots of s in style st, unrotated.
func TextSize(s string, st Style) (w, h int) {
	f, err := face(st.Scale, st.Bold)
	if err != nil {
		return 0, 0
	}
	sc := max(st.Scale, 1)
	return font.MeasureString(f, s).Ceil(), cellH * sc
}

// Text draws s with its unrotated top-left corner at (x, y) and rotated about
// that corner as st.Rot says; it returns the rotated box it covered.
func (c *Canvas) Text(x, y int, s string, st Style) image.Rectangle {
	f, err := face(st.Scale, st.Bold)
	if err != nil {
		return image.Rectangle{}
	}
	w, h := TextSize(s, st)
	if w == 0 {
		return image.Rectangle{}
	}
	tmp := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(tmp, tmp.Bounds(), image.White, image.Point{}, draw.Src)
	m := f.Metrics()
	pad := (fixed.I(h) - m.Height) / 2
	d := &font.Drawer{Dst: tmp, Src: image.Black, Face: f, Dot: fixed.Point26_6{Y: pad + m.Ascent}}
	d.DrawString(s)
	r := rotate(tmp, st.Rot)
	dst := r.Bounds().Add(image.Pt(x, y))
	c.blit(r, dst)
	return dst
}

// TextScaled draws s in character cells cw × ch dots (the printer's font,
// 12 × 24 for font A), each stretched sw × sh times, its top-left corner
// at (x, y). Inverted text is white on the black the caller laid down.
func (c *Canvas) TextScaled(x, y int, s string, st Style, cw, ch, sw, sh int, invert bool) image.Rectangle {
	n := len([]rune(s))
	if n == 0 {
		return image.Rectangle{}
	}
	st.Scale, st.Rot = 1, RotNone
	f, err := face(1, st.Bold)
	if err != nil {
		return image.Rectangle{}
	}
	// draw at the face's own cell, one character per 12 × 24 cell
	src := image.NewGray(image.Rect(0, 0, n*12, cellH))
	draw.Draw(src, src.Bounds(), image.White, image.Point{}, draw.Src)
	m := f.Metrics()
	pad := (fixed.I(cellH) - m.Height) / 2
	for i, r := range []rune(s) {
		d := &font.Drawer{Dst: src, Src: image.Black, Face: f, Dot: fixed.Point26_6{X: fixed.I(i * 12), Y: pad + m.Ascent}}
		d.DrawString(string(r))
	}
	dst := image.Rect(x, y, x+n*cw*sw, y+ch*sh)
	clip := dst.Intersect(c.img.Bounds())
	for py := clip.Min.Y; py < clip.Max.Y; py++ {
		sy := (py - y) * cellH / (ch * sh)
		for px := clip.Min.X; px < clip.Max.X; px++ {
			cell, in := (px-x)/(cw*sw), (px-x)%(cw*sw)
			sx := cell*12 + in*12/(cw*sw)
			v := src.GrayAt(sx, sy).Y
			switch {
			case invert && v < 128:
				c.img.SetGray(px, py, color.Gray{Y: 0xff})
			case !invert && v < c.img.GrayAt(px, py).Y:
				c.img.SetGray(px, py, color.Gray{Y: v})
			}
		}
	}
	return dst
}

// Draw prints img (dark pixels are ink) with its top-left corner at (x, y).
func (c *Canvas) Draw(x, y int, img image.Image) {
	b := img.Bounds()
	dst := image.Rect(x, y, x+b.Dx(), y+b.Dy()).Intersect(c.img.Bounds())
	for py := dst.Min.Y; py < dst.Max.Y; py++ {
		for px := dst.Min.X; px < dst.Max.X; px++ {
			if g := color.GrayModel.Convert(img.At(b.Min.X+px-x, b.Min.Y+py-y)).(color.Gray); g.Y < 128 {
				c.img.SetGray(px, py, color.Gray{})
			}
		}
	}
}

// blit darkens the page under src (printing only adds ink).
func (c *Canvas) blit(src *image.Gray, dst image.Rectangle) {
	clip := dst.Intersect(c.img.Bounds())
	for py := clip.Min.Y; py < clip.Max.Y; py++ {
		for px := clip.Min.X; px < clip.Max.X; px++ {
			v := src.GrayAt(px-dst.Min.X, py-dst.Min.Y).Y
			if v < c.img.GrayAt(px, py).Y {
				c.img.SetGray(px, py, color.Gray{Y: v})
			}
		}
	}
}

func rotate(src *image.Gray, r Rotation) *image.Gray {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	var out *image.Gray
	switch r {
	case RotDown: // 90° clockwise: text runs downward
		out = image.NewGray(image.Rect(0, 0, h, w))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				out.SetGray(h-1-y, x, src.GrayAt(x, y))
			}
		}
	case RotLeft:
		out = image.NewGray(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				out.SetGray(w-1-x, h-1-y, src.GrayAt(x, y))
			}
		}
	case RotUp: // 90° anticlockwise: text runs upward
		out = image.NewGray(image.Rect(0, 0, h, w))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				out.SetGray(y, w-1-x, src.GrayAt(x, y))
			}
		}
	default:
		return src
	}
	return out
}

// ---- Interleaved 2 of 5 ----

// itfDigit holds each digit's five elements, 1 = wide.
var itfDigit = [10][5]byte{
	{0, 0, 1, 1, 0}, {1, 0, 0, 0, 1}, {0, 1, 0, 0, 1}, {1, 1, 0, 0, 0}, {0, 0, 1, 0, 1},
	{1, 0, 1, 0, 0}, {0, 1, 1, 0, 0}, {0, 0, 0, 1, 1}, {1, 0, 0, 1, 0}, {0, 1, 0, 1, 0},
}

// ErrITF is returned for data Interleaved 2 of 5 cannot carry.
var ErrITF = errors.New("render: Interleaved 2 of 5 needs an even, non-zero number of digits")

// Bars describes an ITF symbol's geometry in dots.
type Bars struct {
	Narrow int // narrow element width (module)
	Ratio  float64
	Height int
	Quiet  int // quiet zone each side, in narrow modules (≥ 10)
}

// DefaultBars is a ticket barcode: 2-dot modules, wide = 3 × narrow, 10-module
// quiet zones, 80 dots high (the ESC/POS example in protocols.md §3.6).
var DefaultBars = Bars{Narrow: 2, Ratio: 3, Height: 80, Quiet: 10}

func (b Bars) norm() Bars {
	if b.Narrow < 1 {
		b.Narrow = 1
	}
	if b.Ratio < 2 {
		b.Ratio = 2
	}
	if b.Ratio > 3 {
		b.Ratio = 3
	}
	if b.Height < 1 {
		b.Height = 1
	}
	if b.Quiet < 10 {
		b.Quiet = 10
	}
	return b
}

func (b Bars) wide() int { return int(float64(b.Narrow)*b.Ratio + 0.5) }

// ITFElements returns the element widths (bar, space, bar, … ; in dots) of
// digits, start and stop patterns included, quiet zones excluded.
func ITFElements(digits string, b Bars) ([]int, error) {
	if len(digits) == 0 || len(digits)%2 != 0 {
		return nil, ErrITF
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return nil, fmt.Errorf("%w: %q is not a digit", ErrITF, digits[i])
		}
	}
	b = b.norm()
	n, w := b.Narrow, b.wide()
	el := []int{n, n, n, n} // start: narrow bar, space, bar, space
	for i := 0; i < len(digits); i += 2 {
		bars, spaces := itfDigit[digits[i]-'0'], itfDigit[digits[i+1]-'0']
		for k := 0; k < 5; k++ {
			el = append(el, pick(bars[k], n, w), pick(spaces[k], n, w))
		}
	}
	el = append(el, w, n, n) // stop: wide bar, space, narrow bar
	return el, nil
}

func pick(wide byte, n, w int) int {
	if wide == 1 {
		return w
	}
	return n
}

// ITFWidth is the symbol's width including both quiet zones.
func ITFWidth(digits string, b Bars) (int, error) {
	el, err := ITFElements(digits, b)
	if err != nil {
		return 0, err
	}
	b = b.norm()
	t := 2 * b.Quiet * b.Narrow
	for _, e := range el {
		t += e
	}
	return t, nil
}

// ITF draws digits as an Interleaved 2 of 5 symbol whose box (quiet zones
// included) has its top-left at (x, y); bars run across the page for RotNone
// and RotLeft, along it for RotDown and RotUp. It refuses a symbol that would
// not fit on the page rather than print a truncated one.
func (c *Canvas) ITF(x, y int, digits string, b Bars, rot Rotation) (image.Rectangle, error) {
	el, err := ITFElements(digits, b)
	if err != nil {
		return image.Rectangle{}, err
	}
	b = b.norm()
	total, _ := ITFWidth(digits, b)
	vertical := rot == RotDown || rot == RotUp
	box := image.Rect(x, y, x+total, y+b.Height)
	if vertical {
		box = image.Rect(x, y, x+b.Height, y+total)
	}
	if !box.In(c.img.Bounds()) {
		return box, fmt.Errorf("render: barcode box %v does not fit the page %v", box, c.img.Bounds())
	}
	if rot == RotLeft || rot == RotUp { // drawn back to front: the symbol reads from its own start
		for i, j := 0, len(el)-1; i < j; i, j = i+1, j-1 {
			el[i], el[j] = el[j], el[i]
		}
	}
	draw.Draw(c.img, box, image.White, image.Point{}, draw.Src) // quiet zones are blank paper
	pos := b.Quiet * b.Narrow
	for i, e := range el {
		if i%2 == 0 {
			if vertical {
				c.FillRect(image.Rect(x, y+pos, x+b.Height, y+pos+e))
			} else {
				c.FillRect(image.Rect(x+pos, y, x+pos+e, y+b.Height))
			}
		}
		pos += e
	}
	return box, nil
}

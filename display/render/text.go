package render

import (
	"image"
	"image/draw"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"github.com/polaris-vlt/polaris/display/art"
)

// Font is a face with a glyph cache: a rune is rasterised once, on first
// use, and drawn from its mask afterwards, so text costs no allocation in
// steady state.
type Font struct {
	face    font.Face
	glyphs  map[rune]*glyph
	Ascent  int
	Height  int
	missing *glyph
}

type glyph struct {
	mask *image.Alpha
	off  image.Point // mask origin relative to the pen on the baseline
	adv  int
}

// NewFont makes a cached font of tf at px pixels.
func NewFont(tf art.Typeface, px float64) *Font {
	f := &Font{face: art.Face(tf, px), glyphs: map[rune]*glyph{}}
	m := f.face.Metrics()
	f.Ascent = m.Ascent.Ceil()
	f.Height = m.Ascent.Ceil() + m.Descent.Ceil()
	f.missing = f.load('?')
	return f
}

func (f *Font) load(r rune) *glyph {
	dr, mask, mp, adv, ok := f.face.Glyph(fixed.Point26_6{}, r)
	if !ok {
		return nil
	}
	g := &glyph{off: dr.Min, adv: adv.Round()}
	if !dr.Empty() {
		g.mask = image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(g.mask, g.mask.Bounds(), mask, mp, draw.Src)
	}
	return g
}

func (f *Font) glyph(r rune) *glyph {
	if r == '\u00a0' {
		r = ' '
	}
	g, ok := f.glyphs[r]
	if !ok {
		g = f.load(r)
		if g == nil {
			g = f.missing
		}
		f.glyphs[r] = g
	}
	return g
}

// Width of s in pixels.
func (f *Font) Width(s string) int {
	w := 0
	for _, r := range s {
		w += f.glyph(r).adv
	}
	return w
}

// WidthB is Width of a byte slice.
func (f *Font) WidthB(b []byte) int {
	w := 0
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		w += f.glyph(r).adv
	}
	return w
}

// Align places text relative to its x.
type Align int

const (
	Left Align = iota
	Center
	Right
)

func (f *Font) drawRune(dst *image.RGBA, r rune, x, base int, src *image.Uniform) int {
	g := f.glyph(r)
	if g.mask != nil {
		p := image.Pt(x, base).Add(g.off)
		draw.DrawMask(dst, g.mask.Bounds().Add(p), src, image.Point{}, g.mask, image.Point{}, draw.Over)
	}
	return g.adv
}

// Draw draws s with its line box's top at y and returns its width.
func (f *Font) Draw(dst *image.RGBA, s string, x, y int, a Align, src *image.Uniform) int {
	w := f.Width(s)
	x = alignX(x, w, a)
	base := y + f.Ascent
	for _, r := range s {
		x += f.drawRune(dst, r, x, base, src)
	}
	return w
}

// DrawB is Draw of a byte slice.
func (f *Font) DrawB(dst *image.RGBA, b []byte, x, y int, a Align, src *image.Uniform) int {
	w := f.WidthB(b)
	x = alignX(x, w, a)
	base := y + f.Ascent
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		x += f.drawRune(dst, r, x, base, src)
	}
	return w
}

// DrawFit draws s no wider than max, cutting it with an ellipsis.
func (f *Font) DrawFit(dst *image.RGBA, s string, x, y, max int, a Align, src *image.Uniform) {
	if f.Width(s) <= max {
		f.Draw(dst, s, x, y, a, src)
		return
	}
	ell := f.glyph('…').adv
	w, end := 0, 0
	for i, r := range s {
		adv := f.glyph(r).adv
		if w+adv+ell > max {
			end = i
			break
		}
		w += adv
	}
	f.Draw(dst, s[:end], x, y, Left, src)
	f.drawRune(dst, '…', x+w, y+f.Ascent, src)
}

func alignX(x, w int, a Align) int {
	switch a {
	case Center:
		return x - w/2
	case Right:
		return x - w
	}
	return x
}

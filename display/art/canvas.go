package art

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// canvas draws filled vector shapes in a 100×100 design square centred in
// the image, so one drawing serves every cell size.
type canvas struct {
	img    *image.RGBA
	z      *vector.Rasterizer
	s      float32 // pixels per design unit
	ox, oy float32 // where design (0,0) lands
}

func newCanvas(img *image.RGBA) *canvas {
	b := img.Bounds()
	w, h := float32(b.Dx()), float32(b.Dy())
	s := min(w, h) / 100
	return &canvas{img: img, z: vector.NewRasterizer(b.Dx(), b.Dy()), s: s, ox: (w - 100*s) / 2, oy: (h - 100*s) / 2}
}

func (c *canvas) p(x, y float32) (float32, float32) { return c.ox + x*c.s, c.oy + y*c.s }

// poly fills a polygon given as x, y pairs in design units. It rasterises
// only the polygon's bounding box: a full-image pass per shape made start-up
// slow.
func (c *canvas) poly(col color.Color, xy ...float32) {
	minX, minY := float32(math.MaxFloat32), float32(math.MaxFloat32)
	maxX, maxY := -minX, -minY
	for i := 0; i+1 < len(xy); i += 2 {
		x, y := c.p(xy[i], xy[i+1])
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	ib := c.img.Bounds()
	box := image.Rect(int(minX)-2, int(minY)-2, int(maxX)+3, int(maxY)+3).Add(ib.Min).Intersect(ib)
	if box.Empty() {
		return
	}
	dx, dy := float32(box.Min.X-ib.Min.X), float32(box.Min.Y-ib.Min.Y)
	c.z.Reset(box.Dx(), box.Dy())
	x, y := c.p(xy[0], xy[1])
	c.z.MoveTo(x-dx, y-dy)
	for i := 2; i+1 < len(xy); i += 2 {
		x, y := c.p(xy[i], xy[i+1])
		c.z.LineTo(x-dx, y-dy)
	}
	c.z.ClosePath()
	c.z.DrawOp = draw.Over
	c.z.Draw(c.img, box, image.NewUniform(col), image.Point{})
}

// ellipse fills an ellipse rotated by rot radians.
func (c *canvas) ellipse(col color.Color, cx, cy, rx, ry, rot float32) {
	const n = 64
	xy := make([]float32, 0, 2*n)
	sr, cr := math.Sincos(float64(rot))
	for i := range n {
		a := 2 * math.Pi * float64(i) / n
		x, y := float64(rx)*math.Cos(a), float64(ry)*math.Sin(a)
		xy = append(xy, cx+float32(x*cr-y*sr), cy+float32(x*sr+y*cr))
	}
	c.poly(col, xy...)
}

func (c *canvas) circle(col color.Color, cx, cy, r float32) { c.ellipse(col, cx, cy, r, r, 0) }

// star fills an n-pointed star, first point straight up.
func (c *canvas) star(col color.Color, cx, cy, outer, inner float32, n int) {
	xy := make([]float32, 0, 4*n)
	for i := range 2 * n {
		r := outer
		if i%2 == 1 {
			r = inner
		}
		a := -math.Pi/2 + math.Pi*float64(i)/float64(n)
		xy = append(xy, cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
	}
	c.poly(col, xy...)
}

// line fills a thick segment with round ends.
func (c *canvas) line(col color.Color, x1, y1, x2, y2, w float32) {
	dx, dy := x2-x1, y2-y1
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	nx, ny := -dy/l*w/2, dx/l*w/2
	c.poly(col, x1+nx, y1+ny, x2+nx, y2+ny, x2-nx, y2-ny, x1-nx, y1-ny)
	c.circle(col, x1, y1, w/2)
	c.circle(col, x2, y2, w/2)
}

// rect fills a rectangle with rounded corners of radius r.
func (c *canvas) rect(col color.Color, x, y, w, h, r float32) {
	const n = 8
	xy := make([]float32, 0, 8*(n+1))
	corner := func(cx, cy float32, a0 float64) {
		for i := 0; i <= n; i++ {
			a := a0 + math.Pi/2*float64(i)/n
			xy = append(xy, cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
		}
	}
	corner(x+w-r, y+r, -math.Pi/2)
	corner(x+w-r, y+h-r, 0)
	corner(x+r, y+h-r, math.Pi/2)
	corner(x+r, y+r, math.Pi)
	c.poly(col, xy...)
}

// text draws s centred on (cx, cy) in design units with face, outlined.
func (c *canvas) text(col, outline color.Color, face font.Face, s string, cx, cy float32) {
	w := font.MeasureString(face, s).Ceil()
	m := face.Metrics()
	x, y := c.p(cx, cy)
	dot := fixed.P(int(x)-w/2, int(y)+(m.Ascent.Ceil()-m.Descent.Ceil())/2)
	d := &font.Drawer{Dst: c.img, Face: face}
	if outline != nil {
		d.Src = image.NewUniform(outline)
		k := max(2, int(c.s*1.2))
		for _, o := range [][2]int{{-k, 0}, {k, 0}, {0, -k}, {0, k}, {-k, -k}, {k, k}, {-k, k}, {k, -k}} {
			d.Dot = dot.Add(fixed.P(o[0], o[1]))
			d.DrawString(s)
		}
	}
	d.Src = image.NewUniform(col)
	d.Dot = dot
	d.DrawString(s)
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }

package art

import (
	"image"
	"image/color"

	"github.com/polaris-vlt/polaris/engine"
)

// pixelCanvas draws in pixel units.
func pixelCanvas(img *image.RGBA) *canvas {
	c := newCanvas(img)
	c.s, c.ox, c.oy = 1, 0, 0
	return c
}

// Suit draws a card suit (0 hearts, 1 diamonds, 2 clubs, 3 spades) on a
// transparent size×size image.
func Suit(suit, size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	c := newCanvas(img)
	col := rgb(210, 20, 40)
	if suit >= 2 {
		col = rgb(20, 20, 25)
	}
	switch suit {
	case 0:
		c.circle(col, 30, 34, 22)
		c.circle(col, 70, 34, 22)
		c.poly(col, 10, 42, 90, 42, 50, 92)
	case 1:
		c.poly(col, 50, 4, 86, 50, 50, 96, 14, 50)
	case 2:
		c.circle(col, 50, 28, 20)
		c.circle(col, 28, 58, 20)
		c.circle(col, 72, 58, 20)
		c.poly(col, 44, 50, 56, 50, 64, 94, 36, 94)
	case 3:
		c.circle(col, 30, 58, 22)
		c.circle(col, 70, 58, 22)
		c.poly(col, 10, 52, 90, 52, 50, 6)
		c.poly(col, 44, 60, 56, 60, 64, 96, 36, 96)
	}
	return img
}

// Card is a blank card face (white) or back (patterned) of w×h.
func Card(w, h int, back bool) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	c := pixelCanvas(img)
	r := float32(w) / 10
	c.rect(rgb(30, 30, 30), 0, 0, float32(w), float32(h), r)
	if !back {
		c.rect(rgb(250, 250, 245), 3, 3, float32(w-6), float32(h-6), r)
		return img
	}
	c.rect(rgb(240, 240, 240), 3, 3, float32(w-6), float32(h-6), r)
	c.rect(rgb(30, 60, 150), 14, 14, float32(w-28), float32(h-28), r/2)
	for y := 30; y < h-20; y += 34 {
		for x := 30; x < w-20; x += 34 {
			c.star(rgb(255, 205, 40), float32(x), float32(y), 10, 4, 5)
		}
	}
	return img
}

// StarLamp is one of Magic Stars' three stars above the reels (MS-11), lit
// or dark, on a transparent size×size image.
func StarLamp(size int, lit bool) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	c := newCanvas(img)
	if lit {
		c.circle(color.RGBA{90, 78, 20, 90}, 50, 52, 50)
		c.star(rgb(255, 250, 200), 50, 52, 48, 21, 5)
		c.star(gold, 50, 52, 42, 18, 5)
	} else {
		c.star(rgb(70, 70, 90), 50, 52, 48, 21, 5)
		c.star(rgb(35, 35, 50), 50, 52, 42, 18, 5)
	}
	return img
}

// Badge is the small star marking a star-carrying Magic Stars cell.
func Badge(size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	c := newCanvas(img)
	c.star(rgb(40, 20, 0), 50, 52, 50, 22, 5)
	c.star(rgb(255, 225, 60), 50, 52, 42, 18, 5)
	return img
}

// Disc is a lamp: a filled circle with a highlight on a transparent image.
func Disc(size int, col color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	c := newCanvas(img)
	c.circle(rgb(20, 20, 20), 50, 50, 50)
	c.circle(col, 50, 50, 44)
	c.circle(color.RGBA{90, 90, 90, 90}, 38, 36, 14)
	return img
}

// Polyline draws a thick translucent line through pts on a transparent w×h
// image (Magic Stars' win lines).
func Polyline(w, h int, pts []image.Point, width float32, col color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	c := pixelCanvas(img)
	for i := 0; i+1 < len(pts); i++ {
		c.line(col, float32(pts[i].X), float32(pts[i].Y), float32(pts[i+1].X), float32(pts[i+1].Y), width)
	}
	return img
}

// backdrops are each game's gradient, top and bottom.
var backdrops = map[engine.GameID][2]color.RGBA{
	engine.WishStar:   {rgb(6, 24, 48), rgb(10, 60, 50)},
	engine.MagicStars: {rgb(30, 6, 50), rgb(70, 10, 40)},
}

// Background is a game's backdrop, w×h: a vertical gradient in the game's
// colours with a fixed field of small stars (seeded, so reproducible).
func Background(game string, w, h int) *image.RGBA {
	top, bot := rgb(8, 10, 40), rgb(40, 10, 60)
	if c, ok := backdrops[engine.GameID(game)]; ok {
		top, bot = c[0], c[1]
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		t := float64(y) / float64(h-1)
		col := color.RGBA{
			uint8(float64(top.R)*(1-t) + float64(bot.R)*t),
			uint8(float64(top.G)*(1-t) + float64(bot.G)*t),
			uint8(float64(top.B)*(1-t) + float64(bot.B)*t), 255}
		for x := range w {
			img.SetRGBA(x, y, col)
		}
	}
	rng := starField(uint64(len(game)))
	for range 140 {
		x, y := rng.float32()*float32(w), rng.float32()*float32(h)
		r := 1 + rng.float32()*3
		a := uint8(60 + rng.intN(140))
		// a small canvas around the star: rasterising over the whole
		// backdrop per star would cost a full-screen pass each
		box := image.Rect(int(x)-12, int(y)-12, int(x)+12, int(y)+12).Intersect(img.Bounds())
		if box.Empty() {
			continue
		}
		c := pixelCanvas(img.SubImage(box).(*image.RGBA))
		c.star(color.RGBA{a, a, a, a}, x-float32(box.Min.X), y-float32(box.Min.Y), r*2, r*0.8, 4)
	}
	return img
}

// starField is the fixed pattern of a backdrop's stars: splitmix64 over a
// seed, so every start draws the same sky. It is a pattern, not a random
// source: the cabinet binary imports none (check 30).
type starField uint64

func (s *starField) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// float32 is in [0, 1).
func (s *starField) float32() float32 { return float32(s.next()>>40) / (1 << 24) }

// intN is in [0, n); the modulo bias of a 64-bit word over n < 2^8 does not
// show in a star's brightness.
func (s *starField) intN(n int) int { return int(s.next() % uint64(n)) }

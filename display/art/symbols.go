package art

import (
	"image"
	"image/color"
	"strconv"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/wishstar"
)

// A symbol sprite is an opaque plate in the symbol's key colour with the
// drawing on it. The plate colour is distinct per symbol within a game, so
// a test (or a technician's photo) can tell a cell's symbol from the plate
// at KeyPoint alone.

// plates are each game's plate colours by symbol.
var plates = map[engine.GameID]map[engine.Symbol]color.RGBA{
	engine.WishStar: {
		wishstar.Ten: rgb(40, 70, 150), wishstar.J: rgb(30, 120, 70), wishstar.Q: rgb(130, 40, 120),
		wishstar.K: rgb(150, 60, 30), wishstar.A: rgb(30, 110, 130), wishstar.Bell: rgb(110, 80, 20),
		wishstar.Cane: rgb(70, 90, 110), wishstar.Candle: rgb(60, 30, 90), wishstar.Tree: rgb(15, 55, 30),
		wishstar.Elf: rgb(120, 20, 40), wishstar.Bonus: rgb(20, 35, 80), wishstar.Wild: rgb(170, 125, 0),
		wishstar.Star: rgb(8, 8, 36), wishstar.Blank: rgb(34, 34, 34),
	},
	engine.MagicStars: {
		magicstars.Star: rgb(25, 25, 90), magicstars.Melon: rgb(15, 60, 70), magicstars.Grape: rgb(95, 45, 120),
		magicstars.Plum: rgb(30, 80, 120), magicstars.Orange: rgb(130, 70, 10), magicstars.Raspberry: rgb(140, 30, 80),
		magicstars.Cherry: rgb(110, 15, 15), magicstars.Lemon: rgb(100, 100, 20),
	},
}

// drawings draw each game's symbols on a plate.
var drawings = map[engine.GameID]func(*canvas, engine.Symbol){
	engine.WishStar:   drawWS,
	engine.MagicStars: drawMS,
}

// Symbols lists a game's symbols that can stand in a cell (its
// engine.Layout's); none for an unknown game.
func Symbols(g engine.GameID) []engine.Symbol {
	l, _ := engine.LayoutOf(g)
	return l.Symbols
}

// Key is the plate colour of a game's symbol; ok is false for an unknown one.
func Key(g engine.GameID, s engine.Symbol) (color.RGBA, bool) {
	c, ok := plates[g][s]
	return c, ok
}

// KeyPoint is where in a w×h sprite the plate shows undisturbed: left of the
// drawing, a quarter down (clear of Magic Stars' win lines), inside any
// highlight frame.
func KeyPoint(w, h int) image.Point { return image.Pt(14, h/4) }

// Name is the symbol's name for tests and the art sheet (the engine's).
func Name(g engine.GameID, s engine.Symbol) string {
	l, _ := engine.LayoutOf(g)
	if n, ok := l.Names[s]; ok {
		return n
	}
	return "SYMBOL(" + strconv.Itoa(int(s)) + ")"
}

// Symbol draws a game's symbol as a w×h sprite.
func Symbol(g engine.GameID, s engine.Symbol, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	plate, ok := Key(g, s)
	if !ok {
		plate = rgb(255, 0, 255) // visible, never a silent blank
	}
	c := newCanvas(img)
	// the plate is the whole sprite, drawn in pixel space
	pc := &canvas{img: img, z: c.z, s: 1}
	pc.rect(rgb(10, 10, 18), 0, 0, float32(w), float32(h), 0)
	pc.rect(plate, 2, 2, float32(w-4), float32(h-4), float32(min(w, h))/12)
	if draw, ok := drawings[g]; ok {
		draw(c, s)
	}
	return img
}

var (
	gold      = rgb(255, 205, 40)
	goldDark  = rgb(170, 110, 10)
	white     = rgb(250, 250, 250)
	black     = rgb(15, 15, 20)
	green     = rgb(40, 160, 60)
	greenDark = rgb(20, 90, 35)
	brown     = rgb(110, 65, 25)
	red       = rgb(215, 30, 40)
)

func drawMS(c *canvas, s engine.Symbol) {
	switch s {
	case magicstars.Star:
		c.star(goldDark, 50, 52, 44, 19, 5)
		c.star(gold, 50, 52, 38, 16, 5)
		c.star(rgb(255, 245, 180), 46, 46, 12, 5, 5)
	case magicstars.Melon:
		c.ellipse(rgb(190, 230, 110), 50, 52, 42, 34, -0.3)
		c.ellipse(rgb(70, 170, 60), 50, 52, 39, 31, -0.3)
		for i := range 5 {
			x := float32(22 + i*14)
			c.line(greenDark, x, 30+float32(i%2)*4, x+6, 76-float32(i%2)*4, 5)
		}
		c.ellipse(rgb(255, 255, 255), 34, 38, 6, 3, -0.5)
	case magicstars.Grape:
		c.line(brown, 50, 8, 50, 22, 4)
		c.ellipse(green, 64, 16, 14, 7, 0.4)
		for row := range 4 {
			n := 4 - row
			for i := range n {
				x := 50 - float32(n-1)*9 + float32(i)*18
				y := 30 + float32(row)*16
				c.circle(rgb(60, 20, 90), x, y, 10)
				c.circle(rgb(150, 90, 200), x-3, y-3, 4)
			}
		}
	case magicstars.Plum:
		c.line(brown, 52, 10, 50, 24, 4)
		c.ellipse(green, 64, 18, 13, 6, -0.4)
		c.ellipse(rgb(70, 30, 110), 50, 56, 33, 36, 0)
		c.line(rgb(45, 15, 75), 50, 24, 46, 90, 3)
		c.ellipse(rgb(170, 130, 220), 36, 44, 6, 10, 0.3)
	case magicstars.Orange:
		c.circle(rgb(240, 130, 20), 50, 54, 38)
		c.circle(rgb(255, 175, 70), 40, 44, 10)
		c.ellipse(green, 58, 16, 14, 7, -0.3)
		c.circle(greenDark, 50, 18, 3)
	case magicstars.Raspberry:
		c.ellipse(green, 40, 16, 12, 6, 0.3)
		c.ellipse(green, 60, 16, 12, 6, -0.3)
		for row := range 5 {
			n := 5 - row/2
			if row == 4 {
				n = 2
			}
			for i := range n {
				x := 50 - float32(n-1)*7 + float32(i)*14
				y := 28 + float32(row)*13
				c.circle(rgb(200, 20, 70), x, y, 8)
				c.circle(rgb(255, 120, 150), x-2, y-2, 3)
			}
		}
	case magicstars.Cherry:
		c.line(rgb(60, 120, 30), 32, 64, 54, 14, 4)
		c.line(rgb(60, 120, 30), 68, 62, 54, 14, 4)
		c.ellipse(green, 66, 14, 14, 6, 0.2)
		c.circle(red, 30, 68, 20)
		c.circle(red, 68, 66, 20)
		c.circle(rgb(255, 150, 150), 24, 62, 5)
		c.circle(rgb(255, 150, 150), 62, 60, 5)
	case magicstars.Lemon:
		c.ellipse(rgb(250, 225, 40), 50, 52, 42, 30, -0.25)
		c.ellipse(rgb(250, 225, 40), 88, 42, 8, 6, -0.25)
		c.ellipse(rgb(250, 225, 40), 12, 62, 8, 6, -0.25)
		c.ellipse(rgb(255, 250, 170), 38, 42, 12, 6, -0.25)
	}
}

func drawWS(c *canvas, s engine.Symbol) {
	letter := func(t string, col color.RGBA) {
		f := Face(Bold, float64(c.s*62))
		defer f.Close()
		c.text(col, black, f, t, 50, 52)
	}
	label := func(t string, y float32) {
		f := Face(Bold, float64(c.s*17))
		defer f.Close()
		c.text(white, black, f, t, 50, y)
	}
	switch s {
	case wishstar.Ten:
		letter("10", rgb(140, 190, 255))
	case wishstar.J:
		letter("J", rgb(140, 255, 170))
	case wishstar.Q:
		letter("Q", rgb(255, 150, 240))
	case wishstar.K:
		letter("K", rgb(255, 190, 120))
	case wishstar.A:
		letter("A", rgb(150, 240, 255))
	case wishstar.Bell:
		c.circle(goldDark, 50, 16, 6)
		c.poly(gold, 50, 18, 64, 24, 70, 44, 74, 68, 88, 80, 12, 80, 26, 68, 30, 44, 36, 24)
		c.rect(goldDark, 12, 78, 76, 8, 3)
		c.circle(goldDark, 50, 90, 7)
		c.ellipse(rgb(255, 240, 160), 40, 40, 4, 12, 0.2)
	case wishstar.Cane:
		// the hook: alternating red and white segments along a path
		pts := [][2]float32{{34, 92}, {34, 76}, {34, 60}, {34, 44}, {34, 32}, {38, 20}, {48, 12}, {60, 12}, {70, 18}, {74, 30}}
		for i := 0; i+1 < len(pts); i++ {
			col := white
			if i%2 == 0 {
				col = red
			}
			c.line(col, pts[i][0], pts[i][1], pts[i+1][0], pts[i+1][1], 13)
		}
	case wishstar.Candle:
		for i, x := range []float32{28, 50, 72} {
			h := float32(40 + 10*(1-i%2*1))
			top := 90 - h
			c.rect(rgb(240, 235, 220), x-8, top, 16, h, 3)
			c.rect(red, x-8, top+8, 16, 5, 0)
			c.line(black, x, top, x, top-5, 2)
			c.ellipse(rgb(255, 160, 20), x, top-12, 6, 10, 0)
			c.ellipse(rgb(255, 240, 120), x, top-10, 3, 6, 0)
		}
	case wishstar.Tree:
		c.rect(brown, 43, 78, 14, 14, 2)
		c.poly(rgb(30, 150, 60), 50, 40, 84, 80, 16, 80)
		c.poly(rgb(35, 165, 70), 50, 26, 76, 60, 24, 60)
		c.poly(rgb(45, 180, 80), 50, 12, 68, 40, 32, 40)
		c.star(gold, 50, 12, 10, 4, 5)
		for _, b := range [][2]float32{{40, 50}, {60, 56}, {34, 72}, {58, 72}, {48, 34}} {
			c.circle(red, b[0], b[1], 3.5)
		}
	case wishstar.Elf:
		c.poly(rgb(240, 200, 170), 20, 46, 8, 34, 24, 56)  // ear
		c.poly(rgb(240, 200, 170), 80, 46, 92, 34, 76, 56) // ear
		c.circle(rgb(250, 215, 185), 50, 58, 28)
		c.poly(rgb(30, 150, 60), 22, 44, 78, 44, 66, 22, 50, 6, 34, 22)
		c.circle(white, 50, 6, 6)
		c.rect(white, 20, 40, 60, 9, 4)
		c.circle(black, 40, 58, 4)
		c.circle(black, 60, 58, 4)
		c.circle(rgb(235, 120, 120), 50, 66, 4)
		c.line(rgb(160, 40, 40), 40, 74, 60, 74, 3)
	case wishstar.Wild:
		c.rect(red, 16, 36, 68, 52, 4)
		c.rect(rgb(230, 40, 50), 12, 28, 76, 14, 4)
		c.rect(gold, 45, 28, 10, 60, 0)
		c.ellipse(gold, 38, 22, 12, 7, 0.4)
		c.ellipse(gold, 62, 22, 12, 7, -0.4)
		c.circle(goldDark, 50, 25, 5)
		label("WILD", 64)
	case wishstar.Bonus:
		c.circle(rgb(60, 110, 230), 50, 50, 38)
		c.circle(rgb(120, 170, 255), 50, 50, 30)
		c.star(white, 50, 46, 20, 8, 4)
		label("BONUS", 76)
	case wishstar.Star:
		c.star(rgb(255, 255, 210), 50, 50, 47, 20, 5)
		c.star(gold, 50, 50, 40, 17, 5)
		c.star(rgb(255, 160, 20), 50, 52, 20, 9, 5)
	case wishstar.Blank:
	}
}

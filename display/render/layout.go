package render

import (
	"image"

	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The screen is laid out on a fixed 1920×1080 canvas.
const (
	W = 1920
	H = 1080
)

// Layout of one game's screen: the window the engine states (Game), in
// the cells the display draws it with.
type Layout struct {
	Reels, Rows  int
	CellW, CellH int
	Gap          int
	Origin       image.Point // top-left of reel 0, row 0
	// Game is the engine's layout: what the screen shows and which
	// features it draws.
	Game engine.Layout
}

// cellSizes are each game's cell, art chosen per game; a game without one
// is drawn in the widest that fits five reels.
var cellSizes = map[engine.GameID]image.Point{
	engine.WishStar:   {260, 190},
	engine.MagicStars: {300, 190},
}

// layouts are built once, after the games registered (init order: the
// game packages render imports come first).
var layouts = func() map[engine.GameID]Layout {
	m := map[engine.GameID]Layout{}
	for _, g := range engine.Games() {
		el, ok := engine.LayoutOf(g.ID())
		if !ok {
			continue
		}
		cell, ok := cellSizes[g.ID()]
		if !ok {
			cell = cellSizes[engine.WishStar]
		}
		const gap = 12
		m[g.ID()] = Layout{Reels: el.Reels, Rows: el.Rows, CellW: cell.X, CellH: cell.Y, Gap: gap,
			Origin: image.Pt((W-(el.Reels*cell.X+(el.Reels-1)*gap))/2, 238), Game: el}
	}
	return m
}()

// LayoutOf is a game's layout (Wish Upon a Star's for an unknown game).
func LayoutOf(g engine.GameID) Layout {
	if l, ok := layouts[g]; ok {
		return l
	}
	return layouts[engine.WishStar]
}

// Cell is the rectangle of a cell on screen.
func (l Layout) Cell(reel, row int) image.Rectangle {
	x := l.Origin.X + reel*(l.CellW+l.Gap)
	y := l.Origin.Y + row*(l.CellH+l.Gap)
	return image.Rect(x, y, x+l.CellW, y+l.CellH)
}

// Column is a reel's whole window.
func (l Layout) Column(reel int) image.Rectangle {
	return l.Cell(reel, 0).Union(l.Cell(reel, l.Rows-1))
}

// Window is the whole reel area.
func (l Layout) Window() image.Rectangle {
	return l.Cell(0, 0).Union(l.Cell(l.Reels-1, l.Rows-1))
}

// Field names the three money fields (MS-4).
type Field int

const (
	FieldCredit Field = iota
	FieldBet
	FieldWin
)

// FieldRect is a money field's box; FieldValue the part its amount is
// drawn in.
func FieldRect(f Field) image.Rectangle {
	x := 90 + int(f)*590
	return image.Rect(x, 900, x+560, 1000)
}

// FieldValue is where a field's amount is drawn.
func FieldValue(f Field) image.Rectangle {
	r := FieldRect(f)
	return image.Rect(r.Min.X+8, r.Min.Y+34, r.Max.X-8, r.Max.Y-4)
}

// HintRect is the button hint of the i-th deck button.
func HintRect(i, n int) image.Rectangle {
	w := (W - 180 - (n-1)*14) / n
	x := 90 + i*(w+14)
	return image.Rect(x, 1014, x+w, 1066)
}

// MSStar is the rectangle of Magic Stars' star above reel (MS-11).
func MSStar(reel int) image.Rectangle {
	c := LayoutOf(engine.MagicStars).Column(reel)
	mx := (c.Min.X + c.Max.X) / 2
	return image.Rect(mx-40, 150, mx+40, 230)
}

// InfoTarget is the touch target of the player's information pages, drawn
// right of the deck buttons' hints where the screen has touch (the board
// has no info hint: the Info button has no lamp).
func InfoTarget() image.Rectangle { return image.Rect(W-84, 1008, W-12, 1072) }

// drawsHints: the scene draws the deck buttons' hints (and, with touch,
// the info target); menus, the information pages and the start-up
// screens draw none, so a touch there is no press.
func drawsHints(s *view.Snapshot) bool {
	switch s.Mode {
	case view.ModeMenu, view.ModeInfo, view.ModeStarting, view.ModeRAMError, view.ModeSoftware:
		return false
	}
	return true
}

// ButtonAt is the deck button a touch at p presses on the screen s shows:
// a drawn button hint, or the info target. The cabinet gets the press as
// from the deck and decides, as for the deck, whether it does anything.
// Nothing drawn there: false (a touch between targets presses nothing:
// no hidden touch points, Czech S21 §11(2)).
func ButtonAt(s *view.Snapshot, p image.Point) (view.Button, bool) {
	if s == nil || !drawsHints(s) {
		return view.Button(""), false
	}
	for i, b := range view.Buttons {
		if p.In(HintRect(i, len(view.Buttons))) {
			return b, true
		}
	}
	if p.In(InfoTarget()) {
		return view.InfoButton, true
	}
	return view.Button(""), false
}

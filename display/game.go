//go:build display

package display

import (
	"bytes"
	"image"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/display/render"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// Devkit is the desktop board the window's keyboard drives. A cabinet
// passes none: its buttons are wired.
type Devkit interface {
	SetInput(in gpio.Input, active bool) error
	Toggle(in gpio.Input) (bool, error)
	// InsertNote feeds the acceptor emulator a note by escrow code.
	InsertNote(code byte) error
	// InsertLastTicket feeds the last printed voucher back in.
	InsertLastTicket() error
	// AcceptorJam jams the acceptor, or clears the jam.
	AcceptorJam(on bool) error
	// PrinterPaperOut takes the paper out or puts it back.
	PrinterPaperOut(on bool)
	// PrinterJamNext jams the printer on its next print.
	PrinterJamNext()
	NextGame()
	// Keys lists the key switches turned on; Status is a line about the
	// emulated devices.
	Keys() []string
	Status() string
}

// Options configure the display.
type Options struct {
	Source     func() *view.Snapshot
	Clock      func() time.Time
	Devkit     Devkit // nil on a cabinet
	Fullscreen bool
	Title      string
	// Logf reports refused devkit actions.
	Logf func(format string, args ...any)
	// Renderer to draw with; nil builds one (about a second of start-up).
	Renderer *render.Renderer
	// Heartbeat, if set, is called once per Update: the watchdog's proof
	// that the display loop is alive.
	Heartbeat func()
}

// Game is the ebiten game: it renders the latest snapshot in software and
// blits it; keyboard input goes back to the devkit board only.
type Game struct {
	o     Options
	r     *render.Renderer
	pbuf  *image.RGBA
	dirty bool
	// ppix is the panel as last uploaded: while the reels spin the panel
	// mostly stays the same, and then it is not uploaded again.
	ppix       []byte
	panelDirty bool
	help       bool
	jam        bool
	paper      bool // paper out
	keys       []keyBinding
	drawn      bool
	// target is the image Draw last wrote to; top and bottom are its
	// cabinet-screen and panel regions, kept so that a frame allocates no
	// sub-images.
	target, top, bottom *ebiten.Image
	// presented: target holds the current frame (window only)
	presented bool
	final     ebiten.DrawImageOptions
	last      struct {
		s      *view.Snapshot
		help   bool
		status string
		keys   []string
	}
}

func sameKeys(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sameView reports whether a and b draw the same: equal in everything but
// Seq and Now, which the renderer does not read (it takes the instant
// apart). The cabinet publishes a new snapshot on every tick (5 ms), so
// pointer equality alone would redraw an idle screen every frame. Round,
// Risk and Menu are compared by pointer: the cabinet keeps them while they
// are unchanged, and a new pointer costs one redraw, never a stale screen.
func sameView(a, b *view.Snapshot) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.Mode == b.Mode && a.Market == b.Market && a.Language == b.Language &&
		a.Currency == b.Currency && slices.Equal(a.Games, b.Games) && a.Game == b.Game &&
		slices.Equal(a.Bets, b.Bets) && a.Bet == b.Bet && a.Credit == b.Credit && a.Win == b.Win &&
		a.Auto == b.Auto && a.Round == b.Round && a.RiskOffer == b.RiskOffer && a.Risk == b.Risk &&
		slices.Equal(a.Jackpots, b.Jackpots) &&
		(a.Lockup == b.Lockup || a.Lockup != nil && b.Lockup != nil && *a.Lockup == *b.Lockup) &&
		slices.Equal(a.Tilts, b.Tilts) && slices.Equal(a.Doors, b.Doors) &&
		a.Message == b.Message && a.MessageAmount == b.MessageAmount && a.Menu == b.Menu &&
		maps.Equal(a.Lamps, b.Lamps) && a.Tower == b.Tower
}

type keyBinding struct {
	key ebiten.Key
	b   board.KeyBinding
}

var keyByName = func() map[string]ebiten.Key {
	m := map[string]ebiten.Key{}
	for k := ebiten.Key(0); k <= ebiten.KeyMax; k++ {
		m[k.String()] = k
	}
	return m
}()

// NewGame builds the game; it allocates the images it reuses every frame.
func NewGame(o Options) *Game {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	g := &Game{o: o, r: o.Renderer}
	if g.r == nil {
		g.r = render.New()
	}
	for _, b := range board.DevkitKeys {
		if k, ok := keyByName[b.Key]; ok {
			g.keys = append(g.keys, keyBinding{k, b})
		}
	}
	return g
}

// LogicalSize is the game's screen: the cabinet's 1920×1080, and on a
// devkit the lamp panel under it.
func (g *Game) LogicalSize() (int, int) {
	if g.o.Devkit != nil {
		return render.W, render.H + render.PanelH
	}
	return render.W, render.H
}

// Layout keeps the logical size; ebiten letterboxes it in any window.
func (g *Game) Layout(int, int) (int, int) { return g.LogicalSize() }

// Update reads the keyboard and renders the frame of this tick.
func (g *Game) Update() error {
	if g.o.Heartbeat != nil {
		g.o.Heartbeat()
	}
	if g.o.Devkit != nil {
		g.input()
	}
	g.Frame(g.o.Clock())
	return nil
}

// Frame renders the snapshot at now into the software frame, unless the
// last frame is still right: same snapshot, same overlay, nothing moving
// and nothing due to blink yet. An idle cabinet then costs next to nothing.
func (g *Game) Frame(now time.Time) {
	s := g.o.Source()
	var keys []string
	status := ""
	if g.o.Devkit != nil {
		keys, status = g.o.Devkit.Keys(), g.o.Devkit.Status()
	}
	if g.drawn && sameView(s, g.last.s) && g.help == g.last.help && status == g.last.status &&
		sameKeys(keys, g.last.keys) && g.r.Still(now) {
		return
	}
	g.drawn = true
	g.last.s, g.last.help, g.last.status, g.last.keys = s, g.help, status, keys
	frame := g.r.Render(s, now)
	if g.help && s != nil {
		g.r.Help(frame, s.Language)
	}
	if g.o.Devkit != nil {
		if g.pbuf == nil {
			g.pbuf = image.NewRGBA(image.Rect(0, 0, render.W, render.PanelH))
		}
		g.r.Devkit(g.pbuf, s, render.DevkitInfo{Keys: keys, Notes: status}, now)
		if !bytes.Equal(g.pbuf.Pix, g.ppix) {
			g.ppix = append(g.ppix[:0], g.pbuf.Pix...)
			g.panelDirty = true
		}
	}
	g.dirty = true
}

// Software is the last software frame (the cabinet screen).
func (g *Game) Software() *image.RGBA { return g.r.Frame() }

// Draw writes the last software frame (and the devkit panel) into screen.
// WritePixels straight into ebiten's offscreen is one texture upload and no
// draw call: no image of our own in between.
func (g *Game) Draw(screen *ebiten.Image) { g.draw(screen, true) }

// draw reports whether screen now holds the frame: not while ebiten still
// hands over a screen of another layout's size. Unless all, the panel is
// written only when it changed.
func (g *Game) draw(screen *ebiten.Image, all bool) bool {
	if screen != g.target {
		all = true
		b := screen.Bounds()
		if b.Dx() != render.W || b.Dy() < render.H {
			return false
		}
		g.target = screen
		g.top = screen.SubImage(image.Rect(0, 0, render.W, render.H)).(*ebiten.Image)
		g.bottom = nil
		if b.Dy() >= render.H+render.PanelH {
			g.bottom = screen.SubImage(image.Rect(0, render.H, render.W, render.H+render.PanelH)).(*ebiten.Image)
		}
	}
	g.top.WritePixels(g.r.Frame().Pix)
	if g.bottom != nil && g.pbuf != nil && (all || g.panelDirty) {
		g.bottom.WritePixels(g.pbuf.Pix)
		g.panelDirty = false
	}
	g.dirty = false
	return true
}

// window is the game as Run runs it: the screen is not cleared between
// frames, so a frame the renderer skipped is not uploaded again either, and
// ebiten then skips presenting it.
type window struct{ *Game }

func (w window) Draw(screen *ebiten.Image) { w.present(screen) }

// DrawFinalScreen scales the offscreen into the window as ebiten would,
// minus the mipmaps ebiten builds (more draws every frame) when a window is
// smaller than 1920×1080: linear filtering is smooth enough for a devkit
// window, and a cabinet draws 1:1.
func (w window) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	w.final.GeoM = geoM
	w.final.Filter = ebiten.FilterNearest
	if s := geoM.Element(0, 0); s != math.Floor(s) {
		w.final.Filter = ebiten.FilterLinear
	}
	w.final.DisableMipmaps = true
	screen.DrawImage(offscreen, &w.final)
}

func (g *Game) present(screen *ebiten.Image) {
	if g.dirty || !g.presented || screen != g.target {
		g.presented = g.draw(screen, !g.presented)
	}
}

// Digit keys 1–6 insert notes; the rest are the devkit's scenario keys.
var noteKeys = [...]ebiten.Key{ebiten.KeyDigit1, ebiten.KeyDigit2, ebiten.KeyDigit3, ebiten.KeyDigit4, ebiten.KeyDigit5, ebiten.KeyDigit6}

func (g *Game) input() {
	d := g.o.Devkit
	for _, kb := range g.keys {
		switch {
		case kb.b.Toggle && inpututil.IsKeyJustPressed(kb.key):
			if _, err := d.Toggle(kb.b.Input); err != nil {
				g.o.Logf("display: %s: %v", kb.b.Key, err)
			}
		case !kb.b.Toggle && inpututil.IsKeyJustPressed(kb.key):
			g.set(kb.b, true)
		case !kb.b.Toggle && inpututil.IsKeyJustReleased(kb.key):
			g.set(kb.b, false)
		}
	}
	for _, k := range noteKeys {
		if inpututil.IsKeyJustPressed(k) {
			code, ok := board.DevkitNoteKeys[k.String()]
			if ok {
				if err := d.InsertNote(code); err != nil {
					g.o.Logf("display: note: %v", err)
				}
			}
		}
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyDigit0):
		if err := d.InsertLastTicket(); err != nil {
			g.o.Logf("display: ticket: %v", err)
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyF9):
		g.jam = !g.jam
		if err := d.AcceptorJam(g.jam); err != nil {
			g.o.Logf("display: jam: %v", err)
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyF10):
		g.paper = !g.paper
		d.PrinterPaperOut(g.paper)
	case inpututil.IsKeyJustPressed(ebiten.KeyF11):
		d.PrinterJamNext()
	case inpututil.IsKeyJustPressed(ebiten.KeyG):
		d.NextGame()
	case inpututil.IsKeyJustPressed(ebiten.KeyH), inpututil.IsKeyJustPressed(ebiten.KeyF1):
		g.help = !g.help
	}
}

func (g *Game) set(b board.KeyBinding, on bool) {
	if err := g.o.Devkit.SetInput(b.Input, on); err != nil {
		g.o.Logf("display: %s: %v", b.Key, err)
	}
}

// Run opens the window (full screen on a cabinet) and runs until it is
// closed. It must be called from the main goroutine.
func Run(o Options) error {
	g := NewGame(o)
	w, h := g.LogicalSize()
	ebiten.SetWindowTitle(o.Title)
	ebiten.SetWindowSize(w/2, h/2)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	if o.Fullscreen {
		ebiten.SetFullscreen(true)
		ebiten.SetCursorMode(ebiten.CursorModeHidden)
	}
	ebiten.SetScreenClearedEveryFrame(false)
	return ebiten.RunGame(window{g})
}

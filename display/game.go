//go:build display

package display

import (
	"image"
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
}

// Game is the ebiten game: it renders the latest snapshot in software and
// blits it; keyboard input goes back to the devkit board only.
type Game struct {
	o      Options
	r      *render.Renderer
	screen *ebiten.Image
	panel  *ebiten.Image
	pbuf   *image.RGBA
	dirty  bool
	help   bool
	jam    bool
	paper  bool // paper out
	keys   []keyBinding
	opts   ebiten.DrawImageOptions
	drawn  bool
	// presented: the screen holds the current frame (window only)
	presented bool
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
	if g.drawn && s == g.last.s && g.help == g.last.help && status == g.last.status &&
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
	}
	g.dirty = true
}

// Software is the last software frame (the cabinet screen).
func (g *Game) Software() *image.RGBA { return g.r.Frame() }

// Draw blits the frame (uploading it once per tick) onto screen.
func (g *Game) Draw(screen *ebiten.Image) {
	if g.screen == nil {
		g.screen = ebiten.NewImage(render.W, render.H)
		if g.o.Devkit != nil {
			g.panel = ebiten.NewImage(render.W, render.PanelH)
		}
	}
	if g.dirty {
		g.screen.WritePixels(g.r.Frame().Pix)
		if g.panel != nil && g.pbuf != nil {
			g.panel.WritePixels(g.pbuf.Pix)
		}
		g.dirty = false
	}
	g.opts.GeoM.Reset()
	screen.DrawImage(g.screen, &g.opts)
	if g.panel != nil {
		g.opts.GeoM.Translate(0, render.H)
		screen.DrawImage(g.panel, &g.opts)
	}
}

// window is the game as Run runs it: the screen is not cleared between
// frames, so a frame the renderer skipped is not drawn again either.
type window struct{ *Game }

func (w window) Draw(screen *ebiten.Image) { w.present(screen) }

func (g *Game) present(screen *ebiten.Image) {
	if g.dirty || !g.presented {
		g.presented = true
		g.Draw(screen)
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

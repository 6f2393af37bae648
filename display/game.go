//go:build display

package display

import (
	"bytes"
	"image"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/polaris-vlt/polaris/display/render"
	"github.com/polaris-vlt/polaris/display/sound"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// Devkit is the desktop board the window's keyboard drives. A cabinet
// passes none: its buttons are wired.
type Devkit interface {
	// SetInput and Toggle drive the input a KeyBinding names.
	SetInput(input int, active bool) error
	Toggle(input int) (bool, error)
	// InsertNote feeds the acceptor emulator a note by escrow code.
	InsertNote(code byte) error
	// InsertLastTicket takes the last printed voucher from the chute and
	// feeds it back in.
	InsertLastTicket() error
	// TakeTicket takes whatever waits in the printer's chute (a receipt,
	// a test ticket, a voucher kept): until then the printer prints nothing.
	TakeTicket() error
	// AcceptorJam jams the acceptor, or clears the jam.
	AcceptorJam(on bool) error
	// PrinterPaperOut takes the paper out or puts it back.
	PrinterPaperOut(on bool)
	// PrinterJamNext jams the printer on its next print.
	PrinterJamNext()
	NextGame()
	// Keys lists the key switches turned on; Status is a line about the
	// emulated devices. Both change only through the window's keys (the
	// frame that reads the key draws them: no pacer watches them).
	Keys() []string
	Status() string
}

// CardDevkit is a Devkit with the player card reader's emulated cards:
// F2, F3 and F4 insert card 1, 2 and 3 (the card in the reader out
// first), K takes the card out.
type CardDevkit interface {
	InsertCard(n int) error
	RemoveCard() error
}

// KeyBinding is one desktop key of the devkit's keyboard layout. The
// caller gives the layout (Options.Keys): the display knows keys, the
// board knows inputs.
type KeyBinding struct {
	Key    string // as ebiten names keys: "Space", "F5"
	Input  int    // the caller's input, handed back to Devkit.SetInput or Toggle
	Toggle bool   // flips on each press (a key switch, a door); else held while pressed
}

// Options configure the display.
type Options struct {
	// Source and Clock are called from the render loop and, when Run
	// draws on demand, from its pacer's goroutine too.
	Source func() *view.Snapshot
	Clock  func() time.Time
	Devkit Devkit // nil on a cabinet
	// Keys is the devkit's keyboard layout; NoteKeys maps digit keys
	// ("Digit1") to the escrow codes Devkit.InsertNote takes.
	Keys       []KeyBinding
	NoteKeys   map[string]byte
	Fullscreen bool
	Title      string
	// Logf reports refused devkit actions.
	Logf func(format string, args ...any)
	// Renderer to draw with; nil builds one (about a second of start-up).
	Renderer *render.Renderer
	// Touch: the screen has touch (the board profile's [display] touch).
	// A touch, or a click of the window's mouse (the devkit's stand-in,
	// and what X delivers for many touch screens), on a drawn deck
	// button or the info target is pressed through Press, as the deck's
	// button would be (render.ButtonAt).
	Touch bool
	Press func(view.Button)
	// Heartbeat, if set, is called once per Update: the watchdog's proof
	// that the display loop is alive. Run draws on demand and runs a frame
	// at least once a second for it, idle or not.
	Heartbeat func()
	// Silent: no speaker (display/sound). Otherwise Run plays the
	// cabinet's sounds; a machine without an audio device runs on silent,
	// logged.
	Silent bool
	// Done, once closed, ends Run (nil error) at a frame scheduled at once,
	// as closing the window does: the caller's deferred stops then run
	// (the devkit's pcscd, the ledger). Nil: only the window's close.
	Done <-chan struct{}
}

// Game is the ebiten game: it renders the latest snapshot in software and
// blits it; keyboard input goes back to the devkit board only.
type Game struct {
	o        Options
	touchIDs []ebiten.TouchID
	r        *render.Renderer
	pbuf     *image.RGBA
	dirty    bool
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
	// pace is set when frames run on demand (Run): after each frame the
	// game tells it what it drew and until when that holds, and switches
	// ebiten between every frame (continuous: something moves) and
	// waiting for events (setContinuous).
	pace          *pacer
	continuous    bool
	setContinuous func(bool)
	last          struct {
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
	b   KeyBinding
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
	g.r.Touch = o.Touch && o.Press != nil
	for _, b := range o.Keys {
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
	select {
	case <-g.o.Done:
		return ebiten.Termination
	default:
	}
	if g.o.Heartbeat != nil {
		g.o.Heartbeat()
	}
	if g.o.Devkit != nil {
		g.input()
	}
	if g.r.Touch {
		g.touches()
	}
	now := g.o.Clock()
	g.Frame(now)
	if g.pace != nil {
		next, moving, ok := g.r.Next()
		if moving != g.continuous {
			g.continuous = moving
			g.setContinuous(moving)
		}
		g.pace.framed(now, g.last.s, next, moving, ok)
	}
	return nil
}

// onDemand makes the game draw on demand (see pacer): setContinuous
// switches ebiten's frame mode, schedule asks it for one frame. The caller
// runs the pacer.
func (g *Game) onDemand(setContinuous func(bool), schedule func()) *pacer {
	g.pace = newPacer(g.o.Source, g.o.Clock, schedule)
	g.continuous, g.setContinuous = true, setContinuous
	return g.pace
}

// ebitenMode is setContinuous for ebiten. While something moves: vsync on
// (no tearing on a cabinet) and 60 updates a second (a cap should vsync not
// wait, as in some VMs). Else FPSModeVsyncOffMinimum, in which ebiten runs
// a frame only on an input event or ScheduleFrame, with one Update per
// frame (SyncWithFPS): a frame that runs reads the keys and beats the
// heart, however soon after the previous one. FPSModeVsyncOffMinimum and
// ScheduleFrame are deprecated since v2.5 in favour of
// SetScreenClearedEveryFrame(false), which Run also sets, but that still
// runs every frame (13 allocations each inside ebiten, even with nothing
// drawn); both remain in v2.
func ebitenMode(continuous bool) {
	if continuous {
		ebiten.SetTPS(ebiten.DefaultTPS)
		ebiten.SetVsyncEnabled(true)
		return
	}
	ebiten.SetTPS(ebiten.SyncWithFPS)
	//lint:ignore SA1019 frames on demand: no replacement in ebiten v2 (above)
	ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
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
	if g.drawn && samePublication(s, g.last.s) && g.help == g.last.help && status == g.last.status &&
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
			code, ok := g.o.NoteKeys[k.String()]
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
	case inpututil.IsKeyJustPressed(ebiten.KeyP):
		if err := d.TakeTicket(); err != nil {
			g.o.Logf("display: take ticket: %v", err)
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
	if cd, ok := d.(CardDevkit); ok {
		for i, k := range [...]ebiten.Key{ebiten.KeyF2, ebiten.KeyF3, ebiten.KeyF4} {
			if inpututil.IsKeyJustPressed(k) {
				if err := cd.InsertCard(i + 1); err != nil {
					g.o.Logf("display: card %d: %v", i+1, err)
				}
			}
		}
		if inpututil.IsKeyJustPressed(ebiten.KeyK) {
			if err := cd.RemoveCard(); err != nil {
				g.o.Logf("display: card out: %v", err)
			}
		}
	}
}

// touches presses the button under each new touch or click: the screen's
// position as the frame draws it (Layout keeps the logical size, so
// ebiten reports positions on the 1920×1080 canvas).
func (g *Game) touches() {
	var at []image.Point
	g.touchIDs = inpututil.AppendJustPressedTouchIDs(g.touchIDs[:0])
	for _, id := range g.touchIDs {
		x, y := ebiten.TouchPosition(id)
		at = append(at, image.Pt(x, y))
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		at = append(at, image.Pt(x, y))
	}
	if len(at) == 0 {
		return
	}
	s := g.o.Source()
	for _, p := range at {
		if b, ok := render.ButtonAt(s, p); ok {
			g.o.Press(b)
		}
	}
}

func (g *Game) set(b KeyBinding, on bool) {
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
	if !o.Silent {
		// Off the loop: a device behind a sound server opens in a second
		// or two, and the window need not wait for it.
		spk := make(chan *sound.Speaker, 1)
		go func() {
			sp, err := sound.Start(o.Source)
			if err != nil {
				g.o.Logf("display: running silent: %v", err)
			}
			spk <- sp
		}()
		defer func() {
			if sp := <-spk; sp != nil {
				sp.Close()
			}
		}()
	}
	//lint:ignore SA1019 frames on demand: no replacement in ebiten v2 (ebitenMode)
	p := g.onDemand(ebitenMode, ebiten.ScheduleFrame)
	stop := make(chan struct{})
	defer close(stop)
	go p.run(stop)
	if o.Done != nil {
		go func() {
			select {
			case <-o.Done:
				//lint:ignore SA1019 frames on demand: no replacement in ebiten v2 (ebitenMode)
				ebiten.ScheduleFrame() // an idle window runs no frame else
			case <-stop:
			}
		}()
	}
	return ebiten.RunGame(window{g})
}

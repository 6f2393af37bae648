//go:build display

package display

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/display/art"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/display/render"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
	"github.com/polaris-vlt/polaris/firmware/devkit"
	"github.com/polaris-vlt/polaris/firmware/scenario"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// ebiten's RunGame may run once per process, on the main goroutine. So
// TestMain runs the loop, m.Run runs beside it, and a test hands its
// ebiten work to the loop with onMain, which runs it inside the next
// Update. A benchmark installs a Game and steps the loop: in stepped mode
// Update waits for one value on step, so one op is exactly one whole frame
// as ebiten runs it (input, Update, Draw, the command queue's flush, the
// buffer swap).
type mainLoop struct {
	work    chan func()
	step    chan struct{}
	done    chan struct{}
	game    *Game
	stepped bool
	updates int // Updates run, for benchmarks to check one per op
	// frames counts Draws, presents DrawFinalScreens (the frames ebiten
	// drew into the window and swapped), read while the loop runs
	frames, presents atomic.Int64
}

var loop = &mainLoop{work: make(chan func()), step: make(chan struct{}), done: make(chan struct{})}

func (l *mainLoop) Update() error {
	if l.stepped {
		select {
		case <-l.done:
			return ebiten.Termination
		case f := <-l.work:
			f()
		case <-l.step:
		}
	} else {
		select {
		case <-l.done:
			return ebiten.Termination
		case f := <-l.work:
			f()
		default:
		}
	}
	l.updates++
	if l.game != nil {
		return l.game.Update()
	}
	return nil
}

func (l *mainLoop) Draw(screen *ebiten.Image) {
	l.frames.Add(1)
	if l.game != nil {
		l.game.present(screen)
	}
}

// DrawFinalScreen is the window's, as Run has it.
func (l *mainLoop) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	l.presents.Add(1)
	if l.game != nil {
		window{l.game}.DrawFinalScreen(screen, offscreen, geoM)
		return
	}
	screen.DrawImage(offscreen, &ebiten.DrawImageOptions{GeoM: geoM})
}

func (l *mainLoop) Layout(int, int) (int, int) {
	if l.game != nil {
		return l.game.LogicalSize()
	}
	return 64, 64
}

// onMain runs f inside the loop's next Update and waits for it. A loop
// that runs on demand is asked for frames until one takes f.
func onMain(f func()) {
	ran := make(chan struct{})
	w := func() { f(); close(ran) }
	for {
		select {
		case loop.work <- w:
			<-ran
			return
		case <-time.After(10 * time.Millisecond):
			//lint:ignore SA1019 frames on demand, as Run asks for them (ebitenMode)
			ebiten.ScheduleFrame()
		}
	}
}

// windowTitle names the test window for xdotool.
const windowTitle = "polaris display test"

func TestMain(m *testing.M) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("POLARIS_DISPLAY_TEST") != "" {
			fmt.Fprintln(os.Stderr, "display: no X display (make display-test runs these on a virtual X server: bin/xvfb)")
			os.Exit(1)
		}
		fmt.Println("display: no X display; skipped (make display-test runs these under Xvfb)")
		os.Exit(0)
	}
	code := 0
	go func() {
		code = m.Run()
		close(loop.done)
	}()
	ebiten.SetWindowSize(64, 64)
	ebiten.SetWindowTitle(windowTitle)
	ebiten.SetVsyncEnabled(false)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	ebiten.SetScreenClearedEveryFrame(false) // as Run does
	if err := ebiten.RunGame(loop); err != nil {
		fmt.Fprintln(os.Stderr, "display:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

// rend is shared: building a renderer draws all the art.
var rend = render.New()

// fixedSource serves one snapshot.
type fixedSource struct{ s *view.Snapshot }

func (f *fixedSource) get() *view.Snapshot { return f.s }

// gpuFrame draws the game onto an offscreen window-sized image through
// ebiten, inside the loop, and reads its pixels back.
func gpuFrame(g *Game, dst *ebiten.Image, now time.Time) *image.RGBA {
	img := image.NewRGBA(dst.Bounds())
	onMain(func() {
		g.Frame(now)
		dst.Clear()
		g.Draw(dst)
		dst.ReadPixels(img.Pix)
	})
	return img
}

func newImage(t testing.TB, w, h int) *ebiten.Image {
	var img *ebiten.Image
	onMain(func() { img = ebiten.NewImage(w, h) })
	t.Cleanup(func() { onMain(img.Deallocate) })
	return img
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { v := int(x) - int(y); return v <= tol && v >= -tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// TestEverySceneOnScreen: every scene (in English; a few in cs and de, whose
// software frames render_test checks in full) goes through ebiten and reads
// back as the software frame drew it; the scenes differ.
func TestEverySceneOnScreen(t *testing.T) {
	src := &fixedSource{}
	g := NewGame(Options{Source: src.get, Renderer: rend})
	dst := newImage(t, render.W, render.H)
	seen := map[string]string{}
	for _, lang := range i18n.Languages {
		for i, f := range render.Fixtures(lang) {
			if lang != "en" && i%8 != 0 {
				continue
			}
			src.s = f.Snap
			got := gpuFrame(g, dst, f.At)
			want := g.Software()
			bad := 0
			for i := 0; i < len(got.Pix); i += 4 {
				if !near(color.RGBA{got.Pix[i], got.Pix[i+1], got.Pix[i+2], 255}, color.RGBA{want.Pix[i], want.Pix[i+1], want.Pix[i+2], 255}, 2) {
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%s/%s: %d pixels differ from the software frame", lang, f.Name, bad)
			}
			key := string(got.Pix[:0]) + fmt.Sprint(sum(got))
			if other, ok := seen[key]; ok {
				t.Errorf("%s/%s looks like %s", lang, f.Name, other)
			}
			seen[key] = lang + "/" + f.Name
		}
	}
}

func sum(img *image.RGBA) uint64 {
	var h uint64 = 1469598103934665603
	for _, b := range img.Pix {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return h
}

// TestReelsAndFieldsOnScreen reads the window's pixels: each cell's key
// colour is its symbol's, and the money fields hold the snapshot's amounts.
func TestReelsAndFieldsOnScreen(t *testing.T) {
	src := &fixedSource{}
	g := NewGame(Options{Source: src.get, Renderer: rend})
	dst := newImage(t, render.W, render.H)
	for _, i := range []int{3, 9} { // ws_wins, ms_line_win
		f := render.Fixtures("cs")[i]
		src.s = f.Snap
		got := gpuFrame(g, dst, f.Snap.Round.Timeline[0].End)
		checkReels(t, got, f.Snap)
		checkFields(t, got, f.Snap)
	}
}

func checkReels(t *testing.T, frame *image.RGBA, s *view.Snapshot) {
	t.Helper()
	rd := s.Round
	st := rd.Steps[len(rd.Steps)-1]
	l := render.LayoutOf(rd.Game)
	for reel := range l.Reels {
		for row := range l.Rows {
			c := l.Cell(reel, row)
			p := c.Min.Add(art.KeyPoint(c.Dx(), c.Dy()))
			want, _ := art.Key(rd.Game, st.Screen[reel][row])
			if got := frame.RGBAAt(p.X, p.Y); !near(got, want, 4) {
				t.Errorf("%s reel %d row %d: key colour %v, want %v (%s)", rd.Game, reel+1, row+1, got, want, art.Name(rd.Game, st.Screen[reel][row]))
			}
		}
	}
}

// checkFields compares each field's box with the expected amount drawn
// alone by the same font, and refuses a neighbouring amount.
func checkFields(t *testing.T, frame *image.RGBA, s *view.Snapshot) {
	t.Helper()
	r := rend
	for f, amount := range []engine.Money{s.Credit, s.Bet, s.Win} {
		box := render.FieldValue(render.Field(f))
		for _, a := range []engine.Money{amount, amount + 1} {
			ref := image.NewRGBA(image.Rect(0, 0, render.W, render.H))
			for y := box.Min.Y; y < box.Max.Y; y++ {
				for x := box.Min.X; x < box.Max.X; x++ {
					ref.SetRGBA(x, y, color.RGBA{10, 10, 24, 255})
				}
			}
			r.FieldText(ref, s, render.Field(f), a)
			same := true
			for y := box.Min.Y; y < box.Max.Y && same; y++ {
				for x := box.Min.X; x < box.Max.X; x++ {
					if !near(frame.RGBAAt(x, y), ref.RGBAAt(x, y), 2) {
						same = false
						break
					}
				}
			}
			if a == amount && !same {
				t.Errorf("field %d does not show %d", f, amount)
			}
			if a != amount && same {
				t.Errorf("field %d shows %d as well as %d", f, a, amount)
			}
		}
	}
}

// TestDevkitPanel: the lamps lit in the snapshot are lit on the panel, the
// others dark, and the tower shows its pattern's colour.
func TestDevkitPanel(t *testing.T) {
	f := render.Fixtures("en")[1] // idle: Start, Auto, Bet−, Bet+, Collect lit; Risk, Stop dark
	src := &fixedSource{s: f.Snap}
	g := NewGame(Options{Source: src.get, Devkit: &fakeDevkit{}, Renderer: rend})
	w, h := g.LogicalSize()
	if w != render.W || h != render.H+render.PanelH {
		t.Fatalf("logical size %dx%d", w, h)
	}
	dst := newImage(t, w, h)
	got := gpuFrame(g, dst, f.At)
	for i, b := range view.Buttons {
		c := got.RGBAAt(40+i*170+75, render.H+12+22)
		lit := c.R > 200 && c.G > 150
		if want := f.Snap.Lamps[b] == view.LampOn; lit != want {
			t.Errorf("lamp %s lit=%v, want %v (%v)", b, lit, want, c)
		}
	}
	var tl render.Fixture // tilt: the tower's red blinks fast
	for _, x := range render.Fixtures("en") {
		if x.Name == "tilt" {
			tl = x
		}
	}
	src.s = tl.Snap
	reds := 0
	for k := range 8 {
		got = gpuFrame(g, dst, tl.At.Add(time.Duration(k)*60*time.Millisecond))
		if c := got.RGBAAt(1250+45, render.H+18); c.R > 200 && c.G < 80 {
			reds++
		}
	}
	if reds == 0 || reds == 8 {
		t.Errorf("tilt tower red lit in %d of 8 frames, want it blinking", reds)
	}
}

// TestDevkitKeysResolve: every board binding names an ebiten key.
func TestDevkitKeysResolve(t *testing.T) {
	var keys []KeyBinding
	for _, b := range board.DevkitKeys {
		keys = append(keys, KeyBinding{Key: b.Key, Input: int(b.Input), Toggle: b.Toggle})
	}
	g := NewGame(Options{Source: (&fixedSource{}).get, Devkit: &fakeDevkit{}, Renderer: rend, Keys: keys})
	if len(g.keys) != len(board.DevkitKeys) {
		t.Fatalf("%d of %d devkit keys resolve to ebiten keys", len(g.keys), len(board.DevkitKeys))
	}
	for name := range board.DevkitNoteKeys {
		if _, ok := keyByName[name]; !ok {
			t.Errorf("note key %q is no ebiten key", name)
		}
	}
}

// TestCabinetOnScreen drives a real headless cabinet (devkit board,
// emulated acceptor, embedded central system) through a scenario and reads
// the window: the Credit, Bet and Win fields hold the ledger's amounts and
// the reels the round's final screen.
func TestCabinetOnScreen(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(60*time.Second))
	defer cancel()
	h, err := devkit.StartHeadless(ctx, app.Options{DataDir: t.TempDir(), Market: "demo", Timing: cabinet.Timing{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	steps, err := scenario.Parse(strings.NewReader("wait idle\nnote 2000\npress start\nwait round\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := scenario.Run(ctx, h, steps); err != nil {
		t.Fatal(err)
	}
	s := h.App.Cabinet.View()
	if s.Round == nil || s.Credit == 0 {
		t.Fatalf("no round on screen: mode %s credit %d", s.Mode, s.Credit)
	}
	g := NewGame(Options{Source: func() *view.Snapshot { return s }, Renderer: rend})
	dst := newImage(t, render.W, render.H)
	end := s.Now.Add(time.Hour)
	got := gpuFrame(g, dst, end)
	checkReels(t, got, s)
	checkFields(t, got, s)
	if credit, _ := h.App.Ledger.Credit(); engine.Money(credit) != s.Credit {
		t.Errorf("ledger credit %d, screen %d", credit, s.Credit)
	}

	// a door opens: the door panel (gold frame) covers the reels; the
	// technician key: the menu page the firmware publishes, titled in the
	// market's language
	for _, c := range []struct {
		script, scene string
		check         func(*image.RGBA) bool
	}{
		{"door main open\nwait door_open\n", "door_open", func(f *image.RGBA) bool {
			c := f.RGBAAt(265, 500) // the panel's left frame
			return c.R > 200 && c.G > 150 && c.B < 100
		}},
		{"door main close\nwait idle\nkey technician on\nwait menu\n", "menu", func(f *image.RGBA) bool {
			c := f.RGBAAt(W0/2, 162) // the rule under the title
			return c.R > 100 && c.G > 80 && c.B < 60
		}},
	} {
		steps, err := scenario.Parse(strings.NewReader(c.script))
		if err != nil {
			t.Fatal(err)
		}
		if err := scenario.Run(ctx, h, steps); err != nil {
			t.Fatal(err)
		}
		s = h.App.Cabinet.View()
		if sc := render.Scene(s, s.Now); sc != c.scene {
			t.Fatalf("scene %s, want %s", sc, c.scene)
		}
		got := gpuFrame(g, dst, s.Now.Add(time.Second))
		if !c.check(got) {
			t.Errorf("%s: not on screen", c.scene)
		}
		if s.Mode == view.ModeMenu && (s.Menu == nil || len(s.Menu.Lines) == 0) {
			t.Errorf("menu page empty: %+v", s.Menu)
		}
	}
}

const W0 = render.W

type fakeDevkit struct{ inputs []gpio.Input }

func (f *fakeDevkit) SetInput(input int, on bool) error {
	in := gpio.Input(input)
	f.inputs = append(f.inputs, in)
	return nil
}
func (f *fakeDevkit) Toggle(int) (bool, error) { return true, nil }
func (f *fakeDevkit) InsertNote(byte) error    { return nil }
func (f *fakeDevkit) InsertLastTicket() error  { return nil }
func (f *fakeDevkit) TakeTicket() error        { return nil }
func (f *fakeDevkit) AcceptorJam(bool) error   { return nil }
func (f *fakeDevkit) PrinterPaperOut(bool)     {}
func (f *fakeDevkit) PrinterJamNext()          {}
func (f *fakeDevkit) NextGame()                {}
func (f *fakeDevkit) Keys() []string           { return nil }
func (f *fakeDevkit) Status() string           { return "acceptor ready · printer ready" }

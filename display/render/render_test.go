package render

import (
	"bytes"
	"crypto/sha256"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/display/art"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/wishstar"
	"github.com/polaris-vlt/polaris/firmware/view"
)

var shared = New()

// TestEveryScene: every fixture renders, is not blank, and differs from
// every other scene, in each language; the scene names cover the list.
func TestEveryScene(t *testing.T) {
	for _, lang := range i18n.Languages {
		seen := map[[32]byte]string{}
		for _, f := range Fixtures(lang) {
			frame := shared.Render(f.Snap, f.At)
			if n := colours(frame); n < 40 {
				t.Errorf("%s/%s: only %d colours: blank?", lang, f.Name, n)
			}
			h := sha256.Sum256(frame.Pix)
			if other, ok := seen[h]; ok {
				t.Errorf("%s/%s renders the same as %s", lang, f.Name, other)
			}
			seen[h] = f.Name
		}
		if len(seen) < 15 {
			t.Errorf("%s: %d scenes, want at least 15", lang, len(seen))
		}
	}
	want := map[string]bool{}
	for _, f := range Fixtures("en") {
		want[Scene(f.Snap, f.At)] = true
	}
	for _, sc := range []string{"attract", "spinning", "wins", "free_spins", "lock_spin", "bonus_win", "risk", "lockup", "tilt", "door_open", "out_of_service", "ram_error", "menu", "game"} {
		if !want[sc] {
			t.Errorf("no fixture shows scene %q", sc)
		}
	}
}

// TestLanguagesDiffer: the same scene in cs, de and en is drawn differently
// (the catalogues are used, not one of them).
func TestLanguagesDiffer(t *testing.T) {
	for i := range Fixtures("en") {
		var hs [][32]byte
		for _, lang := range i18n.Languages {
			f := Fixtures(lang)[i]
			hs = append(hs, sha256.Sum256(shared.Render(f.Snap, f.At).Pix))
		}
		if hs[0] == hs[1] || hs[1] == hs[2] || hs[0] == hs[2] {
			t.Errorf("%s: two languages render the same", Fixtures("en")[i].Name)
		}
	}
}

func colours(img *image.RGBA) int {
	seen := map[uint32]bool{}
	for i := 0; i < len(img.Pix); i += 4 * 97 {
		seen[uint32(img.Pix[i])<<16|uint32(img.Pix[i+1])<<8|uint32(img.Pix[i+2])] = true
	}
	return len(seen)
}

// symbolAt is the symbol whose key colour is nearest the cell's key point.
func symbolAt(frame *image.RGBA, g engine.GameID, reel, row int) (engine.Symbol, int) {
	l := LayoutOf(g)
	c := l.Cell(reel, row)
	p := c.Min.Add(art.KeyPoint(c.Dx(), c.Dy()))
	got := frame.RGBAAt(p.X, p.Y)
	best, bestD := engine.Symbol(255), 1<<30
	for _, s := range art.Symbols(g) {
		k, _ := art.Key(g, s)
		if d := dist(got, k); d < bestD {
			best, bestD = s, d
		}
	}
	return best, bestD
}

func dist(a, b color.RGBA) int {
	d := func(x, y uint8) int { v := int(x) - int(y); return v * v }
	return d(a.R, b.R) + d(a.G, b.G) + d(a.B, b.B)
}

func wsRandomScreen(rng *rand.Rand) engine.Screen {
	var sc engine.Screen
	for reel := range 5 {
		for row := range 3 {
			for {
				s := engine.Symbol(rng.IntN(int(wishstar.Blank)))
				if s == wishstar.Wild && reel != 1 && reel != 3 || s == wishstar.Bonus && reel%2 == 1 {
					continue
				}
				sc[reel][row] = s
				break
			}
		}
	}
	return sc
}

// TestReelsShowTheSnapshotsSymbols: after the reels stop, every cell shows
// the snapshot's symbol (sampled at the cell's key point), for random
// screens of both games, with win highlights on.
func TestReelsShowTheSnapshotsSymbols(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		g := engine.WishStar
		var st engine.Step
		var s *view.Snapshot
		if n%2 == 0 {
			st = wsStep(engine.StepBase, wsRandomScreen(rng), false, 100)
			s = Fixtures("en")[1].Snap
		} else {
			g = engine.MagicStars
			var sc engine.Screen
			for reel := range 3 {
				for row := range 3 {
					sc[reel][row] = engine.Symbol(1 + rng.IntN(8))
				}
			}
			st = msStep(sc, uint16(rng.IntN(1<<9)), 50)
			s = Fixtures("en")[7].Snap
		}
		snap := *s
		snap.Mode = view.ModePresenting
		snap.Round = round(g, snap.Bet, T0, st)
		frame := shared.Render(&snap, T0.Add(3*time.Second))
		l := LayoutOf(g)
		for reel := range l.Reels {
			for row := range 3 {
				got, d := symbolAt(frame, g, reel, row)
				if want := st.Screen[reel][row]; got != want || d > 30 {
					t.Fatalf("%s screen %d reel %d row %d: shows %s (distance %d), want %s",
						g, n, reel+1, row+1, art.Name(g, got), d, art.Name(g, want))
				}
			}
		}
	}
}

// TestReelsStopOneAfterAnother: mid-spin, the stopped reels show their
// symbols and the others do not (they show the blurred strip).
func TestReelsStopOneAfterAnother(t *testing.T) {
	f := Fixtures("en")[2] // ws_spinning
	st := f.Snap.Round.Steps[0]
	tl := f.Snap.Round.Timeline[0]
	for stopped := 1; stopped <= 5; stopped++ {
		at := tl.Stops[stopped-1].Add(10 * time.Millisecond)
		frame := shared.Render(f.Snap, at)
		for reel := range 5 {
			okCells := 0
			for row := range 3 {
				got, d := symbolAt(frame, engine.WishStar, reel, row)
				if got == st.Screen[reel][row] && d < 30 {
					okCells++
				}
			}
			if reel < stopped && okCells != 3 {
				t.Errorf("%d reels stopped: reel %d shows %d of 3 symbols", stopped, reel+1, okCells)
			}
			if reel >= stopped && okCells == 3 {
				t.Errorf("%d reels stopped: reel %d already shows its final symbols", stopped, reel+1)
			}
		}
	}
}

// TestMagicStarsStarsLightPerReel (MS-11): the star above a reel lights
// once that reel has stopped showing a star-carrying cell.
func TestMagicStarsStarsLightPerReel(t *testing.T) {
	f := Fixtures("en")[8] // ms_spinning: marked cells on reels 1, 2 and 3
	tl := f.Snap.Round.Timeline[0]
	lit := func(frame *image.RGBA, reel int) bool {
		r := MSStar(reel)
		c := frame.RGBAAt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2+4)
		return c.R > 200 && c.G > 150
	}
	for stopped := 0; stopped <= 3; stopped++ {
		at := tl.Start.Add(100 * time.Millisecond)
		if stopped > 0 {
			at = tl.Stops[stopped-1].Add(10 * time.Millisecond)
		}
		frame := shared.Render(f.Snap, at)
		for reel := range 3 {
			if got := lit(frame, reel); got != (reel < stopped) {
				t.Errorf("%d reels stopped: star %d lit=%v", stopped, reel+1, got)
			}
		}
	}
	// no star-carrying cell on reel 2: its star stays dark
	snap := *f.Snap
	rd := *snap.Round
	rd.Steps = []engine.Step{rd.Steps[0]}
	rd.Steps[0].Marked &^= 7 << 3
	snap.Round = &rd
	frame := shared.Render(&snap, tl.End)
	if !lit(frame, 0) || lit(frame, 1) || !lit(frame, 2) {
		t.Errorf("stars lit %v %v %v, want true false true", lit(frame, 0), lit(frame, 1), lit(frame, 2))
	}
}

// TestFieldsShowTheSnapshotsAmounts: the Credit, Bet and Win boxes hold
// exactly the expected amount's text (drawn alone into a blank box), and
// not a different amount's.
func TestFieldsShowTheSnapshotsAmounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 24 {
		f := Fixtures(i18n.Languages[n%3])[[]int{1, 3, 7, 9, 11}[n%5]]
		snap := *f.Snap
		snap.Credit = engine.Money(rng.Int64N(10_000_000))
		snap.Win = engine.Money(rng.Int64N(100_000))
		snap.Bet = snap.Bets[rng.IntN(len(snap.Bets))]
		frame := shared.Render(&snap, f.At)
		for fld, amount := range []engine.Money{snap.Credit, snap.Bet, snap.Win} {
			want := reference(&snap, Field(fld), amount)
			if !sameRegion(frame, want, FieldValue(Field(fld))) {
				t.Fatalf("%s %s: field %d does not show %d", snap.Language, f.Name, fld, amount)
			}
			if other := reference(&snap, Field(fld), amount+1); sameRegion(frame, other, FieldValue(Field(fld))) {
				t.Fatalf("%s %s: field %d matches %d as well as %d", snap.Language, f.Name, fld, amount+1, amount)
			}
		}
	}
}

func reference(s *view.Snapshot, f Field, amount engine.Money) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	r := FieldValue(f)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, cField.C.(color.RGBA))
		}
	}
	shared.FieldText(img, s, f, amount)
	return img
}

func sameRegion(a, b *image.RGBA, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		if string(a.Pix[a.PixOffset(r.Min.X, y):a.PixOffset(r.Max.X, y)]) != string(b.Pix[b.PixOffset(r.Min.X, y):b.PixOffset(r.Max.X, y)]) {
			return false
		}
	}
	return true
}

// TestWinCells: ways wins frame the matching symbols and wilds on the
// winning reels, lines the line's cells.
func TestWinCells(t *testing.T) {
	st := wsStep(engine.StepBase, WSBase, false, 100)
	for _, w := range st.Wins {
		m := WinCells(engine.WishStar, &st, &w)
		for reel := range 5 {
			for row := range 3 {
				s := WSBase[reel][row]
				in := reel < w.Count && (s == w.Symbol || reel > 0 && s == wishstar.Wild)
				if got := m&(1<<(reel*3+row)) != 0; got != in {
					t.Errorf("win %+v: cell %d/%d framed=%v", w, reel, row, got)
				}
			}
		}
	}
	ms := msStep(MSBase, 0, 50)
	if len(ms.Wins) != 1 || WinCells(engine.MagicStars, &ms, &ms.Wins[0]) != 1<<1|1<<4|1<<7 {
		t.Fatalf("cherry line: wins %+v", ms.Wins)
	}
	_ = magicstars.Cherry
}

// TestSteadyStateAllocatesNothing: once warm, a frame allocates nothing,
// idle or with the reels spinning.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	r := New()
	for _, i := range []int{1, 2, 9, 10, 12} {
		f := Fixtures("cs")[i]
		now := f.At
		r.Render(f.Snap, now)
		if a := testing.AllocsPerRun(20, func() {
			now = now.Add(16 * time.Millisecond)
			r.Render(f.Snap, now)
		}); a != 0 {
			t.Errorf("%s: %.1f allocations per frame", f.Name, a)
		}
	}
}

func benchFrame(b *testing.B, i int) {
	r := New()
	f := Fixtures("de")[i]
	now := f.At
	r.Render(f.Snap, now)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		now = now.Add(time.Millisecond) // stays inside the spin
		r.Render(f.Snap, now)
	}
}

func BenchmarkRenderIdle(b *testing.B)     { benchFrame(b, 1) }
func BenchmarkRenderSpinning(b *testing.B) { benchFrame(b, 2) }
func BenchmarkRenderWins(b *testing.B)     { benchFrame(b, 10) }

// TestStillIsHonest: whenever the renderer says the last frame stays
// right until a later instant, drawing that instant gives the same pixels,
// so the window may skip it. Idle screens must be still for a while.
func TestStillIsHonest(t *testing.T) {
	r := New()
	stillSomewhere := 0
	for _, f := range Fixtures("en") {
		for _, dt := range []time.Duration{0, 333 * time.Millisecond, 1250 * time.Millisecond, 2600 * time.Millisecond} {
			at := f.At.Add(dt)
			want := sha256.Sum256(r.Render(f.Snap, at).Pix)
			for _, later := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 90 * time.Millisecond} {
				if !r.Still(at.Add(later)) {
					continue
				}
				stillSomewhere++
				got := sha256.Sum256(r.Render(f.Snap, at.Add(later)).Pix)
				if got != want {
					t.Errorf("%s at +%v: said still until +%v, but the frame changed", f.Name, dt, later)
				}
				r.Render(f.Snap, at) // restore the still-state of at
			}
		}
	}
	if stillSomewhere < 20 {
		t.Errorf("only %d still frames: idle screens should not redraw", stillSomewhere)
	}
	idle := Fixtures("en")[1]
	r.Render(idle.Snap, idle.At)
	if !r.Still(idle.At.Add(10 * time.Millisecond)) {
		t.Error("the idle screen is not still for 10 ms")
	}
	spin := Fixtures("en")[2]
	r.Render(spin.Snap, spin.At)
	if r.Still(spin.At.Add(time.Millisecond)) {
		t.Error("spinning reels said to be still")
	}
}

// smallSymbolAt is the symbol whose key colour is nearest the key point of
// a recall cell.
func smallSymbolAt(frame *image.RGBA, g engine.GameID, grid RecallGrid, reel, row int) engine.Symbol {
	c := RecallCell(grid, reel, row)
	p := c.Min.Add(art.KeyPoint(c.Dx(), c.Dy()))
	got := frame.RGBAAt(p.X, p.Y)
	best, bestD := engine.Symbol(255), 1<<30
	for _, s := range art.Symbols(g) {
		k, _ := art.Key(g, s)
		if d := dist(got, k); d < bestD {
			best, bestD = s, d
		}
	}
	return best
}

// TestRecallShowsTheSymbols (check 11): the recall page draws the final
// screen and the step on the page with the snapshot's symbols, for random
// screens of both games (3×3 and 5×3), in every language.
func TestRecallShowsTheSymbols(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 24 {
		lang := i18n.Languages[n%3]
		g := engine.WishStar
		var final, step engine.Step
		if n%2 == 0 {
			final.Screen, step.Screen = wsRandomScreen(rng), wsRandomScreen(rng)
		} else {
			g = engine.MagicStars
			for reel := range 3 {
				for row := range 3 {
					final.Screen[reel][row] = engine.Symbol(1 + rng.IntN(8))
					step.Screen[reel][row] = engine.Symbol(1 + rng.IntN(8))
				}
			}
		}
		var s *view.Snapshot
		for _, f := range Fixtures(lang) {
			if f.Name == "menu_recall" {
				s = f.Snap
			}
		}
		page := *s.Menu
		v := *page.Recall
		v.Game, v.Final, v.StepGame, v.Step, v.Steps = g, &final, &step, 1, 3
		page.Recall = &v
		snap := *s
		snap.Menu = &page
		frame := shared.Render(&snap, T0)
		reels := 5
		if g == engine.MagicStars {
			reels = 3
		}
		for reel := range reels {
			for row := range 3 {
				if got := smallSymbolAt(frame, g, RecallFinal, reel, row); got != final.Screen[reel][row] {
					t.Fatalf("%s %s: final screen cell %d,%d shows %d, want %d", lang, g, reel, row, got, final.Screen[reel][row])
				}
				if got := smallSymbolAt(frame, g, RecallStep, reel, row); got != step.Screen[reel][row] {
					t.Fatalf("%s %s: step cell %d,%d shows %d, want %d", lang, g, reel, row, got, step.Screen[reel][row])
				}
			}
		}
	}
}

// TestDisabledHasItsOwnWording: a cabinet disabled by the central system
// does not say the link is down: its title and body differ from the
// out-of-service screen's, in every language.
func TestDisabledHasItsOwnWording(t *testing.T) {
	for _, lang := range i18n.Languages {
		var oos, dis *Fixture
		fs := Fixtures(lang)
		for i := range fs {
			switch fs[i].Name {
			case "out_of_service":
				oos = &fs[i]
			case "disabled":
				dis = &fs[i]
			}
		}
		if i18n.T(lang, "mode.disabled") == i18n.T(lang, "mode.out_of_service") || i18n.T(lang, "mode.disabled.body") == i18n.T(lang, "mode.out_of_service.body") {
			t.Fatalf("%s: the disabled wording is the link-down wording", lang)
		}
		a := image.NewRGBA(image.Rect(0, 0, W, H))
		copy(a.Pix, shared.Render(oos.Snap, oos.At).Pix)
		b := shared.Render(dis.Snap, dis.At)
		title := image.Rect(300, 260, W-300, 480) // title and body of the status panel
		if sameRegion(a, b, title) {
			t.Fatalf("%s: the disabled screen shows the out-of-service title and body", lang)
		}
		if Scene(dis.Snap, dis.At) != "disabled" {
			t.Fatalf("%s: scene %q", lang, Scene(dis.Snap, dis.At))
		}
	}
}

// A status line that names an amount shows it (check 33: the voucher's
// amount until the next game), and shows the one in the snapshot.
func TestMessageShowsItsAmount(t *testing.T) {
	f := Fixtures("en")[1]
	line := image.Rect(0, 838, W, 894)
	at := func(msg string, amount engine.Money) *image.RGBA {
		snap := *f.Snap
		snap.Message, snap.MessageAmount = msg, amount
		frame := shared.Render(&snap, f.At)
		out := image.NewRGBA(frame.Bounds())
		copy(out.Pix, frame.Pix)
		return out
	}
	plain, a, b := at(view.MsgCashoutDone, 0), at(view.MsgCashoutDone, 2000), at(view.MsgCashoutDone, 2500)
	if sameRegion(plain, a, line) || sameRegion(a, b, line) {
		t.Fatal("the status line does not show the amount it names")
	}
	if !sameRegion(a, at(view.MsgCashoutDone, 2000), line) {
		t.Fatal("the same message and amount drew differently")
	}
}

// Issue 18, fix 2: a lost Risk card stays on screen, in idle, until its
// time is up; then the game comes back.
func TestLostRiskCardStaysForItsTime(t *testing.T) {
	var f *Fixture
	for _, x := range Fixtures("en") {
		if x.Name == "risk_lost" {
			f = &x
		}
	}
	if f == nil {
		t.Fatal("no risk_lost fixture")
	}
	until := f.Snap.Risk.ShowUntil
	if got := Scene(f.Snap, until.Add(-time.Millisecond)); got != "risk" {
		t.Errorf("before its time: scene %q, want risk", got)
	}
	if got := Scene(f.Snap, until); got == "risk" {
		t.Errorf("after its time: still the risk scene")
	}
	card := bytes.Clone(shared.Render(f.Snap, until.Add(-time.Millisecond)).Pix) // the frame is reused
	if bytes.Equal(card, shared.Render(f.Snap, until).Pix) {
		t.Error("the card and the game render the same")
	}
}

// Attract mode advertises only what the market offers: a one-game market
// parades that game under its name, never "two games" and the other game's
// symbols (issue 18, fix 6).
func TestAttractShowsOnlyTheMarketsGames(t *testing.T) {
	for _, c := range []struct {
		games []engine.GameID
		rows  [2]engine.GameID
		title string
	}{
		{[]engine.GameID{engine.MagicStars}, [2]engine.GameID{engine.MagicStars, engine.MagicStars}, "Magic Stars"},
		{[]engine.GameID{engine.WishStar}, [2]engine.GameID{engine.WishStar, engine.WishStar}, "Wish Upon a Star"},
		{[]engine.GameID{engine.WishStar, engine.MagicStars}, [2]engine.GameID{engine.WishStar, engine.MagicStars}, "Two games: Wish Upon a Star and Magic Stars"},
	} {
		rows, title := attractGames(&view.Snapshot{Language: "en", Game: c.games[0], Games: c.games})
		if len(rows) != 2 || rows[0] != c.rows[0] || rows[1] != c.rows[1] || title != c.title {
			t.Errorf("market of %v: attract parades %v under %q, want %v under %q", c.games, rows, title, c.rows, c.title)
		}
	}
}

package render

import (
	"image"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

func presentationFixture(t *testing.T, lang, name string) Fixture {
	t.Helper()
	for _, f := range PresentationFixtures(lang) {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no fixture %s", name)
	return Fixture{}
}

// Each presentation fixture is the scene it is named for, in every language.
func TestPresentationScenes(t *testing.T) {
	want := map[string]string{
		"ws_big_win": "big_win", "ws_mega_win": "big_win", "ws_free_intro": "free_intro", "ws_free_total": "free_total",
		"ws_lock_intro": "lock_intro", "ws_lock_total": "lock_total", "ws_jackpot_hit": "jackpot_hit", "ms_jackpot_hit": "jackpot_hit",
	}
	for _, lang := range i18n.Languages {
		for _, f := range PresentationFixtures(lang) {
			w, ok := want[f.Name]
			if !ok {
				continue
			}
			if got := Scene(f.Snap, f.At); got != w {
				t.Errorf("%s %s: scene %q, want %q", lang, f.Name, got, w)
			}
		}
	}
	// Once the count-up and its caption's hold are over: the round's wins.
	f := presentationFixture(t, "en", "ws_big_win")
	if got := Scene(f.Snap, f.Snap.CountUp.End.Add(tierHold)); got != "wins" {
		t.Errorf("after the big win: scene %q, want wins", got)
	}
}

// While a win counts up, the Win field shows the amount counted so far and
// the Credit field the credit before the rest of it; Start's skip (End at
// the press) shows the final amounts at once.
func TestCountUpCountsTheFields(t *testing.T) {
	f := presentationFixture(t, "de", "ws_mega_win")
	s := f.Snap
	cu := s.CountUp
	shown := cu.Shown(f.At)
	if shown <= 0 || shown >= cu.Amount {
		t.Fatalf("half way the count-up shows %d of %d", shown, cu.Amount)
	}
	frame := shared.Render(s, f.At)
	for fld, amount := range map[Field]int64{FieldWin: int64(shown), FieldCredit: int64(s.Credit - (cu.Amount - cu.Credited(f.At)))} {
		if !sameRegion(frame, reference(s, fld, engineMoney(amount)), FieldValue(fld)) {
			t.Errorf("field %d half way: not %d", fld, amount)
		}
	}
	skipped := *s
	done := *cu
	done.End = f.At
	skipped.CountUp = &done
	frame = shared.Render(&skipped, f.At)
	for fld, amount := range map[Field]int64{FieldWin: int64(cu.Amount), FieldCredit: int64(s.Credit)} {
		if !sameRegion(frame, reference(&skipped, fld, engineMoney(amount)), FieldValue(fld)) {
			t.Errorf("field %d after the skip: not the final %d", fld, amount)
		}
	}
	if _, moving, _ := shared.Next(); moving {
		t.Error("a count-up that ended still redraws every frame")
	}
}

// slotRect is the status line's, which a win's caption also uses.
func slotRect(f Fixture) image.Rectangle {
	l := LayoutOf(gameOf(f.Snap))
	return image.Rect(l.Window().Min.X, 838, l.Window().Max.X, 894)
}

// A status message and a win caption never share the line: after the
// round the message has it (the line is what it would be with no win on
// screen), while the round is presented the caption has it unless the
// message answers a press.
func TestMessageNeverOverlapsTheCaption(t *testing.T) {
	for _, lang := range i18n.Languages {
		f := presentationFixture(t, lang, "msg_note_refused")
		noWin := *f.Snap
		noWin.Round = nil
		want := image.NewRGBA(image.Rect(0, 0, W, H))
		copy(want.Pix, shared.Render(&noWin, f.At).Pix)
		if got := shared.Render(f.Snap, f.At); !sameRegion(got, want, slotRect(f)) {
			t.Errorf("%s: the note refused line is drawn over the win's caption", lang)
		}

		wins := Fixtures(lang)[3] // ws_wins: presented
		copy(want.Pix, shared.Render(wins.Snap, wins.At).Pix)
		closed := *wins.Snap
		closed.Message = view.MsgDoorClosed
		if got := shared.Render(&closed, wins.At); !sameRegion(got, want, slotRect(wins)) {
			t.Errorf("%s: door closed is drawn over a presented round's caption", lang)
		}
		refused := *wins.Snap
		refused.Message = view.MsgMenuRefused
		if got := shared.Render(&refused, wins.At); sameRegion(got, want, slotRect(wins)) {
			t.Errorf("%s: a refusal during the presentation is not shown", lang)
		}
	}
}

// Lock & Spin's intro shows its triggering stars locked: each framed in
// gold where it stands, the other cells not.
func TestLockIntroShowsTheStarsLocked(t *testing.T) {
	f := presentationFixture(t, "cs", "ws_lock_intro")
	frame := shared.Render(f.Snap, f.At)
	b := view.BannerOf(f.Snap.Round.Steps, 0)
	l := LayoutOf(f.Snap.Game)
	gold := cGold.C.(interface{ RGBA() (r, g, b, a uint32) })
	gr, gg, gb, _ := gold.RGBA()
	for reel := range 5 {
		for row := range 3 {
			c := l.Cell(reel, row)
			p := frame.RGBAAt(c.Min.X+2, (c.Min.Y+c.Max.Y)/2)
			isGold := uint32(p.R)*257 == gr && uint32(p.G)*257 == gg && uint32(p.B)*257 == gb
			if locked := b.Locked&(1<<(reel*3+row)) != 0; locked != isGold {
				t.Errorf("cell %d,%d: locked %v, framed in gold %v", reel, row, locked, isGold)
			}
		}
	}
	if b.Count != 3 {
		t.Errorf("respins %d", b.Count)
	}
}

// The celebration comes before the step's feature screen, and only for
// the jackpot it celebrates.
func TestJackpotCelebration(t *testing.T) {
	f := presentationFixture(t, "en", "ws_jackpot_hit")
	tl := f.Snap.Round.Timeline[1]
	if Scene(f.Snap, tl.Celebrate.Add(-time.Millisecond)) == "jackpot_hit" {
		t.Error("celebrated before its time")
	}
	c, ok := view.CelebrationOf(f.Snap.Round.Steps, 1, 0)
	if !ok || c.Amount != 20000 {
		t.Fatalf("celebration %+v %v", c, ok)
	}
	m := presentationFixture(t, "en", "ms_jackpot_hit")
	if c, ok := view.CelebrationOf(m.Snap.Round.Steps, 0, m.Snap.Round.Jackpot); !ok || c.Amount != 1234567 {
		t.Fatalf("progressive celebration %+v %v", c, ok)
	}
}

func engineMoney(v int64) engine.Money { return engine.Money(v) }

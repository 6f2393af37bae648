package render

import (
	"image"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// A touch presses the deck button whose hint is drawn under it, or Info on
// the info target; between targets, and on screens that draw no hints (a
// service page, the information pages), it presses nothing.
func TestButtonAtMapsTouchesToDrawnButtons(t *testing.T) {
	idle := &view.Snapshot{Mode: view.ModeIdle}
	centre := func(r image.Rectangle) image.Point { return image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2) }
	for i, b := range view.Buttons {
		r := HintRect(i, len(view.Buttons))
		for _, p := range []image.Point{centre(r), r.Min, r.Max.Sub(image.Pt(1, 1))} {
			if got, ok := ButtonAt(idle, p); !ok || got != b {
				t.Fatalf("touch at %v on %s's hint: %q %v", p, b, got, ok)
			}
		}
		if got, ok := ButtonAt(idle, image.Pt(r.Max.X+1, centre(r).Y)); ok && i < len(view.Buttons)-1 {
			t.Fatalf("touch between hints pressed %q", got)
		}
	}
	if got, ok := ButtonAt(idle, centre(InfoTarget())); !ok || got != view.InfoButton {
		t.Fatalf("touch on the info target: %q %v", got, ok)
	}
	for _, p := range []image.Point{{W / 2, H / 2}, {5, 5}, {W - 5, 1040}} {
		if got, ok := ButtonAt(idle, p); ok {
			t.Fatalf("touch at %v, on no target, pressed %q", p, got)
		}
	}
	for _, m := range []view.Mode{view.ModeMenu, view.ModeInfo, view.ModeStarting} {
		if got, ok := ButtonAt(&view.Snapshot{Mode: m}, centre(HintRect(0, len(view.Buttons)))); ok {
			t.Fatalf("%s draws no hints, yet a touch pressed %q", m, got)
		}
	}
	// The info target is drawn where the screen has touch, not otherwise.
	var s *view.Snapshot
	for _, f := range Fixtures("en") {
		if f.Snap.Mode == view.ModeIdle && f.Snap.Credit > 0 {
			s = f.Snap
			break
		}
	}
	plain, touch := New(), New()
	touch.Touch = true
	edge := InfoTarget().Min.Add(image.Pt(1, 20))
	if a, b := plain.Render(s, s.Now).RGBAAt(edge.X, edge.Y), touch.Render(s, s.Now).RGBAAt(edge.X, edge.Y); a == b {
		t.Fatalf("the info target is not drawn with touch (edge %v both)", a)
	}
}

package render

import (
	"fmt"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/view"
)

// A menu page holds view.MenuLines lines and the display draws every one
// of them, the last above the hint line (the firmware pages longer lists,
// check 12): changing only the last line changes the frame, there.
func TestMenuPageDrawsEveryLine(t *testing.T) {
	var base *view.Snapshot
	for _, f := range Fixtures("en") {
		if f.Snap.Mode == view.ModeMenu && f.Snap.Menu != nil && f.Snap.Menu.Recall == nil {
			s := *f.Snap
			base = &s
			break
		}
	}
	if base == nil {
		t.Fatal("no menu fixture")
	}
	page := func(last string) []byte {
		lines := make([]view.MenuLine, view.MenuLines)
		for i := range lines {
			lines[i] = view.Line("menu.doc_in", view.Text(fmt.Sprintf("2026-12-01 12:%02d", i)), view.Key("doc.bill"), view.Money(500), view.Key("docres.stacked"))
		}
		lines[len(lines)-1] = view.Line("menu.doc_out", view.Text("2026-12-01 13:00"), view.Key("doc.voucher"), view.Money(2000), view.Text(last), view.Key("docres.printed"))
		s := *base
		s.Menu = &view.MenuPage{Title: "menu.money", Lines: lines, Page: 2, Pages: 3}
		return append([]byte(nil), New().Render(&s, base.Now).Pix...)
	}
	a, b := page("************1234"), page("************9876")
	minY, maxY := H, -1
	for i := range a {
		if a[i] != b[i] {
			y := i / 4 / W
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	if maxY < 0 {
		t.Fatalf("the page's line %d is not drawn", view.MenuLines)
	}
	if maxY >= H-60 {
		t.Fatalf("the page's last line is drawn at y %d..%d, into the hint line", minY, maxY)
	}
}

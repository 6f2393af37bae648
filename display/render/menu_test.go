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

// The footer is the one the firmware names for the page: on the seed
// entry (Bet± change the digit) it is not the paging footer, in every
// language, and only the footer differs.
func TestMenuFooterIsThePagesHint(t *testing.T) {
	for _, lang := range []string{"cs", "de", "en"} {
		var seed *view.Snapshot
		for _, f := range Fixtures(lang) {
			if f.Name == "menu_software_seed" {
				seed = f.Snap
			}
		}
		if seed == nil || MenuHint(seed.Menu) != "menu.hint.seed" {
			t.Fatalf("%s: no seed entry fixture with its footer", lang)
		}
		paging := *seed
		pm := *seed.Menu
		pm.Hint = ""
		paging.Menu = &pm
		if MenuHint(paging.Menu) != "menu.hint" {
			t.Fatalf("%s: a page without a hint has footer %q", lang, MenuHint(paging.Menu))
		}
		a := append([]byte(nil), New().Render(seed, seed.Now).Pix...)
		b := New().Render(&paging, seed.Now).Pix
		minY, maxY := H, -1
		for i := range a {
			if a[i] != b[i] {
				y := i / 4 / W
				minY, maxY = min(minY, y), max(maxY, y)
			}
		}
		if maxY < 0 || minY < H-80 {
			t.Fatalf("%s: the seed entry's footer drawn at y %d..%d, want a changed footer line only (from %d)", lang, minY, maxY, H-80)
		}
	}
}

// A page with no other page to go to is not paged: its footer does not say
// Bet± page (test mode, the handpay's printer page).
func TestSinglePageFooterDoesNotPage(t *testing.T) {
	n := 0
	for _, f := range Fixtures("en") {
		m := f.Snap.Menu
		if f.Snap.Mode != view.ModeMenu || m == nil || m.Pages > 1 || m.Title == "menu.games" {
			continue
		}
		n++
		if h := MenuHint(m); h == "menu.hint" {
			t.Errorf("%s: page %d of %d has the paging footer", f.Name, m.Page, m.Pages)
		}
	}
	if n < 3 {
		t.Fatalf("only %d single pages among the fixtures", n)
	}
}

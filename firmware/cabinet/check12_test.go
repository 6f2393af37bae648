package cabinet

import (
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/deck"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// menuPagesSeen pages through the open menu from its first page and
// returns every page as published.
func (r *rig) menuPagesSeen() []*view.MenuPage {
	r.t.Helper()
	s := r.until("a menu", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil })
	for s.Menu.Page > 1 {
		page := s.Menu.Page
		r.press(view.BetMinus)
		s = r.until("previous page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Page < page })
	}
	pages := []*view.MenuPage{s.Menu}
	for s.Menu.Page < s.Menu.Pages {
		page := s.Menu.Page
		r.press(view.BetPlus)
		s = r.until("next page", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Page > page })
		pages = append(pages, s.Menu)
	}
	return pages
}

// Check 12: the money-in/out history through the menus. After 50 notes in
// and 35 vouchers out (none redeemed) the attendant's and the technician's
// money pages show every one of the 85 lines — each page no longer than
// the display draws (view.MenuLines), the last line reachable by paging —
// and no page of either menu shows a voucher's full validation number.
func TestCheck12MoneyHistoryPagedAndMasked(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	for range ledger.DocsOutKeep {
		r.insertNote(500, 2)
		r.press(view.Collect)
		r.until("cashed out", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
		r.takeTicket()
	}
	for range ledger.DocsInKeep - ledger.DocsOutKeep {
		r.insertNote(500, 2)
	}
	var numbers []string
	for _, d := range r.prn.Printed {
		if v, ok := d.(document.Voucher); ok {
			numbers = append(numbers, v.Validation)
		}
	}
	if len(numbers) != ledger.DocsOutKeep {
		t.Fatalf("%d vouchers printed", len(numbers))
	}
	in, out := r.led.DocsIn(), r.led.DocsOut()
	if len(in) != ledger.DocsInKeep || len(out) != ledger.DocsOutKeep {
		t.Fatalf("history keeps %d in, %d out", len(in), len(out))
	}
	for _, key := range []deck.Key{deck.Attendant, deck.Technician} {
		r.cab.Post(Key{Name: key, On: true})
		pages := r.menuPagesSeen()
		var money []string
		for _, p := range pages {
			text := lines("en", r.cab.cfg.Market, p)
			if len(p.Lines) > view.MenuLines {
				t.Fatalf("%s: page %d/%d %s has %d lines, the display draws %d", key, p.Page, p.Pages, p.Title, len(p.Lines), view.MenuLines)
			}
			if p.Title == "menu.money" {
				money = append(money, text...)
			}
			for _, ln := range text {
				for _, n := range numbers {
					if strings.Contains(ln, n) {
						t.Fatalf("%s: page %s shows the full validation number %s: %q", key, p.Title, n, ln)
					}
				}
			}
		}
		if len(money) != ledger.DocsInKeep+ledger.DocsOutKeep {
			t.Fatalf("%s: the money pages show %d lines, want %d", key, len(money), ledger.DocsInKeep+ledger.DocsOutKeep)
		}
		ins, outs := 0, 0
		for _, ln := range money {
			ins += b2i(strings.HasPrefix(ln, "IN "))
			outs += b2i(strings.HasPrefix(ln, "OUT "))
		}
		if ins != ledger.DocsInKeep || outs != ledger.DocsOutKeep {
			t.Fatalf("%s: %d in and %d out lines", key, ins, outs)
		}
		// The last line: the last voucher of the history, by its last 4 digits.
		last := out[len(out)-1]
		if !strings.Contains(money[len(money)-1], last.MaskedNumber()) {
			t.Fatalf("%s: the last money line %q is not the last voucher %s", key, money[len(money)-1], last.MaskedNumber())
		}
		r.cab.Post(Key{Name: key, On: false})
		r.idle()
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

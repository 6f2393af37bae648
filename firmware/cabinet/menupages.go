package cabinet

import "github.com/polaris-vlt/polaris/firmware/view"

// paged splits a menu page longer than view.MenuLines into pages of that
// many lines, each drawn whole, paged with Bet+ and Bet− like the others:
// the money history's 50 documents in and 35 out (check 12), the meters and
// events, all reachable. Recall and test pages are not lists and are not
// split.
func paged(p *view.MenuPage) []func() *view.MenuPage {
	if len(p.Lines) <= view.MenuLines {
		return []func() *view.MenuPage{func() *view.MenuPage { return p }}
	}
	var out []func() *view.MenuPage
	for from := 0; from < len(p.Lines); from += view.MenuLines {
		part := *p
		part.Lines = p.Lines[from:min(from+view.MenuLines, len(p.Lines))]
		out = append(out, func() *view.MenuPage { return &part })
	}
	return out
}

package cabinet

import "github.com/polaris-vlt/polaris/firmware/view"

// paged splits a menu page longer than view.MenuLines into pages of that
// many lines, each drawn whole, paged with Bet+ and Bet− like the others:
// the money history's 50 documents in and 35 out (check 12), the meters and
// events, all reachable. Recall and test pages are not lists and are not
// split.
func paged(p page, s pageSource) []page {
	whole := p(s)
	if len(whole.Lines) <= view.MenuLines {
		return []page{p}
	}
	var out []page
	for from := 0; from < len(whole.Lines); from += view.MenuLines {
		part := *whole
		part.Lines = whole.Lines[from:min(from+view.MenuLines, len(whole.Lines))]
		out = append(out, func(pageSource) *view.MenuPage { return &part })
	}
	return out
}

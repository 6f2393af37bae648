package document

import (
	"strings"
	"testing"
	"time"
)

// A reprinted handpay receipt or jackpot form says DUPLICATE in its title,
// its duplicate field and its layout, in every language; the original
// says nothing of the kind. The form names the attendant who printed it.
func TestHandpayPapersReprintedSayDuplicate(t *testing.T) {
	for _, l := range []Lang{Czech, German, English} {
		h := HandpayReceipt{Lang: l, Site: "Hall", SiteID: "S-1", Machine: "7", Paid: time.Unix(0, 0).UTC(),
			Amount: 40000, Currency: CZK, Sequence: 3, Reason: HandpayLargeWin, Attendant: "A17"}
		j := JackpotForm{Lang: l, Site: "Hall", SiteID: "S-1", Machine: "7", Won: time.Unix(0, 0).UTC(),
			Amount: 5005, Currency: CZK, JackpotID: "J-1", Sequence: 4, Attendant: "A17"}
		dup := label(l, "duplicate")
		hd, jd := h, j
		hd.Duplicate, jd.Duplicate = true, true
		for _, c := range []struct {
			name     string
			orig, re Document
		}{{"receipt", h, hd}, {"form", j, jd}} {
			for _, d := range []Document{c.orig, c.re} {
				if err := d.Validate(); err != nil {
					t.Fatalf("%s %s: %v", l, c.name, err)
				}
			}
			if v, _ := FieldValue(c.re, FDuplicate); v != dup {
				t.Errorf("%s %s reprint: duplicate field %q, want %q", l, c.name, v, dup)
			}
			if v, _ := FieldValue(c.orig, FDuplicate); v != "" {
				t.Errorf("%s %s original: duplicate field %q", l, c.name, v)
			}
			if got := layoutText(c.re); !strings.Contains(got, dup) || !strings.Contains(got, "A17") {
				t.Errorf("%s %s reprint layout lacks %q or the attendant:\n%s", l, c.name, dup, got)
			}
			if got := layoutText(c.orig); strings.Contains(got, dup) {
				t.Errorf("%s %s original layout says %q", l, c.name, dup)
			}
		}
	}
}

func layoutText(d Document) string {
	var b strings.Builder
	for _, bl := range d.Layout() {
		b.WriteString(bl.Text + "\n")
	}
	return b.String()
}

package tcl

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
)

func BenchmarkParseStatus(b *testing.B) {
	fr := []byte("*S|0|GURSNGAA0|`|@|H|A|p|P2|*")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseStatus(fr, F4Monaco); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplitterFeed(b *testing.B) {
	fr := []byte("xx*S|0|GURSNGAA0|`|@|H|A|p|P2|*")
	var sp Splitter
	b.ReportAllocs()
	b.SetBytes(int64(len(fr)))
	for b.Loop() {
		if len(sp.Feed(fr)) != 1 {
			b.Fatal("no frame")
		}
	}
}

func BenchmarkEncodeVoucher(b *testing.B) {
	at := time.Date(2026, 11, 29, 18, 7, 5, 0, time.UTC)
	v := document.Voucher{Lang: document.Czech, Site: "Herna U Hvězdy", SiteID: "CZ-0042", Machine: "0017",
		Issued: at, Amount: 1234, Currency: document.CZK, Sequence: 42, Validation: "001234567890123456",
		Expiry: at.Add(time.Hour)}
	r := DefaultRoutes()[document.KindVoucher]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Print(r.Template, 1, fieldValues(v, r, false)); err != nil {
			b.Fatal(err)
		}
	}
}

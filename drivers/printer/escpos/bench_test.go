package escpos

import (
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
)

func BenchmarkJobVoucher(b *testing.B) {
	at := time.Date(2026, 11, 29, 18, 7, 5, 0, time.UTC)
	v := document.Voucher{Lang: document.Czech, Site: "Herna U Hvězdy", SiteID: "CZ-0042", Machine: "0017",
		Issued: at, Amount: 1234, Currency: document.CZK, Sequence: 42, Validation: "001234567890123456",
		Expiry: at.Add(time.Hour)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Job(v, JobOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

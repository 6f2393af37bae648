package tclemu

import "testing"

// Rendering a printed voucher (resident template '2') to PNG.
func BenchmarkPrintoutPNG(b *testing.B) {
	po, ok := layout(ResidentTemplates()['2'], []string{"00-1234-5678-9012-3456", "CASH-OUT VOUCHER", "Site", "Street 1",
		"Site 1   Machine 2", "001234567890123456", "VALIDATION 00-1234-5678-9012-3456", "Date 2026-11-29   Time 18:07:05",
		"Ticket no. 0042", "EUR 12.34", "twelve euros and thirty-four cents", "CASHABLE", "Valid until 2026-12-29 18:07"})
	if !ok {
		b.Fatal("layout")
	}
	po.Complete, po.printedTo = true, -1
	b.ReportAllocs()
	for b.Loop() {
		if _, err := po.PNG(); err != nil {
			b.Fatal(err)
		}
	}
}

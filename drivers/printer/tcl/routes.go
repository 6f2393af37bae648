package tcl

import (
	"fmt"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
)

// Route says how a kind of document is printed: through a template, with
// the document's fields in the template's positional order, or in line mode.
type Route struct {
	Template byte
	// Fields names the document field sent at each position; "" (or "0")
	// sends "0", the marker for an unused field.
	Fields   []string
	LineMode bool
}

// Printer-resident templates of standard firmware (Monaco's JCM mapping:
// cashout → '2', jackpot/handpay receipt → 'F'). The field orders below are
// Polaris's defaults; set Config.Routes to match a printer's firmware.
var (
	ResidentVoucherFields = []string{
		document.FValidationText, // leading edge
		document.FTitle, document.FSite, document.FAddress, document.FLineSite,
		document.FValidation, // barcode region
		document.FLineValidation, document.FLineDateTime, document.FLineTicket,
		document.FAmount, document.FAmountWords, document.FType, document.FLineExpiry,
	}
	ResidentHandpayFields = []string{
		document.FTitle, document.FSite, document.FLineSite, document.FLineDateTime, document.FLineTicket,
		document.FLineReason, document.FAmount, document.FAmountWords, document.FLineAttendant,
		document.FSigAttendant, document.FSigPlayer, document.FNotice,
	}
)

// DefaultRoutes: vouchers on resident template '2', handpay receipts on 'F',
// the jackpot payout form (long, with signature fields) and the audit
// ticket (as long as the cabinet's meters) in line mode.
func DefaultRoutes() map[document.Kind]Route {
	return map[document.Kind]Route{
		document.KindVoucher:     {Template: '2', Fields: ResidentVoucherFields},
		document.KindHandpay:     {Template: 'F', Fields: ResidentHandpayFields},
		document.KindJackpotForm: {LineMode: true},
		document.KindAudit:       {LineMode: true},
	}
}

// known lists every field name some document defines.
var known = map[string]bool{"": true, "0": true}

func init() {
	for _, n := range []string{document.FValidation, document.FValidationText, document.FTitle, document.FSite,
		document.FSiteID, document.FAddress, document.FMachine, document.FDate, document.FTime, document.FDateTime,
		document.FAmount, document.FAmountWords, document.FSequence, document.FType, document.FExpiry,
		document.FDuplicate, document.FReason, document.FAttendant, document.FJackpotID, document.FPayoutTerms,
		document.FNotice, document.FLineSite, document.FLineDateTime, document.FLineTicket, document.FLineValidation,
		document.FLineExpiry, document.FLineReason, document.FLineAttendant, document.FLineJackpot, document.FLineWon,
		document.FSigAttendant, document.FSigPlayer} {
		known[n] = true
	}
}

func checkRoutes(rs map[document.Kind]Route) error {
	for k, r := range rs {
		if r.LineMode {
			if k == document.KindVoucher {
				// Line mode has no "validation number done" flag: a voucher
				// printed that way could never be confirmed as issued.
				return fmt.Errorf("tcl: config: vouchers cannot print in line mode")
			}
			continue
		}
		if !ValidID(r.Template) {
			return fmt.Errorf("tcl: config: %s: template id %q", k, r.Template)
		}
		for _, f := range r.Fields {
			if !known[f] {
				return fmt.Errorf("tcl: config: %s: unknown field %q", k, f)
			}
		}
		if k == document.KindVoucher && !contains(r.Fields, document.FValidation) {
			return fmt.Errorf("tcl: config: voucher template %c has no %q field for its barcode", r.Template, document.FValidation)
		}
	}
	return nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// fieldValues lists doc's fields in route order.
func fieldValues(doc document.Document, r Route, translit bool) []string {
	out := make([]string, len(r.Fields))
	for i, name := range r.Fields {
		v, ok := document.FieldValue(doc, name)
		if name == "" || name == "0" || !ok || v == "" {
			v = "0"
		}
		if translit {
			v = Transliterate(v)
		}
		out[i] = v
	}
	return out
}

var translitMap = map[rune]string{
	'á': "a", 'č': "c", 'ď': "d", 'é': "e", 'ě': "e", 'í': "i", 'ň': "n", 'ó': "o", 'ř': "r", 'š': "s",
	'ť': "t", 'ú': "u", 'ů': "u", 'ý': "y", 'ž': "z", 'ä': "ae", 'ö': "oe", 'ü': "ue", 'ß': "ss",
	'Á': "A", 'Č': "C", 'Ď': "D", 'É': "E", 'Ě': "E", 'Í': "I", 'Ň': "N", 'Ó': "O", 'Ř': "R", 'Š': "S",
	'Ť': "T", 'Ú': "U", 'Ů': "U", 'Ý': "Y", 'Ž': "Z", 'Ä': "Ae", 'Ö': "Oe", 'Ü': "Ue",
}

// Transliterate folds Czech and German letters to ASCII for printers whose
// fonts lack them; anything else outside ASCII becomes '?'.
func Transliterate(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < 0x80:
			b = append(b, byte(r))
		case translitMap[r] != "":
			b = append(b, translitMap[r]...)
		default:
			b = append(b, '?')
		}
	}
	return string(b)
}

package document

import (
	"errors"
	"fmt"
	"github.com/polaris-vlt/polaris/money"
	"strings"
	"time"
)

// Kind names a document; printer configuration maps each kind to a template.
type Kind string

const (
	KindVoucher     Kind = "voucher"
	KindHandpay     Kind = "handpay"
	KindJackpotForm Kind = "jackpot-form"
	KindAudit       Kind = "audit" // the meter reading from the service menu
)

// Field is one named value of a document. Printer-resident TCL templates take
// fields positionally; a configured field order lists these names.
type Field struct {
	Name  string
	Value string
}

// Field names. A template's field order is a list of these.
const (
	FValidation     = "validation"      // 18 digits, as the barcode carries them
	FValidationText = "validation_text" // grouped for reading: 00-1234-5678-9012-3456
	FTitle          = "title"
	FSite           = "site"
	FSiteID         = "site_id"
	FAddress        = "address"
	FMachine        = "machine"
	FDate           = "date"
	FTime           = "time" // 24-hour
	FDateTime       = "datetime"
	FAmount         = "amount" // in figures, with currency
	FAmountWords    = "amount_words"
	FSequence       = "sequence"
	FType           = "type"
	FExpiry         = "expiry"
	FDuplicate      = "duplicate" // "DUPLICATE" on reprints, else empty
	FReason         = "reason"
	FAttendant      = "attendant"
	FJackpotID      = "jackpot_id"
	FPayoutTerms    = "payout_terms"
	FNotice         = "notice"

	// Labelled lines in the document's language, for templates whose static
	// text cannot follow the language (printer-resident templates).
	FLineSite       = "line_site"       // "Site CZ-0042   Machine 0017"
	FLineDateTime   = "line_datetime"   // "Date 29.11.2026   Time 18:07:05"
	FLineTicket     = "line_ticket"     // "Ticket no. 0042"
	FLineValidation = "line_validation" // "VALIDATION 00-1234-5678-9012-3456"
	FLineExpiry     = "line_expiry"     // "Valid until 29.12.2026 18:07"
	FLineReason     = "line_reason"
	FLineAttendant  = "line_attendant"
	FLineJackpot    = "line_jackpot"
	FLineWon        = "line_won"
	FSigAttendant   = "sig_attendant" // "Attendant signature: ______"
	FSigPlayer      = "sig_player"
)

// SignatureBlank is what a signature field prints after its label.
const SignatureBlank = "____________________"

// Align is the horizontal placement of a layout line.
type Align int

const (
	Left Align = iota
	Center
	Right
)

// BlockKind says what a layout block is.
type BlockKind int

const (
	BlockText      BlockKind = iota
	BlockBarcode             // Interleaved 2 of 5 of Text (digits)
	BlockSignature           // a labelled line to sign or fill in by hand
	BlockRule                // a horizontal separator
)

// Block is one element of a document's layout, printed top to bottom; the
// first block leaves the printer first (the leading edge).
type Block struct {
	Kind  BlockKind
	Text  string // text, barcode digits, or the signature field's label
	Align Align
	Large bool // double width and height
	Bold  bool
}

// Document is anything Polaris prints.
type Document interface {
	Kind() Kind
	// Validate reports why the document cannot be printed, or nil.
	Validate() error
	// Fields lists the document's named values (after Validate succeeds).
	Fields() []Field
	// Layout lists the document's lines for line-driven printers.
	Layout() []Block
	// ValidationNumber is the 18-digit number whose printing makes the
	// document valid money ("" for documents that carry none).
	ValidationNumber() string
}

// FieldValue looks up a named field of d.
func FieldValue(d Document, name string) (string, bool) {
	for _, f := range d.Fields() {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// ErrInvalid wraps every reason a document is refused.
var ErrInvalid = errors.New("document: invalid")

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
}

// ValidationLen is the length of a validation number (SAS convention).
const ValidationLen = 18

// CheckValidationNumber refuses anything but exactly 18 ASCII digits.
func CheckValidationNumber(v string) error {
	if len(v) != ValidationLen {
		return invalid("validation number has %d characters, want %d digits", len(v), ValidationLen)
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return invalid("validation number has a non-digit at %d", i)
		}
	}
	return nil
}

// GroupValidation formats 18 digits for reading: 00-1234-5678-9012-3456.
func GroupValidation(v string) string {
	if len(v) != ValidationLen {
		return v
	}
	return v[0:2] + "-" + v[2:6] + "-" + v[6:10] + "-" + v[10:14] + "-" + v[14:18]
}

// FormatAmount writes amount (minor units) in figures as lang writes money.
func FormatAmount(lang Lang, amount int64, cur money.Currency) string {
	neg := amount < 0
	if neg {
		amount = -amount
	}
	major, minor := cur.Split(amount)
	sep, dec := " ", ","
	switch lang {
	case German:
		sep = "."
	case English:
		sep, dec = ",", "."
	}
	digits := fmt.Sprint(major)
	var b strings.Builder
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(r)
	}
	s := b.String()
	if cur.MinorUnits > 0 {
		s += dec + fmt.Sprintf("%0*d", cur.MinorUnits, minor)
	}
	if neg {
		s = "-" + s
	}
	if lang == English {
		return cur.Code + " " + s
	}
	return s + " " + cur.Code
}

// FormatDate and FormatTime write t as lang writes dates and 24-hour times.
func FormatDate(lang Lang, t time.Time) string {
	if lang == English {
		return t.Format("2006-01-02")
	}
	return t.Format("02.01.2006")
}

func FormatTime(t time.Time) string { return t.Format("15:04:05") }

// printable refuses control characters in text fields: they would be
// commands to a printer.
func printable(name, s string) error {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return invalid("%s contains control character %U", name, r)
		}
	}
	return nil
}

func needText(name, s string, max int) error {
	if strings.TrimSpace(s) == "" {
		return invalid("%s is empty", name)
	}
	if len([]rune(s)) > max {
		return invalid("%s is longer than %d characters", name, max)
	}
	return printable(name, s)
}

func optText(name, s string, max int) error {
	if s == "" {
		return nil
	}
	return needText(name, s, max)
}

package document

import (
	"fmt"
	"github.com/polaris-vlt/polaris/money"
	"time"
)

// TicketType is the transaction type printed on a voucher.
type TicketType int

const (
	Cashable TicketType = iota
	Promotional
	TestTicket // test mode: the only ticket test mode may print, numbered TestValidation
)

// TestValidation is the number a test ticket carries: no central system
// issues a number of zeros, so it never redeems.
const TestValidation = "000000000000000000"

func (t TicketType) key() string {
	switch t {
	case Promotional:
		return "type.promo"
	case TestTicket:
		return "type.test"
	}
	return "type.cashable"
}

// Voucher is a cash-out ticket (TITO). Its validation number is printed at the
// leading edge and again under the barcode (standards.md §1.8, check 21).
type Voucher struct {
	Lang       Lang
	Site       string // site name, as the validation system supplies it
	SiteID     string
	Address    string // optional
	Machine    string // machine number
	Issued     time.Time
	Amount     int64 // minor units of Currency
	Currency   money.Currency
	Sequence   uint32
	Validation string // 18 digits
	Type       TicketType
	Expiry     time.Time
	Duplicate  bool // a reprint
}

func (v Voucher) Kind() Kind               { return KindVoucher }
func (v Voucher) ValidationNumber() string { return v.Validation }

func (v Voucher) Validate() error {
	if !v.Lang.Valid() {
		return invalid("language %q", v.Lang)
	}
	if err := supported(v.Currency); err != nil {
		return invalid("%v", err)
	}
	if v.Amount <= 0 {
		return invalid("voucher amount %d must be positive", v.Amount)
	}
	if maj, _ := v.Currency.Split(v.Amount); maj > MaxWordsMajor {
		return invalid("voucher amount %d too large", v.Amount)
	}
	if err := CheckValidationNumber(v.Validation); err != nil {
		return err
	}
	if err := needText("site", v.Site, 40); err != nil {
		return err
	}
	if err := needText("site id", v.SiteID, 20); err != nil {
		return err
	}
	if err := optText("address", v.Address, 40); err != nil {
		return err
	}
	if err := needText("machine", v.Machine, 20); err != nil {
		return err
	}
	if v.Issued.IsZero() {
		return invalid("issue time is missing")
	}
	if !v.Expiry.After(v.Issued) {
		return invalid("expiry %v is not after issue %v", v.Expiry, v.Issued)
	}
	if v.Type < Cashable || v.Type > TestTicket {
		return invalid("ticket type %d", v.Type)
	}
	return nil
}

func (v Voucher) words() string {
	w, err := Words(v.Lang, v.Amount, v.Currency)
	if err != nil {
		return ""
	}
	return w
}

func (v Voucher) title() string {
	t := label(v.Lang, "voucher.title")
	if v.Duplicate {
		t += " - " + label(v.Lang, "duplicate")
	}
	return t
}

func (v Voucher) Fields() []Field {
	dup := ""
	if v.Duplicate {
		dup = label(v.Lang, "duplicate")
	}
	return []Field{
		{FValidation, v.Validation},
		{FValidationText, GroupValidation(v.Validation)},
		{FTitle, v.title()},
		{FSite, v.Site},
		{FSiteID, v.SiteID},
		{FAddress, v.Address},
		{FMachine, v.Machine},
		{FDate, FormatDate(v.Lang, v.Issued)},
		{FTime, FormatTime(v.Issued)},
		{FDateTime, FormatDate(v.Lang, v.Issued) + " " + FormatTime(v.Issued)},
		{FAmount, FormatAmount(v.Lang, v.Amount, v.Currency)},
		{FAmountWords, v.words()},
		{FSequence, fmt.Sprintf("%04d", v.Sequence)},
		{FType, label(v.Lang, v.Type.key())},
		{FExpiry, FormatDate(v.Lang, v.Expiry) + " " + v.Expiry.Format("15:04")},
		{FDuplicate, dup},
		{FLineSite, v.lineSite()},
		{FLineDateTime, v.lineDateTime()},
		{FLineTicket, label(v.Lang, "ticket") + " " + fmt.Sprintf("%04d", v.Sequence)},
		{FLineValidation, label(v.Lang, "validation") + " " + GroupValidation(v.Validation)},
		{FLineExpiry, v.lineExpiry()},
	}
}

func (v Voucher) lineSite() string {
	return label(v.Lang, "site") + " " + v.SiteID + "   " + label(v.Lang, "machine") + " " + v.Machine
}

func (v Voucher) lineDateTime() string {
	return label(v.Lang, "date") + " " + FormatDate(v.Lang, v.Issued) + "   " + label(v.Lang, "time") + " " + FormatTime(v.Issued)
}

func (v Voucher) lineExpiry() string {
	return label(v.Lang, "valid_until") + " " + FormatDate(v.Lang, v.Expiry) + " " + v.Expiry.Format("15:04")
}

func (v Voucher) Layout() []Block {
	l := v.Lang
	b := []Block{
		{Kind: BlockText, Text: GroupValidation(v.Validation), Align: Center, Bold: true}, // leading edge
		{Kind: BlockText, Text: v.title(), Align: Center, Large: true},
		{Kind: BlockText, Text: v.Site, Align: Center, Bold: true},
	}
	if v.Address != "" {
		b = append(b, Block{Kind: BlockText, Text: v.Address, Align: Center})
	}
	b = append(b,
		Block{Kind: BlockText, Text: v.lineSite(), Align: Center},
		Block{Kind: BlockRule},
		Block{Kind: BlockBarcode, Text: v.Validation, Align: Center},
		Block{Kind: BlockText, Text: label(l, "validation") + " " + GroupValidation(v.Validation), Align: Center, Bold: true},
		Block{Kind: BlockText, Text: v.lineDateTime()},
		Block{Kind: BlockText, Text: label(l, "ticket") + " " + fmt.Sprintf("%04d", v.Sequence)},
		Block{Kind: BlockText, Text: FormatAmount(l, v.Amount, v.Currency), Align: Center, Large: true},
		Block{Kind: BlockText, Text: v.words(), Align: Center},
		Block{Kind: BlockText, Text: label(l, v.Type.key()), Align: Center, Bold: true},
		Block{Kind: BlockText, Text: v.lineExpiry(), Align: Center},
	)
	return b
}

package document

import (
	"fmt"
	"github.com/polaris-vlt/polaris/money"
	"time"
)

// HandpayReason says why an attendant paid by hand.
type HandpayReason int

const (
	HandpayLargeWin HandpayReason = iota
	HandpayCancelCredit
	HandpayJackpot
)

func (r HandpayReason) key() string {
	switch r {
	case HandpayCancelCredit:
		return "reason.cancelcredit"
	case HandpayJackpot:
		return "reason.jackpot"
	}
	return "reason.largewin"
}

// HandpayReceipt records a handpay after the attendant reset the lockup. It
// is not money: it carries no validation number and no barcode.
type HandpayReceipt struct {
	Lang      Lang
	Site      string
	SiteID    string
	Machine   string
	Paid      time.Time
	Amount    int64
	Currency  money.Currency
	Sequence  uint32
	Reason    HandpayReason
	Attendant string // the attendant's id (card or PIN), or the key
	Duplicate bool   // a reprint from the attendant's menu
}

func (h HandpayReceipt) title() string { return titled(h.Lang, "handpay.title", h.Duplicate) }

// titled is a document's title, marked on a reprint.
func titled(l Lang, key string, duplicate bool) string {
	if duplicate {
		return label(l, key) + " - " + label(l, "duplicate")
	}
	return label(l, key)
}

func duplicateField(l Lang, duplicate bool) Field {
	if duplicate {
		return Field{FDuplicate, label(l, "duplicate")}
	}
	return Field{FDuplicate, ""}
}

func (h HandpayReceipt) Kind() Kind               { return KindHandpay }
func (h HandpayReceipt) ValidationNumber() string { return "" }

func (h HandpayReceipt) Validate() error {
	if !h.Lang.Valid() {
		return invalid("language %q", h.Lang)
	}
	if err := supported(h.Currency); err != nil {
		return invalid("%v", err)
	}
	if h.Amount <= 0 {
		return invalid("handpay amount %d must be positive", h.Amount)
	}
	if maj, _ := h.Currency.Split(h.Amount); maj > MaxWordsMajor {
		return invalid("handpay amount %d too large", h.Amount)
	}
	for _, c := range []struct{ n, v string }{{"site", h.Site}, {"site id", h.SiteID}, {"machine", h.Machine}, {"attendant", h.Attendant}} {
		if err := needText(c.n, c.v, 40); err != nil {
			return err
		}
	}
	if h.Paid.IsZero() {
		return invalid("payment time is missing")
	}
	if h.Reason < HandpayLargeWin || h.Reason > HandpayJackpot {
		return invalid("handpay reason %d", h.Reason)
	}
	return nil
}

func (h HandpayReceipt) Fields() []Field {
	w, _ := Words(h.Lang, h.Amount, h.Currency)
	return []Field{
		{FTitle, h.title()},
		duplicateField(h.Lang, h.Duplicate),
		{FSite, h.Site},
		{FSiteID, h.SiteID},
		{FMachine, h.Machine},
		{FDate, FormatDate(h.Lang, h.Paid)},
		{FTime, FormatTime(h.Paid)},
		{FDateTime, FormatDate(h.Lang, h.Paid) + " " + FormatTime(h.Paid)},
		{FAmount, FormatAmount(h.Lang, h.Amount, h.Currency)},
		{FAmountWords, w},
		{FSequence, fmt.Sprintf("%04d", h.Sequence)},
		{FReason, label(h.Lang, h.Reason.key())},
		{FAttendant, h.Attendant},
		{FNotice, label(h.Lang, "handpay.notice")},
		{FLineSite, label(h.Lang, "site") + " " + h.SiteID + "   " + label(h.Lang, "machine") + " " + h.Machine},
		{FLineDateTime, label(h.Lang, "date") + " " + FormatDate(h.Lang, h.Paid) + "   " + label(h.Lang, "time") + " " + FormatTime(h.Paid)},
		{FLineTicket, label(h.Lang, "ticket") + " " + fmt.Sprintf("%04d", h.Sequence)},
		{FLineReason, label(h.Lang, "reason") + ": " + label(h.Lang, h.Reason.key())},
		{FLineAttendant, label(h.Lang, "attendant") + ": " + h.Attendant},
		{FSigAttendant, label(h.Lang, "sig.attendant") + ": " + SignatureBlank},
		{FSigPlayer, label(h.Lang, "sig.player") + ": " + SignatureBlank},
	}
}

func (h HandpayReceipt) Layout() []Block {
	l := h.Lang
	w, _ := Words(l, h.Amount, h.Currency)
	return []Block{
		{Kind: BlockText, Text: h.title(), Align: Center, Large: true},
		{Kind: BlockText, Text: h.Site, Align: Center, Bold: true},
		{Kind: BlockText, Text: label(l, "site") + " " + h.SiteID + "   " + label(l, "machine") + " " + h.Machine, Align: Center},
		{Kind: BlockRule},
		{Kind: BlockText, Text: label(l, "date") + " " + FormatDate(l, h.Paid) + "   " + label(l, "time") + " " + FormatTime(h.Paid)},
		{Kind: BlockText, Text: label(l, "ticket") + " " + fmt.Sprintf("%04d", h.Sequence)},
		{Kind: BlockText, Text: label(l, "reason") + ": " + label(l, h.Reason.key())},
		{Kind: BlockText, Text: FormatAmount(l, h.Amount, h.Currency), Align: Center, Large: true},
		{Kind: BlockText, Text: w, Align: Center},
		{Kind: BlockText, Text: label(l, "attendant") + ": " + h.Attendant},
		{Kind: BlockSignature, Text: label(l, "sig.attendant")},
		{Kind: BlockSignature, Text: label(l, "sig.player")},
		{Kind: BlockText, Text: label(l, "handpay.notice"), Align: Center, Bold: true},
	}
}

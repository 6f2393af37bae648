package document

import (
	"fmt"
	"github.com/polaris-vlt/polaris/money"
	"time"
)

// VenueJackpotLimit is the largest Magic Stars jackpot the venue pays itself
// (MS-18: up to 50 000 CZK at the venue within 7 days; larger ones at the
// operator's seat within 30 days). In minor units of CZK (exponent 0).
const VenueJackpotLimit int64 = 50_000

// JackpotForm is the Magic Stars jackpot payout form (GAME_RULES.md MS-18):
// the jackpot is never credited; staff pay it after checking the winner's
// identity, and winner and staff fill in and sign this form. The hand-filled
// parts are printed as labelled signature fields.
type JackpotForm struct {
	Lang      Lang
	Site      string
	SiteID    string
	Machine   string
	Won       time.Time
	Amount    int64 // CZK
	Currency  money.Currency
	JackpotID string // the central system's id of the hit
	Sequence  uint32
	Attendant string // the attendant who printed it for the winner (optional)
	Duplicate bool   // a reprint from the attendant's menu
}

func (j JackpotForm) Kind() Kind               { return KindJackpotForm }
func (j JackpotForm) ValidationNumber() string { return "" }

func (j JackpotForm) Validate() error {
	if !j.Lang.Valid() {
		return invalid("language %q", j.Lang)
	}
	if !Is(j.Currency, CZK) {
		return invalid("Magic Stars jackpots are paid in CZK, not %s", j.Currency.Code)
	}
	if j.Amount <= 0 || j.Amount > MaxWordsMajor {
		return invalid("jackpot amount %d", j.Amount)
	}
	for _, c := range []struct{ n, v string }{{"site", j.Site}, {"site id", j.SiteID}, {"machine", j.Machine}, {"jackpot id", j.JackpotID}} {
		if err := needText(c.n, c.v, 40); err != nil {
			return err
		}
	}
	if j.Attendant != "" {
		if err := needText("attendant", j.Attendant, 40); err != nil {
			return err
		}
	}
	if j.Won.IsZero() {
		return invalid("win time is missing")
	}
	return nil
}

// PaidAtVenue reports whether MS-18 lets the venue pay this jackpot.
func (j JackpotForm) PaidAtVenue() bool { return j.Amount <= VenueJackpotLimit }

func (j JackpotForm) terms() string {
	if j.PaidAtVenue() {
		return label(j.Lang, "terms.venue")
	}
	return label(j.Lang, "terms.seat")
}

func (j JackpotForm) Fields() []Field {
	w, _ := Words(j.Lang, j.Amount, j.Currency)
	return []Field{
		{FTitle, titled(j.Lang, "jackpot.title", j.Duplicate)},
		duplicateField(j.Lang, j.Duplicate),
		{FAttendant, j.Attendant},
		{FSite, j.Site},
		{FSiteID, j.SiteID},
		{FMachine, j.Machine},
		{FDate, FormatDate(j.Lang, j.Won)},
		{FTime, FormatTime(j.Won)},
		{FDateTime, FormatDate(j.Lang, j.Won) + " " + FormatTime(j.Won)},
		{FAmount, FormatAmount(j.Lang, j.Amount, j.Currency)},
		{FAmountWords, w},
		{FJackpotID, j.JackpotID},
		{FSequence, fmt.Sprintf("%04d", j.Sequence)},
		{FPayoutTerms, j.terms()},
		{FNotice, label(j.Lang, "jackpot.notice")},
		{FLineSite, label(j.Lang, "site") + " " + j.SiteID + "   " + label(j.Lang, "machine") + " " + j.Machine},
		{FLineJackpot, label(j.Lang, "jackpot.id") + " " + j.JackpotID + "   " + label(j.Lang, "ticket") + " " + fmt.Sprintf("%04d", j.Sequence)},
		{FLineWon, label(j.Lang, "won") + " " + FormatDate(j.Lang, j.Won) + " " + FormatTime(j.Won)},
	}
}

func (j JackpotForm) Layout() []Block {
	l := j.Lang
	w, _ := Words(l, j.Amount, j.Currency)
	sig := func(k string) Block { return Block{Kind: BlockSignature, Text: label(l, k)} }
	return []Block{
		{Kind: BlockText, Text: titled(l, "jackpot.title", j.Duplicate), Align: Center, Bold: true},
		{Kind: BlockText, Text: j.Site, Align: Center, Bold: true},
		{Kind: BlockText, Text: label(l, "site") + " " + j.SiteID + "   " + label(l, "machine") + " " + j.Machine, Align: Center},
		{Kind: BlockRule},
		{Kind: BlockText, Text: label(l, "jackpot.id") + " " + j.JackpotID + "   " + label(l, "ticket") + " " + fmt.Sprintf("%04d", j.Sequence)},
		{Kind: BlockText, Text: label(l, "won") + " " + FormatDate(l, j.Won) + " " + FormatTime(j.Won)},
		{Kind: BlockText, Text: FormatAmount(l, j.Amount, j.Currency), Align: Center, Large: true},
		{Kind: BlockText, Text: w, Align: Center},
		{Kind: BlockText, Text: j.terms(), Align: Center, Bold: true},
		{Kind: BlockRule},
		{Kind: BlockText, Text: label(l, "winner"), Bold: true},
		sig("f.name"), sig("f.birth"), sig("f.idno"), sig("f.address"), sig("f.signature"),
		{Kind: BlockText, Text: label(l, "staff"), Bold: true},
		j.attendantLine(),
		sig("f.staffname"), sig("f.paiddate"), sig("f.signature"),
		{Kind: BlockRule},
		{Kind: BlockText, Text: label(l, "jackpot.notice"), Align: Center, Bold: true},
	}
}

// attendantLine names the attendant who printed the form; without one the
// staff fill in their name by hand below.
func (j JackpotForm) attendantLine() Block {
	if j.Attendant == "" {
		return Block{Kind: BlockRule}
	}
	return Block{Kind: BlockText, Text: label(j.Lang, "attendant") + ": " + j.Attendant}
}

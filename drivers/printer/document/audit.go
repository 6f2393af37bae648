package document

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/polaris-vlt/polaris/money"
)

// AuditTicket is the meter reading a technician or attendant prints from
// the service menu: the cabinet's identity, the software that runs, when,
// and every meter. It is not money (no validation number) and prints in
// line mode on either printer.
type AuditTicket struct {
	Lang     Lang
	Site     string
	SiteID   string
	Machine  string
	Printed  time.Time
	Currency money.Currency
	Version  string // the software version
	Software string // the software id: the verified manifest's digest
	By       string // who printed it: "technician", "attendant" or an attendant's id
	Meters   []AuditMeter
}

// AuditMeter is one meter line: Name is the ledger's meter name (coin_in,
// games_played, …), printed under its label in the ticket's language, or
// as it is when the labels do not know it.
type AuditMeter struct {
	Name  string
	Value int64 // minor units when Money, else a count
	Money bool
}

// AuditWidth is the characters of an audit line: both printers' line width
// at normal size.
const AuditWidth = 42

func (a AuditTicket) Kind() Kind               { return KindAudit }
func (a AuditTicket) ValidationNumber() string { return "" }

func (a AuditTicket) Validate() error {
	if !a.Lang.Valid() {
		return invalid("language %q", a.Lang)
	}
	if err := supported(a.Currency); err != nil {
		return invalid("%v", err)
	}
	for _, c := range []struct{ n, v string }{{"site", a.Site}, {"site id", a.SiteID}, {"machine", a.Machine}, {"printed by", a.By}} {
		if err := needText(c.n, c.v, 40); err != nil {
			return err
		}
	}
	for _, c := range []struct{ n, v string }{{"version", a.Version}, {"software id", a.Software}} {
		if err := optText(c.n, c.v, 80); err != nil {
			return err
		}
	}
	if a.Printed.IsZero() {
		return invalid("print time is missing")
	}
	if len(a.Meters) == 0 {
		return invalid("an audit ticket without meters")
	}
	for _, m := range a.Meters {
		if err := needText("meter name", m.Name, 40); err != nil {
			return err
		}
	}
	return nil
}

func (a AuditTicket) Fields() []Field {
	l := a.Lang
	fs := []Field{
		{FTitle, label(l, "audit.title")},
		{FSite, a.Site},
		{FSiteID, a.SiteID},
		{FMachine, a.Machine},
		{FDate, FormatDate(l, a.Printed)},
		{FTime, FormatTime(a.Printed)},
		{FDateTime, FormatDate(l, a.Printed) + " " + FormatTime(a.Printed)},
		{FLineSite, label(l, "site") + " " + a.SiteID + "   " + label(l, "machine") + " " + a.Machine},
		{FLineDateTime, label(l, "date") + " " + FormatDate(l, a.Printed) + "   " + label(l, "time") + " " + FormatTime(a.Printed)},
	}
	for _, m := range a.Meters {
		fs = append(fs, Field{"meter." + m.Name, a.value(m)})
	}
	return fs
}

func (a AuditTicket) value(m AuditMeter) string {
	if m.Money {
		return FormatAmount(a.Lang, m.Value, a.Currency)
	}
	return groupCount(a.Lang, m.Value)
}

// groupCount writes n with the language's thousands separator.
func groupCount(l Lang, n int64) string {
	sep := ","
	switch l {
	case Czech:
		sep = " "
	case German:
		sep = "."
	}
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// column is name and value on one line of AuditWidth, dot-led; a name too
// long for both is cut.
func column(name, value string) string {
	room := AuditWidth - utf8.RuneCountInString(value) - 1
	if r := []rune(name); len(r) > room-1 {
		name = string(r[:room-1])
	}
	return name + " " + strings.Repeat(".", room-utf8.RuneCountInString(name)-1) + " " + value
}

func (a AuditTicket) Layout() []Block {
	l := a.Lang
	bs := []Block{
		{Kind: BlockText, Text: label(l, "audit.title"), Align: Center, Large: true},
		{Kind: BlockText, Text: a.Site, Align: Center, Bold: true},
		{Kind: BlockText, Text: label(l, "site") + " " + a.SiteID + "   " + label(l, "machine") + " " + a.Machine, Align: Center},
		{Kind: BlockText, Text: label(l, "date") + " " + FormatDate(l, a.Printed) + "   " + label(l, "time") + " " + FormatTime(a.Printed), Align: Center},
		{Kind: BlockRule},
		{Kind: BlockText, Text: label(l, "audit.version") + ": " + orDash(a.Version)},
		{Kind: BlockText, Text: label(l, "audit.software") + ":"},
	}
	// The digest in pieces that fit a line: Wrap does not break a word.
	for id := orDash(a.Software); id != ""; {
		n := min(len(id), AuditWidth)
		bs = append(bs, Block{Kind: BlockText, Text: id[:n]})
		id = id[n:]
	}
	bs = append(bs, Block{Kind: BlockRule}, Block{Kind: BlockText, Text: label(l, "audit.meters"), Bold: true})
	for _, m := range a.Meters {
		name, ok := labels[l]["meter."+m.Name]
		if !ok {
			name = m.Name
		}
		bs = append(bs, Block{Kind: BlockText, Text: column(name, a.value(m))})
	}
	return append(bs, Block{Kind: BlockRule},
		Block{Kind: BlockText, Text: fmt.Sprintf("%s: %s", label(l, "audit.by"), a.by())},
		Block{Kind: BlockText, Text: label(l, "audit.notice"), Align: Center, Bold: true})
}

// by is who printed it: a role in the ticket's language, or an attendant's id.
func (a AuditTicket) by() string {
	if s, ok := labels[a.Lang]["by."+a.By]; ok {
		return s
	}
	return a.By
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

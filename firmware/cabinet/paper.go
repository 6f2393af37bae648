package cabinet

import (
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/market"
)

// paper is what every document the cabinet prints says of it: the
// market's language and currency, the site and the cabinet's id. Vouchers,
// handpay receipts and forms, test tickets and the audit ticket are laid
// out from it (drivers/printer/document draws them).
type paper struct {
	market *market.Profile
	site   Site
	id     string
}

// voucher is the cash-out voucher co, issued at now.
func (p paper) voucher(co *cashoutState, now time.Time) document.Voucher {
	return document.Voucher{
		Lang:       document.Lang(p.market.Language),
		Site:       p.site.Name,
		SiteID:     p.site.ID,
		Machine:    p.id,
		Issued:     now,
		Amount:     int64(co.amount),
		Currency:   p.market.Currency,
		Sequence:   uint32(co.doc),
		Validation: co.validation,
		Type:       document.Cashable,
		Expiry:     now.AddDate(0, 0, p.market.Timers.VoucherExpiryDays),
		Duplicate:  co.reprint,
	}
}

// testTicket is test mode's ticket: marked TEST - NOT VALID, no money.
func (p paper) testTicket(now time.Time) document.Voucher {
	return document.Voucher{Lang: document.Lang(p.market.Language), Site: p.site.Name, SiteID: p.site.ID,
		Machine: p.id, Issued: now, Amount: 100, Currency: p.market.Currency, Validation: document.TestValidation,
		Type: document.TestTicket, Expiry: now.Add(time.Minute)}
}

package ledger

import (
	"strconv"
	"strings"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
)

// CreditMeters makes the ledger a link.CreditSource: the cumulative meters
// the central system's credit mirror needs, sent with each voucher request
// and Hello. Refused in RAM error (the meters are suspect): the central
// system then issues no voucher.
func (l *Ledger) CreditMeters() (link.CreditMeters, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.ram != nil || l.suspect {
		return link.CreditMeters{}, ErrRAMError
	}
	m := metersOf(l.kv, ScopeCabinet)
	var unprinted []uint64
	ks := keysWithPrefix(l.kv, "unprinted/")
	for _, k := range ks[max(0, len(ks)-link.MaxUnprinted):] {
		if id, err := strconv.ParseUint(strings.TrimPrefix(k, "unprinted/"), 10, 64); err == nil {
			unprinted = append(unprinted, id)
		}
	}
	return link.CreditMeters{Unprinted: unprinted,
		Base: engine.Money(intOf(l.kv, "inv/base")), BillsIn: engine.Money(m[BillsInValue]),
		WinsToCredit: engine.Money(m[CoinOut]), HandpayCancelled: engine.Money(m[HandpayCancelledCredit]),
		Credit: engine.Money(intOf(l.kv, "credit")),
	}, nil
}

package ledger

import (
	"strconv"
	"strings"
)

// CreditState is what the central system's credit mirror needs
// (central/PROTOCOL.md, "The credit mirror"): the cumulative meters, the
// credit, and the newest vouchers issued but never printed (it voids
// them). firmware/outbox hands it to the link.
type CreditState struct {
	Base, BillsIn, WinsToCredit, HandpayCancelled, Credit int64
	Unprinted                                             []uint64
}

// CreditState reads it, with at most maxUnprinted unprinted vouchers (the
// newest). Refused in RAM error (the meters are suspect): the central
// system then issues no voucher.
func (l *Ledger) CreditState(maxUnprinted int) (CreditState, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.ram != nil || l.suspect {
		return CreditState{}, ErrRAMError
	}
	m := metersOf(l.kv, ScopeCabinet)
	var unprinted []uint64
	ks := keysWithPrefix(l.kv, "unprinted/")
	for _, k := range ks[max(0, len(ks)-maxUnprinted):] {
		if id, err := strconv.ParseUint(strings.TrimPrefix(k, "unprinted/"), 10, 64); err == nil {
			unprinted = append(unprinted, id)
		}
	}
	return CreditState{Unprinted: unprinted,
		Base: intOf(l.kv, "inv/base"), BillsIn: m[BillsInValue],
		WinsToCredit: m[CoinOut], HandpayCancelled: m[HandpayCancelledCredit],
		Credit: intOf(l.kv, "credit"),
	}, nil
}

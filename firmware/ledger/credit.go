package ledger

import (
	"encoding/json"
	"strconv"
	"strings"
)

// CreditState is what the central system's credit mirror needs
// (central/PROTOCOL.md, "The credit mirror"): the cumulative meters, the
// credit as the mirror counts it, and the newest vouchers issued but never
// printed (it voids them). firmware/outbox hands it to the link.
//
// Credit is the credit meter less the vouchers journalled as printing: the
// central system counted each out when it issued its number, the meter
// only when the printer confirms it (after a power cut, when the duplicate
// is printed). Without that a Hello between the two, a cabinet restarted
// mid-print, was a MIRROR_DIFFERS alarm for money that is where the mirror
// says; a print that fails puts the voucher in Unprinted instead, and the
// central system gives its amount back.
//
// StakeInFlight is the stake of the open round while the ledger holds no
// outcome for it: debited here, but booked by the central system only if
// its draw got there before the power went (the outcome lost on the way
// back). Until the round is asked again the credit cannot be compared
// with the mirror either way.
//
// VoucherRequested is the amount of a voucher requested (VoucherRequested)
// whose number the ledger has not: the central system may have issued it
// (counted out of the mirror) before the power went, or not. Until it is
// asked again the credit cannot be compared either.
//
// TicketsToConfirm is the amount of the tickets credited here whose
// redemption the central system has not yet been told of (their holds
// "to confirm", after a power cut between the credit and the confirm): it
// books a ticket into its mirror when it is confirmed, so until then the
// credit cannot be compared either.
type CreditState struct {
	Base, BillsIn, WinsToCredit, HandpayCancelled, Credit int64
	Unprinted                                             []uint64
	StakeInFlight                                         int64
	VoucherRequested                                      int64
	TicketsToConfirm                                      int64
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
	printing, requested := int64(0), int64(0)
	for _, d := range pendingOf(l.kv) {
		if d.Kind == DocVoucher && d.Number != "" {
			printing += d.Amount
		} else if d.Kind == DocVoucher {
			requested += d.Amount
		}
	}
	var unprinted []uint64
	ks := keysWithPrefix(l.kv, "unprinted/")
	for _, k := range ks[max(0, len(ks)-maxUnprinted):] {
		if id, err := strconv.ParseUint(strings.TrimPrefix(k, "unprinted/"), 10, 64); err == nil {
			unprinted = append(unprinted, id)
		}
	}
	var inFlight int64
	if b, ok := l.kv["open/round"]; ok {
		var n uint64
		var r Round
		if json.Unmarshal(b, &n) == nil && json.Unmarshal(l.kv[seqKey("round", n)], &r) == nil && r.Outcome == nil {
			inFlight = r.Stake
		}
	}
	var toConfirm int64
	for _, h := range resumeOf(l.kv).Holds {
		if h.Result == DocStacked {
			toConfirm += h.Amount
		}
	}
	return CreditState{Unprinted: unprinted, StakeInFlight: inFlight, VoucherRequested: requested, TicketsToConfirm: toConfirm,
		Base: intOf(l.kv, "inv/base"), BillsIn: m[BillsInValue],
		WinsToCredit: m[CoinOut], HandpayCancelled: m[HandpayCancelledCredit],
		Credit: intOf(l.kv, "credit") - printing,
	}, nil
}

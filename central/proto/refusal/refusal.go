// Package refusal is the vocabulary of the central system's refusals: the
// stable reason a refused call carries (google.rpc.ErrorInfo.Reason, domain
// Domain, on the gRPC status), and what the cabinet does with a wager whose
// round is refused with it. The server refuses with these reasons, the
// players' rules refuse with them, and the cabinet's client (central/link)
// decides from them; none restates them.
package refusal

import "sort"

// Domain is the ErrorInfo domain of every refusal.
const Domain = "polaris.central"

// Reason is the stable code of one refusal.
type Reason string

// The central system's refusals.
const (
	UnknownCabinet  Reason = "UNKNOWN_CABINET"
	CabinetDisabled Reason = "CABINET_DISABLED"
	ModelMismatch   Reason = "MODEL_MISMATCH"
	UnknownGame     Reason = "UNKNOWN_GAME"
	BadStake        Reason = "BAD_STAKE"
	BadRequest      Reason = "BAD_REQUEST"
	RoundConflict   Reason = "ROUND_CONFLICT"
	RoundNotFound   Reason = "ROUND_NOT_FOUND"
	RiskNotAllowed  Reason = "RISK_NOT_ALLOWED"
	RiskConflict    Reason = "RISK_CONFLICT"
	VoucherUnknown  Reason = "VOUCHER_UNKNOWN"
	VoucherInvalid  Reason = "VOUCHER_INVALID"
	VoucherExpired  Reason = "VOUCHER_EXPIRED"
	VoucherRedeemed Reason = "VOUCHER_REDEEMED"
	VoucherHeld     Reason = "VOUCHER_HELD_ELSEWHERE"
	VoucherHold     Reason = "VOUCHER_HOLD_MISMATCH"
	VoucherAmount   Reason = "VOUCHER_AMOUNT_MISMATCH"
	VoucherConflict Reason = "VOUCHER_SEQUENCE_CONFLICT"
	StoreFailed     Reason = "STORE_FAILED"
	Jackpot         Reason = "JACKPOT_REFUSED"
	Stopping        Reason = "SERVER_STOPPING"
	Revoked         Reason = "CERTIFICATE_REVOKED" // not the cabinet's registered certificate
	RoundVoid       Reason = "ROUND_VOID"          // voided by the operator
	// A round of this cabinet other than the one asked for is drawn (or
	// the cabinet is ahead of the store).
	RoundSequence Reason = "ROUND_OUT_OF_SEQUENCE"
	// The cabinet's latest round is not settled: no other is drawn.
	RoundOpen Reason = "ROUND_OPEN"
	// A Risk card for a round that is not the cabinet's open one.
	RiskNotOpen Reason = "RISK_ROUND_NOT_OPEN"
	// Disabled: no new Risk card, no voucher issued or redeemed.
	DisabledRisk    Reason = "CABINET_DISABLED_RISK"
	DisabledVoucher Reason = "CABINET_DISABLED_VOUCHER"
	// The credit mirror: a voucher above it, meters that went down, a
	// voucher from a cabinet that reports no meters.
	VoucherAboveCredit Reason = "VOUCHER_ABOVE_CREDIT"
	MetersDecreased    Reason = "METERS_DECREASED"
	CreditUnknown      Reason = "CREDIT_UNKNOWN"
	ConfirmPending     Reason = "CONFIRM_PENDING" // a ticket's confirmation is on the way: try again
	// A voucher its cabinet said it never printed is presented.
	VoucherVoid Reason = "VOUCHER_VOID"
)

// The players' rules (central/players): at the wager, at the login and in
// the operator's commands.
const (
	PlayerNoSession        Reason = "PLAYER_NO_SESSION"
	PlayerExcluded         Reason = "PLAYER_EXCLUDED"
	PlayerBlocked          Reason = "PLAYER_BLOCKED"
	PlayerLimit            Reason = "PLAYER_LIMIT"
	PlayerLimitsUndecided  Reason = "PLAYER_LIMITS_UNDECIDED"
	PlayerBreak            Reason = "PLAYER_BREAK"
	CardUnknown            Reason = "CARD_UNKNOWN"
	CardBlocked            Reason = "CARD_BLOCKED"
	CardAuth               Reason = "CARD_AUTH_FAILED"
	PlayerSessionElsewhere Reason = "PLAYER_SESSION_ELSEWHERE"
	ExclusionsStale        Reason = "EXCLUSIONS_STALE"
	PlayerInvalid          Reason = "PLAYER_INVALID"
	PlayerUnderage         Reason = "PLAYER_UNDERAGE"
	PlayerNotVerified      Reason = "PLAYER_NOT_VERIFIED"
	PlayerDuplicate        Reason = "PLAYER_DUPLICATE"
	PlayerNotFound         Reason = "PLAYER_NOT_FOUND"
)

// Decision is what the cabinet does with the wager of a round whose
// RequestOutcome is refused.
type Decision int

const (
	// Hold: the refusal does not prove the round undrawn (an earlier
	// attempt may have drawn it): no refund; the cabinet tilts
	// ("central_refused"), holds the wager and asks again until the
	// central system answers the round or voids it.
	Hold Decision = iota
	// Refund: the central system makes this check after it answers a
	// stored round and before it draws, so the round was never drawn: the
	// cabinet refunds the wager, unless it already holds it after a
	// refusal that proved nothing (then Hold).
	Refund
	// RefundVoid: the operator voided the round: the one refusal of a
	// drawn round the cabinet refunds, once, held or not.
	RefundVoid
	// DrawnElsewhere: another round of this cabinet is drawn (a copy of
	// its key, or a journal behind the store): the client fetches the
	// open round; the cabinet plays it if it answers this wager and
	// mirrors, otherwise tilts ("central_round") with the stake wagered,
	// never refunded.
	DrawnElsewhere
	// Retry: sent as UNAVAILABLE, so not a refusal to the client: it
	// retries, then reports the link down; the wager stays open and is
	// asked again.
	Retry
)

var decisionNames = [...]string{Hold: "hold", Refund: "refund", RefundVoid: "refund-void", DrawnElsewhere: "drawn-elsewhere", Retry: "retry"}

func (d Decision) String() string {
	if d >= 0 && int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return "Decision(?)"
}

// decisions is every reason's decision; a reason missing here is not one.
var decisions = map[Reason]Decision{
	// Admission: the call may follow an attempt that drew the round.
	UnknownCabinet: Hold,
	Revoked:        Hold,
	BadRequest:     Hold,

	// The checks between the stored round's answer and the draw.
	BadStake:        Refund,
	UnknownGame:     Refund,
	ModelMismatch:   Refund,
	CabinetDisabled: Refund,
	Jackpot:         Refund,

	RoundVoid: RefundVoid,

	RoundConflict: DrawnElsewhere,
	RoundSequence: DrawnElsewhere,
	RoundOpen:     DrawnElsewhere,

	StoreFailed:    Retry,
	Stopping:       Retry,
	ConfirmPending: Retry,

	// Answers to other calls (Risk, commits, vouchers, meters): a round
	// refused with one of them is not understood, so it is held.
	RoundNotFound:      Hold,
	RiskNotAllowed:     Hold,
	RiskConflict:       Hold,
	RiskNotOpen:        Hold,
	DisabledRisk:       Hold,
	DisabledVoucher:    Hold,
	VoucherUnknown:     Hold,
	VoucherInvalid:     Hold,
	VoucherExpired:     Hold,
	VoucherRedeemed:    Hold,
	VoucherHeld:        Hold,
	VoucherHold:        Hold,
	VoucherAmount:      Hold,
	VoucherConflict:    Hold,
	VoucherAboveCredit: Hold,
	MetersDecreased:    Hold,
	CreditUnknown:      Hold,
	VoucherVoid:        Hold,

	// The players' wager checks come after the stored round's answer,
	// before the draw (central/PROTOCOL.md "Players").
	PlayerNoSession:       Refund,
	PlayerExcluded:        Refund,
	PlayerBlocked:         Refund,
	PlayerLimit:           Refund,
	PlayerLimitsUndecided: Refund,
	PlayerBreak:           Refund,
	CardBlocked:           Refund,

	// The players' login and the operator's commands.
	CardUnknown:            Hold,
	CardAuth:               Hold,
	PlayerSessionElsewhere: Hold,
	ExclusionsStale:        Hold,
	PlayerInvalid:          Hold,
	PlayerUnderage:         Hold,
	PlayerNotVerified:      Hold,
	PlayerDuplicate:        Hold,
	PlayerNotFound:         Hold,
}

// Round is the cabinet's decision on a round refused with r; a reason the
// vocabulary does not know (none, or a newer server's) holds the wager.
func (r Reason) Round() Decision {
	if d, ok := decisions[r]; ok {
		return d
	}
	return Hold
}

// Known reports whether r is one of the reasons.
func (r Reason) Known() bool {
	_, ok := decisions[r]
	return ok
}

// All lists every reason, sorted.
func All() []Reason {
	out := make([]Reason, 0, len(decisions))
	for r := range decisions {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

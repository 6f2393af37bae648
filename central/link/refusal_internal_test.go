package link

import (
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// roundRefusals is the cabinet's decision on a round refused with each
// reason, written out here on purpose rather than read from the refusal
// package: a reason added without a decision, or a decision changed
// there (or in this client), fails until this table agrees.
var roundRefusals = map[refusal.Reason]refusal.Decision{
	refusal.UnknownCabinet: refusal.Hold,
	refusal.Revoked:        refusal.Hold,
	refusal.BadRequest:     refusal.Hold,

	refusal.BadStake:        refusal.Refund,
	refusal.UnknownGame:     refusal.Refund,
	refusal.ModelMismatch:   refusal.Refund,
	refusal.CabinetDisabled: refusal.Refund,
	refusal.Jackpot:         refusal.Refund,

	refusal.PlayerNoSession:       refusal.Refund,
	refusal.PlayerExcluded:        refusal.Refund,
	refusal.PlayerBlocked:         refusal.Refund,
	refusal.PlayerLimit:           refusal.Refund,
	refusal.PlayerLimitsUndecided: refusal.Refund,
	refusal.PlayerBreak:           refusal.Refund,
	refusal.CardBlocked:           refusal.Refund,

	refusal.RoundVoid: refusal.RefundVoid,

	refusal.RoundConflict: refusal.DrawnElsewhere,
	refusal.RoundSequence: refusal.DrawnElsewhere,
	refusal.RoundOpen:     refusal.DrawnElsewhere,

	refusal.StoreFailed:    refusal.Retry,
	refusal.Stopping:       refusal.Retry,
	refusal.ConfirmPending: refusal.Retry,

	refusal.RoundNotFound:      refusal.Hold,
	refusal.RiskNotAllowed:     refusal.Hold,
	refusal.RiskConflict:       refusal.Hold,
	refusal.RiskNotOpen:        refusal.Hold,
	refusal.DisabledRisk:       refusal.Hold,
	refusal.DisabledVoucher:    refusal.Hold,
	refusal.VoucherUnknown:     refusal.Hold,
	refusal.VoucherInvalid:     refusal.Hold,
	refusal.VoucherExpired:     refusal.Hold,
	refusal.VoucherRedeemed:    refusal.Hold,
	refusal.VoucherHeld:        refusal.Hold,
	refusal.VoucherHold:        refusal.Hold,
	refusal.VoucherAmount:      refusal.Hold,
	refusal.VoucherConflict:    refusal.Hold,
	refusal.VoucherAboveCredit: refusal.Hold,
	refusal.MetersDecreased:    refusal.Hold,
	refusal.CreditUnknown:      refusal.Hold,
	refusal.VoucherVoid:        refusal.Hold,

	refusal.CardUnknown:            refusal.Hold,
	refusal.CardAuth:               refusal.Hold,
	refusal.PlayerSessionElsewhere: refusal.Hold,
	refusal.ExclusionsStale:        refusal.Hold,
	refusal.PlayerInvalid:          refusal.Hold,
	refusal.PlayerUnderage:         refusal.Hold,
	refusal.PlayerNotVerified:      refusal.Hold,
	refusal.PlayerDuplicate:        refusal.Hold,
	refusal.PlayerNotFound:         refusal.Hold,
}

// decided is what this client and the cabinet (firmware/cabinet
// outcomeArrived, in its order of checks) do with a RequestOutcome refused
// with reason under code, on a wager not yet held.
func decided(code codes.Code, reason string) refusal.Decision {
	switch {
	case transient(code):
		return refusal.Retry
	case roundDrawnReason(reason):
		return refusal.DrawnElsewhere
	case reason == ReasonRoundVoid:
		return refusal.RefundVoid
	case DrewNothing(reason):
		return refusal.Refund
	}
	return refusal.Hold
}

func TestEveryRefusalHasTheCabinetsDecision(t *testing.T) {
	for _, r := range refusal.All() {
		if _, ok := roundRefusals[r]; !ok {
			t.Errorf("%s: a reason without the cabinet's decision in this table", r)
		}
	}
	for r, want := range roundRefusals {
		if !r.Known() {
			t.Errorf("%s: not a reason of the refusal package", r)
		}
		if got := r.Round(); got != want {
			t.Errorf("%s: the refusal package says %v, the cabinet's decision is %v", r, got, want)
		}
		// The server answers Retry's reasons as UNAVAILABLE, the others
		// as a refusal (their code does not change the decision).
		code := codes.FailedPrecondition
		if want == refusal.Retry {
			code = codes.Unavailable
		}
		if got := decided(code, string(r)); got != want {
			t.Errorf("%s: the client and cabinet decide %v, want %v", r, got, want)
		}
	}
	if decided(codes.FailedPrecondition, "") != refusal.Hold || decided(codes.FailedPrecondition, "SOME_NEWER_REASON") != refusal.Hold {
		t.Error("a refusal without a known reason must hold the wager")
	}
}

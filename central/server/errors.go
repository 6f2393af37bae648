package server

import (
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrorDomain is the ErrorInfo domain of every refusal.
const ErrorDomain = "polaris.central"

// Refusal reasons, carried as google.rpc.ErrorInfo.Reason on the status.
const (
	ReasonUnknownCabinet  = "UNKNOWN_CABINET"
	ReasonCabinetDisabled = "CABINET_DISABLED"
	ReasonModelMismatch   = "MODEL_MISMATCH"
	ReasonUnknownGame     = "UNKNOWN_GAME"
	ReasonBadStake        = "BAD_STAKE"
	ReasonBadRequest      = "BAD_REQUEST"
	ReasonRoundConflict   = "ROUND_CONFLICT"
	ReasonRoundNotFound   = "ROUND_NOT_FOUND"
	ReasonRiskNotAllowed  = "RISK_NOT_ALLOWED"
	ReasonRiskConflict    = "RISK_CONFLICT"
	ReasonVoucherUnknown  = "VOUCHER_UNKNOWN"
	ReasonVoucherInvalid  = "VOUCHER_INVALID"
	ReasonVoucherExpired  = "VOUCHER_EXPIRED"
	ReasonVoucherRedeemed = "VOUCHER_REDEEMED"
	ReasonVoucherHeld     = "VOUCHER_HELD_ELSEWHERE"
	ReasonVoucherHold     = "VOUCHER_HOLD_MISMATCH"
	ReasonVoucherAmount   = "VOUCHER_AMOUNT_MISMATCH"
	ReasonVoucherConflict = "VOUCHER_SEQUENCE_CONFLICT"
	ReasonStoreFailed     = "STORE_FAILED"
	ReasonJackpot         = "JACKPOT_REFUSED"
	ReasonStopping        = "SERVER_STOPPING"
	ReasonRevoked         = "CERTIFICATE_REVOKED" // not the cabinet's registered certificate
	ReasonRoundVoid       = "ROUND_VOID"          // voided by the operator: the cabinet refunds its wager
	// A round of this cabinet other than the one asked for is drawn (or
	// the cabinet is ahead of the store): never a refund, never a draw.
	ReasonRoundSequence = "ROUND_OUT_OF_SEQUENCE"
	// The cabinet's latest round is not settled: no other is drawn.
	ReasonRoundOpen = "ROUND_OPEN"
	// A Risk card for a round that is not the cabinet's open one.
	ReasonRiskNotOpen = "RISK_ROUND_NOT_OPEN"
	// Disabled: no new Risk card, no voucher issued or redeemed.
	ReasonDisabledRisk    = "CABINET_DISABLED_RISK"
	ReasonDisabledVoucher = "CABINET_DISABLED_VOUCHER"
	// The credit mirror: a voucher above it, meters that went down, a
	// voucher from a cabinet that reports no meters, a reconciliation
	// (Hello) that found a difference.
	ReasonVoucherAboveCredit = "VOUCHER_ABOVE_CREDIT"
	ReasonMetersDecreased    = "METERS_DECREASED"
	ReasonCreditUnknown      = "CREDIT_UNKNOWN"
	ReasonMirrorDiffers      = "MIRROR_DIFFERS"
	ReasonConfirmPending     = "CONFIRM_PENDING" // UNAVAILABLE: a ticket's confirmation is on the way
	// A voucher its cabinet said it never printed is presented; a cabinet
	// says a voucher already held or redeemed was never printed.
	ReasonVoucherVoid      = "VOUCHER_VOID"
	ReasonMirrorAdjusted   = "MIRROR_ADJUSTED" // an operator's correction (an audit row, not a refusal)
	ReasonUnprintedSuspect = "UNPRINTED_VOUCHER_USED"
)

func refuse(code codes.Code, reason, format string, args ...any) error {
	st := status.New(code, reason+": "+fmt.Sprintf(format, args...))
	if d, err := st.WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: ErrorDomain}); err == nil {
		st = d
	}
	return st.Err()
}

// storeErr turns an internal store failure into a status the client retries.
func storeErr(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	return refuse(codes.Unavailable, ReasonStoreFailed, "%v", err)
}

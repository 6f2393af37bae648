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

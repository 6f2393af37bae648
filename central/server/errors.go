package server

import (
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// ErrorDomain is the ErrorInfo domain of every refusal.
const ErrorDomain = refusal.Domain

// Alarm reasons that are no refusal: the stored alarm rows of what the
// server saw or an operator did (table alarms). A refusal's alarm row
// carries its refusal.Reason.
const (
	// A reconciliation (Hello) found the cabinet's credit other than the
	// mirror's.
	ReasonMirrorDiffers = "MIRROR_DIFFERS"
	// A cabinet says a voucher already held or redeemed was never printed.
	ReasonUnprintedSuspect = "UNPRINTED_VOUCHER_USED"
	ReasonMirrorAdjusted   = "MIRROR_ADJUSTED" // an operator's correction
)

// refuse is the status of a refusal: code, and the reason as ErrorInfo.
func refuse(code codes.Code, reason refusal.Reason, format string, args ...any) error {
	st := status.New(code, string(reason)+": "+fmt.Sprintf(format, args...))
	if d, err := st.WithDetails(&errdetails.ErrorInfo{Reason: string(reason), Domain: refusal.Domain}); err == nil {
		st = d
	}
	return st.Err()
}

// storeErr turns an internal store failure into a status the client retries.
func storeErr(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	return refuse(codes.Unavailable, refusal.StoreFailed, "%v", err)
}

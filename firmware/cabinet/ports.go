package cabinet

import (
	"context"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/engine"
)

// Central is what the cabinet asks of the central lottery system;
// *link.Client is one.
type Central interface {
	RequestOutcome(ctx context.Context, n uint64, game engine.GameID, modelID string, stake engine.Money) (*link.Outcome, error)
	RequestRiskStep(ctx context.Context, n uint64, step int, choice engine.Colour) (*link.RiskCard, error)
	IssueVoucher(ctx context.Context, amount engine.Money, seq uint64) (*link.Voucher, error)
	RedeemVoucher(ctx context.Context, number string) (*link.Hold, error)
	ConfirmRedeem(ctx context.Context, number, hold string, amount engine.Money) error
	CancelRedeem(ctx context.Context, number, hold string) error
}

// Acceptor is the commands the cabinet gives a bill/ticket acceptor; its
// events reach the cabinet through Post. *id003.Driver is one.
type Acceptor interface {
	Enable(ctx context.Context, a id003.Accept) error
	Disable(ctx context.Context) error
	Stack(ctx context.Context) error
	Return(ctx context.Context) error
	Hold(ctx context.Context) error
}

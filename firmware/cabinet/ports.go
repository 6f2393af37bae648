package cabinet

import (
	"context"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/drivers/acceptor"
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

// Acceptor is the commands the cabinet gives a bill/ticket acceptor,
// through the protocol-neutral port (drivers/acceptor), so the money rules
// hold for any protocol; its events reach the cabinet through Post
// (AcceptorEvent).
type Acceptor = acceptor.Acceptor

package reports

import (
	"context"
	"errors"
	"fmt"
)

// The store's records as an auditor reads them: a crash reconciliation
// (firmware/devkit.Reconciler) compares them with a cabinet's ledger
// without knowing the store's schema.

// DrawnRound is a round the central system drew for a cabinet.
type DrawnRound struct {
	Round     uint64
	Stake     int64
	Total     int64  // the round's win
	Jackpot   int64  // the jackpot lockup awarded with it
	Body      []byte // the signed outcome body as sent
	Committed bool   // the cabinet committed it (or the operator voided it)
	Voided    bool   // the operator voided it: the one drawn round a ledger may refund
}

// DrawnRounds lists the rounds drawn for cabinet, in round order.
func DrawnRounds(ctx context.Context, db Querier, cabinet string) ([]DrawnRound, error) {
	rows, err := db.QueryContext(ctx, `SELECT round, stake, total, jackpot_amount, body, committed_at IS NOT NULL,
		EXISTS(SELECT 1 FROM voids v WHERE v.cabinet = rounds.cabinet AND v.round = rounds.round) FROM rounds WHERE cabinet = ? ORDER BY round`, cabinet)
	if err != nil {
		return nil, fmt.Errorf("reports: rounds: %w", err)
	}
	defer rows.Close()
	var out []DrawnRound
	for rows.Next() {
		var r DrawnRound
		if err := rows.Scan(&r.Round, &r.Stake, &r.Total, &r.Jackpot, &r.Body, &r.Committed, &r.Voided); err != nil {
			return nil, fmt.Errorf("reports: rounds: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// VoucherRecord is a voucher the central system issued.
type VoucherRecord struct {
	Number  string
	Cabinet string // the cabinet that issued it
	Amount  int64
	State   string // issued, held, redeemed
}

// ErrNoVoucher: the central system never issued that number.
var ErrNoVoucher = errors.New("reports: no such voucher")

// LookupVoucher reads the voucher numbered number; ErrNoVoucher when
// there is none.
func LookupVoucher(ctx context.Context, db Querier, number string) (VoucherRecord, error) {
	rows, err := db.QueryContext(ctx, `SELECT number, cabinet, amount, state FROM vouchers WHERE number = ?`, number)
	if err != nil {
		return VoucherRecord{}, fmt.Errorf("reports: voucher: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return VoucherRecord{}, fmt.Errorf("reports: voucher: %w", err)
		}
		return VoucherRecord{}, ErrNoVoucher
	}
	var v VoucherRecord
	if err := rows.Scan(&v.Number, &v.Cabinet, &v.Amount, &v.State); err != nil {
		return VoucherRecord{}, fmt.Errorf("reports: voucher: %w", err)
	}
	return v, nil
}

// RedeemedAt lists the numbers of the vouchers redeemed at cabinet.
func RedeemedAt(ctx context.Context, db Querier, cabinet string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT number FROM vouchers WHERE state = 'redeemed' AND hold_cabinet = ? ORDER BY number`, cabinet)
	if err != nil {
		return nil, fmt.Errorf("reports: redeemed vouchers: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("reports: redeemed vouchers: %w", err)
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

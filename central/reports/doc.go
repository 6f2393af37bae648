// Package reports reads the central store for the people who look at it:
// the operator's back office (cabinets, rounds, events, meters, alarms,
// vouchers, jackpot wins, daily totals) and an auditor's reconciliation
// (the rounds drawn for a cabinet, its vouchers). Each query returns typed
// rows and reads through any Querier with `?` placeholders and portable SQL
// (no SQLite-only functions), so it runs on a live server's DB(), on a
// store opened with server.OpenReadOnly while nothing runs, and on
// PostgreSQL. Nothing here writes; the store's writes are the server's.
package reports

import (
	"context"
	"database/sql"
)

// Querier reads; *sql.DB, *sql.Conn and *sql.Tx have it.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

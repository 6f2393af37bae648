package scenario

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"

	_ "modernc.org/sqlite"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// Reconcile checks a cabinet's data directory after a crash, with nothing
// running: both ledger copies verify; the meter invariant was never broken;
// every round the central system drew is a wager the ledger journaled, with
// the same outcome bytes where the ledger has them and the same win where
// it settled; every voucher the ledger debited was issued by the central
// system for that amount; every ticket credited was redeemed there. It
// returns one line per discrepancy.
func Reconcile(dataDir, cabinetID string, settledAll bool) ([]string, error) {
	var bad []string
	badf := func(format string, a ...any) { bad = append(bad, fmt.Sprintf(format, a...)) }

	led, err := ledger.Open(ledger.Options{DirA: filepath.Join(dataDir, "ledger-a"), DirB: filepath.Join(dataDir, "ledger-b")})
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	defer led.Close()
	if e := led.RAMError(); e != nil {
		badf("ledger in RAM error: %v", e)
		return bad, nil
	}
	for _, e := range led.Events(ledger.EventsKeep) {
		if e.Kind == ledger.EventInvariantBroken {
			badf("meter invariant broken at event %d: %s", e.Seq, e.Text)
		}
	}

	db, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, "central", "central.db")+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT round, stake, total, body, committed_at IS NOT NULL FROM rounds WHERE cabinet = ? ORDER BY round`, cabinetID)
	if err != nil {
		return nil, fmt.Errorf("central store: %w", err)
	}
	drawn := map[uint64]bool{}
	for rows.Next() {
		var n uint64
		var stake, total int64
		var body []byte
		var committed bool
		if err := rows.Scan(&n, &stake, &total, &body, &committed); err != nil {
			rows.Close()
			return nil, err
		}
		drawn[n] = true
		r, ok := led.Round(n)
		if !ok {
			badf("round %d drawn by the central system was never wagered in the ledger", n)
			continue
		}
		if r.Stake != stake {
			badf("round %d: stake %d in the ledger, %d at the central system", n, r.Stake, stake)
		}
		if r.Outcome != nil {
			var env struct{ Body []byte }
			if json.Unmarshal(r.Outcome, &env) != nil || !bytes.Equal(env.Body, body) {
				badf("round %d: the ledger's outcome is not the central system's", n)
			}
			if r.Win != total {
				badf("round %d: win %d in the ledger, %d at the central system", n, r.Win, total)
			}
		}
		if r.Status == ledger.RoundRefunded && r.Outcome != nil {
			badf("round %d refunded after its outcome arrived", n)
		}
		if settledAll && r.Status != ledger.RoundSettled && r.Status != ledger.RoundRefunded {
			badf("round %d still %s after recovery", n, r.Status)
		}
	}
	rows.Close()
	// A wager without an outcome is allowed only for the round in flight.
	if open, ok := led.OpenRound(); ok && settledAll {
		badf("round %d still open after recovery", open.Number)
	}

	for _, d := range led.DocsOut() {
		if d.Kind != ledger.DocVoucher || d.Result != ledger.DocPrinted {
			continue
		}
		var amount int64
		if err := db.QueryRow(`SELECT amount FROM vouchers WHERE number = ? AND cabinet = ?`, d.Number, cabinetID).Scan(&amount); err != nil {
			badf("voucher %s debited by the ledger is unknown to the central system", ledger.Mask(d.Number))
		} else if amount != d.Amount {
			badf("voucher %s: %d debited, %d issued", ledger.Mask(d.Number), d.Amount, amount)
		}
	}
	seen := map[string]bool{}
	for _, d := range led.DocsIn() {
		if d.Kind != ledger.DocTicketIn || d.Result != ledger.DocStacked {
			continue
		}
		if seen[d.Number] {
			badf("ticket %s credited twice", ledger.Mask(d.Number))
		}
		seen[d.Number] = true
		var amount int64
		var state string
		if err := db.QueryRow(`SELECT amount, state FROM vouchers WHERE number = ?`, d.Number).Scan(&amount, &state); err != nil {
			badf("ticket %s credited but unknown to the central system", ledger.Mask(d.Number))
		} else if amount != d.Amount {
			badf("ticket %s: %d credited, %d at the central system", ledger.Mask(d.Number), d.Amount, amount)
		} else if settledAll && state != "redeemed" {
			badf("ticket %s credited but %s at the central system", ledger.Mask(d.Number), state)
		}
	}
	return bad, nil
}

package devkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/market"
)

// Reconcile checks a cabinet's data directory after a crash, with nothing
// running (see Reconciler.Check), for the demo market.
func Reconcile(dataDir, cabinetID string, settledAll bool) ([]string, error) {
	return NewReconciler(dataDir, cabinetID, "demo").Check(settledAll)
}

// Reconciler checks a cabinet's data directory after each crash. The
// ledger keeps only the last vouchers out, so a reconciler run after every
// kill remembers the vouchers it has seen debited.
type Reconciler struct {
	DataDir, CabinetID string
	Market             string // market profile id or .toml file, for note values and printed amounts
	// Store is the central system's store when it is not the embedded
	// one in DataDir: a SQLite file or a PostgreSQL URL (see openStore).
	Store string

	debited  map[string]bool // voucher numbers seen debited by the ledger
	reported map[string]bool // vouchers already reported printed but not debited
	// settled are the settlements of the rounds seen settled: the ledger
	// keeps only the last ledger.RecallKeep rounds.
	settled map[uint64]ledger.Settlement
	tickets map[uint64]string // ticket documents seen credited, by ledger document id
	said    map[string]bool   // discrepancies already reported
	// CashOut is what the last Check found of a cash-out in the ledger:
	// "requested" (its number asked of the central system, not yet
	// journaled), "printing", or "" (none): the harness counts the kills
	// that landed in one.
	CashOut string
}

// NewReconciler makes a reconciler for a cabinet's data directory.
func NewReconciler(dataDir, cabinetID, marketID string) *Reconciler {
	return &Reconciler{DataDir: dataDir, CabinetID: cabinetID, Market: marketID,
		debited: map[string]bool{}, reported: map[string]bool{}, settled: map[uint64]ledger.Settlement{},
		tickets: map[uint64]string{}, said: map[string]bool{}}
}

// Check reconciles, with nothing running: both ledger copies verify; the
// meter invariant was never broken; every round the central system drew is
// a wager the ledger journaled, with the same outcome bytes where the
// ledger has them, the same win where it settled and the same jackpot
// lockup the central system awarded; handpay and jackpot meters equal the
// lockups settled; every voucher the ledger debited was issued by the
// central system for that amount; every ticket credited was redeemed
// there. Where the data directory has document logs (DocumentDir), the
// ledger is also reconciled with the paper: every note and ticket in the
// acceptor's cash box credited once and nothing else, every voucher with
// its validation number printed debited once and nothing else. settledAll
// says the cabinet has recovered since its last kill: nothing may be in
// flight. It returns one line per discrepancy not reported by an earlier
// Check.
func (rc *Reconciler) Check(settledAll bool) ([]string, error) {
	var bad []string
	badf := func(format string, a ...any) {
		if m := fmt.Sprintf(format, a...); !rc.said[m] {
			rc.said[m] = true
			bad = append(bad, m)
		}
	}
	dataDir, cabinetID := rc.DataDir, rc.CabinetID
	prof, err := market.Load(rc.Market)
	if err != nil {
		return nil, err
	}

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

	db, err := rc.openStore()
	if err != nil {
		return nil, err
	}
	defer db.Close()
	ctx := context.Background()
	rounds, err := reports.DrawnRounds(ctx, db, cabinetID)
	if err != nil {
		return nil, fmt.Errorf("central store: %w", err)
	}
	last := lastRound(led)
	complete := true // every round's settlement is known
	for _, dr := range rounds {
		n, stake, total, jackpot, body := dr.Round, dr.Stake, dr.Total, dr.Jackpot, dr.Body
		r, ok := led.Round(n)
		if !ok && n+ledger.RecallKeep <= last {
			if _, seen := rc.settled[n]; !seen {
				complete = false
			}
			continue // the ledger no longer keeps it
		}
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
		if s := r.Settlement; s != nil && s.Jackpot != jackpot {
			badf("round %d: jackpot lockup %d in the ledger, %d awarded by the central system", n, s.Jackpot, jackpot)
		}
		if r.Status == ledger.RoundSettled && r.Settlement != nil {
			rc.settled[n] = *r.Settlement
		}
		if r.Status == ledger.RoundRefunded && r.Outcome != nil {
			badf("round %d refunded after its outcome arrived", n)
		}
		if r.Status == ledger.RoundRefunded && !dr.Voided {
			// Its stake was booked at the central system as it was drawn.
			badf("round %d drawn by the central system was refunded without the operator's void", n)
		}
		if settledAll && r.Status != ledger.RoundSettled && r.Status != ledger.RoundRefunded {
			badf("round %d still %s after recovery", n, r.Status)
		}
	}
	if complete {
		reconcileLockups(led, db, cabinetID, rc.settled, badf)
	}
	// A wager without an outcome is allowed only for the round in flight.
	if open, ok := led.OpenRound(); ok && settledAll {
		badf("round %d still open after recovery", open.Number)
	}

	rc.CashOut = ""
	for _, d := range led.PendingDocs() {
		if d.Kind == ledger.DocVoucher && d.Number == "" {
			rc.CashOut = "requested"
		} else if d.Kind == ledger.DocVoucher {
			rc.CashOut = "printing"
		}
	}
	for _, d := range led.DocsOut() {
		if d.Kind != ledger.DocVoucher || d.Result != ledger.DocPrinted {
			continue
		}
		rc.debited[d.Number] = true
		if v, err := reports.LookupVoucher(ctx, db, d.Number); err != nil || v.Cabinet != cabinetID {
			badf("voucher %s debited by the ledger is unknown to the central system", ledger.Mask(d.Number))
		} else if v.Amount != d.Amount {
			badf("voucher %s: %d debited, %d issued", ledger.Mask(d.Number), d.Amount, v.Amount)
		}
	}
	if settledAll {
		// Every voucher the central system issued for the cabinet is one
		// the ledger debited (or it voided it, reported unprinted): one
		// that no ticket carries is a liability the hall never owes.
		vs, err := reports.Vouchers(ctx, db, "", "", 1<<20)
		if err != nil {
			return nil, fmt.Errorf("central store: %w", err)
		}
		for _, v := range vs {
			if v.Cabinet == cabinetID && v.State != "void" && !rc.debited[v.Number] {
				badf("voucher %s of %d issued by the central system (%s) was never debited by the ledger", ledger.Mask(v.Number), v.Amount, v.State)
			}
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
		if v, err := reports.LookupVoucher(ctx, db, d.Number); err != nil {
			badf("ticket %s credited but unknown to the central system", ledger.Mask(d.Number))
		} else if v.Amount != d.Amount {
			badf("ticket %s: %d credited, %d at the central system", ledger.Mask(d.Number), d.Amount, v.Amount)
		} else if settledAll && v.State != "redeemed" {
			badf("ticket %s credited but %s at the central system", ledger.Mask(d.Number), v.State)
		}
	}
	if err := rc.reconcileDocuments(led, db, prof, settledAll, badf); err != nil {
		return nil, fmt.Errorf("documents: %w", err)
	}
	return bad, nil
}

// reconcileLockups: the handpay and jackpot lockups the settled rounds
// made are the ones paid (meters) or waiting for the attendant; every
// progressive hit the central system recorded for the cabinet is a round
// the ledger settled with that jackpot.
func reconcileLockups(led *ledger.Ledger, db reports.Querier, cabinetID string, settled map[uint64]ledger.Settlement, badf func(string, ...any)) {
	var wins, jackpots int64
	for _, s := range settled {
		wins += s.Handpay
		jackpots += s.Jackpot
	}
	ms, _ := led.Meters(ledger.ScopeCabinet)
	paidWins, paidJackpots := ms[ledger.HandpayWin]+ms[ledger.HandpayToCredit], ms[ledger.JackpotAttendant]
	for _, d := range led.PendingDocs() {
		switch d.Kind {
		case ledger.DocHandpayWin:
			paidWins += d.Amount
		case ledger.DocHandpayJackpot:
			paidJackpots += d.Amount
		}
	}
	if wins != paidWins {
		badf("large-win handpays: %d settled, %d paid, credited or waiting", wins, paidWins)
	}
	if jackpots != paidJackpots {
		badf("jackpot lockups: %d settled, %d paid or waiting", jackpots, paidJackpots)
	}
	hits, err := jackpot.HitRecords(context.Background(), db, time.Time{})
	if err != nil {
		return // no progressive jackpot configured
	}
	for _, h := range hits {
		if h.Cabinet != cabinetID {
			continue
		}
		if s, ok := settled[h.Round]; ok && s.Jackpot != h.Amount {
			badf("round %d: jackpot hit of %d at the central system, %d locked up", h.Round, h.Amount, s.Jackpot)
		}
	}
}

// lastRound is the newest round the ledger has wagered.
func lastRound(led *ledger.Ledger) uint64 {
	var n uint64
	if r, ok := led.OpenRound(); ok {
		n = r.Number
	}
	if rs := led.Recall(1); len(rs) > 0 && rs[0].Number > n {
		n = rs[0].Number
	}
	return n
}

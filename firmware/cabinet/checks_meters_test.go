package cabinet

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// meterIdentity checks the ledger's own invariant (firmware/ledger tx.go):
// credit = bills in + tickets in + wins to credit (coin out, which already
// holds the Risk result: risk_wagered/risk_won are kept for audit and are
// not money moves of their own) + refunds − bets (coin in, without Risk
// re-wagers) − vouchers out − cancelled-credit handpays. The ledger is new
// (no RAM clear), so its base is 0. Handpaid wins count only in their own meters.
func (r *rig) meterIdentity(what string) {
	r.t.Helper()
	m, suspect := r.led.Meters(ledger.ScopeCabinet)
	credit, _ := r.led.Credit()
	want := m[ledger.BillsInValue] + m[ledger.TicketsInValue] + m[ledger.CoinOut] + m[ledger.WagersRefunded] -
		m[ledger.CoinIn] - m[ledger.TicketsOutValue] - m[ledger.HandpayCancelledCredit]
	if suspect || credit != want {
		r.t.Fatalf("check 15 after %s: credit %d, meters imply %d (%v)", what, credit, want, m)
	}
}

// Check 15, meter invariant: a randomized session of notes, rounds of both
// games (with Risk steps), vouchers out and back in, cancel-credit and
// large-win handpays; after every transaction the credit meter equals what
// the meters imply, and the ledger never logs invariant_broken.
// POLARIS_CHECK15_TXNS sets the length (default 2000), POLARIS_CHECK15_SEED the seed.
func TestCheck15MeterInvariantRandomSession(t *testing.T) {
	n, seed := 2000, uint64(15)
	if v, err := strconv.Atoi(os.Getenv("POLARIS_CHECK15_TXNS")); err == nil {
		n = v
	}
	if v, err := strconv.ParseUint(os.Getenv("POLARIS_CHECK15_SEED"), 10, 64); err == nil {
		seed = v
	}
	if testing.Short() {
		n = 300
	}
	t.Logf("check 15: %d transactions, seed %d", n, seed)
	r := newRig(t, "demo", withTiming(Timing{}), withMarket(func(p *market.Profile) {
		p.Limits.TicketOut = 3000 // larger cash-outs are cancel-credit handpays
		p.Limits.LargeWin = 2000  // larger wins lock up for a handpay
	}))
	rng := rand.New(rand.NewPCG(seed, 0))
	p := r.cab.cfg.Market
	r.idle()
	count := map[string]int{}
	txns := 0
	last := time.Now()
	spent := map[string]time.Duration{}
	done := func(kind string) {
		spent[kind] += time.Since(last)
		last = time.Now()
		txns++
		count[kind]++
		r.meterIdentity(kind)
	}
	choices := 0 // large-win lockups offered for transfer to credit
	handpay := func() {
		printed := len(r.prn.Printed)
		r.cab.Post(Key{Name: "attendant", On: true})
		s := r.until("handpay reset or its choice", time.Millisecond, func(s *view.Snapshot) bool {
			return s.Lockup == nil || s.Menu != nil && s.Menu.Title == "menu.handpay"
		})
		if s.Lockup != nil {
			choices++
		}
		if s.Lockup != nil && choices%2 == 0 {
			// Every other large win the attendant puts on the credit
			// meter (the first is paid by hand).
			r.press(view.Start)
			r.until("transferred", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil })
			r.cab.Post(Key{Name: "attendant", On: false})
			r.idle()
			done("handpay to credit")
			return
		}
		r.cab.Post(Key{Name: "attendant", On: false})
		r.until("handpay reset", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil })
		r.idle()
		done("handpay")
		r.until("receipt printed", time.Millisecond, func(*view.Snapshot) bool { return len(r.prn.Printed) > printed })
		r.takeTicket()
	}
	for txns < n {
		s := r.idle()
		credit := r.credit()
		switch x := rng.IntN(100); {
		case credit+p.Limits.Bills[len(p.Limits.Bills)-1] < p.Limits.Credit && (credit < s.Bet || x < 6):
			r.insertNote(p.Limits.Bills[rng.IntN(len(p.Limits.Bills))], p.Currency.MinorUnits)
			done("note")
		case x < 10 && credit > 0:
			printed := len(r.prn.Printed)
			r.press(view.Collect)
			s = r.until("cash-out", time.Millisecond, func(s *view.Snapshot) bool {
				return s.Mode == view.ModeLockup || s.Mode == view.ModeIdle && s.Credit == 0
			})
			done("cash-out")
			if s.Mode == view.ModeLockup {
				handpay()
				continue
			}
			r.until("voucher printed", time.Millisecond, func(*view.Snapshot) bool { return len(r.prn.Printed) > printed })
			v := r.prn.Printed[len(r.prn.Printed)-1].(document.Voucher)
			r.takeTicket()
			if rng.IntN(2) == 0 {
				r.acc.doc = id003.Document{Kind: id003.DocTicket, Ticket: v.Validation}
				r.cab.Post(AcceptorEvent{id003.Escrow{Doc: r.acc.doc}})
				r.until("ticket in", time.Millisecond, func(s *view.Snapshot) bool { return int64(s.Credit) == v.Amount })
				done("ticket in")
			}
		case x < 14:
			g := engine.WishStar
			if s.Game == g {
				g = engine.MagicStars
			}
			r.cab.Post(SelectGame{Game: g})
			r.until("game", time.Millisecond, func(s *view.Snapshot) bool { return s.Game == g })
		case x < 18:
			b := view.BetPlus
			if rng.IntN(2) == 0 {
				b = view.BetMinus
			}
			r.press(b)
			r.cab.Do(func() {})
		default:
			if credit < s.Bet {
				continue
			}
			s = r.playOne()
			done("round")
			for s.RiskOffer && rng.IntN(2) == 0 {
				r.press(view.Risk)
				r.until("risk", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeRisk })
				step := 0
				for {
					step++
					b := view.BetMinus
					if rng.IntN(2) == 0 {
						b = view.BetPlus
					}
					r.press(b)
					s = r.until("card", time.Millisecond, func(s *view.Snapshot) bool {
						return s.Mode != view.ModeRisk || (s.Risk != nil && s.Risk.Step == step && s.Risk.CanLeave)
					})
					done("risk step")
					if s.Mode != view.ModeRisk || rng.IntN(2) == 0 {
						break
					}
				}
				if s.Mode == view.ModeRisk {
					r.press(view.Collect)
				}
			}
			s = r.until("settled", time.Millisecond, func(s *view.Snapshot) bool {
				return s.Mode == view.ModeIdle && !s.RiskOffer || s.Mode == view.ModeLockup || s.RiskOffer
			})
			if s.RiskOffer {
				r.press(view.Collect)
				s = r.until("settled", time.Millisecond, func(s *view.Snapshot) bool {
					return !s.RiskOffer && (s.Mode == view.ModeIdle || s.Mode == view.ModeLockup)
				})
			}
			r.meterIdentity("settlement")
			if s.Mode == view.ModeLockup {
				handpay()
			}
		}
	}
	for _, e := range r.eventsSince(0) {
		if e.Kind == ledger.EventInvariantBroken {
			t.Fatalf("check 15: the ledger logged %s: %s", e.Kind, e.Text)
		}
	}
	t.Logf("time per kind %v", spent)
	t.Logf("check 15: %d transactions %v; meters %v", txns, count, func() map[ledger.Meter]int64 { m, _ := r.led.Meters(ledger.ScopeCabinet); return m }())
	if n < 2000 {
		return // too short to be sure of every kind
	}
	for _, k := range []string{"note", "round", "cash-out", "ticket in", "risk step", "handpay"} {
		if count[k] == 0 {
			t.Errorf("check 15: the session had no %s", k)
		}
	}
	if r.meter(ledger.HandpayCancelledCredit) == 0 || r.meter(ledger.HandpayWin) == 0 || r.meter(ledger.RiskWagered) == 0 {
		t.Errorf("check 15: the session missed cancel-credit handpays, large-win handpays or Risk")
	}
}

// takeTicket takes the document in the printer's chute and waits until the
// cabinet knows.
func (r *rig) takeTicket() {
	r.t.Helper()
	r.until("ticket in the chute", time.Millisecond, func(*view.Snapshot) bool {
		var in bool
		r.cab.Do(func() { in = r.cab.cashOut.ticketInChute })
		return in
	})
	r.prn.TakeTicket()
	r.until("ticket taken", time.Millisecond, func(*view.Snapshot) bool {
		var in bool
		r.cab.Do(func() { in = r.cab.cashOut.ticketInChute })
		return !in
	})
}

package cabinet

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/printer/printertest"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// stalledPrinter takes a voucher and never reports on it: the power goes
// while it prints.
type stalledPrinter struct{ *printertest.Printer }

func (stalledPrinter) Print(document.Document) (printer.JobID, error) { return 1, nil }

// reprinted: the fake printed one voucher since the restart, a duplicate
// of the one pending at the cut.
func reprinted(t testing.TB, prn *printertest.Printer, amount int64) {
	t.Helper()
	if len(prn.Printed) != 1 {
		t.Fatalf("%d documents printed after the restart, want the voucher once", len(prn.Printed))
	}
	v, ok := prn.Printed[0].(document.Voucher)
	if !ok || !v.Duplicate || v.Amount != amount || v.Validation == "" {
		t.Fatalf("printed %+v, want a duplicate voucher of %d", prn.Printed[0], amount)
	}
}

// pendingVoucher is the number of the voucher the ledger holds as
// printing, or "".
func (r *rig) pendingVoucher() string {
	for _, d := range r.led.PendingDocs() {
		if d.Kind == ledger.DocVoucher {
			return d.Number
		}
	}
	return ""
}

// cutWhilePrinting cashes 100.00 out to a printer that never reports on
// the voucher, cuts the power once the voucher is journaled, and starts
// again with the fake printer set by printerAfter and its first status
// reported. It returns the rig and the voucher's number.
func cutWhilePrinting(t *testing.T, printerAfter func(*printertest.Printer)) (*rig, string) {
	t.Helper()
	r := newRig(t, "demo", func(c *Config) { c.Printer = stalledPrinter{c.Printer.(*printertest.Printer)} })
	r.idle()
	r.insertNote(10000, 2)
	r.press(view.Collect)
	r.until("voucher journaled", time.Millisecond, func(*view.Snapshot) bool { return r.pendingVoucher() != "" })
	number := r.pendingVoucher()
	r.powerCut()
	r.start("demo", func(c *Config) { printerAfter(c.Printer.(*printertest.Printer)) })
	r.cab.Post(PrinterEvent{printer.Online{}})
	return r, number
}

// A voucher the power cut caught printing, waiting in the chute at power
// up (the printer refuses to print over it), is the original: debited as
// it is, with no duplicate and no technician.
func TestInterruptedVoucherFoundInTheChuteIsDebited(t *testing.T) {
	r, number := cutWhilePrinting(t, func(f *printertest.Printer) { f.Refuse = printer.ErrTicketInChute })
	r.until("debited", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
	if len(r.prn.Printed) != 0 {
		t.Fatalf("printed %d documents over the ticket in the chute", len(r.prn.Printed))
	}
	if got := r.meter(ledger.TicketsOutValue); got != 10000 {
		t.Fatalf("tickets out %d, want 10000", got)
	}
	out := r.led.DocsOut()
	if len(out) == 0 || out[len(out)-1].Number != number || out[len(out)-1].Result != ledger.DocPrinted {
		t.Fatalf("documents out %+v, want voucher %s printed", out, number)
	}
}

type meterDelta map[ledger.Meter]int64

// wonDelta is what settling a round that paid win to the credit meter adds.
func wonDelta(win engine.Money) meterDelta {
	d := meterDelta{ledger.GamesPlayed: 1, ledger.CoinOut: int64(win)}
	if win > 0 {
		d[ledger.GamesWon] = 1
	}
	return d
}

// Check 5, power cut at every state: idle; a note in escrow; a note
// stacked but not yet credited; a wager sent without a reply; an outcome
// received but not shown; mid-presentation; a win being counted up; a
// voucher printing; a handpay lockup; a door open mid-round. After the
// restart the cabinet resumes the interrupted state, a round finishes with
// the same central outcome, and every cabinet meter and the credit equal
// their values at the cut plus exactly the transactions that then
// completed — nothing lost, nothing twice.
func TestCheck5PowerCutAtEveryState(t *testing.T) {
	ms, ws := engine.MagicStars, engine.WishStar
	win := findSeed(ms, 5, func(r *engine.Round) bool { return len(r.Steps) == 1 && r.Total > 0 })
	free := findSeed(ws, 100, func(r *engine.Round) bool { return hasStep(engine.StepFree)(r) && r.Total > 0 })
	note := id003.Document{Kind: id003.DocNote, Code: 0x61, Denom: id003.Denomination{Code: 0x61, Base: 20}}
	escrowed := func(r *rig, _ *scriptedCentral) {
		r.acc.mu.Lock()
		r.acc.stall, r.acc.doc = true, note
		r.acc.mu.Unlock()
		r.cab.Post(AcceptorEvent{id003.Escrow{Doc: note}})
		r.until("note journaled in escrow", time.Millisecond, func(*view.Snapshot) bool { return len(r.led.PendingDocs()) == 1 })
	}
	start := func(r *rig, sc *scriptedCentral, g engine.GameID, seed uint64) {
		r.cab.Post(SelectGame{Game: g})
		r.until("game selected", time.Millisecond, func(s *view.Snapshot) bool { return s.Game == g })
		sc.queue(g, seed, 0)
		r.press(view.Start)
	}
	// finish waits for the resumed round to settle and says what it added.
	finish := func(r *rig, sc *scriptedCentral, n uint64) (engine.Money, meterDelta) {
		s := r.until("round settled", 100*time.Millisecond, func(s *view.Snapshot) bool {
			return s.Round != nil && s.Round.Number == n && (s.Mode == view.ModeIdle || s.RiskOffer)
		})
		r.settleRound(s)
		o := sc.outcome(n)
		if got, _ := r.led.Round(n); got.Status != ledger.RoundSettled || string(got.Outcome) == "" {
			r.t.Fatalf("round %d is %s after the restart", n, got.Status)
		}
		return o.Result.Total, wonDelta(o.Result.Total)
	}
	openRound := func(r *rig) uint64 {
		lr, ok := r.led.OpenRound()
		if !ok {
			r.t.Fatal("no open round at the cut")
		}
		return lr.Number
	}
	var n uint64       // the round open at the cut
	var outcome []byte // its journaled outcome at the cut
	sameOutcome := func(r *rig) {
		if got, _ := r.led.Round(n); outcome != nil && string(got.Outcome) != string(outcome) {
			r.t.Fatalf("round %d finished with another outcome than the one journaled before the cut", n)
		}
	}

	cases := []struct {
		name   string
		before []rigOption // until the cut
		reach  func(r *rig, sc *scriptedCentral)
		resume func(r *rig, sc *scriptedCentral) (engine.Money, meterDelta)
	}{
		{"idle", nil, func(*rig, *scriptedCentral) {},
			func(r *rig, _ *scriptedCentral) (engine.Money, meterDelta) { r.idle(); return 0, nil }},
		{"note in escrow, not stacked", nil, escrowed,
			func(r *rig, _ *scriptedCentral) (engine.Money, meterDelta) {
				// The acceptor gave it back at its reset: no word of it.
				r.until("escrow reconciled", 100*time.Millisecond, func(*view.Snapshot) bool { return len(r.led.PendingDocs()) == 0 })
				r.idle()
				return 0, nil
			}},
		{"note stacked, not yet credited", nil, escrowed,
			func(r *rig, _ *scriptedCentral) (engine.Money, meterDelta) {
				// As the driver does: its hook before the acceptor's
				// RESET (after which the acceptor no longer says where the
				// note is) returns once the credit is journaled; then the
				// event, and a repeated word, credit nothing more.
				pu := id003.PowerUpWithBill{Where: id003.InStacker, Doc: note}
				if err := r.cab.BeforeReset(pu); err != nil || len(r.led.PendingDocs()) != 0 {
					r.t.Fatalf("BeforeReset returned %v with %d documents pending", err, len(r.led.PendingDocs()))
				}
				r.cab.Post(AcceptorEvent{pu})
				r.cab.Post(AcceptorEvent{id003.Stacked{Doc: note}}) // told again: no second credit
				r.until("credited", time.Millisecond, func(*view.Snapshot) bool { return len(r.led.PendingDocs()) == 0 })
				r.idle()
				return 2000, meterDelta{ledger.BillsInValue: 2000, ledger.BillsInCount: 1, ledger.TotalDrop: 2000}
			}},
		{"wager sent, no reply", []rigOption{func(c *Config) { c.Central = silentCentral{c.Central} }},
			func(r *rig, sc *scriptedCentral) {
				start(r, sc, ms, win)
				r.until("wagering", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeWagering })
				n = openRound(r)
			},
			func(r *rig, sc *scriptedCentral) (engine.Money, meterDelta) { return finish(r, sc, n) }},
		{"outcome received, not shown", []rigOption{withTiming(DefaultTiming)},
			func(r *rig, sc *scriptedCentral) {
				start(r, sc, ms, win)
				r.until("outcome journaled", 0, func(*view.Snapshot) bool {
					lr, ok := r.led.OpenRound()
					return ok && lr.Status == ledger.RoundOutcome
				})
				n = openRound(r)
				lr, _ := r.led.OpenRound()
				outcome = lr.Outcome
			},
			func(r *rig, sc *scriptedCentral) (engine.Money, meterDelta) {
				w, d := finish(r, sc, n)
				sameOutcome(r)
				return w, d
			}},
		{"mid-presentation", []rigOption{withTiming(DefaultTiming)},
			func(r *rig, sc *scriptedCentral) {
				start(r, sc, ws, free)
				r.until("a free spin on screen", 100*time.Millisecond, func(*view.Snapshot) bool {
					step := 0
					r.cab.Do(func() {
						if c := r.cab.play.round; c != nil {
							step = c.step
						}
					})
					return step >= 1
				})
				n = openRound(r)
				lr, _ := r.led.OpenRound()
				outcome = lr.Outcome
			},
			func(r *rig, sc *scriptedCentral) (engine.Money, meterDelta) {
				w, d := finish(r, sc, n)
				sameOutcome(r)
				return w, d
			}},
		{"win being counted up", []rigOption{withTiming(DefaultTiming)},
			func(r *rig, sc *scriptedCentral) {
				start(r, sc, ms, win)
				r.until("count-up", 50*time.Millisecond, func(s *view.Snapshot) bool {
					if s.Round == nil || s.Mode != view.ModePresenting {
						return false
					}
					// The cabinet's clock: a snapshot is published only when
					// it changes, so its Now is the instant of the last change.
					tl, now := s.Round.Timeline[0], r.clock.Now()
					return !now.Before(tl.Wins) && now.Before(tl.End)
				})
				n = openRound(r)
				lr, _ := r.led.OpenRound()
				outcome = lr.Outcome
			},
			func(r *rig, sc *scriptedCentral) (engine.Money, meterDelta) {
				w, d := finish(r, sc, n)
				sameOutcome(r)
				return w, d
			}},
		{"voucher printing", []rigOption{func(c *Config) { c.Printer = stalledPrinter{c.Printer.(*printertest.Printer)} }},
			func(r *rig, sc *scriptedCentral) {
				r.press(view.Collect)
				r.until("voucher journaled", time.Millisecond, func(*view.Snapshot) bool { return r.pendingVoucher() != "" })
			},
			func(r *rig, sc *scriptedCentral) (engine.Money, meterDelta) {
				// Whether it came out is unknown: it is printed again with
				// its validation number, marked duplicate, and debited once,
				// after the printer's first status (nothing in the chute).
				r.until("tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
				if len(r.prn.Printed) != 0 {
					r.t.Fatal("reprinted before the printer's first status")
				}
				r.cab.Post(PrinterEvent{printer.Online{}})
				r.until("reprinted", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && s.Mode == view.ModeIdle })
				reprinted(r.t, r.prn, 10000)
				return -10000, meterDelta{ledger.TicketsOutValue: 10000, ledger.TicketsOutCount: 1}
			}},
		{"handpay lockup", []rigOption{withMarket(func(p *market.Profile) { p.Limits.LargeWin = 1 })},
			func(r *rig, sc *scriptedCentral) {
				start(r, sc, ms, win)
				r.until("lockup", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeLockup })
				n = r.cab.View().Round.Number
			},
			func(r *rig, sc *scriptedCentral) (engine.Money, meterDelta) {
				w := sc.outcome(n).Result.Total
				s := r.until("lockup again", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeLockup })
				if s.Lockup == nil || s.Lockup.Amount != w {
					r.t.Fatalf("lockup %+v after the restart, want a handpay of %d", s.Lockup, w)
				}
				r.press(view.Start)
				r.press(view.Collect)
				r.cab.Post(Key{Name: "attendant", On: true})
				r.cab.Post(Key{Name: "attendant", On: false})
				r.idle()
				return 0, meterDelta{ledger.HandpayWin: int64(w)}
			}},
		{"door open mid-round", []rigOption{withTiming(DefaultTiming)},
			func(r *rig, sc *scriptedCentral) {
				start(r, sc, ws, free)
				r.until("presenting", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModePresenting })
				r.cab.Post(Door{Name: "main", Open: true})
				r.until("door open", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeDoorOpen })
				n = openRound(r)
			},
			func(r *rig, sc *scriptedCentral) (engine.Money, meterDelta) {
				r.cab.Post(Door{Name: "main", Open: true}) // the board's first word: still open
				r.ticked()
				if s := r.state(); s.Mode != view.ModeDoorOpen {
					r.t.Fatalf("mode %s with the door open after the restart", s.Mode)
				}
				r.cab.Post(Door{Name: "main", Open: false})
				return finish(r, sc, n)
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, outcome = 0, nil
			sc := newScriptedCentral()
			common := []rigOption{sc.option(), withMarket(func(p *market.Profile) { p.Limits.TicketOut = 1 << 40 })}
			r := newRig(t, "demo", append(append([]rigOption(nil), common...), tc.before...)...)
			r.idle()
			r.insertNote(10000, 2)
			tc.reach(r, sc)
			m0, _ := r.led.Meters(ledger.ScopeCabinet)
			c0 := r.credit()
			r.powerCut()
			var after []rigOption
			after = append(after, common...)
			after = append(after, tc.before...)
			// After the cut the devices and the central system answer.
			after = append(after, func(c *Config) {
				if s, ok := c.Central.(silentCentral); ok {
					c.Central = s.Central
				}
				if p, ok := c.Printer.(stalledPrinter); ok {
					c.Printer = p.Printer
				}
			})
			r.start("demo", after...)
			credit, d := tc.resume(r, sc)
			m1, _ := r.led.Meters(ledger.ScopeCabinet)
			want := map[ledger.Meter]int64{}
			for k, v := range m0 {
				want[k] = v
			}
			for k, v := range d {
				want[k] += v
			}
			want[ledger.PowerUps]++
			var names []string
			for k := range want {
				names = append(names, string(k))
			}
			for k := range m1 {
				if _, ok := want[k]; !ok {
					names = append(names, string(k))
				}
			}
			sort.Strings(names)
			for _, k := range names {
				if m1[ledger.Meter(k)] != want[ledger.Meter(k)] {
					t.Errorf("check 5 %s: meter %s is %d, want %d (at the cut %d)", tc.name, k, m1[ledger.Meter(k)], want[ledger.Meter(k)], m0[ledger.Meter(k)])
				}
			}
			if r.credit() != c0+credit {
				t.Errorf("check 5 %s: credit %d, want %d at the cut %+d", tc.name, r.credit(), c0, credit)
			}
			if _, open := r.led.OpenRound(); open || len(r.led.PendingDocs()) != 0 {
				t.Errorf("check 5 %s: left an open round or pending documents: %+v", tc.name, r.led.PendingDocs())
			}
		})
	}
}

// A reprint that jams after its validation number reached paper is
// debited (the number is on paper) and the voucher tilt ends; the jam's
// own printer tilt stays until the printer reports it cleared.
func TestReprintFailingAfterItsNumberIsDebited(t *testing.T) {
	r, _ := cutWhilePrinting(t, func(f *printertest.Printer) { f.FailNext, f.FailAfterValidation = printer.PaperJam, true })
	r.until("debited", time.Millisecond, func(s *view.Snapshot) bool { return s.Credit == 0 && len(r.led.PendingDocs()) == 0 })
	reprinted(t, r.prn, 10000)
	if r.meter(ledger.TicketsOutValue) != 10000 {
		t.Fatalf("tickets out %d", r.meter(ledger.TicketsOutValue))
	}
	s := r.until("only the jam", time.Millisecond, func(s *view.Snapshot) bool { return len(s.Tilts) == 1 })
	if !strings.HasPrefix(s.Tilts[0], "printer:") {
		t.Fatalf("tilts %v after the reprint, want the printer's jam only", s.Tilts)
	}
	r.cab.Post(PrinterEvent{printer.FaultCleared{Fault: printer.PaperJam}})
	r.idle()
}

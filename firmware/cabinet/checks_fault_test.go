package cabinet

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// blockedFor checks that play, cash-out and money in are refused now.
func (r *rig) blockedFor(what string) {
	r.t.Helper()
	games, credit, out := r.meter(ledger.GamesPlayed), r.credit(), r.meter(ledger.TicketsOutCount)
	round := func() (n uint64) {
		if rd := r.cab.play.round; rd != nil {
			n = rd.n
		}
		return n
	}
	var open uint64
	r.cab.Do(func() { open = round() })
	r.press(view.Start)
	r.press(view.Collect)
	// Both presses are decided on the loop: a wager, a cash-out and the
	// acceptor's command are all begun there, so the loop's state after
	// them says whether any was.
	var now uint64
	var cashOut, accOn bool
	r.cab.Do(func() { now, cashOut, accOn = round(), r.cab.cashOut.voucher != nil, r.cab.moneyIn.acceptorOn })
	if now != open || cashOut || accOn || r.meter(ledger.GamesPlayed) != games || r.credit() != credit || r.meter(ledger.TicketsOutCount) != out {
		r.t.Fatalf("%s: play, cash-out or money in was not refused (round %d → %d, cash-out %v, acceptor on %v)", what, open, now, cashOut, accOn)
	}
	// The acceptor follows the cabinet's last command (inhibit), sent off
	// the loop.
	poll.Until(r.t, 15*time.Second, what+": acceptor inhibited", func() bool { return !r.acc.isEnabled() })
	// A round open here is no play only held (refused, waiting for the
	// central void); one resumed at power-up is held once the central
	// system's answer to the cabinet's ask again has come.
	if open != 0 {
		var held bool
		poll.Until(r.t, 15*time.Second, fmt.Sprintf("%s: round %d held", what, open), func() bool {
			r.cab.Do(func() { held = round() == open && r.cab.play.round.ask.held })
			return held
		})
	}
}

// Check 6, a tilt survives power loss: a technician tilt (outcome
// mismatch), an acceptor jam and a printer's paper out, each active at the
// cut, are shown again after power-up and block play, cash-out and money
// in; the device tilts end only when their device, started again, reports
// the condition gone (ID-003 Ready, printer Online), or stay when it
// reports it again; the technician tilt only with the technician key.
func TestCheck6TiltSurvivesPowerLoss(t *testing.T) {
	r := newRig(t, "demo")
	r.idle()
	r.insertNote(5000, 2)
	real := r.central.Client
	r.stop()
	// The refused round is held (no refund) until voided: every start
	// keeps the tampering link, so the held round is refused again.
	tamper := func(c *Config) {
		c.Central = tamperingCentral{Central: real, tamper: func(o *link.Outcome) { o.Result.Total++ }}
	}
	r.start("demo", tamper)
	r.idle()
	r.press(view.Start)
	r.until("mismatch tilt", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
	held := r.heldRound("at the mismatch")
	r.cab.Post(AcceptorEvent{id003.Fault{Kind: id003.FaultAcceptorJam}})
	r.cab.Post(PrinterEvent{printer.FaultSet{Fault: printer.PaperOut}})
	want := []string{"acceptor: " + id003.FaultAcceptorJam.String(), "outcome mismatch", "printer: " + printer.PaperOut.String()}
	shows := func(s *view.Snapshot, reasons []string) bool {
		if len(s.Tilts) != len(reasons) || s.Mode != view.ModeTilt {
			return false
		}
		for i, w := range reasons {
			if !strings.HasPrefix(s.Tilts[i], w) {
				return false
			}
		}
		return true
	}
	r.until("three tilts", time.Millisecond, func(s *view.Snapshot) bool { return shows(s, want) })

	r.powerCut()
	r.start("demo", tamper)
	r.until("three tilts after power-up", time.Millisecond, func(s *view.Snapshot) bool { return shows(s, want) })
	r.blockedFor("check 6 after power-up")

	// The acceptor starts and still has the jam: it stays.
	r.cab.Post(AcceptorEvent{id003.Fault{Kind: id003.FaultAcceptorJam}})
	r.blockedFor("check 6 with the jam reported again")
	// Started again and ready: the jam is gone.
	r.cab.Post(AcceptorEvent{id003.Ready{}})
	r.until("acceptor tilt gone", time.Millisecond, func(s *view.Snapshot) bool { return shows(s, want[1:]) })
	r.blockedFor("check 6 with two tilts left")
	r.cab.Post(PrinterEvent{printer.Online{}})
	r.until("printer tilt gone", time.Millisecond, func(s *view.Snapshot) bool { return shows(s, want[1:2]) })
	r.blockedFor("check 6 with the technician tilt left")
	// A second cut: the technician tilt is still there, the device ones not.
	r.powerCut()
	r.start("demo", tamper)
	r.until("technician tilt after a second cut", time.Millisecond, func(s *view.Snapshot) bool { return shows(s, want[1:2]) })
	r.blockedFor("check 6 after a second cut")
	r.cab.Post(Key{Name: "attendant", On: true})
	r.cab.Post(Key{Name: "attendant", On: false})
	r.blockedFor("check 6 after the attendant key")
	r.voidOnServer(held.Number, "check 6")
	r.waitRefunded("the voided round refunded")
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.idle()
	r.stop()
	r.start("demo")
	r.idle()
	r.until("acceptor on", time.Millisecond, func(*view.Snapshot) bool { return r.acc.isEnabled() })
	r.settleRound(r.playOne())
}

// largeWin is a Magic Stars seed whose base game alone wins more than 20
// at the stake of 5, and that win: the large-win threshold of check 26.
func largeWin() (uint64, engine.Money) {
	ms := engine.MagicStars
	seed := findSeed(ms, 5, func(r *engine.Round) bool { return len(r.Steps) == 1 && r.Total > 20 })
	g, _ := engine.Lookup(ms)
	r, _, _ := engine.Play(g, draw.NewSeeded(seed, 0), 5)
	return seed, r.Total
}

// magicStarsRig is a demo cabinet with 50.00 credit and Magic Stars chosen.
func magicStarsRig(t *testing.T, opts ...rigOption) *rig {
	r := newRig(t, "demo", opts...)
	r.idle()
	r.insertNote(5000, 2)
	r.cab.Post(SelectGame{Game: engine.MagicStars})
	r.until("magic stars", time.Millisecond, func(s *view.Snapshot) bool { return s.Game == engine.MagicStars })
	return r
}

// Check 26, handpay / substantial win. A game whose win equals the
// large-win threshold locks up showing the amount: play and cash-out are
// blocked, the credit meter does not move, the lockup persists through a
// power cycle and the technician key; only the attendant key clears it,
// logged with the amount and the time, and the handpay meter counts it. A
// win one unit under the threshold is credited. A cash-out above the
// ticket-out limit is a cancel-credit handpay lockup.
func TestCheck26HandpayAndSubstantialWin(t *testing.T) {
	ms := engine.MagicStars
	big, large := largeWin()
	under := findSeed(ms, 5, func(r *engine.Round) bool { return r.Total > 0 && r.Total < large })
	sc := newScriptedCentral()
	opts := []rigOption{sc.option(), withMarket(func(p *market.Profile) {
		p.Limits.LargeWin, p.Limits.TicketOut, p.Limits.HandpayToCredit = large, 3000, false
	})}
	r := magicStarsRig(t, opts...)

	// Under the threshold: credited.
	sc.queue(ms, under, 0)
	before := r.credit()
	s := r.settleRound(r.playOne())
	if s.Mode != view.ModeIdle || r.credit() != before-5+s.Round.Total || r.meter(ledger.HandpayWin) != 0 {
		t.Fatalf("check 26: a win of %d under the threshold %d: mode %s, credit %d → %d", s.Round.Total, large, s.Mode, before, r.credit())
	}

	// At the threshold: a lockup.
	sc.queue(ms, big, 0)
	before = r.credit()
	s = r.playOne()
	if s.Mode != view.ModeLockup || s.Lockup == nil || s.Lockup.Amount != large || s.Lockup.Kind != string(ledger.DocHandpayWin) {
		t.Fatalf("check 26: a win of %d at the threshold: mode %s lockup %+v", large, s.Mode, s.Lockup)
	}
	if r.credit() != before-5 {
		t.Fatalf("check 26: the credit meter moved with the handpay win: %d → %d", before, r.credit())
	}
	r.blockedFor("check 26 in the lockup")
	r.powerCut()
	r.start("demo", opts...)
	s = r.until("lockup after a power cycle", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeLockup })
	if s.Lockup.Amount != large {
		t.Fatalf("check 26: lockup %+v after the power cycle", s.Lockup)
	}
	r.blockedFor("check 26 after the power cycle")
	r.cab.Post(Key{Name: "technician", On: true})
	r.cab.Post(Key{Name: "technician", On: false})
	r.until("still locked", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeLockup })
	seq := r.lastEventSeq()
	r.cab.Post(Key{Name: "attendant", On: true})
	r.until("paid", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil })
	r.cab.Post(Key{Name: "attendant", On: false})
	r.idle()
	if r.meter(ledger.HandpayWin) != int64(large) || r.credit() != before-5 {
		t.Fatalf("check 26: handpay meter %d, credit %d", r.meter(ledger.HandpayWin), r.credit())
	}
	paid := r.eventsOf(seq, ledger.EventHandpay)
	if len(paid) != 1 || paid[0].Amount != int64(large) || paid[0].Wall.IsZero() || paid[0].Source == "" {
		t.Fatalf("check 26: the reset logged as %+v", paid)
	}

	r.takeTicket() // the handpay receipt

	// A cash-out above the ticket-out limit (30.00): cancel-credit handpay.
	credit := r.credit()
	r.press(view.Collect)
	s = r.until("cancel-credit lockup", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeLockup })
	if s.Lockup.Kind != string(ledger.DocHandpayCancel) || s.Lockup.Amount != credit {
		t.Fatalf("check 26: cash-out of %d above the limit: lockup %+v", credit, s.Lockup)
	}
	r.blockedFor("check 26 in the cancel-credit lockup")
	r.cab.Post(Key{Name: "attendant", On: true})
	r.cab.Post(Key{Name: "attendant", On: false})
	r.idle()
	if r.credit() != 0 || r.meter(ledger.HandpayCancelledCredit) != int64(credit) || r.meter(ledger.TicketsOutCount) != 0 {
		t.Fatalf("check 26: after the cancel-credit handpay credit %d, meter %d", r.credit(), r.meter(ledger.HandpayCancelledCredit))
	}
}

// Check 26's "transfer to credit", where the market allows it: the
// attendant's key on a large-win lockup offers the choice and keeps the
// lockup; Start puts the win on the credit meter (coin out and its own
// meter, not the handpay meter), logged with the amount; turning the key
// back instead pays it by hand. A jackpot lockup is never offered (MS-18).
func TestCheck26TransferToCredit(t *testing.T) {
	ms := engine.MagicStars
	big, large := largeWin()
	sc := newScriptedCentral()
	r := magicStarsRig(t, sc.option(), withMarket(func(p *market.Profile) { p.Limits.LargeWin, p.Limits.HandpayToCredit = large, true }))

	sc.queue(ms, big, 0)
	before := r.credit()
	r.playOne()
	r.cab.Post(Key{Name: "attendant", On: true})
	s := r.until("the choice", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == "menu.handpay" })
	if s.Lockup == nil || s.Lockup.Amount != large || r.credit() != before-5 || s.Menu.Hint != hintHandpayChoice {
		t.Fatalf("check 26: with the choice shown lockup %+v, credit %d, footer %q", s.Lockup, r.credit(), s.Menu.Hint)
	}
	seq := r.lastEventSeq()
	r.press(view.Start)
	r.until("transferred", time.Millisecond, func(s *view.Snapshot) bool { return s.Lockup == nil && s.Menu == nil })
	r.cab.Post(Key{Name: "attendant", On: false})
	r.idle()
	if r.credit() != before-5+large || r.meter(ledger.HandpayToCredit) != int64(large) || r.meter(ledger.HandpayWin) != 0 {
		t.Fatalf("check 26: after the transfer credit %d (want %d), to-credit meter %d, handpay meter %d",
			r.credit(), before-5+large, r.meter(ledger.HandpayToCredit), r.meter(ledger.HandpayWin))
	}
	if ev := r.eventsOf(seq, ledger.EventHandpay); len(ev) != 1 || ev[0].Amount != int64(large) {
		t.Fatalf("check 26: the transfer logged as %+v", ev)
	}

	// The next one: the key turned back without Start pays it by hand.
	sc.queue(ms, big, 0)
	credit := r.credit()
	r.playOne()
	r.cab.Post(Key{Name: "attendant", On: true})
	r.until("the choice", time.Millisecond, func(s *view.Snapshot) bool { return s.Menu != nil && s.Menu.Title == "menu.handpay" })
	r.cab.Post(Key{Name: "attendant", On: false})
	r.idle()
	if r.credit() != credit-5 || r.meter(ledger.HandpayWin) != int64(large) || r.meter(ledger.HandpayToCredit) != int64(large) {
		t.Fatalf("check 26: paid by hand: credit %d (want %d), handpay meter %d", r.credit(), credit-5, r.meter(ledger.HandpayWin))
	}
}

// replayingCentral answers every round after the first with the first
// round's signed outcome: a replayed message.
type replayingCentral struct {
	Central
	mu    sync.Mutex
	first *link.Outcome
}

func (c *replayingCentral) RequestOutcome(ctx context.Context, n uint64, g engine.GameID, m string, s engine.Money) (*link.Outcome, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.first != nil {
		return c.first, nil
	}
	o, err := c.Central.RequestOutcome(ctx, n, g, m, s)
	c.first = o
	return o, err
}

// Check 30, central determination integrity. Over rounds of both games the
// round shown and the win credited equal the central system's outcome
// field for field; each round was asked for only after its wager was in
// the ledger, and exactly once; a reply delivered twice pays once. A
// replayed outcome (another round's), one for another game and one with a
// forged result are each refused and logged, and pay nothing. No source
// file of the cabinet draws a random number or plays a round itself, and
// a button the deck does not have changes nothing.
func TestCheck30CentralDetermination(t *testing.T) {
	sc := newScriptedCentral()
	var mu sync.Mutex
	asked := map[uint64]int{}
	var early []uint64
	var r *rig
	sc.asked = func(n uint64) {
		mu.Lock()
		defer mu.Unlock()
		asked[n]++
		if lr, ok := r.led.Round(n); !ok || lr.Status != ledger.RoundWagered {
			early = append(early, n)
		}
	}
	noHandpay := withMarket(func(p *market.Profile) { p.Limits.LargeWin = 1 << 40 })
	r = newRig(t, "demo", sc.option(), noHandpay)
	r.idle()
	r.insertNote(10000, 2)
	for i := 0; i < 16; i++ {
		g := engine.WishStar
		if i%2 == 1 {
			g = engine.MagicStars
		}
		r.cab.Post(SelectGame{Game: g})
		r.until("game", time.Millisecond, func(s *view.Snapshot) bool { return s.Game == g })
		before := r.credit()
		s := r.playOne()
		o := sc.outcome(s.Round.Number)
		if !reflect.DeepEqual(s.Round.Steps, o.Result.Steps) || s.Round.Total != o.Result.Total || s.Round.Game != o.Game || s.Round.Stake != o.Stake {
			t.Fatalf("check 30: round %d shown differs from the central outcome", s.Round.Number)
		}
		s = r.settleRound(s)
		if r.credit() != before-o.Stake+o.Result.Total {
			t.Fatalf("check 30: round %d credited %d, the outcome pays %d", s.Round.Number, r.credit()-before+o.Stake, o.Result.Total)
		}
		// The same reply again: nothing more.
		credit := r.credit()
		r.cab.Post(outcomeReply{round: s.Round.Number, outcome: o})
		r.cab.Do(func() {})
		if r.credit() != credit {
			t.Fatalf("check 30: a duplicate reply paid again")
		}
	}
	mu.Lock()
	if len(early) != 0 {
		t.Fatalf("check 30: outcomes asked before their wager was journaled: %v", early)
	}
	for n, k := range asked {
		if k != 1 {
			t.Fatalf("check 30: round %d asked %d times", n, k)
		}
	}
	mu.Unlock()

	// Refused outcomes: replayed, another game's, forged.
	bad := []struct {
		name    string
		central func(Central) Central
	}{
		{"replayed", func(c Central) Central { return &replayingCentral{Central: c} }},
		{"another game", func(c Central) Central {
			return tamperingCentral{Central: c, tamper: func(o *link.Outcome) { o.Game = engine.MagicStars }}
		}},
		{"forged result", func(c Central) Central {
			return tamperingCentral{Central: c, tamper: func(o *link.Outcome) { o.Result.Steps[0].Pay += 100; o.Result.Total += 100 }}
		}},
	}
	for _, b := range bad {
		r.stop()
		vc := &voidingCentral{}
		r.start("demo", sc.option(), noHandpay, func(c *Config) { vc.Central = b.central(c.Central); c.Central = vc })
		r.idle()
		r.cab.Post(SelectGame{Game: engine.WishStar})
		r.until("ws", time.Millisecond, func(s *view.Snapshot) bool { return s.Game == engine.WishStar })
		if b.name == "replayed" {
			r.settleRound(r.playOne()) // the first, genuine round
		}
		seq := r.lastEventSeq()
		credit, coinOut, refunded := r.credit(), r.meter(ledger.CoinOut), r.meter(ledger.WagersRefunded)
		r.press(view.Start)
		s := r.until(b.name+": refused", time.Millisecond, func(s *view.Snapshot) bool { return s.Mode == view.ModeTilt })
		if len(s.Tilts) != 1 || !strings.HasPrefix(s.Tilts[0], "outcome mismatch") {
			t.Fatalf("check 30 %s: tilts %q", b.name, s.Tilts)
		}
		// Nothing paid, nothing refunded: the drawn round's stake is held
		// until the central system voids it.
		held := r.heldRound("check 30 " + b.name)
		if r.credit() != credit-100 || r.meter(ledger.CoinOut) != coinOut || r.meter(ledger.WagersRefunded) != refunded {
			t.Fatalf("check 30 %s: paid or refunded: credit %d → %d", b.name, credit, r.credit())
		}
		if len(r.eventsOf(seq, "tilt")) != 1 || len(r.eventsOf(seq, "outcome_refused")) != 1 {
			t.Fatalf("check 30 %s: not logged: %+v", b.name, r.eventsSince(seq))
		}
		vc.void(held.Number)
		r.waitRefunded("check 30 " + b.name + ": voided")
		r.refundedOnce("check 30 "+b.name, credit, refunded, 100, seq)
		r.cab.Post(Key{Name: "technician", On: true})
		r.cab.Post(Key{Name: "technician", On: false})
		r.idle()
	}

	// No local outcome: nothing in the cabinet's code draws or plays.
	forbidden := regexp.MustCompile(`engine\.Play\(|engine\.PlayRisk\(|NewSeededSource|NewCryptoSource|draw\.New|engine/draw"|"math/rand|"crypto/rand|\.Intn\(`)
	files, _ := os.ReadDir(".")
	checked := 0
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		if m := forbidden.Find(b); m != nil {
			t.Fatalf("check 30: %s has %q: a local source of outcomes", f.Name(), m)
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("check 30: only %d source files read", checked)
	}

	// No hidden buttons: a press the deck does not have does nothing.
	r.stop()
	r.start("demo", sc.option(), noHandpay)
	before := r.idle()
	games := r.meter(ledger.GamesPlayed)
	for _, b := range []view.Button{"service", "test", "", "start "} {
		r.press(b)
	}
	r.cab.Do(func() {})
	after := r.cab.View()
	if r.meter(ledger.GamesPlayed) != games || after.Credit != before.Credit || after.Mode != before.Mode || after.Bet != before.Bet || after.Auto {
		t.Fatal("check 30: a button the deck does not have changed something")
	}
}

// Check 24, double redemption: a ticket inserted again while the central
// system has not yet answered the confirmation of its first redemption (it
// would hand this cabinet the same hold again) is returned with no credit,
// and logged; after the confirmation it is still refused.
func TestTicketAgainBeforeItsConfirmationIsRefused(t *testing.T) {
	r := newRig(t, "demo")
	number := r.redeemUnconfirmed()
	for i, what := range []string{"before the confirmation", "again"} {
		seq := r.lastEventSeq()
		r.acc.doc = id003.Document{Kind: id003.DocTicket, Ticket: number}
		returns := r.acc.count("return")
		r.cab.Post(AcceptorEvent{id003.Escrow{Doc: r.acc.doc}})
		r.until(what+": refused", time.Millisecond, func(s *view.Snapshot) bool {
			return s.Message == "ticket_refused" && len(r.eventsOf(seq, "ticket_refused")) > 0
		})
		r.returnedAfter("check 24 "+what, returns)
		if r.credit() != 2000 || r.meter(ledger.TicketsInCount) != 1 {
			t.Fatalf("check 24 %s: double redemption: credit %d, tickets in %d", what, r.credit(), r.meter(ledger.TicketsInCount))
		}
		if len(r.eventsOf(seq, "ticket_refused")) != 1 {
			t.Fatalf("check 24 %s: the refusal is not logged", what)
		}
		if i == 0 {
			// The confirmation gets through after a restart.
			r.powerCut()
			r.start("demo")
			r.until("confirmed", time.Millisecond, func(*view.Snapshot) bool {
				var st string
				r.central.Server.DB().QueryRow(`SELECT state FROM vouchers WHERE number = ?`, number).Scan(&st)
				return st == "redeemed"
			})
			r.idle()
		}
	}
}

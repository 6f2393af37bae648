package ledger

import (
	"errors"
	"testing"
	"time"
)

func TestSessionMetersAndReopen(t *testing.T) {
	l, o := newTestLedger(t)
	must(t, l.PowerUp())
	insertBill(t, l, 2000)
	insertBill(t, l, 500)
	playRound(t, l, "wish", 1, 100, 0)
	playRound(t, l, "wish", 1, 100, 250)
	// a round with Risk: win 300, double once (600), then lose 300 of it
	n := l.NextRound()
	must(t, l.Wager(Wager{Round: n, Game: "stars", Denom: 10, Stake: 200}))
	must(t, l.Outcome(n, 300, []byte("o")))
	must(t, l.Risk(n, RiskStep{Step: 1, Stake: 300, Won: 600}))
	must(t, l.Risk(n, RiskStep{Step: 2, Stake: 300, Won: 0}))
	must(t, l.Settle(n, Settlement{Credit: 300, Jackpot: 5000}))
	// ticket in, voucher out, cancelled-credit handpay
	id := l.NextDocID()
	must(t, l.Escrow(id, DocTicketIn, 0, "123456789012345678"))
	must(t, l.Stacked(id, 1000))
	id = l.NextDocID()
	must(t, l.VoucherPrinting(id, 700, "000011112222333344"))
	must(t, l.VoucherPrinted(id))
	id = l.NextDocID()
	must(t, l.CancelCreditHandpay(id, 400))
	must(t, l.HandpayPaid(id, "att-7"))
	for _, d := range l.PendingDocs() {
		must(t, l.HandpayPaid(d.ID, "att-7"))
	}
	must(t, l.DoorOpened("main"))
	must(t, l.DoorClosed("main"))

	credit, suspect := l.Credit()
	want := int64(2000+500+1000) - 100 - 100 + 250 - 200 + 300 - 700 - 400
	if credit != want || suspect {
		t.Fatalf("credit %d suspect %v, want %d", credit, suspect, want)
	}
	cab, _ := l.Meters(ScopeCabinet)
	exp := map[Meter]int64{CoinIn: 400, CoinOut: 550, GamesPlayed: 3, GamesWon: 2, BillsInValue: 2500, BillsInCount: 2,
		TicketsInValue: 1000, TicketsInCount: 1, TicketsOutValue: 700, TicketsOutCount: 1, TotalDrop: 3500,
		RiskWagered: 600, RiskWon: 600, JackpotAttendant: 5000, HandpayCancelledCredit: 400, DoorOpens: 1, PowerUps: 1, RAMClears: 1}
	for m, v := range exp {
		if cab[m] != v {
			t.Errorf("cabinet %s = %d, want %d", m, cab[m], v)
		}
	}
	if g, _ := l.Meters(GameScope("stars")); g[JackpotAttendant] != 5000 || g[CoinIn] != 200 {
		t.Errorf("stars meters %v", g)
	}
	if b, _ := l.Meters(BillScope(500)); b[BillsInCount] != 1 {
		t.Errorf("bill 500 meters %v", b)
	}
	if !l.Status().InvariantOK {
		t.Fatalf("invariant: %s", l.Status().Invariant)
	}
	rc := l.Recall(10)
	if len(rc) != 3 || rc[0].Number != n || len(rc[0].Risk) != 2 || rc[0].CreditAfter-rc[0].CreditBefore != 100 {
		t.Fatalf("recall %+v", rc)
	}
	if _, err := l.Verify("after session"); err != nil {
		t.Fatal(err)
	}
	before := snapshot(l)
	st := l.Status()
	must(t, l.Close())
	l2, err := Open(o)
	must(t, err)
	defer l2.Close()
	if l2.RAMError() != nil || len(l2.Findings()) != 0 {
		t.Fatalf("reopen: %v %v", l2.RAMError(), l2.Findings())
	}
	sameState(t, before, snapshot(l2))
	if l2.Status().Head != st.Head {
		t.Fatal("head changed over reopen")
	}
}

func TestIdempotentReplays(t *testing.T) {
	l, _ := newTestLedger(t)
	id := insertBill(t, l, 1000)
	must(t, l.Escrow(id, DocBill, 1000, "")) // replay of a finished escrow
	must(t, l.Stacked(id, 1000))             // replay of the stack
	n := playRound(t, l, "wish", 1, 50, 80)
	seq := l.Status().Seq
	must(t, l.Wager(Wager{Round: n, Game: "wish", Denom: 1, Stake: 50, Choices: []byte(`{"lines":10}`)}))
	must(t, l.Outcome(n, 80, []byte(`{"tape":[1,2,3],"sig":"x"}`)))
	must(t, l.Settle(n, Settlement{Credit: 80}))
	if l.Status().Seq != seq {
		t.Fatal("a replay committed a transaction")
	}
	if c, _ := l.Credit(); c != 1000-50+80 {
		t.Fatalf("credit %d", c)
	}
	if err := l.Settle(n, Settlement{Credit: 81}); !errors.Is(err, ErrConflict) {
		t.Fatalf("settle with other values: %v", err)
	}
	if err := l.Wager(Wager{Round: n + 5, Game: "wish", Denom: 1, Stake: 1}); !errors.Is(err, ErrConflict) {
		t.Fatalf("out-of-order wager: %v", err)
	}
	if err := l.Wager(Wager{Round: n + 1, Game: "wish", Denom: 1, Stake: 1 << 40}); !errors.Is(err, ErrInsufficientCredit) {
		t.Fatalf("big wager: %v", err)
	}
	if err := l.Stacked(9999, 5); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown doc: %v", err)
	}
	if l.Status().Seq != seq {
		t.Fatal("a refused request committed a transaction")
	}
}

// Check 26's "transfer to credit": a large-win handpay reset to the credit
// meter credits the win once, counts it as a win paid to credit and in
// its own meter, never as a handpay; a jackpot lockup cannot be
// transferred (MS-18), and a transferred handpay cannot also be paid.
func TestHandpayToCredit(t *testing.T) {
	l, _ := newTestLedger(t)
	must(t, l.PowerUp())
	insertBill(t, l, 1000)
	n := l.NextRound()
	must(t, l.Wager(Wager{Round: n, Game: "wish", Denom: 1, Stake: 100}))
	must(t, l.Outcome(n, 9000, []byte("o")))
	must(t, l.Settle(n, Settlement{Handpay: 9000, Jackpot: 500}))
	var win, jackpot uint64
	for _, d := range l.PendingDocs() {
		switch d.Kind {
		case DocHandpayWin:
			win = d.ID
		case DocHandpayJackpot:
			jackpot = d.ID
		}
	}
	if err := l.HandpayToCredit(jackpot, "att-1"); !errors.Is(err, ErrConflict) {
		t.Fatalf("jackpot transferred to credit: %v", err)
	}
	if err := l.HandpayToCredit(win, ""); err == nil {
		t.Fatal("transfer without an attendant accepted")
	}
	must(t, l.HandpayToCredit(win, "att-1"))
	must(t, l.HandpayToCredit(win, "att-1")) // the same reset again changes nothing
	if err := l.HandpayPaid(win, "att-1"); !errors.Is(err, ErrConflict) {
		t.Fatalf("a transferred handpay paid by hand too: %v", err)
	}
	if c, _ := l.Credit(); c != 1000-100+9000 {
		t.Fatalf("credit %d, want %d", c, 1000-100+9000)
	}
	cab, _ := l.Meters(ScopeCabinet)
	if cab[CoinOut] != 9000 || cab[HandpayToCredit] != 9000 || cab[HandpayWin] != 0 {
		t.Fatalf("meters %v", cab)
	}
	if g, _ := l.Meters(GameScope("wish")); g[HandpayToCredit] != 9000 || g[CoinOut] != 9000 {
		t.Fatalf("game meters %v", g)
	}
	if !l.Status().InvariantOK {
		t.Fatalf("invariant: %s", l.Status().Invariant)
	}
}

// StateDigest follows the money and ignores the logs and what it is told
// to skip: an event or a door leaves it (door skipped), a note changes it.
func TestStateDigest(t *testing.T) {
	l, _ := newTestLedger(t)
	must(t, l.PowerUp())
	skip := DigestSkip{Resume: []ResumePart{ResumeBeat}, Meters: []Meter{DoorOpens}}
	d0 := l.StateDigest(skip)
	must(t, l.LogEvent("key", "technician", "on", 0, nil))
	must(t, l.Heartbeat(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
	must(t, l.DoorOpened("main"))
	must(t, l.DoorClosed("main"))
	if d := l.StateDigest(skip); d != d0 {
		t.Fatal("an event, a heartbeat or a door changed the digest they are skipped from")
	}
	if d := l.StateDigest(DigestSkip{}); d == d0 {
		t.Fatal("the door and the heartbeat left the full digest unchanged")
	}
	insertBill(t, l, 500)
	if d := l.StateDigest(skip); d == d0 {
		t.Fatal("a note left the digest unchanged")
	}
}

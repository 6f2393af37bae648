package ledger

// Check 14 (standards.md §2, §1.5): the required meter set per machine and
// per game, at least 10 digits, rollover from the maximum to 0, no reset but
// by a RAM clear.
//
// The required meters (§1.5) and where they are kept; two have nothing to
// count here: no external bonus is paid (the only award outside the paytable
// is the mystery jackpot, counted as progressive paid) and there is no
// promotional credit (the cabinet prints and credits cashable tickets only).

import (
	"encoding/json"
	"testing"
)

// requiredMeters maps each meter §1.5 lists to ours.
var requiredMeters = []struct {
	name string
	m    Meter
}{
	{"coin in / total bet (excluding Risk re-wagers)", CoinIn},
	{"coin out / total won paid by machine", CoinOut},
	{"attendant-paid jackpots (handpay)", HandpayWin},
	{"attendant-paid cancelled credits", HandpayCancelledCredit},
	{"progressive paid", JackpotAttendant},
	{"bills in (value)", BillsInValue},
	{"bills in (count)", BillsInCount},
	{"tickets in (value)", TicketsInValue},
	{"tickets in (count)", TicketsInCount},
	{"tickets out (value)", TicketsOutValue},
	{"tickets out (count)", TicketsOutCount},
	{"total drop", TotalDrop},
	{"games played", GamesPlayed},
	{"door open count", DoorOpens},
	{"power-up count", PowerUps},
}

// perGameRequired are the game meters kept per game and per denomination.
var perGameRequired = []Meter{CoinIn, CoinOut, GamesPlayed, GamesWon, HandpayWin, JackpotAttendant, RiskWagered, RiskWon, WagersRefunded}

func contains(ms []Meter, m Meter) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// check14Session moves every required meter once by a known amount.
func check14Session(t *testing.T, l *Ledger) {
	t.Helper()
	must(t, l.PowerUp())
	for _, d := range []string{"main", "cashbox"} {
		must(t, l.DoorOpened(d))
		must(t, l.DoorClosed(d))
	}
	insertBill(t, l, 10000)
	insertBill(t, l, 10000)
	insertBill(t, l, 50000)
	id := l.NextDocID()
	must(t, l.Escrow(id, DocTicketIn, 2000, "001234567890123456"))
	must(t, l.Stacked(id, 2000))
	// Magic Stars, denomination 1: a lost round, a won round doubled once
	// by Risk, a large win paid by hand, a jackpot paid by hand.
	playRound(t, l, "magic-stars", 1, 100, 0)
	n := l.NextRound()
	must(t, l.Wager(Wager{Round: n, Game: "magic-stars", Denom: 1, Stake: 100}))
	must(t, l.Outcome(n, 300, []byte(`{}`)))
	must(t, l.Risk(n, RiskStep{Step: 1, Stake: 300, Won: 600}))
	must(t, l.Settle(n, Settlement{Credit: 600}))
	n = l.NextRound()
	must(t, l.Wager(Wager{Round: n, Game: "magic-stars", Denom: 1, Stake: 100}))
	must(t, l.Outcome(n, 40000, []byte(`{}`)))
	must(t, l.Settle(n, Settlement{Handpay: 40000, Jackpot: 70000}))
	r, _ := l.Round(n)
	for _, h := range r.HandpayIDs {
		must(t, l.HandpayPaid(h, "attendant"))
	}
	// Wish Upon a Star, denomination 10: a round refused by the central system.
	n = l.NextRound()
	must(t, l.Wager(Wager{Round: n, Game: "wish", Denom: 10, Stake: 50}))
	must(t, l.Refund(n, "refused"))
	// A voucher out and a cancel-credit handpay.
	id = l.NextDocID()
	must(t, l.VoucherPrinting(id, 1500, "009999999999999995"))
	must(t, l.VoucherPrinted(id))
	id = l.NextDocID()
	must(t, l.CancelCreditHandpay(id, 700))
	must(t, l.HandpayPaid(id, "attendant"))
}

func TestCheck14RequiredMetersPerMachineAndGame(t *testing.T) {
	for _, r := range requiredMeters {
		if !contains(CabinetMeters, r.m) {
			t.Errorf("%s (%s) is not a machine meter", r.name, r.m)
		}
	}
	for _, m := range perGameRequired {
		if !contains(GameMeters, m) {
			t.Errorf("%s is not kept per game", m)
		}
	}
	l, _ := newTestLedger(t)
	check14Session(t, l)
	all, suspect := l.AllMeters()
	if suspect {
		t.Fatal("meters suspect")
	}
	want := map[Scope]map[Meter]int64{
		ScopeCabinet: {CoinIn: 350, CoinOut: 600, GamesPlayed: 3, GamesWon: 2, HandpayWin: 40000,
			HandpayCancelledCredit: 700, JackpotAttendant: 70000, BillsInValue: 70000, BillsInCount: 3,
			TicketsInValue: 2000, TicketsInCount: 1, TicketsOutValue: 1500, TicketsOutCount: 1, TotalDrop: 72000,
			RiskWagered: 300, RiskWon: 600, WagersRefunded: 50, DoorOpens: 2, PowerUps: 1, RAMClears: 1},
		GameScope("magic-stars"): {CoinIn: 300, CoinOut: 600, GamesPlayed: 3, GamesWon: 2, HandpayWin: 40000,
			JackpotAttendant: 70000, RiskWagered: 300, RiskWon: 600},
		GameScope("wish"):    {CoinIn: 50, WagersRefunded: 50},
		DenomScope(1):        {CoinIn: 300, CoinOut: 600, GamesPlayed: 3, GamesWon: 2, HandpayWin: 40000, JackpotAttendant: 70000, RiskWagered: 300, RiskWon: 600},
		DenomScope(10):       {CoinIn: 50, WagersRefunded: 50},
		BillScope(10000):     {BillsInCount: 2},
		BillScope(50000):     {BillsInCount: 1},
		DoorScope("main"):    {DoorOpens: 1},
		DoorScope("cashbox"): {DoorOpens: 1},
	}
	for s, ms := range want {
		for m, v := range ms {
			if all[s][m] != v {
				t.Errorf("%s %s = %d, want %d", s, m, all[s][m], v)
			}
		}
		for m, v := range all[s] {
			if _, ok := ms[m]; !ok && v != 0 {
				t.Errorf("%s %s = %d, want 0", s, m, v)
			}
		}
	}
	if st := l.Status(); !st.InvariantOK {
		t.Fatalf("invariant: %s", st.Invariant)
	}
}

// Every meter of every scope holds 10 digits and more, survives a reopen
// with all its digits, and rolls over from its maximum to exactly 0.
func TestCheck14MetersTenDigitsAndRollover(t *testing.T) {
	if MeterModulus < 10_000_000_000 {
		t.Fatalf("meter modulus %d: fewer than 10 digits", MeterModulus)
	}
	l, o := newTestLedger(t)
	check14Session(t, l)
	all, _ := l.AllMeters()
	scopes := []Scope{}
	for s := range all {
		scopes = append(scopes, s)
	}
	set := func(l *Ledger, v int64) {
		testExec(t, l, func(tx *tx) error {
			for _, s := range scopes {
				for _, m := range CabinetMeters {
					cur := tx.meterMap(s)[m]
					tx.add(m, modSub(v, cur), s) // the counting path every operation uses
				}
			}
			// A transaction that writes nothing but meters is skipped as a replay.
			tx.putJSON("test/check14", v)
			return nil
		})
	}
	check := func(l *Ledger, v int64, what string) {
		t.Helper()
		got, _ := l.AllMeters()
		for _, s := range scopes {
			for _, m := range CabinetMeters {
				if got[s][m] != v {
					t.Fatalf("%s: %s %s = %d, want %d", what, s, m, got[s][m], v)
				}
			}
		}
	}
	reopen := func(l *Ledger) *Ledger {
		must(t, l.Close())
		nl, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nl.Close() })
		return nl
	}
	set(l, 9_999_999_999)
	l = reopen(l)
	check(l, 9_999_999_999, "ten nines after a reopen")
	set(l, 10_000_000_000) // +1: an eleventh digit, not a rollover at 10 digits
	check(l, 10_000_000_000, "ten nines + 1")
	set(l, MeterModulus-1)
	l = reopen(l)
	check(l, MeterModulus-1, "maximum after a reopen")
	testExec(t, l, func(tx *tx) error {
		for _, s := range scopes {
			for _, m := range CabinetMeters {
				tx.add(m, 1, s)
			}
		}
		tx.putJSON("test/check14", 0)
		return nil
	})
	check(l, 0, "maximum + 1")
	// And through an operation: a power-up on the maximum.
	set(l, MeterModulus-1)
	must(t, l.PowerUp())
	if m, _ := l.Meters(ScopeCabinet); m[PowerUps] != 0 {
		t.Fatalf("power-ups at the maximum + 1 power-up = %d, want 0", m[PowerUps])
	}
}

// No operation but the RAM clear resets or lowers a meter: the operations
// that change no money (configuration, the accepted software, events, outbox,
// power cycles, doors, a refused round, a returned note) leave every meter
// as it was or count up; the RAM clear zeroes them, counts itself and keeps
// the old values in its event.
func TestCheck14NoResetButRAMClear(t *testing.T) {
	l, o := newTestLedger(t)
	check14Session(t, l)
	before, _ := l.AllMeters()
	notLower := func(what string) {
		t.Helper()
		now, _ := l.AllMeters()
		for s, ms := range before {
			for m, v := range ms {
				if now[s][m] < v {
					t.Fatalf("after %s: %s %s went from %d to %d", what, s, m, v, now[s][m])
				}
			}
		}
	}
	must(t, l.SetConfig("limits/ticket_out", "100000", "technician"))
	notLower("a configuration change")
	must(t, l.AcceptSoftware("sha256:new", "technician"))
	notLower("a software change")
	must(t, l.LogEvent("technician", "key", "menu", 0, nil))
	if _, err := l.Enqueue("events", []byte(`[]`)); err != nil {
		t.Fatal(err)
	}
	notLower("an event and the outbox")
	id := l.NextDocID()
	must(t, l.Escrow(id, DocBill, 10000, ""))
	must(t, l.Returned(id))
	notLower("a returned note")
	must(t, l.Close())
	var err error
	if l, err = Open(o); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	must(t, l.PowerUp())
	notLower("a power cycle")
	still, _ := l.AllMeters()
	for s, ms := range before {
		for m, v := range ms {
			if m != PowerUps && still[s][m] != v {
				t.Errorf("%s %s changed from %d to %d without a transaction counting it", s, m, v, still[s][m])
			}
		}
	}

	must(t, l.RAMClear("technician", "check 14"))
	after, _ := l.AllMeters()
	for s, ms := range after {
		for m, v := range ms {
			if m == RAMClears && s == ScopeCabinet {
				if v != before[ScopeCabinet][RAMClears]+1 {
					t.Errorf("RAM clears %d after a clear, want %d", v, before[ScopeCabinet][RAMClears]+1)
				}
				continue
			}
			if v != 0 {
				t.Errorf("after the RAM clear %s %s = %d", s, m, v)
			}
		}
	}
	var ev *Event
	for _, e := range l.Events(10) {
		if e.Kind == EventRAMClear {
			e := e
			ev = &e
		}
	}
	if ev == nil {
		t.Fatal("the RAM clear is not logged")
	}
	var old map[string]json.RawMessage
	if err := json.Unmarshal(ev.Data, &old); err != nil {
		t.Fatalf("RAM clear event data %q: %v", ev.Data, err)
	}
	var cab map[Meter]int64
	if err := json.Unmarshal(old[string(ScopeCabinet)], &cab); err != nil || cab[CoinIn] != still[ScopeCabinet][CoinIn] {
		t.Fatalf("the RAM clear event keeps coin in %d, want %d (%v)", cab[CoinIn], still[ScopeCabinet][CoinIn], err)
	}
}

package id003_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

const ticket = "001234567890123456"

// The driver asks for 9600 8E1: a pty cannot enforce it, so the Opener
// records it.
func TestSerialModeIs9600_8E1(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.modes) != 1 || r.modes[0] != serialport.ModeID003 {
		t.Fatalf("modes %v", r.modes)
	}
	m := r.modes[0]
	if m.Baud != 9600 || m.DataBits != 8 || m.Parity != serialport.ParityEven || m.StopBits != 1 {
		t.Fatalf("mode %v, want 9600 8E1", m)
	}
}

// Power-up → RESET → settings → currency table → enable, in that order.
func TestStartUpSequence(t *testing.T) {
	r := newRig(t)
	ready := await[id003.Ready](r, wait)
	await[id003.Enabled](r, wait)
	r.waitEmu(0x11, wait)
	if len(ready.Currency) != 6 || ready.Currency[0x64].Minor(2) != 2000 || ready.Currency[0x64].Country != 0xE0 {
		t.Fatalf("currency table %v", ready.Currency)
	}
	if ready.Version == "" || ready.BootVersion != "B05 " {
		t.Fatalf("versions %q %q", ready.Version, ready.BootVersion)
	}
	got := r.emu.Received()
	order := []byte{0x11, 0x40, 0xC3, 0xC0, 0xC1, 0xC2, 0xC4, 0xC5, 0xC6, 0xC7, 0x8A, 0xC3}
	i := 0
	for _, c := range got {
		if i < len(order) && c == order[i] {
			i++
		}
	}
	if i != len(order) || got[0] != 0x11 {
		t.Fatalf("commands % X do not follow % X", got, order)
	}
	if s := r.emu.Setting(0xC6); s[0] != 0x01 || s[1] != 0x12 {
		t.Fatalf("barcode function % X", s)
	}
	if s := r.emu.Setting(0xC2); s[0] != 0 {
		t.Fatalf("communication mode % X, want polling", s)
	}
}

// A note is reported stacked exactly once, and only after the acceptor said
// VEND VALID: BeforeAck checks the emulator's own record at that moment.
func TestNoteStackedOnceAtVendValid(t *testing.T) {
	var mu sync.Mutex
	var atHook []emulator.Entry
	var emu **emulator.Acceptor
	r := newRig(t, func(c *id003.Config, _ *emulator.Config) {
		c.BeforeAck = func(s id003.Stacked) error {
			mu.Lock()
			defer mu.Unlock()
			atHook = (*emu).Record()
			return nil
		}
	})
	emu = &r.emu
	r.ready()
	if err := r.emu.InsertNote(0x64); err != nil {
		t.Fatal(err)
	}
	await[id003.Accepting](r, wait)
	esc := await[id003.Escrow](r, wait)
	if esc.Doc.Kind != id003.DocNote || esc.Doc.Code != 0x64 || esc.Doc.Denom.Minor(2) != 2000 {
		t.Fatalf("escrow %v", esc)
	}
	if n := count[id003.Stacked](r); n != 0 {
		t.Fatalf("stacked before STACK: %d", n)
	}
	r.do(r.drv.Stack)
	st := await[id003.Stacked](r, wait)
	if st.Doc.Code != 0x64 || st.Recovered {
		t.Fatalf("stacked %v", st)
	}
	mu.Lock()
	if len(atHook) != 1 || !atHook[0].VendValid || atHook[0].Acked {
		t.Fatalf("at the credit hook the acceptor's record was %+v, want VEND VALID sent and not yet ACKed", atHook)
	}
	mu.Unlock()
	r.settle()
	if n := count[id003.Stacked](r); n != 1 {
		t.Fatalf("%d Stacked events", n)
	}
	rec := r.emu.Record()
	if len(rec) != 1 || rec[0].Outcome != emulator.Stacked || !rec[0].Acked {
		t.Fatalf("record %+v", rec)
	}
	if err := r.drv.Stack(context.Background()); !errors.Is(err, id003.ErrNoEscrow) {
		t.Fatalf("Stack with nothing in escrow: %v", err)
	}
}

// The host's ACK is lost three times: VEND VALID repeats, the driver ACKs
// each, and still reports Stacked once.
func TestRepeatedVendValidStacksOnce(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.emu.DropAcks(3)
	r.insertNote(0x62)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	await[id003.Stacked](r, wait)
	r.settle()
	acks := 0
	for _, c := range r.emu.Received() {
		if c == 0x50 {
			acks++
		}
	}
	if acks < 4 {
		t.Fatalf("%d ACKs sent, want at least 4", acks)
	}
	if n := count[id003.Stacked](r); n != 1 {
		t.Fatalf("%d Stacked events", n)
	}
	if err := r.drv.Stack(context.Background()); !errors.Is(err, id003.ErrNoEscrow) {
		t.Fatalf("second Stack: %v", err)
	}
}

func TestReturnByHost(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.insertNote(0x67)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Return)
	ret := await[id003.Returned](r, wait)
	if !ret.ByHost || ret.Doc.Code != 0x67 {
		t.Fatalf("returned %v", ret)
	}
	if err := r.drv.Stack(context.Background()); !errors.Is(err, id003.ErrDecided) && !errors.Is(err, id003.ErrNoEscrow) {
		t.Fatalf("Stack after Return: %v", err)
	}
	r.settle()
	if count[id003.Stacked](r) != 0 || len(r.emu.StackedDocs()) != 0 {
		t.Fatal("a returned note was stacked")
	}
}

// A ticket waiting for the central system is held: HOLD is re-sent, the
// acceptor's escrow time-out never fires, and it stacks when validated.
func TestTicketHeldIsNotReturnedByTimeout(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.insertTicket(ticket)
	esc := await[id003.Escrow](r, wait)
	if esc.Doc.Kind != id003.DocTicket || esc.Doc.Ticket != ticket {
		t.Fatalf("escrow %v", esc)
	}
	r.do(r.drv.Hold)
	time.Sleep(2 * escrowTimeout) // sleep-ok: the escrow time-out must pass twice while the driver's HOLDs keep the ticket
	if n := count[id003.Returned](r); n != 0 {
		t.Fatalf("held ticket returned")
	}
	if s := r.emu.Status(); s != 0x19 {
		t.Fatalf("acceptor status %02X, want HOLDING", s)
	}
	r.do(r.drv.Stack)
	st := await[id003.Stacked](r, wait)
	if st.Doc.Ticket != ticket {
		t.Fatalf("stacked %v", st)
	}
	r.settle()
	if docs := r.emu.StackedDocs(); len(docs) != 1 || docs[0].Ticket != ticket {
		t.Fatalf("cash box %v", docs)
	}
}

// The control: without HOLD the acceptor's escrow time-out returns the ticket.
func TestTicketNotHeldIsReturnedByTimeout(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.insertTicket(ticket)
	await[id003.Escrow](r, wait)
	ret := await[id003.Returned](r, wait)
	if ret.ByHost || ret.Doc.Ticket != ticket {
		t.Fatalf("returned %v", ret)
	}
	if err := r.drv.Stack(context.Background()); err == nil {
		t.Fatal("Stack after the time-out succeeded")
	}
	rec := r.emu.Record()
	if len(rec) != 1 || rec[0].Detail != "escrow time-out" {
		t.Fatalf("record %+v", rec)
	}
}

func TestRejects(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.emu.RejectNext(0x72)
	r.insertNote(0x63)
	if rej := await[id003.Rejected](r, wait); rej.Code != id003.RejectMagneticPattern || rej.Doc != nil {
		t.Fatalf("rejected %v", rej)
	}
	r.settle()
	// Only €5 enabled, no tickets: a €50 and a ticket are refused with 79.
	r.do(func(ctx context.Context) error { return r.drv.Enable(ctx, id003.Accept{Notes: id003.Denoms(0x62)}) })
	if en := await[id003.Enabled](r, wait); en.Accept.Notes != id003.Denoms(0x62) || en.Accept.Tickets {
		t.Fatalf("enabled %v", en)
	}
	r.insertNote(0x65)
	if rej := await[id003.Rejected](r, wait); rej.Code != id003.RejectInhibited {
		t.Fatalf("rejected %v", rej)
	}
	r.settle()
	r.insertTicket(ticket)
	if rej := await[id003.Rejected](r, wait); rej.Code != id003.RejectInhibited {
		t.Fatalf("rejected %v", rej)
	}
	r.settle()
	r.insertNote(0x62)
	await[id003.Escrow](r, wait)
	if count[id003.Escrow](r) != 1 {
		t.Fatal("a refused document reached escrow")
	}
}

func TestDisableAndEnable(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.do(r.drv.Disable)
	await[id003.Disabled](r, wait)
	r.waitEmu(0x1A, wait)
	if err := r.emu.InsertNote(0x62); !errors.Is(err, emulator.ErrNotAccepting) {
		t.Fatalf("insert while disabled: %v", err)
	}
	r.do(func(ctx context.Context) error {
		return r.drv.Enable(ctx, id003.Accept{Notes: id003.AllDenoms, Tickets: true})
	})
	await[id003.Enabled](r, wait)
	r.waitEmu(0x11, wait)
	// Disabled while a note is being drawn in: INHIBIT is refused mid-way,
	// the note reaching escrow is given back without an Escrow event, and
	// the acceptor is inhibited once idle.
	r.insertNote(0x63)
	await[id003.Accepting](r, wait)
	r.do(r.drv.Disable)
	ret := await[id003.Returned](r, wait)
	if ret.Doc.Code != 0x63 || !ret.ByHost {
		t.Fatalf("returned %v", ret)
	}
	await[id003.Disabled](r, wait)
	r.waitEmu(0x1A, wait)
	if count[id003.Escrow](r) != 0 {
		t.Fatal("Escrow reported while disabled")
	}
}

func TestPullBack(t *testing.T) {
	r := newRig(t, func(_ *id003.Config, e *emulator.Config) { e.StackTime = 300 * time.Millisecond })
	r.ready()
	r.insertNote(0x62)
	await[id003.Escrow](r, wait)
	r.emu.PullBack()
	if ret := await[id003.Returned](r, wait); ret.ByHost || ret.Doc.Code != 0x62 {
		t.Fatalf("returned %v", ret)
	}
	r.settle()
	// Pulled back while stacking: a cheat, and no credit.
	r.insertNote(0x63)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	r.waitEmu(0x14, wait)
	r.emu.PullBack()
	if f := await[id003.Fault](r, wait); f.Kind != id003.FaultCheated {
		t.Fatalf("fault %v", f)
	}
	r.emu.ClearFault()
	await[id003.FaultCleared](r, wait)
	if ret := await[id003.Returned](r, wait); ret.Doc.Code != 0x63 {
		t.Fatalf("returned %v", ret)
	}
	r.settle()
	if count[id003.Stacked](r) != 0 || len(r.emu.StackedDocs()) != 0 {
		t.Fatal("a pulled-back note was stacked")
	}
}

// Every error state is reported once and cleared when the acceptor idles.
func TestFaults(t *testing.T) {
	r := newRig(t)
	r.ready()
	cases := []struct {
		raise func()
		kind  id003.FaultKind
	}{
		{func() { r.emu.SetFault(emulator.StackerFull) }, id003.FaultStackerFull},
		{func() { r.emu.SetFault(emulator.StackerOpen) }, id003.FaultStackerOpen},
		{func() { r.emu.SetFault(emulator.AcceptorJam) }, id003.FaultAcceptorJam},
		{func() { r.emu.SetFault(emulator.StackerJam) }, id003.FaultStackerJam},
		{func() { r.emu.SetFault(emulator.Pause) }, id003.FaultPause},
		{func() { r.emu.SetFault(emulator.Cheated) }, id003.FaultCheated},
		{func() { r.emu.Fail(0xA2) }, id003.FaultFailure},
	}
	for _, c := range cases {
		c.raise()
		f := await[id003.Fault](r, wait)
		if f.Kind != c.kind || c.kind == id003.FaultFailure && f.Failure != id003.FailStackerMotor {
			t.Fatalf("fault %v, want %v", f, c.kind)
		}
		// The driver has read two more answers of the faulty acceptor.
		n := r.polls()
		poll.Until(t, wait, "two more polls answered", func() bool { return r.polls() >= n+3 })
		for _, e := range r.since() {
			if _, again := e.(id003.Fault); again {
				t.Fatalf("fault reported twice: %v", e)
			}
		}
		r.emu.ClearFault()
		if cl := await[id003.FaultCleared](r, wait); cl.Kind != c.kind {
			t.Fatalf("cleared %v", cl)
		}
	}
	// A jam with a note in escrow: the technician removes it; no credit.
	r.insertNote(0x65)
	await[id003.Escrow](r, wait)
	r.emu.SetFault(emulator.AcceptorJam)
	await[id003.Fault](r, wait)
	r.emu.ClearFault()
	if ret := await[id003.Returned](r, wait); ret.Doc.Code != 0x65 {
		t.Fatalf("returned %v", ret)
	}
	if rec := r.emu.Record(); rec[len(rec)-1].Outcome != emulator.Removed {
		t.Fatalf("record %+v", rec)
	}
	if count[id003.Stacked](r) != 0 {
		t.Fatal("stacked during faults")
	}
}

// Power lost while stacking, back with the note in the stacker: reported so
// the firmware can credit it from its pending record, and not as Stacked.
func TestPowerCycleBillInStacker(t *testing.T) {
	r := newRig(t, func(_ *id003.Config, e *emulator.Config) { e.StackTime = 300 * time.Millisecond })
	r.ready()
	r.insertNote(0x66)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	r.waitEmu(0x14, wait)
	r.emu.PowerCycle(emulator.InStacker)
	pu := await[id003.PowerUpWithBill](r, wait)
	if pu.Where != id003.InStacker || pu.Doc.Code != 0x66 {
		t.Fatalf("power-up %v", pu)
	}
	r.ready()
	if count[id003.Stacked](r) != 0 {
		t.Fatal("reported Stacked without VEND VALID")
	}
	if docs := r.emu.StackedDocs(); len(docs) != 1 || docs[0].Code != 0x66 {
		t.Fatalf("cash box %v", docs)
	}
}

// The document found in the stacker is journaled before the RESET after
// which the acceptor no longer reports it: BeforeReset runs while the
// acceptor has had no RESET since the power came back; a refusal withholds
// the RESET and the hook runs again; the power-up is reported once.
func TestBeforeResetRunsBeforeTheReset(t *testing.T) {
	var mu sync.Mutex
	var calls int
	var resetsAtHook []int
	var emu **emulator.Acceptor
	resets := func() int {
		n := 0
		for _, c := range (*emu).Received() {
			if c == 0x40 {
				n++
			}
		}
		return n
	}
	var before int
	r := newRig(t, func(c *id003.Config, e *emulator.Config) {
		e.StackTime = 300 * time.Millisecond
		c.BeforeReset = func(pu id003.PowerUpWithBill) error {
			mu.Lock()
			defer mu.Unlock()
			calls++
			resetsAtHook = append(resetsAtHook, resets()-before)
			if calls < 3 {
				return errors.New("journal not ready")
			}
			return nil
		}
	})
	emu = &r.emu
	r.ready()
	r.insertNote(0x66)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	r.waitEmu(0x14, wait)
	mu.Lock()
	before = resets()
	mu.Unlock()
	r.emu.PowerCycle(emulator.InStacker)
	await[id003.PowerUpWithBill](r, wait)
	r.ready()
	mu.Lock()
	defer mu.Unlock()
	if calls != 3 || !slices.Equal(resetsAtHook, []int{0, 0, 0}) {
		t.Fatalf("hook calls %d, RESETs already sent at each %v; want 3 calls before any RESET", calls, resetsAtHook)
	}
	if n := count[id003.PowerUpWithBill](r); n != 1 {
		t.Fatalf("%d PowerUpWithBill events", n)
	}
}

func TestPowerCycleBillInAcceptor(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.insertTicket(ticket)
	await[id003.Escrow](r, wait)
	r.emu.PowerCycle(emulator.InAcceptor)
	pu := await[id003.PowerUpWithBill](r, wait)
	if pu.Where != id003.InAcceptor || pu.Doc.Ticket != ticket {
		t.Fatalf("power-up %v", pu)
	}
	r.ready()
	rec := r.emu.Record()
	if len(rec) != 1 || rec[0].Outcome != emulator.Returned || rec[0].Doc.Ticket != ticket {
		t.Fatalf("record %+v", rec)
	}
}

// A cold start finding a document in the stacker, unknown to this driver.
func TestColdStartWithBillInStacker(t *testing.T) {
	r := newRig(t, func(_ *id003.Config, _ *emulator.Config) {})
	r.stop()
	r.emu.PowerCycle(emulator.InStacker)
	r.mu.Lock()
	r.log, r.cursor = nil, 0
	r.mu.Unlock()
	r.startDriver()
	pu := await[id003.PowerUpWithBill](r, wait)
	if pu.Where != id003.InStacker || pu.Doc.Kind != id003.DocUnknown {
		t.Fatalf("power-up %v", pu)
	}
	r.ready()
}

// The driver restarts while the acceptor repeats VEND VALID: the new driver
// reports the stacking (Recovered, for reconciliation) exactly once.
func TestRestartDuringVendValid(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.emu.DropAcks(1000)
	r.insertNote(0x64)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	await[id003.Stacked](r, wait)
	r.stop()
	r.drained() // the old driver's last ACK reached the acceptor (and was dropped)
	r.emu.DropAcks(0)
	r.startDriver()
	st := await[id003.Stacked](r, wait)
	if !st.Recovered || st.Doc.Kind != id003.DocUnknown {
		t.Fatalf("stacked %v", st)
	}
	r.ready()
	if n := count[id003.Stacked](r); n != 2 { // one per driver life
		t.Fatalf("%d Stacked", n)
	}
	if rec := r.emu.Record(); len(rec) != 1 || !rec[0].Acked {
		t.Fatalf("record %+v", rec)
	}
}

func TestCommLostAndRestored(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.emu.Silence(true)
	await[id003.CommLost](r, wait)
	if err := r.drv.Hold(context.Background()); !errors.Is(err, id003.ErrOffline) {
		t.Fatalf("Hold while offline: %v", err)
	}
	r.emu.Silence(false)
	await[id003.CommRestored](r, wait)
	r.ready() // the start-up sequence is repeated
	// Power off and on again: lost, then restored through POWER UP.
	r.emu.PowerOff()
	await[id003.CommLost](r, wait)
	r.emu.PowerOn(emulator.Nowhere)
	await[id003.CommRestored](r, wait)
	r.ready()
	for _, e := range r.events() {
		switch e.(type) {
		case id003.Fault, id003.Escrow, id003.Stacked, id003.Returned, id003.Rejected, id003.Anomaly, id003.PowerUpWithBill:
			t.Fatalf("false event %v", e)
		}
	}
}

// moneyEvents keeps the events a firmware acts on for money.
func moneyEvents(evs []id003.Event) []id003.Event {
	var out []id003.Event
	for _, e := range evs {
		switch e.(type) {
		case id003.Escrow, id003.Stacked, id003.Returned, id003.Rejected, id003.Fault, id003.Anomaly, id003.PowerUpWithBill, id003.CommLost:
			out = append(out, e)
		}
	}
	return out
}

// A note and a ticket over a noisy line: garbage before every reply
// (stray SYNCs, a truncated VEND VALID, an LNG of 255), replies split byte
// by byte, corrupted CRCs and garbage bursts. The events are exactly those
// of a clean line: no false escrow, stack, fault or loss.
func TestGarbageAndSplitFramesMakeNoFalseEvents(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.emu.SetNoise([]byte{0x00, 0xFC, 0x05, 0x15, 0x03, 0x13, 0xFC, 0x06, 0x13, 0x66, 0xFC, 0xFF})
	r.emu.SetSplit(4)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(7 * time.Millisecond):
			}
			r.emu.InjectGarbage([]byte{0xFC, byte(i), 0x16, 0xFC, 0x05})
			if i%70 == 0 { // one damaged reply in ~0.5 s: each costs a response timeout
				r.emu.CorruptReplies(1)
			}
		}
	})
	r.insertNote(0x63)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	await[id003.Stacked](r, wait)
	r.waitEmu(0x11, wait)
	r.insertTicket(ticket)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Hold)
	n := r.polls()
	poll.Until(t, wait, "two polls answered while the ticket is held", func() bool { return r.polls() >= n+2 })
	r.do(r.drv.Stack)
	await[id003.Stacked](r, wait)
	r.settle() // and the driver has read the idle acceptor through the noise
	close(stop)
	wg.Wait()
	got := moneyEvents(r.events())
	want := []string{"Escrow{note 63 (10×10^0 country E0)}", "Stacked{note 63 (10×10^0 country E0) recovered=false}",
		"Escrow{ticket " + ticket + "}", "Stacked{ticket " + ticket + " recovered=false}"}
	var names []string
	for _, e := range got {
		names = append(names, e.String())
	}
	if !slices.Equal(names, want) {
		t.Fatalf("events %q, want %q", names, want)
	}
	if len(r.emu.StackedDocs()) != 2 {
		t.Fatalf("cash box %v", r.emu.StackedDocs())
	}
}

// Slow replies: within the response timeout everything works. Beyond it the
// driver retries and may take a late reply for a later request (ID-003 has
// no sequence numbers), but no money event comes of it, and once replies
// are timely again a note stacks exactly once.
func TestSlowReplies(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.emu.SetReplyDelay(r.cfg.ResponseTimeout * 6 / 10)
	r.insertNote(0x65)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	await[id003.Stacked](r, wait)
	r.settle()
	r.emu.SetReplyDelay(r.cfg.ResponseTimeout * 5 / 2)
	// Two late answers: the driver has timed out and retried on them.
	n := len(r.emu.Received())
	poll.Until(t, wait, "two slow answers", func() bool { return len(r.emu.Received()) >= n+2 })
	r.emu.SetReplyDelay(0)
	r.drained() // the acceptor has worked off the backlog
	r.waitEmu(0x11, wait)
	r.insertNote(0x62)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	await[id003.Stacked](r, wait)
	r.settle()
	var names []string
	for _, e := range moneyEvents(r.events()) {
		if _, lost := e.(id003.CommLost); !lost {
			names = append(names, e.String())
		}
	}
	if len(names) != 4 || count[id003.Stacked](r) != 2 {
		t.Fatalf("events %q", names)
	}
	if docs := r.emu.StackedDocs(); len(docs) != 2 {
		t.Fatalf("cash box %v", docs)
	}
}

// Config.Stack1 sends STACK-1 (41) instead of the default STACK-2 (42).
func TestStack1Option(t *testing.T) {
	for _, one := range []bool{false, true} {
		r := newRig(t, func(c *id003.Config, _ *emulator.Config) { c.Stack1 = one })
		r.ready()
		r.insertNote(0x62)
		await[id003.Escrow](r, wait)
		r.do(r.drv.Stack)
		await[id003.Stacked](r, wait)
		want, other := byte(0x42), byte(0x41)
		if one {
			want, other = other, want
		}
		got := r.emu.Received()
		if !slices.Contains(got, want) || slices.Contains(got, other) {
			t.Fatalf("Stack1=%v sent % X", one, got)
		}
	}
}

// Power cut after VEND VALID, before the ACK got through: the note was
// reported Stacked once; the power-up in the stacker names no new document
// and the cash box holds one note.
func TestPowerCutAfterVendValid(t *testing.T) {
	r := newRig(t)
	r.ready()
	r.emu.DropAcks(1000)
	r.insertNote(0x65)
	await[id003.Escrow](r, wait)
	r.do(r.drv.Stack)
	await[id003.Stacked](r, wait)
	r.emu.PowerCycle(emulator.InStacker)
	r.emu.DropAcks(0)
	pu := await[id003.PowerUpWithBill](r, wait)
	if pu.Where != id003.InStacker || pu.Doc.Kind != id003.DocUnknown {
		t.Fatalf("power-up %v", pu)
	}
	r.ready()
	if n := count[id003.Stacked](r); n != 1 {
		t.Fatalf("%d Stacked", n)
	}
	if docs := r.emu.StackedDocs(); len(docs) != 1 || docs[0].Code != 0x65 {
		t.Fatalf("cash box %v", docs)
	}
}

package tcl_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/printer/internal/zbar"
	"github.com/polaris-vlt/polaris/drivers/printer/tcl"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/drivers/ptypair"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

type rig struct {
	t     *testing.T
	emu   *tclemu.Emulator
	drv   *tcl.Driver
	pair  *ptypair.Pair
	mu    sync.Mutex
	modes []serialport.Mode
	seen  []printer.Event
}

func fastConfig(path string) tcl.Config {
	// The time-outs are deadlines for what a working printer does (answer,
	// start, finish): generous, and stretched by the tests' factor; a test
	// of a time-out sets its own.
	return tcl.Config{Path: path, PollIdle: 25 * time.Millisecond, PollPrinting: 10 * time.Millisecond,
		CommTimeout: poll.Scaled(3 * time.Second), StartTimeout: poll.Scaled(2 * time.Second), PrintTimeout: poll.Scaled(5 * time.Second),
		OpenTimeout: poll.Scaled(5 * time.Second), Pacing: 5 * time.Millisecond, ByteTime: -1}
}

func newRig(t *testing.T, opt tclemu.Options, edit func(*tcl.Config)) *rig {
	t.Helper()
	p, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, pair: p}
	if opt.PrintTime == 0 {
		// long enough that a loaded CI box still polls inside the print;
		// a driver that misses a whole print fails it closed (not issued)
		opt.PrintTime = 250 * time.Millisecond
	}
	if opt.Line == nil {
		opt.Line = &tclemu.LineTiming{}
	}
	r.emu = tclemu.New(p.Device, opt)
	cfg := fastConfig(p.HostPath)
	cfg.Open = func(path string, m serialport.Mode) (serialport.Port, error) {
		r.mu.Lock()
		r.modes = append(r.modes, m)
		r.mu.Unlock()
		port, err := serialport.Open(path, m)
		if err != nil {
			return nil, err
		}
		return timedPort{port, opt.Line}, nil
	}
	if edit != nil {
		edit(&cfg)
	}
	r.drv, err = tcl.Open(cfg)
	if err != nil {
		r.emu.Close()
		p.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.drv.Close()
		r.emu.Close()
		p.Close()
	})
	return r
}

// timedPort tells the emulator when each write went on the line, which a
// pseudo-terminal does not carry (tclemu.Options.Line).
type timedPort struct {
	serialport.Port
	line *tclemu.LineTiming
}

func (p timedPort) Write(b []byte) (int, error) {
	p.line.Wrote(len(b), time.Now())
	return p.Port.Write(b)
}

// print prints doc once the driver has the printer online again: the
// download after a power cycle holds the line, and on a loaded machine the
// polls behind it can miss the comm time-out (a refused Print sent
// nothing, so asking again is safe).
func (r *rig) print(doc document.Document) {
	r.t.Helper()
	var err error
	poll.Until(r.t, 5*time.Second, "the printer online to take the print", func() bool {
		_, err = r.drv.Print(doc)
		return !errors.Is(err, printer.ErrOffline)
	})
	if err != nil {
		r.t.Fatal(err)
	}
}

// until reads events until one matches, failing after timeout; it returns
// every event seen since the last call.
func (r *rig) until(what string, match func(printer.Event) bool, timeout time.Duration) []printer.Event {
	r.t.Helper()
	var got []printer.Event
	deadline := poll.After(timeout)
	for {
		select {
		case e, ok := <-r.drv.Events():
			if !ok {
				r.t.Fatalf("events closed waiting for %s", what)
			}
			got = append(got, e)
			r.seen = append(r.seen, e)
			if match(e) {
				return got
			}
		case <-deadline:
			r.t.Fatalf("no %s within %v; saw %s; emulator %v", what, timeout, names(got), r.emu)
		}
	}
}

func is[T printer.Event](e printer.Event) bool { _, ok := e.(T); return ok }

func names(evs []printer.Event) string {
	var s []string
	for _, e := range evs {
		n := fmt.Sprintf("%T", e)
		n = strings.TrimPrefix(n, "printer.")
		switch v := e.(type) {
		case printer.FaultSet:
			n += "(" + v.Fault.String() + ")"
		case printer.FaultCleared:
			n += "(" + v.Fault.String() + ")"
		case printer.PrintFailed:
			n += fmt.Sprintf("(issued=%v %s)", v.Issued, v.Reason)
		}
		s = append(s, n)
	}
	return strings.Join(s, " ")
}

func count[T printer.Event](evs []printer.Event) int {
	n := 0
	for _, e := range evs {
		if is[T](e) {
			n++
		}
	}
	return n
}

func voucher(validation string) document.Voucher {
	at := time.Date(2026, 11, 29, 18, 7, 5, 0, time.UTC)
	return document.Voucher{Lang: document.Czech, Site: "Herna U Hvězdy", SiteID: "CZ-0042", Address: "Praha 1",
		Machine: "0017", Issued: at, Amount: 1234, Currency: document.CZK, Sequence: 42, Validation: validation,
		Type: document.Cashable, Expiry: at.Add(30 * 24 * time.Hour)}
}

const valNo = "001234567890123456"

func TestDriverAsksForTCLMode(t *testing.T) {
	r := newRig(t, tclemu.Options{}, nil)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.modes) != 1 || r.modes[0] != serialport.ModeTCL || r.modes[0].String() != "9600 8N1" {
		t.Fatalf("driver asked for %v, want exactly [9600 8N1]", r.modes)
	}
}

// The whole lifecycle: busy → validation number done → complete → paper in
// chute → taken → top of form, and the printed record holds every field.
func TestVoucherLifecycle(t *testing.T) {
	r := newRig(t, tclemu.Options{}, nil)
	r.until("Online", is[printer.Online], time.Second)
	id, err := r.drv.Print(voucher(valNo))
	if err != nil {
		t.Fatal(err)
	}
	evs := r.until("TicketInChute", is[printer.TicketInChute], 3*time.Second)
	order := []string{}
	for _, e := range evs {
		switch v := e.(type) {
		case printer.PrintStarted:
			order = append(order, "started")
		case printer.ValidationPrinted:
			if v.Job != id || v.Validation != valNo {
				t.Errorf("ValidationPrinted %+v", v)
			}
			order = append(order, "validation")
		case printer.PrintComplete:
			order = append(order, "complete")
		case printer.TicketInChute:
			if v.Job != id {
				t.Errorf("TicketInChute for job %d, want %d", v.Job, id)
			}
			order = append(order, "chute")
		case printer.PrintFailed:
			t.Fatalf("failed: %+v", v)
		}
	}
	if strings.Join(order, ",") != "started,validation,complete,chute" {
		t.Fatalf("order %v (%s)", order, names(evs))
	}
	// A second ticket is refused while the first waits in the chute.
	if _, err := r.drv.Print(voucher("991234567890123456")); !errors.Is(err, printer.ErrTicketInChute) {
		t.Fatalf("second print with ticket in chute: %v", err)
	}
	r.emu.TakeTicket()
	// top of form may come before or after the ticket is taken
	tof, taken := false, false
	for _, e := range evs {
		tof = tof || is[printer.TopOfForm](e)
	}
	for !tof || !taken {
		e := r.until("TicketTaken and TopOfForm", func(printer.Event) bool { return true }, 2*time.Second)[0]
		tof = tof || is[printer.TopOfForm](e)
		taken = taken || is[printer.TicketTaken](e)
	}

	ps := r.emu.Printouts()
	if len(ps) != 1 || !ps[0].Complete || !ps[0].ValidationPrinted || ps[0].Template != '2' {
		t.Fatalf("printouts %+v", ps)
	}
	p := ps[0]
	if len(p.Barcodes) != 1 || p.Barcodes[0] != valNo {
		t.Errorf("barcodes %q", p.Barcodes)
	}
	if p.Lines[0] != "00-1234-5678-9012-3456" {
		t.Errorf("leading edge %q", p.Lines[0])
	}
	for _, want := range []string{"VÝPLATNÍ TIKET", "Herna U Hvězdy", "Terminál 0017", "Datum 29.11.2026   Čas 18:07:05",
		"Tiket č. 0042", "1 234 CZK", "tisíc dvě stě třicet čtyři koruny české", "HOTOVOSTNÍ", "Platí do 29.12.2026 18:07",
		"VALIDAČNÍ ČÍSLO 00-1234-5678-9012-3456"} {
		if !strings.Contains(p.Text(), want) {
			t.Errorf("printed text lacks %q:\n%s", want, p.Text())
		}
	}
}

// A jam before the validation number: never reported issued.
func TestJamBeforeValidationIsNotIssued(t *testing.T) {
	for _, f := range []tclemu.Fault{tclemu.Jam, tclemu.PaperOut, tclemu.ChassisOpen, tclemu.HeadUp} {
		t.Run(f.String(), func(t *testing.T) {
			r := newRig(t, tclemu.Options{}, nil)
			r.emu.FailNextPrint(f, tclemu.BeforeValidation)
			if _, err := r.drv.Print(voucher(valNo)); err != nil {
				t.Fatal(err)
			}
			evs := r.until("PrintFailed", is[printer.PrintFailed], 3*time.Second)
			if n := count[printer.ValidationPrinted](evs); n != 0 {
				t.Fatalf("ValidationPrinted reported for a ticket that stopped before it: %s", names(evs))
			}
			pf := evs[len(evs)-1].(printer.PrintFailed)
			if pf.Issued || pf.Unsure || pf.Fault == 0 {
				t.Fatalf("%+v", pf)
			}
			// the fault itself is reported (chassis open only once the print ended)
			set := false
			for _, e := range evs {
				if fs, ok := e.(printer.FaultSet); ok && fs.Fault == pf.Fault {
					set = true
				}
			}
			if !set {
				t.Fatalf("fault %v not reported: %s", pf.Fault, names(evs))
			}
			if p := r.emu.Printouts(); len(p) != 1 || p[0].ValidationPrinted || p[0].Complete {
				t.Fatalf("printout %+v", p)
			}
			// Nothing prints while the fault stands.
			var fe *printer.FaultError
			if _, err := r.drv.Print(voucher(valNo)); !errors.As(err, &fe) {
				t.Fatalf("print during %v: %v", f, err)
			}
		})
	}
}

// The validation flag left set by the ticket before and no status between
// the job's start and its validation number (late polls): the driver
// cannot tell whether the number reached paper, so the failure is Unsure
// (the firmware must not void the voucher), though the ticket printed.
func TestValidationFlagNeverSeenClearIsUnsure(t *testing.T) {
	// a start time-out longer than the silence: the job ends on the status
	r := newRig(t, tclemu.Options{}, func(c *tcl.Config) { c.StartTimeout = 5 * time.Second })
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	r.until("PrintComplete", is[printer.PrintComplete], 3*time.Second)
	r.emu.TakeTicket()
	r.until("taken", is[printer.TicketTaken], time.Second)
	r.emu.SetSilent(true)
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 3*time.Second, "the second validation number on paper", func() bool {
		p := r.emu.Printouts()
		return len(p) == 2 && p[1].ValidationPrinted
	})
	r.emu.SetSilent(false)
	evs := r.until("PrintFailed", is[printer.PrintFailed], 3*time.Second)
	pf := evs[len(evs)-1].(printer.PrintFailed)
	if pf.Issued || !pf.Unsure || pf.Reason != "print stopped before the validation number" || count[printer.ValidationPrinted](evs) != 0 {
		t.Fatalf("%+v after %s, want not issued and unsure, stopped before the validation number", pf, names(evs))
	}
}

// A printer that starts the job after the driver's start time-out prints
// it anyway: the time-out's failure is Unsure.
func TestStartTimeOutIsUnsure(t *testing.T) {
	r := newRig(t, tclemu.Options{StartDelay: time.Second}, func(c *tcl.Config) { c.StartTimeout = 500 * time.Millisecond })
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	evs := r.until("PrintFailed", is[printer.PrintFailed], 3*time.Second)
	pf := evs[len(evs)-1].(printer.PrintFailed)
	if pf.Issued || !pf.Unsure {
		t.Fatalf("%+v after %s, want not issued and unsure", pf, names(evs))
	}
	poll.Until(t, 3*time.Second, "the late print's validation number on paper", func() bool {
		p := r.emu.Printouts()
		return len(p) == 1 && p[0].ValidationPrinted
	})
}

// A jam or paper out after the validation number: issued exactly once,
// then the failure; the jam clears with ^C|j|^.
func TestFaultAfterValidationStaysIssued(t *testing.T) {
	for _, c := range []struct {
		f     tclemu.Fault
		fault printer.Fault
	}{{tclemu.Jam, printer.PaperJam}, {tclemu.PaperOut, printer.PaperOut}} {
		t.Run(c.f.String(), func(t *testing.T) {
			r := newRig(t, tclemu.Options{}, nil)
			r.emu.FailNextPrint(c.f, tclemu.AfterValidation)
			if _, err := r.drv.Print(voucher(valNo)); err != nil {
				t.Fatal(err)
			}
			evs := r.until("PrintFailed", is[printer.PrintFailed], 3*time.Second)
			if n := count[printer.ValidationPrinted](evs); n != 1 {
				t.Fatalf("ValidationPrinted %d times: %s", n, names(evs))
			}
			pf := evs[len(evs)-1].(printer.PrintFailed)
			if !pf.Issued || pf.Fault != c.fault {
				t.Fatalf("%+v", pf)
			}
			if count[printer.PrintComplete](evs) != 0 {
				t.Fatal("complete reported for a stopped ticket")
			}
			if p := r.emu.Printouts(); len(p) != 1 || !p[0].ValidationPrinted || p[0].Complete {
				t.Fatalf("%+v", p)
			}
			if c.f != tclemu.Jam {
				return
			}
			if err := r.drv.ClearJam(); err != nil {
				t.Fatal(err)
			}
			r.until("jam cleared", func(e printer.Event) bool {
				c, ok := e.(printer.FaultCleared)
				return ok && c.Fault == printer.PaperJam
			}, time.Second)
		})
	}
}

// Paper low mid-print is a warning: the voucher completes and is issued.
func TestPaperLowMidPrint(t *testing.T) {
	r := newRig(t, tclemu.Options{PrintTime: 300 * time.Millisecond}, nil)
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	r.until("PrintStarted", is[printer.PrintStarted], time.Second)
	r.emu.SetPaperLow(true)
	evs := r.until("PrintComplete", is[printer.PrintComplete], 3*time.Second)
	if count[printer.ValidationPrinted](evs) != 1 || count[printer.PrintFailed](evs) != 0 {
		t.Fatalf("%s", names(evs))
	}
	low := false
	for _, e := range evs {
		if f, ok := e.(printer.FaultSet); ok && f.Fault == printer.PaperLow {
			low = true
		}
	}
	if !low {
		t.Fatalf("paper low not reported: %s", names(evs))
	}
}

// When ValidationPrinted arrives, the emulator has the validation region on
// paper — never earlier — across print speeds.
func TestIssuedOnlyOnceValidationIsOnPaper(t *testing.T) {
	for _, pt := range []time.Duration{40 * time.Millisecond, 400 * time.Millisecond} {
		r := newRig(t, tclemu.Options{PrintTime: pt, ValidationAt: 0.7}, nil)
		if _, err := r.drv.Print(voucher(valNo)); err != nil {
			t.Fatal(err)
		}
		r.until("ValidationPrinted", is[printer.ValidationPrinted], 3*time.Second)
		if p := r.emu.Printouts(); len(p) != 1 || !p[0].ValidationPrinted {
			t.Fatalf("print time %v: issued before the validation region was printed: %+v", pt, p)
		}
	}
}

func TestSensorFaultsAndWarnings(t *testing.T) {
	r := newRig(t, tclemu.Options{}, nil)
	for _, c := range []struct {
		set   func(bool)
		fault printer.Fault
	}{
		{r.emu.SetPaperLow, printer.PaperLow},
		{r.emu.SetPaperOut, printer.PaperOut},
		{r.emu.SetHeadUp, printer.HeadUp},
		{r.emu.SetChassisOpen, printer.ChassisOpen},
		{r.emu.SetTemperature, printer.Temperature},
	} {
		c.set(true)
		r.until("FaultSet "+c.fault.String(), func(e printer.Event) bool {
			f, ok := e.(printer.FaultSet)
			return ok && f.Fault == c.fault
		}, time.Second)
		_, err := r.drv.Print(voucher(valNo))
		var fe *printer.FaultError
		if c.fault.Blocking() != errors.As(err, &fe) {
			t.Fatalf("%v: print gave %v", c.fault, err)
		}
		if !c.fault.Blocking() { // paper low: the voucher prints
			r.until("complete", is[printer.PrintComplete], 3*time.Second)
			r.emu.TakeTicket()
			r.until("taken", is[printer.TicketTaken], time.Second)
		}
		c.set(false)
		r.until("FaultCleared "+c.fault.String(), func(e printer.Event) bool {
			f, ok := e.(printer.FaultCleared)
			return ok && f.Fault == c.fault
		}, time.Second)
	}
}

// Unsolicited frames (Paycheck4 broadcasts every 2 s) are taken like
// replies: with polling effectively off, the driver still follows the printer.
func TestUnsolicitedStatus(t *testing.T) {
	r := newRig(t, tclemu.Options{Unsolicited: 40 * time.Millisecond}, func(c *tcl.Config) {
		c.PollIdle = time.Hour
		c.CommTimeout = time.Hour
	})
	// Open asks for status until answered, and the loop polls once more
	// when it starts (how many of each depends on the line's pacing); then
	// the next poll is an hour away. Wait until the requests have stopped
	// for 150 ms.
	prev, quiet := -1, time.Now()
	poll.Until(t, 5*time.Second, "the driver's start-up status requests to stop", func() bool {
		if n := r.emu.StatusRequests(); n != prev {
			prev, quiet = n, time.Now()
		}
		return prev >= 1 && time.Since(quiet) >= 150*time.Millisecond
	})
	before := r.emu.StatusRequests()
	r.emu.SetPaperLow(true)
	r.until("paper low", is[printer.FaultSet], time.Second)
	if r.emu.StatusRequests() != before {
		t.Fatalf("driver polled; the event must come from an unsolicited frame")
	}
}

// Garbage and split frames never produce a false event.
func TestGarbageAndSplitFrames(t *testing.T) {
	r := newRig(t, tclemu.Options{}, nil)
	r.until("Online", is[printer.Online], time.Second)
	junk := [][]byte{
		[]byte("*S|0|GURSNGAA0|`|@|@|@|p|P2|"),     // a busy+valdone frame, truncated
		[]byte("*S|0|GURSNGAA0|\x04|@|@|@|@|P2|*"), // flag lacking bit 6 (paper out would be 0x44)
		{0x00, 0xff, 0x13, 0x11, '*', 'S', '*'},
		[]byte("*S|0|GURSNGAA0|D|@|@|B|@|P2|#"), // paper out + jam, bad terminator
	}
	for _, j := range junk {
		r.emu.SendGarbage(j)
	}
	r.emu.SendSplitStatus(11, 30*time.Millisecond)
	// The driver still works once a genuine status follows the garbage (a
	// truncated busy frame glued to the next bytes may read as busy), and
	// reads the line in order: whatever the garbage made of it comes before
	// the print's first event.
	poll.Until(t, 3*time.Second, "a status of the idle printer after the garbage", func() bool {
		s, ok := r.drv.Status()
		return ok && s.Cond&tcl.Busy == 0
	})
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	for _, e := range r.until("ValidationPrinted", is[printer.ValidationPrinted], 3*time.Second) {
		if _, ok := e.(printer.PrintStarted); ok {
			break
		}
		switch e.(type) {
		case printer.FaultSet, printer.ValidationPrinted, printer.PrintFailed, printer.CommLost:
			t.Fatalf("garbage produced %T", e)
		}
	}
}

// Slow replies within the time-out change nothing; silence is CommLost,
// and the line coming back is Online.
func TestSlowRepliesAndSilence(t *testing.T) {
	r := newRig(t, tclemu.Options{}, nil)
	r.until("Online", is[printer.Online], time.Second)
	r.emu.SetReplyDelay(60 * time.Millisecond)
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	evs := r.until("complete", is[printer.PrintComplete], 4*time.Second)
	if count[printer.CommLost](evs) != 0 || count[printer.ValidationPrinted](evs) != 1 {
		t.Fatalf("%s", names(evs))
	}
	r.emu.SetReplyDelay(0)
	r.emu.SetSilent(true)
	r.until("CommLost", is[printer.CommLost], 2*fastConfig("").CommTimeout)
	if _, err := r.drv.Print(voucher(valNo)); !errors.Is(err, printer.ErrOffline) {
		t.Fatalf("print while offline: %v", err)
	}
	r.emu.SetSilent(false)
	r.until("Online", is[printer.Online], 4*time.Second)
}

// A ticket left in the chute blocks the next one until taken.
func TestTicketLeftInChute(t *testing.T) {
	r := newRig(t, tclemu.Options{}, nil)
	r.drv.Print(voucher(valNo))
	r.until("chute", is[printer.TicketInChute], 3*time.Second)
	for i := 0; i < 3; i++ {
		if _, err := r.drv.Print(voucher(valNo)); !errors.Is(err, printer.ErrTicketInChute) {
			t.Fatalf("got %v", err)
		}
	}
	if n := len(r.emu.Printouts()); n != 1 {
		t.Fatalf("%d printouts", n)
	}
	r.emu.TakeTicket()
	r.until("taken", is[printer.TicketTaken], time.Second)
	if _, err := r.drv.Print(voucher("111111111111111111")); err != nil {
		t.Fatal(err)
	}
	r.until("ValidationPrinted", is[printer.ValidationPrinted], 3*time.Second)
}

func TestFormFeedAndClearErrors(t *testing.T) {
	r := newRig(t, tclemu.Options{}, nil)
	r.until("Online", is[printer.Online], time.Second)
	if err := r.drv.FormFeed(); err != nil {
		t.Fatal(err)
	}
	r.until("chute after form feed", is[printer.TicketInChute], 3*time.Second)
	if p := r.emu.Printouts(); len(p) != 1 || !p[0].FormFeed {
		t.Fatalf("%+v", p)
	}
	// The driver clears the power-up flag at Open; a power cycle sets it
	// again, and ClearErrors (^C|^) clears it.
	if r.emu.Flags()[4]&0x01 != 0 {
		t.Fatal("power-up flag still set after Open")
	}
	r.emu.TakeTicket()
	r.emu.PowerCycle()
	if r.emu.Flags()[4]&0x01 == 0 {
		t.Fatal("power cycle did not set the power-up flag")
	}
	if err := r.drv.ClearErrors(); err != nil {
		t.Fatal(err)
	}
	// ^C|^ has no answer: the printer clears the flag when it reads it.
	poll.Until(t, 3*time.Second, "^C|^ to clear the power-up flag", func() bool { return r.emu.Flags()[4]&0x01 == 0 })
}

// With downloaded templates, a printer power cycle (RAM lost) makes the
// driver download them again, and the next voucher prints.
func TestPowerCycleRedownloads(t *testing.T) {
	r := newRig(t, tclemu.Options{}, func(c *tcl.Config) { c.Download = true })
	r.until("Online", is[printer.Online], time.Second)
	// A power cycle shows as the flag's rise: the driver must have seen it
	// clear (Open's ^C|^ read by the printer, then a status polled after).
	poll.Until(t, 3*time.Second, "the driver to see the power-up flag clear", func() bool {
		s, ok := r.drv.Status()
		return ok && s.Cond&tcl.ResetPowerUp == 0
	})
	r.emu.PowerCycle()
	poll.Until(t, 3*time.Second, "the templates downloaded again after the power cycle", func() bool {
		return len(r.emu.Templates()) == 2 && r.emu.Flags()[4]&0x01 == 0
	}, func() string { return fmt.Sprintf("%q %v", r.emu.Templates(), r.emu) })
	r.print(voucher(valNo))
	r.until("ValidationPrinted", is[printer.ValidationPrinted], 3*time.Second)
	if p := r.emu.Printouts(); p[len(p)-1].Template != tcl.OwnVoucher {
		t.Fatalf("%+v", p[len(p)-1])
	}
}

// Downloaded regions and templates (the option), and the printed voucher
// from both the resident and the downloaded template scans with zbarimg.
func TestPrintedVoucherScans(t *testing.T) {
	for _, download := range []bool{false, true} {
		t.Run(fmt.Sprintf("download=%v", download), func(t *testing.T) {
			r := newRig(t, tclemu.Options{}, func(c *tcl.Config) { c.Download = download })
			v := voucher("123456789012345678")
			v.Lang, v.Currency, v.Amount = document.German, document.EUR, 12345
			if _, err := r.drv.Print(v); err != nil {
				t.Fatal(err)
			}
			r.until("complete", is[printer.PrintComplete], 3*time.Second)
			ps := r.emu.Printouts()
			wantT := byte('2')
			if download {
				wantT = tcl.OwnVoucher
				if len(r.emu.Templates()) != 2 {
					t.Fatalf("downloaded templates %q", r.emu.Templates())
				}
			}
			if len(ps) != 1 || ps[0].Template != wantT {
				t.Fatalf("printouts %+v", ps)
			}
			if !strings.Contains(ps[0].Text(), "einhundertdreiundzwanzig Euro fünfundvierzig Cent") {
				t.Errorf("words missing:\n%s", ps[0].Text())
			}
			png, err := ps[0].PNG()
			if err != nil {
				t.Fatal(err)
			}
			if dir := os.Getenv("PRINTER_PNG_DIR"); dir != "" { // keep the picture for a look
				os.WriteFile(filepath.Join(dir, fmt.Sprintf("tcl-voucher-%c.png", wantT)), png, 0o644)
			}
			got := zbar.Decode(t, png)
			if len(got) != 1 || got[0] != v.Validation {
				t.Fatalf("zbarimg read %q, want %s", got, v.Validation)
			}
		})
	}
}

// Handpay receipt on resident 'F'; jackpot payout form in line mode.
func TestHandpayAndJackpotForm(t *testing.T) {
	r := newRig(t, tclemu.Options{}, nil)
	h := document.HandpayReceipt{Lang: document.English, Site: "Casino", SiteID: "AT-3", Machine: "12",
		Paid: time.Date(2026, 1, 2, 23, 4, 5, 0, time.UTC), Amount: 250000, Currency: document.EUR, Sequence: 3,
		Reason: document.HandpayLargeWin, Attendant: "K-17"}
	if _, err := r.drv.Print(h); err != nil {
		t.Fatal(err)
	}
	evs := r.until("complete", is[printer.PrintComplete], 3*time.Second)
	if count[printer.ValidationPrinted](evs) != 0 {
		t.Fatal("a handpay receipt is not a voucher")
	}
	r.emu.TakeTicket()
	r.until("taken", is[printer.TicketTaken], time.Second)
	j := document.JackpotForm{Lang: document.Czech, Site: "Herna", SiteID: "CZ-1", Machine: "7",
		Won: time.Date(2026, 1, 2, 23, 4, 5, 0, time.UTC), Amount: 75000, Currency: document.CZK, JackpotID: "J-9", Sequence: 4}
	if _, err := r.drv.Print(j); err != nil {
		t.Fatal(err)
	}
	r.until("complete", is[printer.PrintComplete], 3*time.Second)
	ps := r.emu.Printouts()
	if len(ps) != 2 || ps[0].Template != 'F' || !ps[1].LineMode {
		t.Fatalf("%+v", ps)
	}
	if !strings.Contains(ps[0].Text(), "two thousand five hundred euros") || !strings.Contains(ps[0].Text(), "Attendant signature: ____") {
		t.Errorf("handpay:\n%s", ps[0].Text())
	}
	txt := ps[1].Text()
	for _, want := range []string{"FORMULÁŘ VÝPLATY JACKPOTU", "sedmdesát pět tisíc korun českých", "Vyplácí sídlo provozovatele do 30 dnů",
		"Podpis: ____", "Číslo dokladu totožnosti: ____", "Neúplně vyplněný formulář"} {
		if !strings.Contains(txt, want) {
			t.Errorf("jackpot form lacks %q:\n%s", want, txt)
		}
	}
}

// A job the printer turns down (a template it does not have) fails at once
// with a template error, not after the start time-out.
func TestRefusedJob(t *testing.T) {
	r := newRig(t, tclemu.Options{}, func(c *tcl.Config) {
		c.StartTimeout = 10 * time.Second
		c.Routes = tcl.DefaultRoutes()
		c.Routes[document.KindVoucher] = tcl.Route{Template: 'Z', Fields: tcl.ResidentVoucherFields}
	})
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	evs := r.until("PrintFailed", is[printer.PrintFailed], 2*time.Second)
	pf := evs[len(evs)-1].(printer.PrintFailed)
	if pf.Issued || pf.Fault != printer.TemplateError || count[printer.PrintStarted](evs) != 0 {
		t.Fatalf("%+v: %s", pf, names(evs))
	}
	if len(r.emu.Printouts()) != 0 {
		t.Fatal("printed")
	}
}

func TestConfigRefusals(t *testing.T) {
	for name, routes := range map[string]map[document.Kind]tcl.Route{
		"voucher in line mode": {document.KindVoucher: {LineMode: true}},
		"unknown field":        {document.KindVoucher: {Template: '2', Fields: []string{"validation", "colour"}}},
		"no barcode field":     {document.KindVoucher: {Template: '2', Fields: []string{"site"}}},
		"bad template id":      {document.KindHandpay: {Template: '|'}},
	} {
		opened := false
		_, err := tcl.Open(tcl.Config{Path: "/nonexistent", Routes: routes, Open: func(string, serialport.Mode) (serialport.Port, error) {
			opened = true
			return nil, errors.New("must not open")
		}})
		if err == nil || opened {
			t.Errorf("%s: err=%v opened=%v", name, err, opened)
		}
	}
}

package escpos_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/document"
	"github.com/polaris-vlt/polaris/drivers/printer/escpos"
	"github.com/polaris-vlt/polaris/drivers/printer/escposemu"
	"github.com/polaris-vlt/polaris/drivers/printer/internal/zbar"
	"github.com/polaris-vlt/polaris/drivers/ptypair"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

type rig struct {
	t     *testing.T
	emu   *escposemu.Emulator
	drv   *escpos.Driver
	mu    sync.Mutex
	modes []serialport.Mode
}

func newRig(t *testing.T, edit func(*escpos.Config), opts ...escposemu.Options) *rig {
	t.Helper()
	p, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t}
	var opt escposemu.Options
	if len(opts) > 0 {
		opt = opts[0]
	}
	r.emu = escposemu.New(p.Device, opt)
	cfg := escpos.Config{Path: p.HostPath, PollIdle: 30 * time.Millisecond, PollPrinting: 15 * time.Millisecond,
		ReplyTimeout: 400 * time.Millisecond, PrintTimeout: 3 * time.Second}
	cfg.Open = func(path string, m serialport.Mode) (serialport.Port, error) {
		r.mu.Lock()
		r.modes = append(r.modes, m)
		r.mu.Unlock()
		return serialport.Open(path, m)
	}
	if edit != nil {
		edit(&cfg)
	}
	r.drv, err = escpos.Open(cfg)
	if err != nil {
		r.emu.Close()
		p.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.drv.Close()
		p.Close()
		r.emu.Close()
	})
	return r
}

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
			if match(e) {
				return got
			}
		case <-deadline:
			r.t.Fatalf("no %s within %v; saw %s", what, poll.Scaled(timeout), names(got))
		}
	}
}

func is[T printer.Event](e printer.Event) bool { _, ok := e.(T); return ok }

func faultSet(f printer.Fault) func(printer.Event) bool {
	return func(e printer.Event) bool { v, ok := e.(printer.FaultSet); return ok && v.Fault == f }
}

func faultCleared(f printer.Fault) func(printer.Event) bool {
	return func(e printer.Event) bool { v, ok := e.(printer.FaultCleared); return ok && v.Fault == f }
}

func names(evs []printer.Event) string {
	var s []string
	for _, e := range evs {
		n := strings.TrimPrefix(fmt.Sprintf("%T", e), "printer.")
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
	return document.Voucher{Lang: document.Czech, Site: "Herna U Hvězdy", SiteID: "CZ-0042", Machine: "0017",
		Issued: at, Amount: 1234, Currency: document.CZK, Sequence: 42, Validation: validation,
		Type: document.Cashable, Expiry: at.Add(30 * 24 * time.Hour)}
}

const valNo = "001234567890123456"

func TestDriverAsksForConfiguredMode(t *testing.T) {
	r := newRig(t, nil)
	r.mu.Lock()
	if len(r.modes) != 1 || r.modes[0] != serialport.ModeESCPOSDefault || r.modes[0].String() != "115200 8N1" {
		t.Fatalf("default: asked for %v", r.modes)
	}
	r.mu.Unlock()
	m := serialport.Mode{Baud: 19200, DataBits: 8, Parity: serialport.ParityNone, StopBits: 1}
	r2 := newRig(t, func(c *escpos.Config) { c.Mode = m })
	r2.mu.Lock()
	defer r2.mu.Unlock()
	if len(r2.modes) != 1 || r2.modes[0] != m {
		t.Fatalf("configured: asked for %v", r2.modes)
	}
}

func TestVoucherPrintsAndScans(t *testing.T) {
	for _, fnA := range []bool{false, true} {
		t.Run(fmt.Sprintf("functionA=%v", fnA), func(t *testing.T) {
			r := newRig(t, func(c *escpos.Config) { c.Job.Barcode.FunctionA = fnA; c.Job.Barcode.HRI = escpos.HRIBelow })
			id, err := r.drv.Print(voucher(valNo))
			if err != nil {
				t.Fatal(err)
			}
			evs := r.until("PrintComplete", is[printer.PrintComplete], 3*time.Second)
			if count[printer.PrintStarted](evs) != 1 || count[printer.ValidationPrinted](evs) != 1 || count[printer.PrintFailed](evs) != 0 {
				t.Fatalf("%s", names(evs))
			}
			for _, e := range evs {
				if v, ok := e.(printer.ValidationPrinted); ok && (v.Job != id || v.Validation != valNo) {
					t.Fatalf("%+v", v)
				}
			}
			ps := r.emu.Printouts()
			if len(ps) != 1 || !ps[0].Complete || !ps[0].Cut || len(ps[0].Barcodes) != 1 || ps[0].Barcodes[0] != valNo {
				t.Fatalf("%+v", ps)
			}
			txt := ps[0].Text()
			for _, want := range []string{"00-1234-5678-9012-3456", "VÝPLATNÍ TIKET", "Herna U Hvězdy", "Terminál 0017",
				"Datum 29.11.2026 Čas 18:07:05", "Tiket č. 0042", "1 234 CZK", "tisíc dvě stě třicet čtyři koruny české",
				"HOTOVOSTNÍ", "Platí do 29.12.2026 18:07", "VALIDAČNÍ ČÍSLO 00-1234-5678-9012-3456"} {
				if !strings.Contains(txt, want) {
					t.Errorf("text lacks %q:\n%s", want, txt)
				}
			}
			if !strings.HasPrefix(txt, "00-1234-5678-9012-3456") {
				t.Errorf("validation number not at the leading edge:\n%s", txt)
			}
			png, err := ps[0].PNG(512)
			if err != nil {
				t.Fatal(err)
			}
			if dir := os.Getenv("PRINTER_PNG_DIR"); dir != "" {
				os.WriteFile(filepath.Join(dir, "escpos-voucher.png"), png, 0o644)
			}
			got := zbar.Decode(t, png)
			if len(got) != 1 || got[0] != valNo {
				t.Fatalf("zbarimg read %q, want %s", got, valNo)
			}
		})
	}
}

// Faults mid-print, before or after the barcode: never reported issued.
func TestFaultMidPrintIsNotIssued(t *testing.T) {
	for _, c := range []struct {
		f     escposemu.Fault
		w     escposemu.When
		fault printer.Fault
	}{
		{escposemu.PaperEnd, escposemu.BeforeBarcode, printer.PaperOut},
		{escposemu.PaperEnd, escposemu.AfterBarcode, printer.PaperOut},
		{escposemu.CutterJam, escposemu.BeforeBarcode, printer.CutterError},
		{escposemu.CutterJam, escposemu.AfterBarcode, printer.CutterError},
		{escposemu.CoverOpen, escposemu.AfterBarcode, printer.HeadUp},
	} {
		t.Run(fmt.Sprintf("%v/%d", c.f, c.w), func(t *testing.T) {
			r := newRig(t, nil)
			r.emu.FailNextPrint(c.f, c.w)
			if _, err := r.drv.Print(voucher(valNo)); err != nil {
				t.Fatal(err)
			}
			evs := r.until("PrintFailed", is[printer.PrintFailed], 3*time.Second)
			if count[printer.ValidationPrinted](evs) != 0 || count[printer.PrintComplete](evs) != 0 {
				t.Fatalf("a stopped ticket was reported printed: %s", names(evs))
			}
			pf := evs[len(evs)-1].(printer.PrintFailed)
			if pf.Issued || pf.Fault != c.fault {
				t.Fatalf("%+v (%s)", pf, names(evs))
			}
			// The driver cannot see where the print stopped: the number may
			// be on paper (it is, after the barcode), so the job is unsure.
			if !pf.Unsure {
				t.Fatalf("a job stopped after its bytes were sent is not marked unsure: %+v", pf)
			}
			ps := r.emu.Printouts()
			if len(ps) != 1 || ps[0].Complete || ps[0].ValidationPrinted != (c.w == escposemu.AfterBarcode) {
				t.Fatalf("%+v", ps)
			}
			if c.f == escposemu.CutterJam {
				// A cutter jam is recoverable: the driver's DLE ENQ 2 after the
				// failure recovers it and drops the rest of the job.
				r.until("cutter recovered", faultCleared(printer.CutterError), time.Second)
				return
			}
			var fe *printer.FaultError
			if _, err := r.drv.Print(voucher(valNo)); !errors.As(err, &fe) {
				t.Fatalf("print during fault: %v", err)
			}
		})
	}
}

func TestSensorFaults(t *testing.T) {
	r := newRig(t, nil)
	for _, c := range []struct {
		set   func(bool)
		fault printer.Fault
	}{
		{r.emu.SetPaperNearEnd, printer.PaperLow},
		{r.emu.SetPaperEnd, printer.PaperOut},
		{r.emu.SetCoverOpen, printer.HeadUp},
		{r.emu.SetOverheat, printer.Temperature},
		{r.emu.SetCutterJam, printer.CutterError},
	} {
		c.set(true)
		r.until("FaultSet "+c.fault.String(), faultSet(c.fault), time.Second)
		_, err := r.drv.Print(voucher(valNo))
		var fe *printer.FaultError
		if c.fault.Blocking() != errors.As(err, &fe) {
			t.Fatalf("%v: print gave %v", c.fault, err)
		}
		if !c.fault.Blocking() {
			r.until("complete", is[printer.PrintComplete], 3*time.Second)
		}
		c.set(false)
		r.until("FaultCleared "+c.fault.String(), faultCleared(c.fault), time.Second)
	}
}

// ClearErrors (DLE ENQ 2) recovers from a cutter jam.
func TestClearErrorsRecoversCutterJam(t *testing.T) {
	r := newRig(t, nil)
	r.emu.SetCutterJam(true)
	r.until("cutter error", faultSet(printer.CutterError), time.Second)
	if err := r.drv.ClearErrors(); err != nil {
		t.Fatal(err)
	}
	r.until("cutter error cleared", faultCleared(printer.CutterError), time.Second)
	if _, err := r.drv.Print(voucher("998877665544332211")); err != nil {
		t.Fatal(err)
	}
	r.until("ValidationPrinted", is[printer.ValidationPrinted], 3*time.Second)
	ps := r.emu.Printouts()
	if last := ps[len(ps)-1]; !last.Complete || last.Barcodes[0] != "998877665544332211" {
		t.Fatalf("%+v", last)
	}
}

// Garbage never produces a false event; silence is CommLost; slow replies are fine.
func TestGarbageSilenceSlowReplies(t *testing.T) {
	var loops atomic.Int64 // the driver's loop beats after every status round
	r := newRig(t, func(c *escpos.Config) { c.Heartbeat = func() { loops.Add(1) } })
	r.until("Online", is[printer.Online], time.Second)
	r.emu.SendGarbage([]byte{0xff, 0x13, 0x92, 0x81, 0x7f, 0x1a})
	// The driver has read the garbage, and finished two more status rounds
	// after it: an event it caused (a fault is confirmed by a clean round
	// within the same round) would be out by now.
	poll.Until(t, 2*time.Second, "the garbage read", func() bool { return r.drv.Unexpected() > 0 })
	read := loops.Load()
	poll.Until(t, 2*time.Second, "two status rounds after the garbage", func() bool { return loops.Load() >= read+2 })
	for done := false; !done; {
		select {
		case e := <-r.drv.Events():
			t.Fatalf("garbage produced %T", e)
		case <-time.After(100 * time.Millisecond):
			done = true
		}
	}
	r.emu.SetReplyDelay(50 * time.Millisecond)
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	evs := r.until("complete", is[printer.PrintComplete], 4*time.Second)
	if count[printer.CommLost](evs) != 0 {
		t.Fatalf("%s", names(evs))
	}
	r.emu.SetReplyDelay(0)
	r.emu.SetSilent(true)
	r.until("CommLost", is[printer.CommLost], 3*time.Second)
	if _, err := r.drv.Print(voucher(valNo)); !errors.Is(err, printer.ErrOffline) {
		t.Fatalf("print offline: %v", err)
	}
	r.emu.SetSilent(false)
	r.until("Online", is[printer.Online], 3*time.Second)
}

// The handpay receipt and the jackpot payout form print from their layouts.
func TestHandpayAndJackpotForm(t *testing.T) {
	r := newRig(t, nil)
	j := document.JackpotForm{Lang: document.German, Site: "Herna", SiteID: "CZ-1", Machine: "7",
		Won: time.Date(2026, 1, 2, 23, 4, 5, 0, time.UTC), Amount: 42000, Currency: document.CZK, JackpotID: "J-9", Sequence: 4}
	if _, err := r.drv.Print(j); err != nil {
		t.Fatal(err)
	}
	evs := r.until("complete", is[printer.PrintComplete], 3*time.Second)
	if count[printer.ValidationPrinted](evs) != 0 {
		t.Fatal("the jackpot form is not a voucher")
	}
	txt := r.emu.Printouts()[0].Text()
	for _, want := range []string{"JACKPOT-AUSZAHLUNGSFORMULAR", "zweiundvierzigtausend tschechische Kronen",
		"Auszahlung am Standort binnen 7 Tagen", "Ausweisnummer: ____", "Unterschrift: ____", "unvollständiges Formular"} {
		if !strings.Contains(txt, want) {
			t.Errorf("form lacks %q:\n%s", want, txt)
		}
	}
	if dir := os.Getenv("PRINTER_PNG_DIR"); dir != "" {
		png, _ := r.emu.Printouts()[0].PNG(512)
		os.WriteFile(filepath.Join(dir, "escpos-jackpot-form.png"), png, 0o644)
	}
}

// ValidationPrinted never comes before the whole ticket is on paper, even
// with line noise arriving while it prints.
func TestIssuedOnlyAfterTheTicketIsPrinted(t *testing.T) {
	r := newRig(t, nil, escposemu.Options{LineTime: 15 * time.Millisecond})
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	r.until("PrintStarted", is[printer.PrintStarted], time.Second)
	for i := 0; i < 5; i++ {
		r.emu.SendGarbage([]byte{0xff, 0x55, 0x81, 0x13, 0xa0})
		time.Sleep(20 * time.Millisecond) // sleep-ok: paces the line noise while the ticket prints
	}
	evs := r.until("ValidationPrinted", is[printer.ValidationPrinted], 5*time.Second)
	ps := r.emu.Printouts()
	if len(ps) != 1 || !ps[0].Complete || !ps[0].Cut || !ps[0].ValidationPrinted {
		t.Fatalf("issued before the ticket was printed and cut: %+v (%s)", ps, names(evs))
	}
	r.until("PrintComplete", is[printer.PrintComplete], time.Second)
}

// A printer that ignores DLE EOT 3 and 4 is probed at Open and still prints.
func TestPrinterWithoutStatus34(t *testing.T) {
	r := newRig(t, func(c *escpos.Config) { c.ReplyTimeout = 100 * time.Millisecond }, escposemu.Options{NoErrorPaperStatus: true})
	if got := r.drv.StatusRequests(); string(got) != "\x01\x02" {
		t.Fatalf("probed %v", got)
	}
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	evs := r.until("PrintComplete", is[printer.PrintComplete], 3*time.Second)
	if count[printer.ValidationPrinted](evs) != 1 || count[printer.CommLost](evs) != 0 {
		t.Fatalf("%s", names(evs))
	}
	r.emu.SetCoverOpen(true)
	r.until("head up", faultSet(printer.HeadUp), time.Second)
}

func TestOpenFailsWithoutPrinter(t *testing.T) {
	p, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := escpos.Open(escpos.Config{Path: p.HostPath, ReplyTimeout: 50 * time.Millisecond}); !errors.Is(err, printer.ErrOffline) {
		t.Fatalf("open with nothing on the line: %v", err)
	}
}

package tcl_test

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/tcl"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// The strict behaviours of real units, each a scenario: a printer that
// takes one ^…^ message per read (and discards a read holding two), one
// that only broadcasts its status, and slow prints.

// strictConfig keeps the driver's real pacing and line timing; only the
// polls are faster than in the field.
func strictConfig(c *tcl.Config) {
	c.Pacing, c.ByteTime = 0, 0 // the defaults: 100 ms after each message's bytes at 9600 baud
	c.StartTimeout = 3 * time.Second
}

// A printer that discards a read holding more than one message prints
// every voucher, resident and downloaded template, and its regions load
// with a numeric obj_att.
func TestOneMessagePerReadPrinterPrints(t *testing.T) {
	for _, download := range []bool{false, true} {
		// a print long enough to be seen at the pace a 9600-baud line allows
		r := newRig(t, tclemu.Options{OneMessagePerRead: true, NumericAttr: true, PrintTime: 1500 * time.Millisecond}, func(c *tcl.Config) {
			strictConfig(c)
			c.Download = download
			// What is tested is the reads, not the time-outs: a loaded
			// machine that stalls the emulator for seconds (seen at load
			// 25) must not end the job before it starts.
			c.CommTimeout, c.StartTimeout = 6*time.Second, 10*time.Second
		})
		for i := 0; i < 2; i++ {
			if _, err := r.drv.Print(voucher(valNo)); err != nil {
				t.Fatal(err)
			}
			evs := r.until("PrintComplete", is[printer.PrintComplete], 20*time.Second)
			if count[printer.ValidationPrinted](evs) != 1 || count[printer.PrintFailed](evs) != 0 {
				t.Fatalf("download=%v ticket %d: %s", download, i, names(evs))
			}
			r.emu.TakeTicket()
			r.until("TicketTaken", is[printer.TicketTaken], 3*time.Second)
		}
		if n := r.emu.Discarded(); n != 0 {
			t.Fatalf("download=%v: the printer discarded %d reads: %q", download, n, r.emu.DiscardedReads())
		}
	}
}

// A printer that answers no ENQ and broadcasts every period: the driver
// sends no request, stays online, and a slow print (start delay, then a
// long print) is issued and completes.
func TestBroadcastOnlyPrinterPrints(t *testing.T) {
	const period = 200 * time.Millisecond
	r := newRig(t, tclemu.Options{BroadcastOnly: true, Unsolicited: period, StartDelay: 300 * time.Millisecond,
		PrintTime: 1500 * time.Millisecond}, func(c *tcl.Config) {
		strictConfig(c)
		c.Broadcast = period
		c.CommTimeout = 0 // derived: 3 periods
		c.PrintTimeout = 2 * time.Second
	})
	if _, err := r.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	evs := r.until("PrintComplete", is[printer.PrintComplete], 8*time.Second)
	if count[printer.ValidationPrinted](evs) != 1 || count[printer.CommLost](evs) != 0 || count[printer.PrintFailed](evs) != 0 {
		t.Fatalf("%s", names(evs))
	}
	if n := r.emu.StatusRequests(); n != 0 {
		t.Fatalf("the driver sent %d status requests to a broadcast-only printer", n)
	}
}

// A print slower than the print time-out is failed (issued, since the
// validation number was done); the model's longer time-out lets it finish.
func TestSlowPrintNeedsTheModelsTimeout(t *testing.T) {
	for _, c := range []struct {
		timeout time.Duration
		ok      bool
	}{{1500 * time.Millisecond, false}, {6 * time.Second, true}} {
		r := newRig(t, tclemu.Options{PrintTime: 3 * time.Second, ValidationAt: 0.15}, func(cfg *tcl.Config) {
			cfg.PrintTimeout = c.timeout
		})
		if _, err := r.drv.Print(voucher(valNo)); err != nil {
			t.Fatal(err)
		}
		evs := r.until("end of job", func(e printer.Event) bool {
			return is[printer.PrintComplete](e) || is[printer.PrintFailed](e)
		}, 8*time.Second)
		last := evs[len(evs)-1]
		if pf, failed := last.(printer.PrintFailed); failed == c.ok || (failed && !pf.Issued) {
			t.Fatalf("timeout %v: %s", c.timeout, names(evs))
		}
	}
}

// fakeLine is a broadcast-only printer on a fake clock: the test moves the
// clock one read tick per step (a Read takes the step), and a status frame comes every period with
// up to 60 ms of jitter, as a real unit's timer and UART give.
type fakeLine struct {
	mu      sync.Mutex
	now     time.Time
	next    time.Time
	period  time.Duration
	n       int
	written bytes.Buffer
	frame   []byte
	step    chan struct{}
}

func (f *fakeLine) Now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
func (f *fakeLine) Sleep(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}
func (f *fakeLine) Read(p []byte) (int, error) {
	advance := false
	select {
	case <-f.step:
		advance = true
	case <-time.After(time.Millisecond):
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if advance {
		f.now = f.now.Add(10 * time.Millisecond)
	}
	if f.now.Before(f.next) {
		return 0, nil
	}
	f.n++
	f.next = f.next.Add(f.period + time.Duration(f.n*37%61)*time.Millisecond)
	return copy(p, f.frame), nil
}
func (f *fakeLine) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.written.Write(p)
}
func (f *fakeLine) Close() error                       { return nil }
func (f *fakeLine) SetReadTimeout(time.Duration) error { return nil }
func (f *fakeLine) ResetInputBuffer() error            { return nil }

// A broadcast-only printer (every 2 s, jittered) keeps the link online for
// 10 minutes of fake-clock time: one Online, no CommLost, no ENQ.
func TestBroadcastOnlyDoesNotFlap(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	f := &fakeLine{now: start, next: start, period: 2 * time.Second, step: make(chan struct{}),
		frame: tcl.EncodeStatus(tcl.Status{Addr: '0', Firmware: "PAY-6.22B", Template: '0',
			Flags: tcl.EncodeFlags(tcl.TopOfForm, tcl.F4Monaco)})}
	d, err := tcl.Open(tcl.Config{Path: "fake", Open: func(string, serialport.Mode) (serialport.Port, error) { return f, nil },
		Now: f.Now, Sleep: f.Sleep, Broadcast: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var evs []printer.Event
	for f.Now().Sub(start) < 10*time.Minute {
		select {
		case e := <-d.Events():
			evs = append(evs, e)
		case f.step <- struct{}{}:
		}
	}
	if count[printer.CommLost](evs) != 0 || count[printer.Online](evs) != 1 {
		t.Fatalf("%d frames in %v: %s", f.n, f.Now().Sub(start), names(evs))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if bytes.IndexByte(f.written.Bytes(), tcl.ENQ) >= 0 {
		t.Fatalf("ENQ sent to a broadcast-only printer: %q", f.written.Bytes())
	}
}

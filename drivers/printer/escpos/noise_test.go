package escpos_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/printer"
	"github.com/polaris-vlt/polaris/drivers/printer/escpos"
	"github.com/polaris-vlt/polaris/drivers/printer/escposemu"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// noiseBytes are what a noisy line can throw in: every valid GS r 1 reply,
// bytes with the DLE EOT pattern and a fault bit (offline, cover open,
// paper end, cutter), and a process ID frame of some other job.
var noiseBytes = [][]byte{{0x00}, {0x03}, {0x0c}, {0x0f}, {0x1a}, {0x16}, {0x3a}, {0x72}, {0x5e},
	{0x37, 0x22, 'A', 'B', 'C', 'D', 0x00}}

// noiseUntil injects noiseBytes, one every gap, until stop returns true.
func noiseUntil(emu *escposemu.Emulator, gap time.Duration, stop func() bool) (sent int) {
	for i := 0; !stop(); i++ {
		emu.SendGarbage(noiseBytes[i%len(noiseBytes)])
		sent++
		time.Sleep(gap) // sleep-ok: paces the noise, one injection every gap
	}
	return sent
}

// A byte that merely could be a confirmation or a fault status arriving
// while a voucher prints neither confirms it early nor fails it: the
// voucher is issued once, after the ticket is complete and cut, in both
// confirmation modes.
func TestNoiseWhilePrintingNeitherConfirmsNorFaults(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  escposemu.Options
		want escpos.ConfirmMode
	}{
		{"process-id", escposemu.Options{LineTime: 15 * time.Millisecond}, escpos.ConfirmProcessID},
		{"paper-sensor", escposemu.Options{LineTime: 15 * time.Millisecond, NoProcessID: true}, escpos.ConfirmPaperSensor},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, nil, c.opt)
			if got := r.drv.Confirmation(); got != c.want {
				t.Fatalf("confirmation %v, want %v", got, c.want)
			}
			for round := 0; round < 2; round++ {
				if _, err := r.drv.Print(voucher(valNo)); err != nil {
					t.Fatal(err)
				}
				r.until("PrintStarted", is[printer.PrintStarted], time.Second)
				var mu sync.Mutex
				var evs []printer.Event
				done := make(chan struct{})
				go func() {
					defer close(done)
					for e := range r.drv.Events() {
						if is[printer.ValidationPrinted](e) {
							// the emulator's record at the moment the event arrives
							ps := r.emu.Printouts()
							if len(ps) != round+1 || !ps[round].Complete || !ps[round].Cut {
								t.Errorf("issued before the ticket was printed and cut: %+v", ps)
							}
						}
						mu.Lock()
						evs = append(evs, e)
						mu.Unlock()
						if is[printer.PrintComplete](e) || is[printer.PrintFailed](e) {
							return
						}
					}
				}()
				sent := noiseUntil(r.emu, 20*time.Millisecond, func() bool { return len(r.emu.Printouts()) > round })
				select {
				case <-done:
				case <-poll.After(5 * time.Second):
					t.Fatal("no end of the job")
				}
				mu.Lock()
				if count[printer.ValidationPrinted](evs) != 1 || count[printer.PrintComplete](evs) != 1 ||
					count[printer.PrintFailed](evs) != 0 || count[printer.FaultSet](evs) != 0 {
					t.Fatalf("round %d, %d noise bytes: %s", round, sent, names(evs))
				}
				mu.Unlock()
				if sent < 10 {
					t.Fatalf("only %d noise injections while printing", sent)
				}
			}
			if r.drv.Unexpected() == 0 {
				t.Fatal("noise was not counted")
			}
		})
	}
}

// Status-looking noise on an idle line raises no fault (a fault needs a
// clean round to confirm it); a real fault after it is still reported.
func TestIdleNoiseRaisesNoFault(t *testing.T) {
	var lmu sync.Mutex
	var logged []string
	r := newRig(t, func(c *escpos.Config) {
		c.Logf = func(f string, a ...any) { lmu.Lock(); logged = append(logged, f); lmu.Unlock() }
	})
	r.until("Online", is[printer.Online], time.Second)
	r.emu.SetReplyDelay(20 * time.Millisecond) // a slow printer: noise lands between request and reply
	end := time.Now().Add(2 * time.Second)
	noiseUntil(r.emu, 7*time.Millisecond, func() bool { return time.Now().After(end) })
	for quiet := false; !quiet; {
		select {
		case e := <-r.drv.Events():
			t.Fatalf("noise produced %s", names([]printer.Event{e}))
		case <-time.After(200 * time.Millisecond):
			quiet = true
		}
	}
	if r.drv.Unexpected() == 0 {
		t.Fatal("noise was not counted")
	}
	lmu.Lock()
	if !strings.Contains(strings.Join(logged, "\n"), "unexpected byte") {
		t.Fatalf("noise not logged: %q", logged)
	}
	lmu.Unlock()
	r.emu.SetReplyDelay(0)
	r.emu.SetCoverOpen(true)
	// A fault is confirmed by a clean round: generous for a loaded machine
	// (3 s ran out once while two test runs and a fresh-check shared it).
	r.until("head up", faultSet(printer.HeadUp), 10*time.Second)
}

// A printer without GS ( H is found at Open and confirmed by the paper
// sensor; forcing the process ID on it fails Open with a clear error.
func TestConfirmationProbe(t *testing.T) {
	r := newRig(t, nil)
	if r.drv.Confirmation() != escpos.ConfirmProcessID {
		t.Fatalf("got %v", r.drv.Confirmation())
	}
	r2 := newRig(t, nil, escposemu.Options{NoProcessID: true})
	if r2.drv.Confirmation() != escpos.ConfirmPaperSensor {
		t.Fatalf("got %v", r2.drv.Confirmation())
	}
	if _, err := r2.drv.Print(voucher(valNo)); err != nil {
		t.Fatal(err)
	}
	evs := r2.until("PrintComplete", is[printer.PrintComplete], 3*time.Second)
	if count[printer.ValidationPrinted](evs) != 1 {
		t.Fatalf("%s", names(evs))
	}
}

package tclemu

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/ptypair"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// host is the controller's end, opened through the real serial code path.
type host struct {
	t    *testing.T
	port serialport.Port
	emu  *Emulator
}

func newHost(t *testing.T, opt Options) *host {
	p, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	emu := New(p.Device, opt)
	port, err := serialport.Open(p.HostPath, serialport.ModeTCL)
	if err != nil {
		t.Fatal(err)
	}
	port.SetReadTimeout(20 * time.Millisecond)
	t.Cleanup(func() { port.Close(); p.Close(); emu.Close() })
	return &host{t, port, emu}
}

func (h *host) send(b string) {
	h.t.Helper()
	if _, err := io.WriteString(h.port, b); err != nil {
		h.t.Fatal(err)
	}
}

// status asks with ENQ and returns the reply frame.
func (h *host) status() []byte {
	h.t.Helper()
	h.send("\x05")
	return h.read29()
}

func (h *host) read29() []byte {
	h.t.Helper()
	var got []byte
	buf := make([]byte, 64)
	poll.Until(h.t, 2*time.Second, "a 29-byte status reply", func() bool {
		n, _ := h.port.Read(buf)
		got = append(got, buf[:n]...)
		return len(got) >= 29
	}, func() string { return fmt.Sprintf("got %q", got) })
	if len(got) != 29 {
		h.t.Fatalf("status reply %q", got)
	}
	return got
}

func (h *host) waitFlags(i int, mask, want byte) []byte {
	h.t.Helper()
	var fr []byte
	poll.Until(h.t, 2*time.Second, fmt.Sprintf("f%d & %#02x to become %#02x", i+1, mask, want), func() bool {
		fr = h.status()
		return fr[15+2*i]&mask == want
	}, func() string { return fmt.Sprintf("%q", fr) })
	return fr
}

// The reply to ENQ is exactly protocols.md's frame: *S|addr|fw9|f1..f5|P<t>|*,
// flags with bit 6 set; power-up and top of form at start.
func TestStatusFrameBytes(t *testing.T) {
	h := newHost(t, Options{Firmware: "PAY-6.22B"})
	fr := h.status()
	want := []byte("*S|0|PAY-6.22B|@|@|@|@|Q|P0|*") // f5 = 0x40|0x10 top of form|0x01 power-up
	if !bytes.Equal(fr, want) {
		t.Fatalf("got %q want %q", fr, want)
	}
	h.send("^S|^") // the ASCII request the Paycheck4 emulator also takes
	if fr := h.read29(); !bytes.Equal(fr, want) {
		t.Fatalf("^S|^ reply %q", fr)
	}
	h.send("^Se|^")
	if fr := h.read29(); !bytes.Equal(fr, want) {
		t.Fatalf("^Se|^ reply %q", fr)
	}
	h.send("^C|^")
	if fr := h.status(); fr[23] != 0x50 {
		t.Fatalf("^C|^ left f5 %#02x", fr[23])
	}
}

// Each scenario sets the flag bit protocols.md gives it, in both f4 layouts.
func TestScenarioFlagBits(t *testing.T) {
	for _, pc4 := range []bool{false, true} {
		h := newHost(t, Options{Paycheck4F4: pc4, PrintTime: 40 * time.Millisecond})
		checks := []struct {
			on, off func()
			i       int
			bit     byte
		}{
			{func() { h.emu.SetPaperOut(true) }, func() { h.emu.SetPaperOut(false) }, 0, 0x04},
			{func() { h.emu.SetHeadUp(true) }, func() { h.emu.SetHeadUp(false) }, 0, 0x08},
			{func() { h.emu.SetTemperature(true) }, func() { h.emu.SetTemperature(false) }, 1, 0x20},
			{func() { h.emu.SetPaperLow(true) }, func() { h.emu.SetPaperLow(false) }, 3, 0x01},
			{func() { h.emu.SetChassisOpen(true) }, func() { h.emu.SetChassisOpen(false) }, 4, 0x04},
		}
		for _, c := range checks {
			c.on()
			h.waitFlags(c.i, c.bit, c.bit)
			c.off()
			h.waitFlags(c.i, c.bit, 0)
		}
		// a jam lands on 0x02 (Monaco) or 0x20 (Paycheck4)
		jam := byte(0x02)
		if pc4 {
			jam = 0x20
		}
		h.emu.FailNextPrint(Jam, BeforeValidation)
		h.send("^P|2|1|a|b|c|d|e|001234567890123456|g|h|i|j|k|l|m|^")
		h.waitFlags(3, jam, jam)
		h.send("^C|^")
		h.waitFlags(3, jam, jam) // ^C|^ does not clear a jam
		h.send("^C|j|^")
		h.waitFlags(3, jam, 0)
		// line mode flag: 0x08 or 0x80
		lm := byte(0x08)
		if pc4 {
			lm = 0x80
		}
		h.send("^j|^")
		h.waitFlags(3, lm, lm)
		h.send("\x1b[^]\x1b")
		h.waitFlags(3, lm, 0)
	}
}

// The print lifecycle on the wire: busy and not top of form; validation
// done (and barcode accessed); busy clears with the ticket in the chute;
// top of form; the chute empties when the ticket is taken.
func TestPrintLifecycleFlags(t *testing.T) {
	h := newHost(t, Options{PrintTime: 200 * time.Millisecond})
	h.send("^P|2|1|a|b|c|d|e|001234567890123456|g|h|i|j|k|l|m|^")
	fr := h.waitFlags(0, 0x20, 0x20)
	if fr[23]&0x10 != 0 || fr[23]&0x20 != 0 || fr[26] != '2' {
		t.Fatalf("printing frame %q", fr)
	}
	h.waitFlags(4, 0x22, 0x22)
	fr = h.waitFlags(0, 0x20, 0)
	if fr[19]&0x08 == 0 {
		t.Fatalf("no paper in chute after the print: %q", fr)
	}
	h.waitFlags(4, 0x10, 0x10)
	h.emu.TakeTicket()
	h.waitFlags(2, 0x08, 0)
	p := h.emu.Printouts()
	if len(p) != 1 || !p[0].Complete || p[0].Barcodes[0] != "001234567890123456" || p[0].Lines[0] != "a" {
		t.Fatalf("%+v", p)
	}
}

// Bad commands set the flags protocols.md names: an unknown template or a
// region/data problem → f2 0x08; an unknown command → f3 0x20.
func TestCommandErrors(t *testing.T) {
	h := newHost(t, Options{})
	h.send("^P|Z|1|x|^")
	h.waitFlags(1, 0x08, 0x08)
	h.send("^C|^")
	h.waitFlags(1, 0x08, 0)
	h.send("^T|Q|R|512|1100|a|^") // region a does not exist
	h.waitFlags(1, 0x08, 0x08)
	h.send("^C|^^X|^")
	h.waitFlags(2, 0x20, 0x20)
	h.send("garbage without a caret")
	h.send("^C|^")
	h.waitFlags(2, 0x20, 0)
	if len(h.emu.Printouts()) != 0 {
		t.Fatal("a bad command printed")
	}
}

// held waits until the emulator holds exactly want of an unfinished
// message and has heard nothing for d: the gap it measures itself, from
// when it read the bytes (a loaded machine can hold a read up for longer
// than a host's sleep).
func (h *host) held(want string, d time.Duration) {
	h.t.Helper()
	poll.Until(h.t, 2*time.Second+d, fmt.Sprintf("the emulator to hold %q for %v", want, d), func() bool {
		h.emu.mu.Lock()
		defer h.emu.mu.Unlock()
		return string(h.emu.in) == want && time.Since(h.emu.lastIn) > d
	}, func() string {
		h.emu.mu.Lock()
		defer h.emu.mu.Unlock()
		return fmt.Sprintf("holds %q, last read %v ago", h.emu.in, time.Since(h.emu.lastIn))
	})
}

// Paycheck4 drops a message whose rest arrives more than 20 ms later. The
// test's emulator waits 500 ms, so the timely rest (2 ms after) is read in
// time on a loaded machine too; the late gaps are the emulator's own.
func TestSplitMessageTimeout(t *testing.T) {
	const split = 500 * time.Millisecond
	h := newHost(t, Options{SplitTimeout: split, PrintTime: 20 * time.Millisecond})
	h.send("^P|2|1|a|b|c|d|e|00")
	h.held("^P|2|1|a|b|c|d|e|00", split)
	h.send("1234567890123456|g|h|i|j|k|l|m|^")
	// The late rest is dropped up to its closing caret, which opens a
	// message of its own: the next one must come after SplitTimeout leaves
	// it behind (as on a Paycheck4). The emulator holding it shows that the
	// rest was read and taken: had it printed, the printout would be here.
	h.held("^", split)
	if n := len(h.emu.Printouts()); n != 0 {
		t.Fatalf("a late-split message printed (%d)", n)
	}
	// A timely split prints, and only it.
	h.send("^P|2|1|a|b|c|d|e|00")
	time.Sleep(2 * time.Millisecond) // sleep-ok: the case under test: the rest comes 2 ms later, within SplitTimeout
	h.send("9876543210987654|g|h|i|j|k|l|m|^")
	h.waitFlags(2, 0x08, 0x08)
	if p := h.emu.Printouts(); len(p) != 1 || p[0].Barcodes[0] != "009876543210987654" {
		t.Fatalf("printouts %+v, want only the timely split", p)
	}
}

func TestCRCReply(t *testing.T) {
	h := newHost(t, Options{})
	h.send("^G|\x00\x00\xff\xff\x12\x34|^")
	var got []byte
	buf := make([]byte, 16)
	poll.Until(t, time.Second, "the 7-byte CRC reply", func() bool {
		n, _ := h.port.Read(buf)
		got = append(got, buf[:n]...)
		return len(got) >= 7
	}, func() string { return fmt.Sprintf("got %q", got) })
	if len(got) != 7 || got[0] != '*' || got[1] != 'G' {
		t.Fatalf("CRC reply %q", got)
	}
}

package escposemu

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/ptypair"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

type host struct {
	t    *testing.T
	port serialport.Port
	emu  *Emulator
}

func newHost(t *testing.T) *host {
	p, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	emu := New(p.Device, Options{})
	port, err := serialport.Open(p.HostPath, serialport.ModeESCPOSDefault)
	if err != nil {
		t.Fatal(err)
	}
	port.SetReadTimeout(20 * time.Millisecond)
	t.Cleanup(func() { port.Close(); p.Close(); emu.Close() })
	return &host{t, port, emu}
}

func (h *host) ask(req string) byte {
	h.t.Helper()
	io.WriteString(h.port, req)
	buf := make([]byte, 8)
	var n int
	poll.Until(h.t, 2*time.Second, fmt.Sprintf("a reply to %q", req), func() bool {
		n, _ = h.port.Read(buf)
		return n > 0
	})
	if n != 1 {
		h.t.Fatalf("%q: %d bytes back", req, n)
	}
	return buf[0]
}

// DLE EOT replies carry the fixed pattern and python-escpos's typical bytes:
// online 12, offline 1A; paper ok 12, near end 1E, paper out 72.
func TestRealtimeStatusBytes(t *testing.T) {
	h := newHost(t)
	for n := 1; n <= 4; n++ {
		if b := h.ask("\x10\x04" + string(rune(n))); b != 0x12 {
			t.Errorf("DLE EOT %d idle: %#02x", n, b)
		}
	}
	h.emu.SetPaperNearEnd(true)
	if b := h.ask("\x10\x04\x04"); b != 0x1e {
		t.Errorf("near end %#02x", b)
	}
	h.emu.SetPaperEnd(true)
	if b := h.ask("\x10\x04\x04"); b != 0x7e {
		t.Errorf("near end + end %#02x", b)
	}
	h.emu.SetPaperNearEnd(false)
	if b := h.ask("\x10\x04\x04"); b != 0x72 {
		t.Errorf("paper out %#02x", b)
	}
	if b := h.ask("\x10\x04\x01"); b != 0x1a {
		t.Errorf("offline %#02x", b)
	}
	if b := h.ask("\x10\x04\x02"); b != 0x32 {
		t.Errorf("offline cause paper end %#02x", b)
	}
	h.emu.SetPaperEnd(false)
	h.emu.SetCoverOpen(true)
	if b := h.ask("\x10\x04\x02"); b != 0x16 {
		t.Errorf("cover open %#02x", b)
	}
	h.emu.SetCoverOpen(false)
	h.emu.SetCutterJam(true)
	if b := h.ask("\x10\x04\x03"); b != 0x1e {
		t.Errorf("cutter error %#02x", b)
	}
	h.emu.SetCutterJam(false)
	h.emu.SetOverheat(true)
	if b := h.ask("\x10\x04\x03"); b != 0x52 {
		t.Errorf("auto-recoverable %#02x", b)
	}
}

// The protocols.md voucher tail parses into a ticket: centred ITF of the 18
// digits with HRI below, height 80, module 2, partial cut; GS r 1 answers
// after it with the paper sensors.
func TestVoucherTailParses(t *testing.T) {
	h := newHost(t)
	io.WriteString(h.port, "\x1b@\x1bt\x12\x1b\x61\x01\x1bE\x01VALID\xb5\n\x1bE\x00")
	tail := "\x1b\x40\x1b\x61\x01\x1d\x68\x50\x1d\x77\x02\x1d\x48\x02\x1d\x6b\x46\x12001234567890123456\x0a\x1d\x56\x42\x00"
	if b := h.ask(tail + "\x1d\x72\x01"); b != 0x00 {
		t.Fatalf("GS r 1 reply %#02x", b)
	}
	p := h.emu.Printouts()
	if len(p) != 1 || !p[0].Complete || !p[0].Cut {
		t.Fatalf("%+v", p)
	}
	if p[0].Lines[0] != "VALIDÁ" || !p[0].Items[0].Bold || p[0].Items[0].Align != 1 {
		t.Errorf("text item %+v (PC852 0xB5 is Á)", p[0].Items[0])
	}
	var bar Item
	for _, it := range p[0].Items {
		if it.Barcode != "" {
			bar = it
		}
	}
	if bar.Barcode != "001234567890123456" || bar.Height != 80 || bar.Module != 2 || bar.HRI != 2 || bar.Align != 1 {
		t.Errorf("barcode %+v", bar)
	}
	// function A, and an odd split of the stream, give the same
	io.WriteString(h.port, "\x1dk\x0512")
	// sleep-ok: the odd split: the emulator most likely reads the two
	// halves apart (the same ticket either way; not a synchronisation)
	time.Sleep(10 * time.Millisecond)
	io.WriteString(h.port, "34\x00\x1dV\x01")
	poll.Until(t, 2*time.Second, "the second ticket", func() bool { return len(h.emu.Printouts()) >= 2 })
	if p := h.emu.Printouts(); len(p) != 2 || strings.Join(p[1].Barcodes, ",") != "1234" {
		t.Fatalf("%+v", p)
	}
	// every cut of §3.6 ends a ticket: GS V 0/1/48/49, GS V 65/66 n, ESC i, ESC m
	for i, cut := range []string{"\x1dV\x00", "\x1dV\x01", "\x1dV0", "\x1dV1", "\x1dVA\x02", "\x1dVB\x00", "\x1bi", "\x1bm"} {
		io.WriteString(h.port, fmt.Sprintf("cut %d\n", i)+cut)
	}
	poll.Until(t, 2*time.Second, "10 tickets", func() bool { return len(h.emu.Printouts()) >= 10 },
		func() string { return fmt.Sprintf("%d tickets after 8 cuts", len(h.emu.Printouts())-2) })
	p = h.emu.Printouts()
	if len(p) != 10 {
		t.Fatalf("%d tickets after 8 cuts", len(p)-2)
	}
	for i, tk := range p[2:] {
		if !tk.Cut || tk.Lines[0] != fmt.Sprintf("cut %d", i) {
			t.Errorf("cut %d: %+v", i, tk)
		}
	}
}

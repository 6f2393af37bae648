package emulator

import (
	"bytes"
	"context"
	"encoding/hex"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/ptypair"
	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// rawHost talks to the emulator with literal bytes from protocols.md §1.2,
// through the real serial path, with no driver involved.
// Its acceptor runs on the host's clock: a timed state (ACCEPTING,
// STACKING, …) ends only when the host lets time pass (pass, and
// pollUntil between its asks), so a loaded machine cannot run one out
// between two requests that expect it.
type rawHost struct {
	t    *testing.T
	port serialport.Port
	emu  *Acceptor
	mu   sync.Mutex
	now  time.Time
}

func (h *rawHost) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

// pass moves the acceptor's clock on by d.
func (h *rawHost) pass(d time.Duration) {
	h.mu.Lock()
	h.now = h.now.Add(d)
	h.mu.Unlock()
}

func newRawHost(t *testing.T, cfg Config) *rawHost {
	t.Helper()
	p, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	port, err := serialport.Open(p.HostPath, serialport.ModeID003)
	if err != nil {
		t.Fatal(err)
	}
	h := &rawHost{t: t, port: port, now: time.Unix(1_700_000_000, 0)}
	if cfg.Now == nil {
		cfg.Now = h.clock
	}
	emu := New(p.Device, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { emu.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); port.Close(); p.Close(); <-done })
	h.emu = emu
	return h
}

func hx(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// ask sends req and returns the reply bytes: as soon as a whole frame is
// in, or nil after 3 s of silence (a reply that should come).
func (h *rawHost) ask(req string) []byte {
	h.t.Helper()
	return h.askWithin(req, poll.Scaled(3*time.Second))
}

// unanswered sends req and returns what came back within 500 ms: nil for a
// request the acceptor must not answer.
func (h *rawHost) unanswered(req string) []byte {
	h.t.Helper()
	return h.askWithin(req, 500*time.Millisecond)
}

func (h *rawHost) askWithin(req string, silence time.Duration) []byte {
	h.t.Helper()
	if _, err := h.port.Write(hx(req)); err != nil {
		h.t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 256)
	h.port.SetReadTimeout(silence)
	for {
		n, err := h.port.Read(buf)
		if err != nil {
			h.t.Fatal(err)
		}
		if n == 0 {
			return got
		}
		got = append(got, buf[:n]...)
		if len(got) >= 2 && len(got) >= int(got[1]) {
			return got
		}
	}
}

func (h *rawHost) expect(req, want string) {
	h.t.Helper()
	got := h.ask(req)
	if !bytes.Equal(got, hx(want)) {
		h.t.Fatalf("%s → % X, want %s", req, got, want)
	}
}

// pollUntil asks for status every 5 ms of the acceptor's time until the
// reply is want, for at most 3 s of it.
func (h *rawHost) pollUntil(want string) {
	h.t.Helper()
	for waited := time.Duration(0); ; waited += 5 * time.Millisecond {
		got := h.ask("FC 05 11 27 56")
		if bytes.Equal(got, hx(want)) {
			return
		}
		if waited >= 3*time.Second {
			h.t.Fatalf("status stayed % X for 3 s of the acceptor's time, want %s", got, want)
		}
		h.pass(5 * time.Millisecond)
	}
}

var fast = Config{InitTime: 300 * time.Millisecond, AcceptTime: 20 * time.Millisecond, StackTime: 20 * time.Millisecond,
	ReturnTime: 20 * time.Millisecond, RejectTime: 20 * time.Millisecond}

func startUp(h *rawHost) {
	h.expect("FC 05 11 27 56", "FC 05 40 2B 15")             // POWER UP
	h.expect("FC 05 40 2B 15", "FC 05 50 AA 05")             // RESET → ACK
	h.expect("FC 05 11 27 56", "FC 05 1B 7D F9")             // INITIALIZE
	h.expect("FC 07 C0 00 00 2D B5", "FC 07 C0 00 00 2D B5") // settings are echoed
	h.expect("FC 07 C1 FF FF 49 1F", "FC 07 C1 FF FF 49 1F")
	h.expect("FC 06 C2 00 DC CF", "FC 06 C2 00 DC CF")
	h.expect("FC 06 C4 00 0C 9B", "FC 06 C4 00 0C 9B")
	h.expect("FC 07 C5 00 00 90 8C", "FC 07 C5 00 00 90 8C")
	h.expect("FC 07 C6 01 12 BF 49", "FC 07 C6 01 12 BF 49")
	h.expect("FC 06 C7 FC 87 8C", "FC 06 C7 FC 87 8C")
	h.pollUntil("FC 05 1A F4 E8")                      // DISABLE
	h.expect("FC 06 C3 00 04 D6", "FC 06 C3 00 04 D6") // INHIBIT off
	h.expect("FC 05 11 27 56", "FC 05 11 27 56")       // IDLING
}

// The documented start-up and a note's journey, byte for byte.
func TestDocumentedNoteFlow(t *testing.T) {
	h := newRawHost(t, fast)
	startUp(h)
	h.expect("FC 05 42 39 36", "FC 05 4B F8 AB") // STACK-2 with nothing in escrow
	if err := h.emu.InsertNote(0x63); err != nil {
		t.Fatal(err)
	}
	h.expect("FC 05 11 27 56", "FC 05 12 BC 64") // ACCEPTING
	h.pollUntil("FC 06 13 63 A2 D8")             // ESCROW 63
	h.expect("FC 05 42 39 36", "FC 05 50 AA 05") // STACK-2 → ACK
	h.expect("FC 05 11 27 56", "FC 05 14 8A 01") // STACKING
	h.pollUntil("FC 05 15 03 10")                // VEND VALID
	h.expect("FC 05 11 27 56", "FC 05 15 03 10") // repeated until ACK
	if got := h.unanswered("FC 05 50 AA 05"); got != nil {
		t.Fatalf("ACK was answered: % X", got)
	}
	h.expect("FC 05 11 27 56", "FC 05 16 98 22") // STACKED
	h.expect("FC 05 11 27 56", "FC 05 11 27 56") // IDLING
	rec := h.emu.Record()
	if len(rec) != 1 || rec[0].Outcome != Stacked || !rec[0].VendValid || !rec[0].Acked || rec[0].Doc.Code != 0x63 {
		t.Fatalf("record %+v", rec)
	}
}

func TestDocumentedTicketHoldReadBacksAndRejects(t *testing.T) {
	h := newRawHost(t, Config{InitTime: 300 * time.Millisecond, AcceptTime: 20 * time.Millisecond,
		ReturnTime: 20 * time.Millisecond, RejectTime: 300 * time.Millisecond, EscrowTimeout: 800 * time.Millisecond})
	startUp(h)
	h.expect("FC 05 87 98 A7", "FC 06 87 FC E1 CA")          // read back C7
	h.expect("FC 05 89 E6 4E", "FC 09 89 42 30 35 20 FE 98") // boot version
	h.expect("FC 05 8A 7D 7C", "FC 1D 8A 62 E0 05 00 63 E0 0A 00 64 E0 14 00 65 E0 32 00 66 E0 64 00 67 E0 C8 00 31 5C")
	h.expect("FC 06 C3 00 04 D6", "FC 06 C3 00 04 D6")
	if err := h.emu.InsertTicket("987654321098765432"); err != nil {
		t.Fatal(err)
	}
	h.pollUntil("FC 18 13 6F 39 38 37 36 35 34 33 32 31 30 39 38 37 36 35 34 33 32 EE 9F")
	// HOLD repeated faster than the escrow time-out keeps it.
	for range 6 {
		h.expect("FC 05 44 0F 53", "FC 05 50 AA 05")
		h.expect("FC 05 11 27 56", "FC 05 19 6F DA") // HOLDING
		h.pass(200 * time.Millisecond)               // the host's HOLD cadence, a quarter of the escrow time-out
	}
	// Without HOLD the escrow time-out returns it (polls do not hold it).
	h.pollUntil("FC 05 11 27 56")
	rec := h.emu.Record()
	if len(rec) != 1 || rec[0].Outcome != Returned || rec[0].Detail != "escrow time-out" {
		t.Fatalf("record %+v", rec)
	}
	// An inhibited denomination is rejected with 79 (C0 bit = 1 disables).
	h.expect("FC 06 C3 01 8D C7", "FC 06 C3 01 8D C7")
	h.pollUntil("FC 05 1A F4 E8")
	if err := h.emu.InsertNote(0x63); err != ErrNotAccepting {
		t.Fatalf("insert while inhibited: %v", err)
	}
	h.expect("FC 07 C0 02 00 "+crcHex(0xC0, 0x02, 0x00), "FC 07 C0 02 00 "+crcHex(0xC0, 0x02, 0x00))
	h.expect("FC 06 C3 00 04 D6", "FC 06 C3 00 04 D6")
	if err := h.emu.InsertNote(0x62); err != nil {
		t.Fatal(err)
	}
	h.pollUntil("FC 06 17 79 19 00") // REJECTING inhibited
	h.pollUntil("FC 05 11 27 56")
}

// crcHex uses the emulator's own framing; the documented vectors above pin it.
func crcHex(code byte, data ...byte) string {
	f := frame(code, data...)
	return strings.ToUpper(hex.EncodeToString(f[len(f)-2:len(f)-1])) + " " + strings.ToUpper(hex.EncodeToString(f[len(f)-1:]))
}

func TestDamagedFramesAndUnknownCommands(t *testing.T) {
	h := newRawHost(t, fast)
	if got := h.unanswered("FC 05 11 27 57"); got != nil {
		t.Fatalf("bad CRC answered: % X", got)
	}
	h.expect("00 FC 02 FF FC 05 11 27 56", "FC 05 40 2B 15")      // garbage, then a good request
	h.expect("FC 05 33 "+crcHex(0x33), "FC 05 4B F8 AB")          // unknown command
	h.expect("FC 06 C0 00 "+crcHex(0xC0, 0x00), "FC 05 4B F8 AB") // C0 needs 2 bytes
}

func TestCommErrorOnBadCRC(t *testing.T) {
	h := newRawHost(t, Config{CommErrorOnBadCRC: true})
	h.expect("FC 05 11 27 57", "FC 05 4A 71 BA")
}

func TestStartOnPty(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, pair, err := StartOnPty(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	port, err := serialport.Open(pair.HostPath, serialport.ModeID003)
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	h := &rawHost{t: t, port: port, emu: a}
	h.expect("FC 05 11 27 56", "FC 05 40 2B 15")
}

package id003

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"

	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// scriptPort is a fake Port whose far end is a function from each request
// to the bytes it puts on the line.
type scriptPort struct {
	mu      sync.Mutex
	dec     Decoder
	pending []byte
	answer  func(req Frame) []byte
	sent    []Frame
}

func (p *scriptPort) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dec.Write(b)
	for {
		f, ok := p.dec.Next()
		if !ok {
			return len(b), nil
		}
		p.sent = append(p.sent, f)
		p.pending = append(p.pending, p.answer(f)...)
	}
}

func (p *scriptPort) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := copy(b, p.pending)
	p.pending = p.pending[n:]
	return n, nil // n == 0 stands for the read timeout
}

func (p *scriptPort) Close() error                       { return nil }
func (p *scriptPort) SetReadTimeout(time.Duration) error { return nil }
func (p *scriptPort) ResetInputBuffer() error            { return nil }

func enc(code byte, data ...byte) []byte { return Frame{Code: code, Data: data}.MustEncode() }

func TestSessionSkipsStaleFramesAndGarbage(t *testing.T) {
	p := &scriptPort{answer: func(req Frame) []byte {
		// a late status, garbage, then the ACK
		out := append(enc(StIdling), 0xFC, 0x00, 0x13)
		return append(out, enc(StAck)...)
	}}
	s := NewSession(p, nil, 0)
	if _, err := s.Transact(Command(CmdHold), time.Second, IsAck); err != nil {
		t.Fatal(err)
	}
	if s.Ignored != 1 {
		t.Fatalf("ignored %d", s.Ignored)
	}
}

func TestSessionInvalidCommandAndRetries(t *testing.T) {
	p := &scriptPort{answer: func(Frame) []byte { return enc(StInvalidCommand) }}
	s := NewSession(p, nil, 3)
	if _, err := s.Transact(Command(CmdStack2), time.Second, IsAck); !errors.Is(err, ErrInvalidCommand) {
		t.Fatalf("err %v", err)
	}
	if len(p.sent) != 1 {
		t.Fatalf("INVALID COMMAND was retried: %d sends", len(p.sent))
	}
	// COMMUNICATION ERROR twice, then the answer: re-sent each time.
	n := 0
	p = &scriptPort{answer: func(Frame) []byte {
		n++
		if n < 3 {
			return enc(StCommunicationError)
		}
		return enc(StIdling)
	}}
	s = NewSession(p, nil, 3)
	if f, err := s.Transact(Command(CmdStatusRequest), time.Second, IsStatus); err != nil || f.Code != StIdling {
		t.Fatalf("%v %v", f, err)
	}
	if len(p.sent) != 3 {
		t.Fatalf("%d sends", len(p.sent))
	}
	// Silence: Retries+1 sends, then ErrNoReply.
	p = &scriptPort{answer: func(Frame) []byte { return nil }}
	s = NewSession(p, nil, 2)
	if _, err := s.Transact(Command(CmdStatusRequest), time.Second, IsStatus); !errors.Is(err, ErrNoReply) {
		t.Fatalf("err %v", err)
	}
	if len(p.sent) != 3 {
		t.Fatalf("%d sends", len(p.sent))
	}
}

// An acceptor that says STACKED without VEND VALID gets an Anomaly, never a
// Stacked (a "stacked" message may not be the first of an acceptance).
func TestStackedWithoutVendValidIsAnAnomaly(t *testing.T) {
	var mu sync.Mutex
	state := []byte{StPowerUp}
	idlePolls := 0 // status requests answered with idling
	set := func(b ...byte) { mu.Lock(); state = b; mu.Unlock() }
	p := &scriptPort{answer: func(req Frame) []byte {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case req.Code == CmdStatusRequest:
			if state[0] == StIdling {
				idlePolls++
			}
			return enc(state[0], state[1:]...)
		case req.Code == CmdReset:
			state = []byte{StDisable}
			return enc(StAck)
		case req.Code >= CmdEnableDenom && req.Code <= CmdBarInhibit:
			if req.Code == CmdInhibit && req.Data[0] == 0 {
				state = []byte{StIdling}
			}
			return enc(req.Code, req.Data...)
		case req.Code == CmdCurrencyAssignRequest:
			return enc(req.Code, 0x62, 0xE0, 5, 0)
		case req.Code == CmdStack2:
			state = []byte{StStacked}
			return enc(StAck)
		case req.Code == CmdAck:
			return nil
		}
		return enc(req.Code)
	}}
	cfg := DefaultConfig("fake")
	cfg.PollInterval, cfg.BusyPollInterval = time.Millisecond, time.Millisecond
	cfg.Open = func(string, serialport.Mode) (Port, error) { return p, nil }
	d := New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	next := func() Event {
		select {
		case e := <-d.Events():
			return e
		case <-poll.After(2 * time.Second):
			t.Fatal("no event")
			return nil
		}
	}
	for {
		if _, ok := next().(Enabled); ok {
			break
		}
	}
	set(StEscrow, 0x62)
	if e, ok := next().(Escrow); !ok || e.Doc.Denom.Minor(2) != 500 {
		t.Fatalf("event %v", e)
	}
	if err := d.Stack(ctx); err != nil {
		t.Fatal(err)
	}
	e := next()
	if a, ok := e.(Anomaly); !ok || a.Doc == nil || a.Doc.Code != 0x62 {
		t.Fatalf("event %v, want Anomaly", e)
	}
	// The driver has seen the acceptor idling twice since: whatever the
	// first of those polls made it report is out before it sends the next.
	mu.Lock()
	state, idle := []byte{StIdling}, idlePolls
	mu.Unlock()
	poll.Until(t, 2*time.Second, "two polls answered with idling", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return idlePolls >= idle+2
	})
	select {
	case e := <-d.Events():
		t.Fatalf("event after the anomaly: %v", e)
	default:
	}
}

// On a fake clock, a silent acceptor is declared lost exactly when
// CommLostAfter has passed, not a poll earlier.
func TestCommLostAfterOnFakeClock(t *testing.T) {
	clk := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := &scriptPort{answer: func(Frame) []byte { return nil }}
	cfg := DefaultConfig("fake")
	cfg.Clock = clk
	cfg.Open = func(string, serialport.Mode) (Port, error) { return p, nil }
	d := New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	start := clk.Now()
	for clk.Now().Sub(start) < 3*time.Second {
		// the loop has reached its wait (and reported what its poll found),
		// then time moves on by 50 ms
		poll.Until(t, 2*time.Second, "the driver waiting on the clock", func() bool { return clk.Waiting() > 0 })
		select {
		case e := <-d.Events():
			if _, ok := e.(CommLost); !ok {
				t.Fatalf("event %v", e)
			}
			if el := clk.Now().Sub(start); el < cfg.CommLostAfter || el > cfg.CommLostAfter+500*time.Millisecond {
				t.Fatalf("CommLost after %v, want %v", el, cfg.CommLostAfter)
			}
			return
		default:
		}
		clk.Advance(50 * time.Millisecond)
	}
	t.Fatal("no CommLost within 3 s of fake time")
}

// While RESET goes unacknowledged the acceptor keeps saying POWER UP WITH
// BILL IN STACKER; the driver keeps resetting but reports it once.
func TestPowerUpWithBillReportedOnceWhileResetFails(t *testing.T) {
	resets := 0
	var mu sync.Mutex
	p := &scriptPort{answer: func(req Frame) []byte {
		mu.Lock()
		defer mu.Unlock()
		if req.Code == CmdReset {
			resets++
			return nil
		}
		return enc(StPowerUpBillInStacker)
	}}
	cfg := DefaultConfig("fake")
	cfg.PollInterval, cfg.Retries = time.Millisecond, 0
	cfg.Open = func(string, serialport.Mode) (Port, error) { return p, nil }
	d := New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	poll.Until(t, 5*time.Second, "5 RESETs", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return resets >= 5
	}, func() string { mu.Lock(); defer mu.Unlock(); return fmt.Sprintf("only %d", resets) })
	cancel()
	var got []Event
	for len(d.Events()) > 0 {
		got = append(got, <-d.Events())
	}
	if len(got) != 1 {
		t.Fatalf("events %v", got)
	}
	if pu, ok := got[0].(PowerUpWithBill); !ok || pu.Where != InStacker {
		t.Fatalf("event %v", got[0])
	}
}

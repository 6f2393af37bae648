package gpiotest

import (
	"errors"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/internal/poll"
)

func TestBoardLinesFollowersAndFaults(t *testing.T) {
	clk := clocktest.New(time.Unix(0, 0))
	b, err := New(clk, []gpio.LineSpec{{Name: "BTN", Pull: gpio.PullUp}, {Name: "SENSE"}}, []gpio.LineSpec{{Name: "COIL1"}, {Name: "COIL2"}})
	if err != nil {
		t.Fatal(err)
	}
	in, out := b.Inputs(), b.Outputs()
	if v, _ := in.Read(); v != 0b01 {
		t.Fatalf("pull-up line idles %02b", v)
	}
	if err := b.Follow("SENSE", true, "COIL1", "COIL2"); err != nil {
		t.Fatal(err)
	}
	if v, _ := in.Read(); v != 0b11 {
		t.Fatalf("inverted follower with coils off reads %02b", v)
	}
	clk.Advance(time.Second)
	out.Write(0b10, 0b10) // COIL2 on
	if v, _ := in.Read(); v != 0b01 {
		t.Fatalf("sense with COIL2 on reads %02b", v)
	}
	b.Disconnect("COIL2")
	if v, _ := in.Read(); v != 0b11 {
		t.Fatalf("sense with COIL2 cut reads %02b", v)
	}
	if err := b.Set("SENSE", true); err == nil {
		t.Error("Set on a follower accepted")
	}
	if h := b.History("COIL2"); len(h) != 1 || !h[0].High || h[0].At != time.Unix(1, 0) {
		t.Errorf("history %+v", h)
	}
	// An edge wakes WaitEdge; without one it times out. The wake is kept
	// (a buffered channel), so the assertion holds whichever comes first.
	go func() {
		// sleep-ok: lets WaitEdge block first, to take the wake-up path most
		// runs; not a synchronisation (an edge set before the wait is kept)
		time.Sleep(10 * time.Millisecond)
		b.Set("BTN", false)
	}()
	if edge, err := in.WaitEdge(poll.Scaled(5 * time.Second)); !edge || err != nil {
		t.Errorf("WaitEdge after Set: %v %v", edge, err)
	}
	if edge, _ := in.WaitEdge(time.Millisecond); edge {
		t.Error("WaitEdge woke without an edge")
	}
	if _, err := in.WaitEdge(0); err == nil {
		t.Error("WaitEdge(0) accepted: it must never wait forever")
	}
	b.FailWrites(errors.New("EIO"))
	if err := out.Write(1, 1); err == nil {
		t.Error("write failure not reported")
	}
	in.Close()
	if _, err := in.Read(); !errors.Is(err, ErrClosed) {
		t.Errorf("read after close: %v", err)
	}
}

func TestMeterStoreRefusesOverPulsing(t *testing.T) {
	s := NewMeterStore()
	s.Commit(gpio.MeterIn, 1)
	if err := s.Pulsed(gpio.MeterIn, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Pulsed(gpio.MeterIn, 1); err == nil {
		t.Fatal("pulse beyond the committed count accepted")
	}
}

// A lamp that blinks for months keeps a bounded record: the newest
// HistoryKeep transitions at least, never 2·HistoryKeep or more.
func TestHistoryBounded(t *testing.T) {
	clk := clocktest.New(time.Unix(0, 0))
	b, err := New(clk, nil, []gpio.LineSpec{{Name: "LAMP"}})
	if err != nil {
		t.Fatal(err)
	}
	out := b.Outputs()
	const n = 10*HistoryKeep + 7
	for i := 0; i < n; i++ {
		clk.Advance(time.Millisecond)
		out.Write(gpio.Bits(i&1^1), 1)
	}
	h := b.History("LAMP")
	if len(h) < HistoryKeep || len(h) >= 2*HistoryKeep {
		t.Fatalf("%d transitions kept of %d, want [%d, %d)", len(h), n, HistoryKeep, 2*HistoryKeep)
	}
	if last := h[len(h)-1]; last.At != time.Unix(0, 0).Add(n*time.Millisecond) {
		t.Errorf("the newest transition is at %v, want the last write's", last.At)
	}
}

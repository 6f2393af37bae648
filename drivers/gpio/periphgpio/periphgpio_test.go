package periphgpio

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	pgpio "periph.io/x/conn/v3/gpio"
)

// On a machine without these lines (CI has no /dev/gpiochip at all) Open
// refuses, naming every missing pin and its use.
func TestOpenRefusesUnresolvedPins(t *testing.T) {
	in := []gpio.LineSpec{{Name: "POLARIS_NO_SUCH_BTN", Pull: gpio.PullUp, Use: "button start"}}
	out := []gpio.LineSpec{{Name: "POLARIS_NO_SUCH_LAMP", Use: "lamp start"}}
	_, _, err := Open(in, out)
	var miss *MissingLinesError
	if !errors.As(err, &miss) {
		t.Fatalf("Open: %v, want MissingLinesError", err)
	}
	msg := err.Error()
	for _, want := range []string{`pin "POLARIS_NO_SUCH_BTN" (button start)`, `pin "POLARIS_NO_SUCH_LAMP" (lamp start)`, "refusing to start"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if _, err := os.Stat("/dev/gpiochip0"); err != nil && !strings.Contains(msg, "no GPIO chips") {
		t.Errorf("error %q does not say there are no chips", msg)
	}
}

// fakeSet records what the banks ask of a line set.
type fakeSet struct {
	levels  pgpio.GPIOValue
	outs    [][2]pgpio.GPIOValue
	readErr error
	waitErr error
	edge    pgpio.Edge
	waited  []time.Duration
	closed  bool
}

func (f *fakeSet) Read(mask pgpio.GPIOValue) (pgpio.GPIOValue, error) {
	return f.levels & mask, f.readErr
}
func (f *fakeSet) Out(bits, mask pgpio.GPIOValue) error {
	f.outs = append(f.outs, [2]pgpio.GPIOValue{bits, mask})
	return nil
}
func (f *fakeSet) WaitForEdge(d time.Duration) (int, pgpio.Edge, error) {
	f.waited = append(f.waited, d)
	return 0, f.edge, f.waitErr
}
func (f *fakeSet) Close() error { f.closed = true; return nil }

// Lines spread over two chips map to and from one bank's bits.
func TestBanksMapBitsAcrossChips(t *testing.T) {
	a, b := &fakeSet{levels: 0b10}, &fakeSet{levels: 0b01}
	in := newInBank([]gpio.LineSpec{{Name: "A0"}, {Name: "B0"}, {Name: "A1"}},
		[]group{{chip: "a", set: a, bit: []int{0, 2}}, {chip: "b", set: b, bit: []int{1}}})
	got, err := in.Read()
	if err != nil || got != 0b110 {
		t.Fatalf("Read = %03b, %v; want 110", got, err)
	}
	oa, ob := &fakeSet{}, &fakeSet{}
	out := newOutBank(nil, []group{{chip: "a", set: oa, bit: []int{0, 2}}, {chip: "b", set: ob, bit: []int{1}}})
	if err := out.Write(0b100, 0b100); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(oa.outs) != "[[2 2]]" {
		t.Errorf("chip a got %v, want [[2 2]]", oa.outs)
	}
	if len(ob.outs) != 0 {
		t.Errorf("chip b written with a zero mask (periph would set every line): %v", ob.outs)
	}
	if err := out.Write(0, 0); err != nil || len(oa.outs) != 1 {
		t.Errorf("zero-mask write reached periph: %v %v", oa.outs, err)
	}
	in.Close()
	out.Close()
	if !a.closed || !b.closed || !oa.closed || !ob.closed {
		t.Error("Close left line sets open")
	}
}

func TestWaitEdge(t *testing.T) {
	s := &fakeSet{waitErr: fmt.Errorf("read: %w", os.ErrDeadlineExceeded)}
	in := newInBank(nil, []group{{chip: "a", set: s, bit: []int{0}}})
	if edge, err := in.WaitEdge(10 * time.Millisecond); edge || err != nil {
		t.Errorf("timeout: %v %v, want false nil", edge, err)
	}
	for _, d := range []time.Duration{0, -1} {
		if _, err := in.WaitEdge(d); err == nil {
			t.Errorf("WaitEdge(%v) accepted", d)
		}
	}
	if fmt.Sprint(s.waited) != "[10ms]" {
		t.Errorf("periph asked to wait %v", s.waited)
	}
	s.waitErr, s.edge = nil, pgpio.FallingEdge
	if edge, err := in.WaitEdge(time.Millisecond); !edge || err != nil {
		t.Errorf("edge: %v %v", edge, err)
	}
	s.waitErr = errors.New("EBADF")
	if _, err := in.WaitEdge(time.Millisecond); err == nil || !strings.Contains(err.Error(), "EBADF") {
		t.Errorf("error swallowed: %v", err)
	}
	s.readErr = errors.New("EIO")
	if _, err := in.Read(); err == nil {
		t.Error("read error swallowed")
	}
}

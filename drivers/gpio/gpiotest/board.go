package gpiotest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/clock"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// Transition is one change of an output line's physical level.
type Transition struct {
	At   time.Time
	High bool
}

type follower struct {
	in     int
	invert bool
	outs   gpio.Bits
}

// Board is an in-memory pair of banks. Lines keep physical levels; an input
// with a pull-up idles high, as on real hardware with the switch open.
type Board struct {
	clock clock.Clock

	mu        sync.Mutex
	inLines   []string
	inIdx     map[string]int
	in        gpio.Bits
	outLines  []string
	outIdx    map[string]int
	out       gpio.Bits
	history   map[int][]Transition
	writes    int
	follow    []follower
	cut       gpio.Bits // disconnected outputs: followers do not see them
	readErr   error
	writeErr  error
	hold      chan struct{} // non-nil: input Reads block until it is closed
	held      int           // Reads blocked by hold right now
	wake      chan struct{}
	inClosed  bool
	outClosed bool
}

// New makes a board with the given input and output lines. clk stamps
// output transitions; nil means the system clock.
func New(clk clock.Clock, inputs, outputs []gpio.LineSpec) (*Board, error) {
	if clk == nil {
		clk = clock.System{}
	}
	if len(inputs) > gpio.MaxLines || len(outputs) > gpio.MaxLines {
		return nil, fmt.Errorf("gpiotest: at most %d lines per bank", gpio.MaxLines)
	}
	b := &Board{clock: clk, inIdx: map[string]int{}, outIdx: map[string]int{},
		history: map[int][]Transition{}, wake: make(chan struct{}, 1)}
	for i, l := range inputs {
		if _, dup := b.inIdx[l.Name]; dup {
			return nil, fmt.Errorf("gpiotest: input line %q twice", l.Name)
		}
		b.inIdx[l.Name] = i
		b.inLines = append(b.inLines, l.Name)
		if l.Pull == gpio.PullUp {
			b.in |= gpio.Bits(1) << i
		}
	}
	for i, l := range outputs {
		if _, dup := b.outIdx[l.Name]; dup {
			return nil, fmt.Errorf("gpiotest: output line %q twice", l.Name)
		}
		if _, dup := b.inIdx[l.Name]; dup {
			return nil, fmt.Errorf("gpiotest: line %q is both input and output", l.Name)
		}
		b.outIdx[l.Name] = i
		b.outLines = append(b.outLines, l.Name)
	}
	return b, nil
}

// Inputs returns the input bank.
func (b *Board) Inputs() gpio.InputBank { return inBank{b} }

// Outputs returns the output bank.
func (b *Board) Outputs() gpio.OutputBank { return outBank{b} }

// Set drives an input line to a physical level (a key on the keyboard, a
// test). It wakes a waiting WaitEdge when the level changes.
func (b *Board) Set(line string, high bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.inIdx[line]
	if !ok {
		return fmt.Errorf("gpiotest: no input line %q", line)
	}
	for _, f := range b.follow {
		if f.in == i {
			return fmt.Errorf("gpiotest: input line %q follows outputs", line)
		}
	}
	b.setIn(i, high)
	return nil
}

func (b *Board) setIn(i int, high bool) {
	bit := gpio.Bits(1) << i
	old := b.in
	if high {
		b.in |= bit
	} else {
		b.in &^= bit
	}
	if old != b.in {
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}
}

// Input returns an input line's physical level.
func (b *Board) Input(line string) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.inIdx[line]
	if !ok {
		return false, fmt.Errorf("gpiotest: no input line %q", line)
	}
	return b.in&(gpio.Bits(1)<<i) != 0, nil
}

// Output returns an output line's physical level as last written.
func (b *Board) Output(line string) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.outIdx[line]
	if !ok {
		return false, fmt.Errorf("gpiotest: no output line %q", line)
	}
	return b.out&(gpio.Bits(1)<<i) != 0, nil
}

// HistoryKeep is how many of an output line's transitions History keeps at
// least: a devkit cabinet blinks its lamps and pulses its meters for as long
// as it runs, and a record of every transition would grow without end. The
// oldest are dropped in halves once a line holds twice as many, so the
// record per line stays under 2·HistoryKeep transitions (16 KiB).
const HistoryKeep = 256

// History returns the transitions of an output line since New, or the
// last HistoryKeep or more of them when there were more.
func (b *Board) History(line string) []Transition {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Transition(nil), b.history[b.outIdx[line]]...)
}

// Writes counts the Write calls that reached the bank.
func (b *Board) Writes() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.writes
}

// Follow makes input line in read high while any of the output lines is high
// (inverted if invert): a meter sense line fed by the coils' current.
func (b *Board) Follow(in string, invert bool, outs ...string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.inIdx[in]
	if !ok {
		return fmt.Errorf("gpiotest: no input line %q", in)
	}
	f := follower{in: i, invert: invert}
	for _, o := range outs {
		j, ok := b.outIdx[o]
		if !ok {
			return fmt.Errorf("gpiotest: no output line %q", o)
		}
		f.outs |= gpio.Bits(1) << j
	}
	b.follow = append(b.follow, f)
	b.refollow()
	return nil
}

// Disconnect unplugs an output (a meter's coil): followers stop seeing it.
// Reconnect plugs it back.
func (b *Board) Disconnect(out string) error { return b.plug(out, false) }

// Reconnect undoes Disconnect.
func (b *Board) Reconnect(out string) error { return b.plug(out, true) }

func (b *Board) plug(out string, connected bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	j, ok := b.outIdx[out]
	if !ok {
		return fmt.Errorf("gpiotest: no output line %q", out)
	}
	if connected {
		b.cut &^= gpio.Bits(1) << j
	} else {
		b.cut |= gpio.Bits(1) << j
	}
	b.refollow()
	return nil
}

func (b *Board) refollow() {
	for _, f := range b.follow {
		high := b.out&^b.cut&f.outs != 0
		b.setIn(f.in, high != f.invert)
	}
}

// FailReads makes every Read fail with err (nil to heal).
func (b *Board) FailReads(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.readErr = err
}

// HoldReads makes every input Read block (true) until HoldReads(false), as
// a wedged bus or kernel driver would: the loop above it stalls.
func (b *Board) HoldReads(on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case on && b.hold == nil:
		b.hold = make(chan struct{})
	case !on && b.hold != nil:
		close(b.hold)
		b.hold = nil
	}
}

// ReadsHeld is the number of input Reads blocked by HoldReads right now.
func (b *Board) ReadsHeld() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}

// FailWrites makes every Write fail with err (nil to heal).
func (b *Board) FailWrites(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writeErr = err
}

// ErrClosed is returned by a closed bank.
var ErrClosed = errors.New("gpiotest: bank closed")

type inBank struct{ b *Board }

func (k inBank) Lines() []string { return append([]string(nil), k.b.inLines...) }

func (k inBank) Read() (gpio.Bits, error) {
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	for h := k.b.hold; h != nil; h = k.b.hold {
		k.b.held++
		k.b.mu.Unlock()
		<-h
		k.b.mu.Lock()
		k.b.held--
	}
	if k.b.inClosed {
		return 0, ErrClosed
	}
	if k.b.readErr != nil {
		return 0, k.b.readErr
	}
	return k.b.in, nil
}

func (k inBank) WaitEdge(timeout time.Duration) (bool, error) {
	if timeout <= 0 {
		return false, fmt.Errorf("gpiotest: WaitEdge timeout %v must be > 0", timeout)
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-k.b.wake:
		return true, nil
	case <-t.C:
		return false, nil
	}
}

func (k inBank) Close() error {
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	k.b.inClosed = true
	return nil
}

type outBank struct{ b *Board }

func (k outBank) Lines() []string { return append([]string(nil), k.b.outLines...) }

func (k outBank) Write(bits, mask gpio.Bits) error {
	b := k.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.outClosed {
		return ErrClosed
	}
	if b.writeErr != nil {
		return b.writeErr
	}
	if mask == 0 {
		return nil
	}
	b.writes++
	now := b.clock.Now()
	nw := b.out&^mask | bits&mask
	for i := range b.outLines {
		bit := gpio.Bits(1) << i
		if mask&bit != 0 && (nw&bit != b.out&bit || len(b.history[i]) == 0) {
			h := append(b.history[i], Transition{At: now, High: nw&bit != 0})
			if len(h) >= 2*HistoryKeep {
				h = append(h[:0:0], h[len(h)-HistoryKeep:]...)
			}
			b.history[i] = h
		}
	}
	b.out = nw
	b.refollow()
	return nil
}

func (k outBank) Close() error {
	k.b.mu.Lock()
	defer k.b.mu.Unlock()
	k.b.outClosed = true
	return nil
}

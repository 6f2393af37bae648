package periphgpio

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"periph.io/x/conn/v3/driver/driverreg"
	pgpio "periph.io/x/conn/v3/gpio"
	"periph.io/x/host/v3/gpioioctl"
)

// lineSet is the part of *gpioioctl.LineSet the banks use, so their logic
// is testable without a kernel.
type lineSet interface {
	Read(mask pgpio.GPIOValue) (pgpio.GPIOValue, error)
	Out(bits, mask pgpio.GPIOValue) error
	WaitForEdge(timeout time.Duration) (int, pgpio.Edge, error)
	Close() error
}

// group is one line set on one chip; bit[k] is the bank bit of the set's
// line k.
type group struct {
	chip string
	set  lineSet
	bit  []int
}

// MissingLinesError lists the configured lines that no GPIO chip provides.
type MissingLinesError struct {
	Missing []gpio.LineSpec
	Chips   []string // labels of the chips searched
}

func (e *MissingLinesError) Error() string {
	var b strings.Builder
	b.WriteString("periphgpio: refusing to start: ")
	for i, l := range e.Missing {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "pin %q", l.Name)
		if l.Use != "" {
			fmt.Fprintf(&b, " (%s)", l.Use)
		}
	}
	if len(e.Missing) == 1 {
		b.WriteString(" does not resolve")
	} else {
		b.WriteString(" do not resolve")
	}
	if len(e.Chips) == 0 {
		b.WriteString(": no GPIO chips (/dev/gpiochip*) on this machine")
	} else {
		fmt.Fprintf(&b, " on GPIO chips %s", strings.Join(e.Chips, ", "))
	}
	return b.String()
}

// Open loads periph's ioctl-gpio driver and requests the input lines (both
// edges, with their pulls) and the output lines, one line set per chip and
// direction. On any error nothing stays requested.
func Open(inputs, outputs []gpio.LineSpec) (gpio.InputBank, gpio.OutputBank, error) {
	if len(inputs) > gpio.MaxLines || len(outputs) > gpio.MaxLines {
		return nil, nil, fmt.Errorf("periphgpio: at most %d lines per direction", gpio.MaxLines)
	}
	st, err := driverreg.Init()
	if err != nil {
		return nil, nil, fmt.Errorf("periphgpio: periph init: %w", err)
	}
	// driverreg puts driver failures in State.Failed and returns nil.
	for _, f := range st.Failed {
		if f.D.String() == "ioctl-gpio" {
			return nil, nil, fmt.Errorf("periphgpio: ioctl-gpio driver failed: %w", f.Err)
		}
	}
	var chips []*gpioioctl.GPIOChip
	var views []chipView
	for _, c := range gpioioctl.Chips {
		if c.Path() == "/dev/gpiochipdummy" {
			continue // periph's stand-in on non-Linux builds
		}
		v := chipView{name: c.Name(), label: c.Label()}
		for _, l := range c.Lines() {
			v.lines = append(v.lines, l.Name())
		}
		chips = append(chips, c)
		views = append(views, v)
	}
	res, err := resolveAll(views, inputs, outputs)
	if err != nil {
		return nil, nil, err
	}
	var opened []lineSet
	undo := func() {
		for _, s := range opened {
			_ = s.Close()
		}
	}
	request := func(specs []gpio.LineSpec, at []resolved, dir gpioioctl.LineDir) ([]group, error) {
		byChip := map[int]*gpioioctl.LineSetConfig{}
		bits := map[int][]int{}
		pulls := map[int]map[gpio.Pull][]string{}
		var order []int
		for i, r := range at {
			cfg := byChip[r.chip]
			if cfg == nil {
				cfg = &gpioioctl.LineSetConfig{DefaultDirection: dir, DefaultEdge: pgpio.NoEdge, DefaultPull: pgpio.PullNoChange}
				if dir == gpioioctl.LineInput {
					cfg.DefaultEdge = pgpio.BothEdges
				}
				byChip[r.chip] = cfg
				pulls[r.chip] = map[gpio.Pull][]string{}
				order = append(order, r.chip)
			}
			cfg.Lines = append(cfg.Lines, r.kernel)
			bits[r.chip] = append(bits[r.chip], i)
			pulls[r.chip][specs[i].Pull] = append(pulls[r.chip][specs[i].Pull], r.kernel)
		}
		var groups []group
		for _, ci := range order {
			cfg := byChip[ci]
			if dir == gpioioctl.LineInput {
				for _, p := range []gpio.Pull{gpio.PullUp, gpio.PullDown} {
					lines := pulls[ci][p]
					if len(lines) == 0 {
						continue
					}
					pp := map[gpio.Pull]pgpio.Pull{gpio.PullUp: pgpio.PullUp, gpio.PullDown: pgpio.PullDown}[p]
					if err := cfg.AddOverrides(gpioioctl.LineInput, pgpio.BothEdges, pp, lines...); err != nil {
						return nil, err
					}
				}
			}
			c := chips[ci]
			ls, err := c.LineSetFromConfig(cfg)
			if err != nil {
				return nil, fmt.Errorf("periphgpio: requesting %s on %s: %w", strings.Join(cfg.Lines, ","), c.Name(), err)
			}
			opened = append(opened, ls)
			groups = append(groups, group{chip: c.Name(), set: ls, bit: bits[ci]})
		}
		return groups, nil
	}
	ing, err := request(inputs, res[:len(inputs)], gpioioctl.LineInput)
	if err != nil {
		undo()
		return nil, nil, err
	}
	outg, err := request(outputs, res[len(inputs):], gpioioctl.LineOutput)
	if err != nil {
		undo()
		return nil, nil, err
	}
	return newInBank(inputs, ing), newOutBank(outputs, outg), nil
}

type inBank struct {
	lines  []string
	groups []group
}

func newInBank(specs []gpio.LineSpec, g []group) *inBank {
	b := &inBank{groups: g}
	for _, s := range specs {
		b.lines = append(b.lines, s.Name)
	}
	return b
}

func (b *inBank) Lines() []string { return append([]string(nil), b.lines...) }

func (b *inBank) Read() (gpio.Bits, error) {
	var out gpio.Bits
	for _, g := range b.groups {
		v, err := g.set.Read(allMask(len(g.bit)))
		if err != nil {
			return 0, fmt.Errorf("periphgpio: reading inputs on %s: %w", g.chip, err)
		}
		for k, bit := range g.bit {
			if v&(1<<k) != 0 {
				out |= gpio.Bits(1) << bit
			}
		}
	}
	return out, nil
}

// WaitEdge waits on the first chip's set; lines on other chips are seen at
// the next Read, at most one timeout later.
func (b *inBank) WaitEdge(timeout time.Duration) (bool, error) {
	if timeout <= 0 {
		// 0 would block forever and a negative value returns at once
		// (periph/host#78): neither lets a loop stop cleanly.
		return false, fmt.Errorf("periphgpio: WaitEdge timeout %v must be > 0", timeout)
	}
	if len(b.groups) == 0 {
		time.Sleep(timeout)
		return false, nil
	}
	_, edge, err := b.groups[0].set.WaitForEdge(timeout)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("periphgpio: waiting for an edge on %s: %w", b.groups[0].chip, err)
	}
	return edge != pgpio.NoEdge, nil
}

func (b *inBank) Close() error { return closeAll(b.groups) }

type outBank struct {
	lines  []string
	groups []group
}

func newOutBank(specs []gpio.LineSpec, g []group) *outBank {
	b := &outBank{groups: g}
	for _, s := range specs {
		b.lines = append(b.lines, s.Name)
	}
	return b
}

func (b *outBank) Lines() []string { return append([]string(nil), b.lines...) }

func (b *outBank) Write(bits, mask gpio.Bits) error {
	for _, g := range b.groups {
		var v, m pgpio.GPIOValue
		for k, bit := range g.bit {
			if mask&(gpio.Bits(1)<<bit) == 0 {
				continue
			}
			m |= 1 << k
			if bits&(gpio.Bits(1)<<bit) != 0 {
				v |= 1 << k
			}
		}
		if m == 0 {
			continue // periph reads a zero mask as "every line"
		}
		if err := g.set.Out(v, m); err != nil {
			return fmt.Errorf("periphgpio: writing outputs on %s: %w", g.chip, err)
		}
	}
	return nil
}

func (b *outBank) Close() error { return closeAll(b.groups) }

func closeAll(gs []group) error {
	var errs []error
	for _, g := range gs {
		errs = append(errs, g.set.Close())
	}
	return errors.Join(errs...)
}

func allMask(n int) pgpio.GPIOValue {
	if n >= 64 {
		return ^pgpio.GPIOValue(0)
	}
	return pgpio.GPIOValue(1)<<n - 1
}

var (
	_ gpio.InputBank  = (*inBank)(nil)
	_ gpio.OutputBank = (*outBank)(nil)
	_ lineSet         = (*gpioioctl.LineSet)(nil)
)

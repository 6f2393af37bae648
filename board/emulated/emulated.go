// Package emulated runs the devkit board's emulated devices: an ID-003
// acceptor and a TCL or ESC/POS printer, each on the device end of a
// pseudo-terminal pair whose host end the real driver opens, and the
// in-memory GPIO lines the keyboard drives. Pass a
// Devices as board.Options.Emulators; the board closes it after the
// drivers. It belongs to the devkit build only: the cabinet binary links
// no emulator.
package emulated

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/gpiotest"
	id003emu "github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/printer/escposemu"
	"github.com/polaris-vlt/polaris/drivers/printer/tclemu"
	"github.com/polaris-vlt/polaris/drivers/ptypair"
)

// Devices are the emulators started for one assembled board.
type Devices struct {
	GPIO     *gpiotest.Board // when the profile's GPIO backend is "fake"
	Acceptor *id003emu.Acceptor
	TCL      *tclemu.Emulator    // when the printer is an emulated TCL printer
	ESCPOS   *escposemu.Emulator // when it is an emulated ESC/POS printer

	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	err     error
	closers []func() error
}

// New makes a set of devices; the board starts the ones its profile names.
func New() *Devices {
	d := &Devices{}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	return d
}

// newPair makes a pseudo-terminal pair closed with the devices.
func (d *Devices) newPair() (*ptypair.Pair, error) {
	pair, err := ptypair.New()
	if err != nil {
		return nil, err
	}
	d.closers = append(d.closers, pair.Close)
	return pair, nil
}

// StartGPIO makes the in-memory GPIO lines (board.Emulators).
func (d *Devices) StartGPIO(clk clock.Clock, inputs, outputs []gpio.LineSpec) (board.MemoryGPIO, error) {
	b, err := gpiotest.New(clk, inputs, outputs)
	if err != nil {
		return nil, err
	}
	d.GPIO = b
	return b, nil
}

// StartAcceptor starts the acceptor emulator (board.Emulators) with its
// table of currency.
func (d *Devices) StartAcceptor(log, currency string, recycler bool) (string, byte, error) {
	table, ok := id003emu.Tables[currency]
	if !ok {
		var have []string
		for k := range id003emu.Tables {
			have = append(have, k)
		}
		sort.Strings(have)
		return "", 0, fmt.Errorf("no %s table (the emulator has %s)", currency, strings.Join(have, ", "))
	}
	pair, err := d.newPair()
	if err != nil {
		return "", 0, err
	}
	a := id003emu.New(pair.Device, id003emu.Config{Log: log, Currency: table.Denoms, Version: table.Version, Recycler: recycler})
	if err := a.LogError(); err != nil {
		return "", 0, err
	}
	d.closers = append(d.closers, a.CloseLog)
	d.Acceptor = a
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		if err := a.Run(d.ctx); err != nil && d.ctx.Err() == nil {
			d.mu.Lock()
			d.err = errors.Join(d.err, fmt.Errorf("acceptor emulator: %w", err))
			d.mu.Unlock()
		}
	}()
	return pair.HostPath, table.Country, nil
}

// StartPrinter starts the printer emulator for protocol (board.Emulators).
func (d *Devices) StartPrinter(protocol, log string) (string, error) {
	if protocol != "tcl" && protocol != "escpos" {
		return "", fmt.Errorf("no emulator for printer protocol %q", protocol)
	}
	pair, err := d.newPair()
	if err != nil {
		return "", err
	}
	switch protocol {
	case "tcl":
		e := tclemu.New(pair.Device, tclemu.Options{Log: log})
		d.closers = append(d.closers, func() error { e.Close(); return nil })
		if err := e.LogError(); err != nil {
			return "", err
		}
		d.TCL = e
	case "escpos":
		e := escposemu.New(pair.Device, escposemu.Options{Log: log})
		d.closers = append(d.closers, func() error { e.Close(); return nil })
		if err := e.LogError(); err != nil {
			return "", err
		}
		d.ESCPOS = e
	}
	return pair.HostPath, nil
}

// Err returns what made an emulator stop early, if anything.
func (d *Devices) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Close stops the emulators and closes their ports, newest first.
func (d *Devices) Close() error {
	d.cancel()
	var errs []error
	for i := len(d.closers) - 1; i >= 0; i-- {
		errs = append(errs, d.closers[i]())
	}
	d.closers = nil
	d.wg.Wait()
	return errors.Join(errs...)
}

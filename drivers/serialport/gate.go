package serialport

import (
	"errors"
	"sync"
)

// Gate wraps ports so that a test can make their Reads hang, as a wedged
// USB-serial adapter or kernel driver does: while the gate is held, Read
// blocks until Release (or the port is closed). Writes go through. It is
// how the watchdog tests stall a device loop that is otherwise healthy.
type Gate struct {
	mu      sync.Mutex
	held    chan struct{} // closed by Release; nil while open
	waiting int
}

// Hold makes every Read through the gate block.
func (g *Gate) Hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held == nil {
		g.held = make(chan struct{})
	}
}

// Release lets blocked and later Reads through again.
func (g *Gate) Release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held != nil {
		close(g.held)
		g.held = nil
	}
}

// Waiting is the number of Reads blocked by the gate right now.
func (g *Gate) Waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting
}

// Opener returns an Opener that opens through open (nil: Open) and wraps
// the port in the gate.
func (g *Gate) Opener(open Opener) Opener {
	if open == nil {
		open = Open
	}
	return func(path string, m Mode) (Port, error) {
		p, err := open(path, m)
		if err != nil {
			return nil, err
		}
		return &gatedPort{Port: p, g: g, closed: make(chan struct{})}, nil
	}
}

// ErrClosedWhileHeld is what a Read blocked by a Gate returns when its port
// is closed.
var ErrClosedWhileHeld = errors.New("serialport: port closed while its reads were held")

type gatedPort struct {
	Port
	g         *Gate
	closeOnce sync.Once
	closed    chan struct{}
}

func (p *gatedPort) Read(b []byte) (int, error) {
	for {
		p.g.mu.Lock()
		h := p.g.held
		if h == nil {
			p.g.mu.Unlock()
			return p.Port.Read(b)
		}
		p.g.waiting++
		p.g.mu.Unlock()
		select {
		case <-h:
		case <-p.closed:
		}
		p.g.mu.Lock()
		p.g.waiting--
		p.g.mu.Unlock()
		select {
		case <-p.closed:
			return 0, ErrClosedWhileHeld
		default:
		}
	}
}

func (p *gatedPort) Close() error {
	p.closeOnce.Do(func() { close(p.closed) })
	return p.Port.Close()
}

var _ Port = (*gatedPort)(nil)

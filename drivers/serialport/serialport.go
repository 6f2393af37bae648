// Package serialport opens serial lines in the exact mode a device protocol
// requires, through go.bug.st/serial, so drivers and tests share one code path
// whether the far end is a real device or an emulator on a pseudo-terminal.
package serialport

import (
	"fmt"
	"io"
	"time"

	"go.bug.st/serial"
)

// Parity of a serial mode.
type Parity int

const (
	ParityNone Parity = iota
	ParityEven
	ParityOdd
)

func (p Parity) String() string {
	switch p {
	case ParityNone:
		return "N"
	case ParityEven:
		return "E"
	case ParityOdd:
		return "O"
	}
	return "?"
}

// Mode is a line setting such as 9600 8E1.
type Mode struct {
	Baud     int
	DataBits int
	Parity   Parity
	StopBits int // 1 or 2
}

func (m Mode) String() string {
	return fmt.Sprintf("%d %d%s%d", m.Baud, m.DataBits, m.Parity, m.StopBits)
}

// Modes the protocols of reference/protocols.md require.
var (
	ModeID003 = Mode{Baud: 9600, DataBits: 8, Parity: ParityEven, StopBits: 1}
	ModeTCL   = Mode{Baud: 9600, DataBits: 8, Parity: ParityNone, StopBits: 1}
	// ESC/POS printers are configurable; 115200 8N1 is the common USB-serial default.
	ModeESCPOSDefault = Mode{Baud: 115200, DataBits: 8, Parity: ParityNone, StopBits: 1}
)

// Port is an open serial line. Reads return after the read timeout with
// n == 0 and no error, so a driver loop can notice a silent device.
type Port interface {
	io.ReadWriteCloser
	SetReadTimeout(d time.Duration) error
	// ResetInputBuffer drops bytes received but not yet read (resynchronisation).
	ResetInputBuffer() error
}

// Opener opens a serial line. Drivers take one so that a test can record the
// mode a driver asks for: a pseudo-terminal does not keep parity (Linux
// clears PARENB on ptys), so the mode cannot be read back from the line.
type Opener func(path string, m Mode) (Port, error)

// Open opens the serial device at path in mode m.
func Open(path string, m Mode) (Port, error) {
	sm := &serial.Mode{BaudRate: m.Baud, DataBits: m.DataBits}
	switch m.Parity {
	case ParityNone:
		sm.Parity = serial.NoParity
	case ParityEven:
		sm.Parity = serial.EvenParity
	case ParityOdd:
		sm.Parity = serial.OddParity
	default:
		return nil, fmt.Errorf("serialport: %s: unknown parity %d", path, m.Parity)
	}
	switch m.StopBits {
	case 1:
		sm.StopBits = serial.OneStopBit
	case 2:
		sm.StopBits = serial.TwoStopBits
	default:
		return nil, fmt.Errorf("serialport: %s: unsupported stop bits %d", path, m.StopBits)
	}
	p, err := serial.Open(path, sm)
	if err != nil {
		return nil, fmt.Errorf("serialport: open %s in %s: %w", path, m, err)
	}
	return p, nil
}

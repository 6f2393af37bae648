// Package ptypair makes pseudo-terminal pairs that stand in for a serial
// cable: a driver opens HostPath through serialport (the real serial code
// path) while an emulator speaks bytes on Device, the far end.
package ptypair

import (
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Pair is one pseudo-terminal. Device is the emulator's end (the master);
// HostPath is the tty a driver opens like a serial port.
type Pair struct {
	Device   *os.File
	HostPath string
	// tty is kept open so that the master never sees EIO while the host
	// side is closed and reopened (a driver restart, a power cycle).
	tty *os.File
}

// New opens a pseudo-terminal pair with the line discipline in raw mode.
func New() (*Pair, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("ptypair: %w", err)
	}
	t, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err == nil {
		cfmakeraw(t)
		err = unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, t)
	}
	if err != nil {
		master.Close()
		tty.Close()
		return nil, fmt.Errorf("ptypair: raw mode: %w", err)
	}
	return &Pair{Device: master, HostPath: tty.Name(), tty: tty}, nil
}

// Close closes both ends.
func (p *Pair) Close() error {
	err := p.Device.Close()
	if e := p.tty.Close(); err == nil {
		err = e
	}
	return err
}

func cfmakeraw(t *unix.Termios) {
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
}

package pcsc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// pcsc-lite's client ↔ pcscd messages (src/winscard_msg.h, protocol 4.x):
// a request is a header {size, command uint32} and a fixed struct, in the
// host's byte order; the reply is the same struct filled in. Transmit adds
// the APDU after the struct both ways. Reader states are a fixed array.
const (
	cmdEstablishContext  = 0x01
	cmdReleaseContext    = 0x02
	cmdConnect           = 0x04
	cmdDisconnect        = 0x06
	cmdBeginTransaction  = 0x07
	cmdEndTransaction    = 0x08
	cmdTransmit          = 0x09
	cmdStatus            = 0x0B
	cmdVersion           = 0x11
	cmdGetReadersState   = 0x12
	cmdWaitReaderState   = 0x13
	cmdStopWaitingReader = 0x14
)

const (
	maxReaderName  = 128
	maxATR         = 33
	maxReaders     = 16  // PCSCLITE_MAX_READERS_CONTEXTS
	readerStateLen = 184 // name, counter, state, sharing, ATR (padded to 4), ATR length, protocol
	maxRecv        = 65546
	ioRequestLen   = 16 // sizeof(SCARD_IO_REQUEST) on 64-bit Linux; pcscd copies it back only
)

// Protocol versions this client speaks; pcscd answers with its own when
// they differ, and the client retries once with that one.
const (
	protoMajor = 4
	protoMinor = 4
)

// Share modes, protocols and dispositions (pcsclite.h).
const (
	ShareExclusive = 1
	ShareShared    = 2
	ProtocolT0     = 1
	ProtocolT1     = 2
	LeaveCard      = 0
	ResetCard      = 1
)

// Reader state bits (pcsclite.h SCARD_ABSENT …).
const (
	StateUnknown  = 0x0001
	StateAbsent   = 0x0002
	StatePresent  = 0x0004
	StateSwallow  = 0x0008
	StatePowered  = 0x0010
	StateNegotiab = 0x0020
	StateSpecific = 0x0040
)

var ne = binary.NativeEndian

// ReaderState is one reader as pcscd publishes it.
type ReaderState struct {
	Name     string
	Events   uint32 // pcscd's event counter for the reader (low 16 bits count insertions/removals)
	State    uint32
	ATR      []byte
	Protocol uint32
}

// Present says whether a card is in the reader.
func (s ReaderState) Present() bool { return s.State&StatePresent != 0 }

// Conn is one client connection to pcscd. Its calls are serialized: pcscd
// answers the requests of one connection in order.
type Conn struct {
	mu      sync.Mutex
	c       net.Conn
	timeout time.Duration
}

// ErrProtocol: pcscd sent something this client cannot read (a short or
// inconsistent reply); the connection is closed.
var ErrProtocol = errors.New("pcsc: malformed reply from pcscd")

// Dial connects to pcscd's socket and agrees the protocol version.
// timeout bounds every request but a wait for a reader change.
func Dial(socket string, timeout time.Duration) (*Conn, error) {
	nc, err := net.DialTimeout("unix", socket, timeout)
	if err != nil {
		return nil, fmt.Errorf("pcsc: pcscd at %s: %w", socket, err)
	}
	c := &Conn{c: nc, timeout: timeout}
	major, minor, rv, err := c.version(protoMajor, protoMinor)
	if err == nil && rv != 0 && major == protoMajor {
		_, _, rv, err = c.version(major, minor)
	}
	if err == nil && rv != 0 {
		err = fmt.Errorf("pcsc: pcscd speaks protocol %d.%d: %w", major, minor, Error(rv))
	}
	if err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}

// Close ends the connection; pcscd releases its contexts and cards.
func (c *Conn) Close() error { return c.c.Close() }

func (c *Conn) version(major, minor int32) (int32, int32, uint32, error) {
	var b [12]byte
	ne.PutUint32(b[0:], uint32(major))
	ne.PutUint32(b[4:], uint32(minor))
	out, err := c.call(cmdVersion, b[:], nil, len(b))
	if err != nil {
		return 0, 0, 0, err
	}
	return int32(ne.Uint32(out[0:])), int32(ne.Uint32(out[4:])), ne.Uint32(out[8:]), nil
}

// call sends header + body (+ extra) and reads a reply of replyLen bytes.
func (c *Conn) call(cmd uint32, body, extra []byte, replyLen int) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.callLocked(cmd, body, extra, replyLen)
}

func (c *Conn) callLocked(cmd uint32, body, extra []byte, replyLen int) ([]byte, error) {
	if c.timeout > 0 {
		c.c.SetDeadline(time.Now().Add(c.timeout))
		defer c.c.SetDeadline(time.Time{})
	}
	msg := make([]byte, 8, 8+len(body)+len(extra))
	ne.PutUint32(msg[0:], uint32(len(body)))
	ne.PutUint32(msg[4:], cmd)
	msg = append(append(msg, body...), extra...)
	if _, err := c.c.Write(msg); err != nil {
		return nil, c.lost(err)
	}
	out := make([]byte, replyLen)
	if _, err := io.ReadFull(c.c, out); err != nil {
		return nil, c.lost(err)
	}
	return out, nil
}

// ErrLost: the connection to pcscd broke (pcscd stopped or restarted).
var ErrLost = errors.New("pcsc: connection to pcscd lost")

func (c *Conn) lost(err error) error {
	c.c.Close()
	return fmt.Errorf("%w: %v", ErrLost, err)
}

// EstablishContext opens a context (the user scope).
func (c *Conn) EstablishContext() (uint32, error) {
	var b [12]byte // dwScope = SCARD_SCOPE_USER (0)
	out, err := c.call(cmdEstablishContext, b[:], nil, len(b))
	if err != nil {
		return 0, err
	}
	if rv := ne.Uint32(out[8:]); rv != 0 {
		return 0, Error(rv)
	}
	return ne.Uint32(out[4:]), nil
}

// ReleaseContext closes a context and every card handle under it.
func (c *Conn) ReleaseContext(ctx uint32) error {
	var b [8]byte
	ne.PutUint32(b[0:], ctx)
	out, err := c.call(cmdReleaseContext, b[:], nil, len(b))
	if err != nil {
		return err
	}
	return rvErr(ne.Uint32(out[4:]))
}

// ReaderStates reads pcscd's table of readers; empty slots are left out.
func (c *Conn) ReaderStates() ([]ReaderState, error) {
	out, err := c.call(cmdGetReadersState, nil, nil, maxReaders*readerStateLen)
	if err != nil {
		return nil, err
	}
	return parseStates(out)
}

func parseStates(b []byte) ([]ReaderState, error) {
	var rs []ReaderState
	for i := 0; i < maxReaders; i++ {
		e := b[i*readerStateLen : (i+1)*readerStateLen]
		name, _, _ := bytes.Cut(e[:maxReaderName], []byte{0})
		if len(name) == 0 {
			continue
		}
		n := ne.Uint32(e[176:])
		if n > maxATR {
			return nil, fmt.Errorf("%w: ATR of %d bytes for %q", ErrProtocol, n, name)
		}
		rs = append(rs, ReaderState{
			Name:     string(name),
			Events:   ne.Uint32(e[128:]),
			State:    ne.Uint32(e[132:]),
			ATR:      bytes.Clone(e[140 : 140+n]),
			Protocol: ne.Uint32(e[180:]),
		})
	}
	return rs, nil
}

// Card is a connected card handle.
type Card struct {
	Handle   int32
	Protocol uint32
}

// Connect connects to the card in reader.
func (c *Conn) Connect(ctx uint32, reader string, share, protocols uint32) (Card, error) {
	if len(reader) >= maxReaderName {
		return Card{}, fmt.Errorf("pcsc: reader name of %d bytes", len(reader))
	}
	b := make([]byte, 4+maxReaderName+20)
	ne.PutUint32(b[0:], ctx)
	copy(b[4:], reader)
	o := 4 + maxReaderName
	ne.PutUint32(b[o:], share)
	ne.PutUint32(b[o+4:], protocols)
	out, err := c.call(cmdConnect, b, nil, len(b))
	if err != nil {
		return Card{}, err
	}
	if rv := ne.Uint32(out[o+16:]); rv != 0 {
		return Card{}, Error(rv)
	}
	return Card{Handle: int32(ne.Uint32(out[o+8:])), Protocol: ne.Uint32(out[o+12:])}, nil
}

// Disconnect releases a card handle.
func (c *Conn) Disconnect(card Card, disposition uint32) error {
	var b [12]byte
	ne.PutUint32(b[0:], uint32(card.Handle))
	ne.PutUint32(b[4:], disposition)
	out, err := c.call(cmdDisconnect, b[:], nil, len(b))
	if err != nil {
		return err
	}
	return rvErr(ne.Uint32(out[8:]))
}

// BeginTransaction takes the card for this handle alone.
func (c *Conn) BeginTransaction(card Card) error {
	var b [8]byte
	ne.PutUint32(b[0:], uint32(card.Handle))
	out, err := c.call(cmdBeginTransaction, b[:], nil, len(b))
	if err != nil {
		return err
	}
	return rvErr(ne.Uint32(out[4:]))
}

// EndTransaction gives the card back.
func (c *Conn) EndTransaction(card Card, disposition uint32) error {
	var b [12]byte
	ne.PutUint32(b[0:], uint32(card.Handle))
	ne.PutUint32(b[4:], disposition)
	out, err := c.call(cmdEndTransaction, b[:], nil, len(b))
	if err != nil {
		return err
	}
	return rvErr(ne.Uint32(out[8:]))
}

// Transmit sends a command APDU and returns the response APDU (data and
// the two status bytes).
func (c *Conn) Transmit(card Card, apdu []byte) ([]byte, error) {
	if len(apdu) == 0 || len(apdu) > maxRecv {
		return nil, fmt.Errorf("pcsc: APDU of %d bytes", len(apdu))
	}
	var b [32]byte
	ne.PutUint32(b[0:], uint32(card.Handle))
	ne.PutUint32(b[4:], card.Protocol)
	ne.PutUint32(b[8:], ioRequestLen)
	ne.PutUint32(b[12:], uint32(len(apdu)))
	ne.PutUint32(b[16:], card.Protocol)
	ne.PutUint32(b[20:], ioRequestLen)
	ne.PutUint32(b[24:], maxRecv)
	c.mu.Lock()
	defer c.mu.Unlock()
	out, err := c.callLocked(cmdTransmit, b[:], apdu, len(b))
	if err != nil {
		return nil, err
	}
	if rv := ne.Uint32(out[28:]); rv != 0 {
		return nil, Error(rv)
	}
	n := ne.Uint32(out[24:])
	if n > maxRecv {
		return nil, c.lost(fmt.Errorf("%w: response of %d bytes", ErrProtocol, n))
	}
	resp := make([]byte, n)
	if c.timeout > 0 {
		c.c.SetDeadline(time.Now().Add(c.timeout))
		defer c.c.SetDeadline(time.Time{})
	}
	if _, err := io.ReadFull(c.c, resp); err != nil {
		return nil, c.lost(err)
	}
	return resp, nil
}

// Watch turns the connection into a watcher of reader changes: it
// registers for pcscd's change signal and returns the reader table as it
// is now. Next blocks until pcscd signals a change (then call Watch
// again). A watching connection makes no other calls; Close stops it.
func (c *Conn) Watch() ([]ReaderState, error) {
	out, err := c.call(cmdWaitReaderState, nil, nil, maxReaders*readerStateLen)
	if err != nil {
		return nil, err
	}
	return parseStates(out)
}

// Next waits up to d for pcscd's change signal; false on timeout, and
// the registration then stays (Next may be called again).
func (c *Conn) Next(d time.Duration) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.c.SetReadDeadline(time.Now().Add(d))
	defer c.c.SetReadDeadline(time.Time{})
	var b [8]byte
	n, err := io.ReadFull(c.c, b[:])
	var ne2 net.Error
	if n == 0 && errors.As(err, &ne2) && ne2.Timeout() {
		return false, nil
	}
	if err != nil {
		return false, c.lost(err)
	}
	if rv := ne.Uint32(b[4:]); rv != 0 {
		return false, Error(rv)
	}
	return true, nil
}

func rvErr(rv uint32) error {
	if rv == 0 {
		return nil
	}
	return Error(rv)
}

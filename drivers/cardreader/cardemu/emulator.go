// Package cardemu is a player card emulated on the far end of a real
// reader path: it connects to vsmartcard-vpcd's port (the virtual reader
// pcscd loads) and speaks vpcd's socket protocol — two-byte big-endian
// length-prefixed frames; a one-byte frame is a control (0 power off, 1
// power on, 2 reset, 4 "send the ATR"), anything longer a command APDU
// answered by a response APDU. The applet is written from CARDS.md, not
// from the reader driver. A connection is a card in the slot; closing it
// is the card taken out. Scenarios: player, unknown and cloned cards,
// swap, and faults (removed mid-exchange, garbage answers).
package cardemu

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/cardauth"
)

// Card is what is in the slot.
type Card struct {
	ID  string
	Key []byte // the card key; nil on a card without the applet
	ATR []byte
	// Applet: the Polaris applet is on the card. An unknown card (a bank
	// card, a transport card) has none.
	Applet bool
}

// PlayerCard is a genuine card issued under master.
func PlayerCard(master []byte, id string) Card {
	key, err := cardauth.Derive(master, id)
	if err != nil {
		panic(err)
	}
	return Card{ID: id, Key: key, ATR: PolarisATR, Applet: true}
}

// ClonedCard is a copy of a card's number and applet without its key
// (nobody outside the operator has the key): it answers every challenge,
// wrongly.
func ClonedCard(id string) Card {
	return Card{ID: id, Key: bytes.Repeat([]byte{0xC1}, 32), ATR: PolarisATR, Applet: true}
}

// UnknownCard is some other card: SELECT of the Polaris applet fails.
func UnknownCard() Card { return Card{ATR: OtherATR} }

// ATRs: direct convention, T=1, and for the player card the historical
// bytes "POLARIS1"; TCK is computed (ISO 7816-3 §8.2.5).
var (
	PolarisATR = withTCK([]byte{0x3B, 0x88, 0x80, 0x01, 'P', 'O', 'L', 'A', 'R', 'I', 'S', '1'})
	OtherATR   = withTCK([]byte{0x3B, 0x80, 0x80, 0x01})
)

func withTCK(b []byte) []byte {
	var x byte
	for _, c := range b[1:] {
		x ^= c
	}
	return append(b, x)
}

// Fault is a misbehaviour injected into the next exchanges.
type Fault int

const (
	NoFault Fault = iota
	// RemoveOnAuthenticate: the card leaves the slot the moment an INTERNAL
	// AUTHENTICATE arrives, unanswered (a card pulled mid-transaction).
	RemoveOnAuthenticate
	// GarbageOnAuthenticate: the card answers INTERNAL AUTHENTICATE with
	// three bytes of noise.
	GarbageOnAuthenticate
	// GarbageID: GET ID answers a number that is not 16 digits.
	GarbageID
)

// SwapGap is how long Swap leaves the slot empty: longer than pcscd's
// 400 ms presence poll, so the reader sees the first card go (a hand
// takes longer too).
const SwapGap = time.Second

// Slot is one vpcd slot with the emulator as its card.
type Slot struct {
	addr string

	mu     sync.Mutex
	conn   net.Conn
	done   chan struct{}
	card   Card
	fault  Fault
	apdus  [][]byte
	errLog []error
}

// NewSlot is the slot whose vpcd port is at addr (host:port).
func NewSlot(addr string) *Slot { return &Slot{addr: addr} }

// Insert puts card in the slot: a connection to vpcd.
func (s *Slot) Insert(card Card) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		return errors.New("cardemu: a card is already in the slot")
	}
	c, err := net.DialTimeout("tcp", s.addr, 5*time.Second)
	if err != nil {
		return fmt.Errorf("cardemu: vpcd at %s: %w", s.addr, err)
	}
	s.conn, s.card, s.done = c, card, make(chan struct{})
	go s.serve(c, card, s.done)
	return nil
}

// Remove takes the card out (closes the connection). No card: nothing.
func (s *Slot) Remove() {
	s.mu.Lock()
	c, done := s.conn, s.done
	s.conn = nil
	s.mu.Unlock()
	if c != nil {
		c.Close()
		<-done
	}
}

// Swap takes the card out and, SwapGap later, puts card in.
func (s *Slot) Swap(card Card) error {
	s.Remove()
	time.Sleep(SwapGap)
	return s.Insert(card)
}

// SetFault arms a fault for the card in the slot and the next ones.
func (s *Slot) SetFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault = f
}

// APDUs are the command APDUs received so far, in order.
func (s *Slot) APDUs() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.apdus...)
}

// Errors are the protocol errors the emulator met (a bad frame from vpcd).
func (s *Slot) Errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errLog...)
}

func (s *Slot) serve(c net.Conn, card Card, done chan struct{}) {
	defer close(done)
	defer c.Close()
	a := &applet{card: card}
	for {
		frame, err := readFrame(c)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				s.note(err)
			}
			return
		}
		if len(frame) == 1 {
			switch frame[0] {
			case 0x00, 0x01, 0x02: // power off, on, reset: the applet forgets its selection
				a.selected = false
			case 0x04:
				if err := writeFrame(c, card.ATR); err != nil {
					return
				}
			default:
				s.note(fmt.Errorf("cardemu: unknown control byte %02X", frame[0]))
			}
			continue
		}
		s.mu.Lock()
		s.apdus = append(s.apdus, bytes.Clone(frame))
		fault := s.fault
		s.mu.Unlock()
		resp := a.handle(frame, fault)
		if resp == nil { // the card left mid-command
			s.mu.Lock()
			if s.conn == c {
				s.conn = nil
			}
			s.mu.Unlock()
			return
		}
		if err := writeFrame(c, resp); err != nil {
			return
		}
	}
}

func (s *Slot) note(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errLog = append(s.errLog, err)
}

func readFrame(r io.Reader) ([]byte, error) {
	var h [2]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint16(h[:])
	if n == 0 {
		return nil, errors.New("cardemu: empty frame from vpcd")
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

func writeFrame(w io.Writer, b []byte) error {
	f := make([]byte, 2+len(b))
	binary.BigEndian.PutUint16(f, uint16(len(b)))
	copy(f[2:], b)
	_, err := w.Write(f)
	return err
}

package id003

import (
	"errors"
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/clock"

	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// Errors of a request/reply exchange.
var (
	ErrNoReply        = errors.New("id003: no valid reply")
	ErrInvalidCommand = errors.New("id003: acceptor answered INVALID COMMAND")
)

// Port is what a session needs of a serial line (serialport.Port fits).
type Port = serialport.Port

// Session sends frames and waits for the matching reply. It is not safe for
// concurrent use; the Driver's loop owns it.
type Session struct {
	port  Port
	dec   Decoder
	clock clock.Clock
	// Retries is how many times a request is re-sent after no valid reply.
	Retries int
	buf     [256]byte
	// Ignored counts valid frames that were not an answer to the request
	// (late replies to an earlier one).
	Ignored int
}

// NewSession wraps an open port.
func NewSession(p Port, clk clock.Clock, retries int) *Session {
	if clk == nil {
		clk = clock.System{}
	}
	return &Session{port: p, clock: clk, Retries: retries}
}

// Decoder exposes the stream decoder's counters (garbage, bad frames).
func (s *Session) Decoder() *Decoder { return &s.dec }

// Send writes a frame that gets no reply (ACK after VEND VALID).
func (s *Session) Send(f Frame) error {
	b, err := f.Encode()
	if err != nil {
		return err
	}
	if _, err := s.port.Write(b); err != nil {
		return fmt.Errorf("id003: write %s: %w", CommandName(f.Code), err)
	}
	return nil
}

// Transact sends req and returns the first valid frame that accept takes,
// retrying on silence. INVALID COMMAND ends it with ErrInvalidCommand and
// COMMUNICATION ERROR (the acceptor saw a damaged frame) makes it re-send.
// Stale bytes are flushed before each send so that a late reply to an
// earlier request cannot be taken for this one.
func (s *Session) Transact(req Frame, timeout time.Duration, accept func(Frame) bool) (Frame, error) {
	var last error
	for range s.Retries + 1 {
		_ = s.port.ResetInputBuffer()
		s.dec.Reset()
		if err := s.Send(req); err != nil {
			return Frame{}, err
		}
		f, err := s.await(timeout, accept)
		if err == nil || !errors.Is(err, ErrNoReply) {
			return f, err
		}
		last = err
	}
	return Frame{}, fmt.Errorf("%s: %w", CommandName(req.Code), last)
}

func (s *Session) await(timeout time.Duration, accept func(Frame) bool) (Frame, error) {
	deadline := s.clock.Now().Add(timeout)
	for {
		for {
			f, ok := s.dec.Next()
			if !ok {
				break
			}
			switch {
			case f.Code == StInvalidCommand && len(f.Data) == 0:
				return f, ErrInvalidCommand
			case f.Code == StCommunicationError && len(f.Data) == 0:
				return Frame{}, fmt.Errorf("%w: acceptor reported COMMUNICATION ERROR", ErrNoReply)
			case accept(f):
				return f, nil
			}
			s.Ignored++
		}
		left := deadline.Sub(s.clock.Now())
		if left <= 0 {
			return Frame{}, ErrNoReply
		}
		if err := s.port.SetReadTimeout(left); err != nil {
			return Frame{}, fmt.Errorf("id003: set read timeout: %w", err)
		}
		n, err := s.port.Read(s.buf[:])
		if err != nil {
			return Frame{}, fmt.Errorf("id003: read: %w", err)
		}
		if n == 0 {
			return Frame{}, ErrNoReply
		}
		s.dec.Write(s.buf[:n])
	}
}

// Reply matchers for Transact.

// IsAck takes ACK, the reply to operation commands.
func IsAck(f Frame) bool { return f.Code == StAck && len(f.Data) == 0 }

// IsStatus takes any well-formed status.
func IsStatus(f Frame) bool { _, err := ParseStatus(f); return err == nil }

// IsEcho takes the echo of a setting command.
func IsEcho(req Frame) func(Frame) bool {
	return func(f Frame) bool { return f.Code == req.Code && string(f.Data) == string(req.Data) }
}

// IsCode takes any frame with the request's code (information replies).
func IsCode(code byte) func(Frame) bool { return func(f Frame) bool { return f.Code == code } }

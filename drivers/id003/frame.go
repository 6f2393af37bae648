package id003

import (
	"errors"
	"fmt"
)

// Framing constants (protocols.md §1.2).
const (
	Sync = 0xFC
	// MinFrameLen is a frame with no data: SYNC LNG CODE CRC-L CRC-H.
	MinFrameLen = 5
	// MaxFrameLen is the largest value LNG can hold.
	MaxFrameLen = 255
	// MaxDataLen is the most data bytes one frame can carry.
	MaxDataLen = MaxFrameLen - MinFrameLen
)

// Errors of the codec. Decode wraps them with detail; test with errors.Is.
var (
	ErrIncomplete  = errors.New("id003: incomplete frame")
	ErrNoSync      = errors.New("id003: frame does not start with SYNC 0xFC")
	ErrLength      = errors.New("id003: bad frame length")
	ErrCRC         = errors.New("id003: CRC mismatch")
	ErrDataTooLong = errors.New("id003: data too long for one frame")
)

// Frame is one ID-003 message in either direction: a command or status code
// and its data. The direction gives the code its meaning (0x40 is RESET from
// the host and POWER UP from the acceptor).
type Frame struct {
	Code byte
	Data []byte
}

func (f Frame) String() string { return fmt.Sprintf("%02X % X", f.Code, f.Data) }

// Append appends the encoded frame to b.
func (f Frame) Append(b []byte) ([]byte, error) {
	if len(f.Data) > MaxDataLen {
		return b, fmt.Errorf("%w: %d bytes (max %d)", ErrDataTooLong, len(f.Data), MaxDataLen)
	}
	start := len(b)
	b = append(b, Sync, byte(MinFrameLen+len(f.Data)), f.Code)
	b = append(b, f.Data...)
	c := CRC16(b[start:])
	return append(b, byte(c), byte(c>>8)), nil
}

// Encode returns the frame's bytes on the line.
func (f Frame) Encode() ([]byte, error) {
	return f.Append(make([]byte, 0, MinFrameLen+len(f.Data)))
}

// MustEncode is Encode for frames known to be short enough (the constructors).
func (f Frame) MustEncode() []byte {
	b, err := f.Encode()
	if err != nil {
		panic(err)
	}
	return b
}

// Decode decodes the frame at the start of b and returns it with the number
// of bytes it used. The frame's Data aliases b. It returns ErrIncomplete when
// b holds only a prefix of a frame; on any other error nothing is consumed.
func Decode(b []byte) (Frame, int, error) {
	if len(b) == 0 {
		return Frame{}, 0, ErrIncomplete
	}
	if b[0] != Sync {
		return Frame{}, 0, fmt.Errorf("%w: got %02X", ErrNoSync, b[0])
	}
	if len(b) < 2 {
		return Frame{}, 0, ErrIncomplete
	}
	n := int(b[1])
	if n < MinFrameLen {
		return Frame{}, 0, fmt.Errorf("%w: LNG %d < %d", ErrLength, n, MinFrameLen)
	}
	if len(b) < n {
		return Frame{}, 0, ErrIncomplete
	}
	want := CRC16(b[:n-2])
	got := uint16(b[n-2]) | uint16(b[n-1])<<8
	if want != got {
		return Frame{}, 0, fmt.Errorf("%w: frame % X has %04X, want %04X", ErrCRC, b[:n], got, want)
	}
	return Frame{Code: b[2], Data: b[3 : n-2]}, n, nil
}

// Decoder cuts a byte stream into frames. Bytes before a SYNC, frames with an
// impossible length and frames with a bad CRC are dropped and counted, and
// decoding resumes at the next SYNC after the bad one (a 0xFC inside a
// corrupted frame may start the real one).
type Decoder struct {
	buf []byte
	// Dropped counts bytes thrown away while resynchronising.
	Dropped int
	// BadFrames counts frames rejected for their length or CRC.
	BadFrames int
}

// Write appends received bytes. It never fails.
func (d *Decoder) Write(p []byte) (int, error) {
	d.buf = append(d.buf, p...)
	return len(p), nil
}

// Next returns the next whole valid frame, or false when more bytes are
// needed. The frame's Data is a copy, safe to keep.
func (d *Decoder) Next() (Frame, bool) {
	for {
		i := 0
		for i < len(d.buf) && d.buf[i] != Sync {
			i++
		}
		if i > 0 {
			d.Dropped += i
			d.consume(i)
		}
		f, n, err := Decode(d.buf)
		switch {
		case err == nil:
			f.Data = append([]byte(nil), f.Data...)
			d.consume(n)
			return f, true
		case errors.Is(err, ErrIncomplete):
			// A corrupted LNG can announce more bytes than will come; a
			// whole valid frame further on proves the head is garbage.
			for j := 1; j < len(d.buf); j++ {
				if d.buf[j] != Sync {
					continue
				}
				if _, _, err := Decode(d.buf[j:]); err == nil {
					d.BadFrames++
					d.Dropped += j
					d.consume(j)
					return d.Next()
				}
			}
			return Frame{}, false
		default:
			d.BadFrames++
			d.Dropped++
			d.consume(1)
		}
	}
}

// Buffered reports how many bytes wait for the rest of a frame.
func (d *Decoder) Buffered() int { return len(d.buf) }

// Reset drops everything buffered.
func (d *Decoder) Reset() { d.buf = d.buf[:0] }

func (d *Decoder) consume(n int) {
	m := copy(d.buf, d.buf[n:])
	d.buf = d.buf[:m]
}

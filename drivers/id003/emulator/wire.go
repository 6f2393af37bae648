package emulator

import "errors"

// The emulator's own ID-003 framing: SYNC FC, LNG (whole frame), code, data,
// CRC-16/KERMIT over SYNC..data sent low byte first. Bitwise on purpose, so
// it checks the driver's table-driven CRC instead of repeating it.

const syncByte = 0xFC

func kermit(b []byte) uint16 {
	var crc uint16
	for _, x := range b {
		crc ^= uint16(x)
		for range 8 {
			if crc&1 == 1 {
				crc = crc>>1 ^ 0x8408
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}

func frame(code byte, data ...byte) []byte {
	b := append([]byte{syncByte, byte(5 + len(data)), code}, data...)
	c := kermit(b)
	return append(b, byte(c&0xFF), byte(c>>8))
}

var errBadCRC = errors.New("bad CRC")

// reader accumulates bytes and cuts frames, skipping anything that is not a
// well-formed frame one byte at a time.
type reader struct{ buf []byte }

type request struct {
	code byte
	data []byte
	err  error // errBadCRC: the frame was damaged
}

func (r *reader) feed(p []byte) []request {
	r.buf = append(r.buf, p...)
	var out []request
	for {
		for len(r.buf) > 0 && r.buf[0] != syncByte {
			r.buf = r.buf[1:]
		}
		if len(r.buf) < 2 {
			break
		}
		n := int(r.buf[1])
		if n < 5 {
			r.buf = r.buf[1:]
			continue
		}
		if len(r.buf) < n {
			if j := r.laterFrame(); j > 0 {
				r.buf = r.buf[j:]
				continue
			}
			break
		}
		got := uint16(r.buf[n-2]) | uint16(r.buf[n-1])<<8
		if kermit(r.buf[:n-2]) != got {
			out = append(out, request{err: errBadCRC})
			r.buf = r.buf[1:]
			continue
		}
		out = append(out, request{code: r.buf[2], data: append([]byte(nil), r.buf[3:n-2]...)})
		r.buf = r.buf[n:]
	}
	// keep the buffer from holding on to a large backing array
	r.buf = append([]byte(nil), r.buf...)
	return out
}

// laterFrame finds a whole valid frame after the head, whose LNG may be a
// corrupted byte announcing more than will ever come.
func (r *reader) laterFrame() int {
	for j := 1; j < len(r.buf); j++ {
		if r.buf[j] != syncByte || j+1 >= len(r.buf) {
			continue
		}
		n := int(r.buf[j+1])
		if n < 5 || j+n > len(r.buf) {
			continue
		}
		if kermit(r.buf[j:j+n-2]) == uint16(r.buf[j+n-2])|uint16(r.buf[j+n-1])<<8 {
			return j
		}
	}
	return 0
}

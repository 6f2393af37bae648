package escpos

import "fmt"

// Process ID response (Epson GS ( H, Function 48): the printer keeps the
// four-byte ID with the data sent just before it and, once that data is
// printed, transmits 37h 22h d1 d2 d3 d4 00h. A framed reply carrying the
// job's own ID is the only confirmation a stray byte on the line cannot
// imitate, so it is the driver's default way of knowing a voucher is on
// paper.
const (
	processIDHeader = 0x37
	processIDIdent  = 0x22
	processIDLen    = 7
)

// ProcessIDRequest is GS ( H 06 00 30 30 d1 d2 d3 d4; each d in 32–126.
func ProcessIDRequest(id [4]byte) ([]byte, error) {
	for _, c := range id {
		if c < 32 || c > 126 {
			return nil, bad("process ID byte %#02x outside 32–126", c)
		}
	}
	return []byte{GS, '(', 'H', 6, 0, 48, 48, id[0], id[1], id[2], id[3]}, nil
}

// EncodeProcessIDReply is the printer's answer to ProcessIDRequest (tests).
func EncodeProcessIDReply(id [4]byte) []byte {
	return []byte{processIDHeader, processIDIdent, id[0], id[1], id[2], id[3], 0}
}

// ReplyKind says what a byte (or frame) from the printer was taken for.
type ReplyKind int

const (
	// ReplyUnexpected is a byte nothing asked for: counted and logged,
	// never taken as status.
	ReplyUnexpected ReplyKind = iota
	ReplyStatus               // the answer to the outstanding DLE EOT n
	ReplySensor               // the answer to the outstanding GS r 1
	ReplyProcessID            // a whole process ID response
)

func (k ReplyKind) String() string {
	switch k {
	case ReplyStatus:
		return "status"
	case ReplySensor:
		return "paper sensor"
	case ReplyProcessID:
		return "process ID"
	}
	return "unexpected"
}

// Reply is one item the Scanner recognised.
type Reply struct {
	Kind ReplyKind
	Byte byte    // status, sensor or unexpected byte
	ID   [4]byte // ReplyProcessID
}

func (r Reply) String() string {
	if r.Kind == ReplyProcessID {
		return fmt.Sprintf("process ID %q", r.ID[:])
	}
	return fmt.Sprintf("%s %#02x", r.Kind, r.Byte)
}

// Scanner parses the printer's replies in context. ESC/POS replies are bare
// bytes, so a byte is a status only while a DLE EOT request is outstanding
// and a paper-sensor reply only while a GS r 1 is (ExpectSensor counts
// them); each expectation is used up by the byte that answers it. Everything else — line noise,
// a second byte for one request — is ReplyUnexpected. A process ID
// response is recognised by its frame whatever is outstanding.
type Scanner struct {
	ExpectStatus bool
	ExpectSensor int
	frame        []byte
}

// Pending is how many bytes of a started process ID frame are held.
func (s *Scanner) Pending() int { return len(s.frame) }

// Feed parses p and appends what it recognised to out.
func (s *Scanner) Feed(p []byte, out []Reply) []Reply {
	for _, b := range p {
		out = s.feed(b, out)
	}
	return out
}

func (s *Scanner) feed(b byte, out []Reply) []Reply {
	if n := len(s.frame); n > 0 {
		ok := false
		switch {
		case n == 1:
			ok = b == processIDIdent
		case n < processIDLen-1:
			ok = b >= 32 && b <= 126
		default:
			ok = b == 0
		}
		if ok {
			s.frame = append(s.frame, b)
			if len(s.frame) == processIDLen {
				var r Reply
				r.Kind = ReplyProcessID
				copy(r.ID[:], s.frame[2:6])
				s.frame = s.frame[:0]
				out = append(out, r)
			}
			return out
		}
		// not a frame after all: its bytes were unexpected; b starts afresh
		held := append([]byte(nil), s.frame...)
		s.frame = s.frame[:0]
		for _, c := range held {
			out = append(out, Reply{Kind: ReplyUnexpected, Byte: c})
		}
	}
	switch {
	case b == processIDHeader: // 0x37 matches neither reply pattern
		s.frame = append(s.frame, b)
	case s.ExpectStatus && IsRealtimeReply(b):
		s.ExpectStatus = false
		out = append(out, Reply{Kind: ReplyStatus, Byte: b})
	case s.ExpectSensor > 0 && validSensor(b):
		s.ExpectSensor--
		out = append(out, Reply{Kind: ReplySensor, Byte: b})
	default:
		out = append(out, Reply{Kind: ReplyUnexpected, Byte: b})
	}
	return out
}

// validSensor accepts only the four GS r 1 replies a printer can give
// (near-end and end bits come in pairs).
func validSensor(b byte) bool { return b == 0x00 || b == 0x03 || b == 0x0c || b == 0x0f }

// idAlphabet holds the printable bytes that match neither reply pattern,
// so no byte of a process ID can be mistaken for a status or sensor reply
// when the frame is cut short.
var idAlphabet = func() []byte {
	var a []byte
	for c := byte('0'); c <= 'Z'; c++ {
		if c != processIDHeader && c != processIDIdent && !IsRealtimeReply(c) && !validSensor(c) &&
			(c <= '9' || c >= 'A') {
			a = append(a, c)
		}
	}
	return a
}()

// jobProcessID is the ID sent after job seq of the driver instance salted
// by salt, so an echo left over from another session does not match.
func jobProcessID(salt uint32, seq uint32) [4]byte {
	v := salt ^ (seq * 2654435761)
	var id [4]byte
	n := uint32(len(idAlphabet))
	for i := range id {
		id[i] = idAlphabet[v%n]
		v /= n
	}
	// the sequence alone decides the last byte, so two consecutive jobs
	// never share an ID whatever the salt
	id[3] = idAlphabet[seq%n]
	return id
}

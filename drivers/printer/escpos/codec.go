package escpos

import (
	"errors"
	"fmt"
)

// Control bytes.
const (
	ESC = 0x1b
	GS  = 0x1d
	DLE = 0x10
	EOT = 0x04
	LF  = 0x0a
	NUL = 0x00
)

// ErrCommand is wrapped by every refusal to encode a command.
var ErrCommand = errors.New("escpos: bad command")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrCommand, fmt.Sprintf(format, a...))
}

// Initialize is ESC @.
func Initialize() []byte { return []byte{ESC, '@'} }

// Justify is ESC a n: 0 left, 1 centre, 2 right.
func Justify(n byte) ([]byte, error) {
	if n > 2 {
		return nil, bad("justification %d", n)
	}
	return []byte{ESC, 'a', n}, nil
}

// Bold is ESC E n.
func Bold(on bool) []byte {
	if on {
		return []byte{ESC, 'E', 1}
	}
	return []byte{ESC, 'E', 0}
}

// Size is GS ! n: width multiplier (1–8) in the high nibble, height in the low.
func Size(w, h int) ([]byte, error) {
	if w < 1 || w > 8 || h < 1 || h > 8 {
		return nil, bad("character size %dx%d", w, h)
	}
	return []byte{GS, '!', byte((w-1)<<4 | (h - 1))}, nil
}

// CodePage is ESC t n (Epson: 18 = PC852 Latin 2, 0 = PC437).
func CodePage(n byte) []byte { return []byte{ESC, 't', n} }

// BarcodeHeight is GS h n (dots, 1–255).
func BarcodeHeight(n byte) ([]byte, error) {
	if n == 0 {
		return nil, bad("barcode height 0")
	}
	return []byte{GS, 'h', n}, nil
}

// ModuleWidth is GS w n (2–6).
func ModuleWidth(n byte) ([]byte, error) {
	if n < 2 || n > 6 {
		return nil, bad("module width %d not in 2..6", n)
	}
	return []byte{GS, 'w', n}, nil
}

// HRI positions for GS H n.
const (
	HRINone, HRIAbove, HRIBelow, HRIBoth = 0, 1, 2, 3
)

// HRIPosition is GS H n.
func HRIPosition(n byte) ([]byte, error) {
	if n > 3 {
		return nil, bad("HRI position %d", n)
	}
	return []byte{GS, 'H', n}, nil
}

func checkITF(digits string, max int) error {
	if len(digits) == 0 || len(digits)%2 != 0 || len(digits) > max {
		return bad("ITF needs an even number of digits, 2–%d; got %d", max, len(digits))
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return bad("ITF data has a non-digit at %d", i)
		}
	}
	return nil
}

// ITFA is GS k 05 d1…dn NUL (function A).
func ITFA(digits string) ([]byte, error) {
	if err := checkITF(digits, 254); err != nil {
		return nil, err
	}
	b := append([]byte{GS, 'k', 5}, digits...)
	return append(b, NUL), nil
}

// ITFB is GS k 70 n d1…dn (function B).
func ITFB(digits string) ([]byte, error) {
	if err := checkITF(digits, 254); err != nil {
		return nil, err
	}
	return append([]byte{GS, 'k', 70, byte(len(digits))}, digits...), nil
}

// Cuts: GS V 0 / 1 (function A), GS V 65 n / 66 n (feed n and cut, function B).
func CutFull() []byte           { return []byte{GS, 'V', 0} }
func CutPartial() []byte        { return []byte{GS, 'V', 1} }
func FeedCutFull(n byte) []byte { return []byte{GS, 'V', 65, n} }
func FeedCutPartial(n byte) []byte {
	return []byte{GS, 'V', 66, n}
}

// CutFullASCII and CutPartialASCII are function A with n = 48 / 49, which
// printers treat like 0 / 1.
func CutFullASCII() []byte    { return []byte{GS, 'V', 48} }
func CutPartialASCII() []byte { return []byte{GS, 'V', 49} }

// TicketCutPartial and TicketCutFull are ESC i / ESC m, which some ticket
// printers accept (Pyramid's ESC/POS notes).
func TicketCutPartial() []byte { return []byte{ESC, 'i'} }
func TicketCutFull() []byte    { return []byte{ESC, 'm'} }

// FeedLines is ESC d n.
func FeedLines(n byte) []byte { return []byte{ESC, 'd', n} }

// AutoStatusBack is GS a n (0 disables it, which this driver needs: it reads
// replies one request at a time).
func AutoStatusBack(n byte) []byte { return []byte{GS, 'a', n} }

// PaperSensorRequest is GS r 1. Not real-time: the printer answers after it
// has processed everything sent before it.
func PaperSensorRequest() []byte { return []byte{GS, 'r', 1} }

// Real-time status requests, DLE EOT n.
const (
	StatusPrinter    = 1
	StatusOffline    = 2
	StatusErrorCause = 3
	StatusPaper      = 4
)

// StatusRequest is DLE EOT n (n = 1..4).
func StatusRequest(n byte) ([]byte, error) {
	if n < 1 || n > 4 {
		return nil, bad("DLE EOT %d", n)
	}
	return []byte{DLE, EOT, n}, nil
}

// Status is what DLE EOT 1–4 told. Each request fills its own fields.
type Status struct {
	// n = 1, printer
	DrawerPin3, Offline, WaitingOnlineRecovery, FeedButton bool
	// n = 2, offline cause
	CoverOpen, FeedingByButton, PaperEndStop, ErrorOccurred bool
	// n = 3, error cause
	RecoverableError, CutterError, UnrecoverableError, AutoRecoverableError bool
	// n = 4, roll paper
	PaperNearEnd, PaperEnd bool
}

// StatusError explains a byte that is not a valid status reply.
type StatusError struct {
	N    byte
	Byte byte
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("escpos: %#02x is not a DLE EOT %d reply (pattern 0xx1xx10)", e.Byte, e.N)
}

// IsRealtimeReply reports the fixed pattern of every DLE EOT reply:
// bit 1 and bit 4 set, bits 0 and 7 clear.
func IsRealtimeReply(b byte) bool { return b&0x93 == 0x12 }

// ParseStatus decodes the reply b to DLE EOT n into s.
func ParseStatus(n, b byte, s *Status) error {
	if !IsRealtimeReply(b) || n < 1 || n > 4 {
		return &StatusError{n, b}
	}
	bit := func(i uint) bool { return b&(1<<i) != 0 }
	switch n {
	case StatusPrinter:
		s.DrawerPin3, s.Offline, s.WaitingOnlineRecovery, s.FeedButton = bit(2), bit(3), bit(5), bit(6)
	case StatusOffline:
		s.CoverOpen, s.FeedingByButton, s.PaperEndStop, s.ErrorOccurred = bit(2), bit(3), bit(5), bit(6)
	case StatusErrorCause:
		s.RecoverableError, s.CutterError, s.UnrecoverableError, s.AutoRecoverableError = bit(2), bit(3), bit(5), bit(6)
	case StatusPaper:
		s.PaperNearEnd = b&0x0c != 0
		s.PaperEnd = b&0x60 != 0
	}
	return nil
}

// EncodeStatus is ParseStatus reversed (golden tests).
func EncodeStatus(n byte, s Status) byte {
	b := byte(0x12)
	set := func(on bool, bits byte) {
		if on {
			b |= bits
		}
	}
	switch n {
	case StatusPrinter:
		set(s.DrawerPin3, 0x04)
		set(s.Offline, 0x08)
		set(s.WaitingOnlineRecovery, 0x20)
		set(s.FeedButton, 0x40)
	case StatusOffline:
		set(s.CoverOpen, 0x04)
		set(s.FeedingByButton, 0x08)
		set(s.PaperEndStop, 0x20)
		set(s.ErrorOccurred, 0x40)
	case StatusErrorCause:
		set(s.RecoverableError, 0x04)
		set(s.CutterError, 0x08)
		set(s.UnrecoverableError, 0x20)
		set(s.AutoRecoverableError, 0x40)
	case StatusPaper:
		set(s.PaperNearEnd, 0x0c)
		set(s.PaperEnd, 0x60)
	}
	return b
}

// PaperSensor is the reply to GS r 1 (Epson): bits 0–1 near end, bits 2–3
// paper end; bits 4 and 7 are always 0, which tells it from a DLE EOT reply.
type PaperSensor struct{ NearEnd, End bool }

// IsPaperSensorReply reports bits 4 and 7 clear.
func IsPaperSensorReply(b byte) bool { return b&0x90 == 0 }

// ParsePaperSensor decodes a GS r 1 reply.
func ParsePaperSensor(b byte) (PaperSensor, error) {
	if !IsPaperSensorReply(b) {
		return PaperSensor{}, fmt.Errorf("escpos: %#02x is not a GS r 1 reply", b)
	}
	return PaperSensor{NearEnd: b&0x03 != 0, End: b&0x0c != 0}, nil
}

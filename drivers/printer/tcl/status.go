package tcl

import (
	"fmt"
	"strings"
)

// Cond is one status condition from the five flag bytes.
type Cond uint32

const (
	// f1
	VoltageError Cond = 1 << iota
	HeadError
	PaperOut
	HeadUp
	SystemError
	Busy
	// f2
	JobMemoryOverflow
	BufferOverflow
	LibraryLoadError
	RegionDataError
	LibraryRefError
	TemperatureError
	// f3
	MissingSupplyIndex
	PrinterOffline
	FlashProgramError
	PaperInChute
	LibrariesCorrupt
	CommandError
	// f4
	PaperLow
	PaperJam
	CutterError
	LineModeOn
	// f5
	ResetPowerUp
	BarcodeDataAccessed
	ChassisOpen
	XOff
	TopOfForm
	ValidationDone
)

var condNames = []string{"voltage error", "head error", "paper out", "head up", "system error", "busy",
	"job memory overflow", "buffer overflow", "library load error", "region/data error", "library reference error", "temperature error",
	"missing supply index", "printer offline", "flash program error", "paper in chute", "print libraries corrupt", "command error",
	"paper low", "paper jam", "cutter error", "line mode",
	"reset/power-up", "barcode data accessed", "chassis open", "XOFF", "top of form", "validation number done"}

func (c Cond) String() string {
	var s []string
	for i, n := range condNames {
		if c&(1<<i) != 0 {
			s = append(s, n)
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "|")
}

// F4Layout says where f4 keeps its bits: the sources disagree
// (protocols.md §3.2), so it is configuration.
type F4Layout int

const (
	// F4Monaco: paper low 0x01, jam 0x02, cutter 0x04, line mode 0x08 (real printers).
	F4Monaco F4Layout = iota
	// F4Paycheck4: paper low 0x01, cutter 0x04, jam 0x20, line mode 0x80.
	F4Paycheck4
)

type bitCond struct {
	bit  byte
	cond Cond
}

var fixedFlags = [5][]bitCond{
	{{0x01, VoltageError}, {0x02, HeadError}, {0x04, PaperOut}, {0x08, HeadUp}, {0x10, SystemError}, {0x20, Busy}},
	{{0x01, JobMemoryOverflow}, {0x02, BufferOverflow}, {0x04, LibraryLoadError}, {0x08, RegionDataError}, {0x10, LibraryRefError}, {0x20, TemperatureError}},
	{{0x01, MissingSupplyIndex}, {0x02, PrinterOffline}, {0x04, FlashProgramError}, {0x08, PaperInChute}, {0x10, LibrariesCorrupt}, {0x20, CommandError}},
	nil,
	{{0x01, ResetPowerUp}, {0x02, BarcodeDataAccessed}, {0x04, ChassisOpen}, {0x08, XOff}, {0x10, TopOfForm}, {0x20, ValidationDone}},
}

func f4Bits(l F4Layout) []bitCond {
	if l == F4Paycheck4 {
		return []bitCond{{0x01, PaperLow}, {0x04, CutterError}, {0x20, PaperJam}, {0x80, LineModeOn}}
	}
	return []bitCond{{0x01, PaperLow}, {0x02, PaperJam}, {0x04, CutterError}, {0x08, LineModeOn}}
}

func layoutBits(i int, l F4Layout) []bitCond {
	if i == 3 {
		return f4Bits(l)
	}
	return fixedFlags[i]
}

// DecodeFlags turns the five flag bytes into conditions.
func DecodeFlags(f [5]byte, l F4Layout) Cond {
	var c Cond
	for i := range f {
		for _, bc := range layoutBits(i, l) {
			if f[i]&bc.bit != 0 {
				c |= bc.cond
			}
		}
	}
	return c
}

// EncodeFlags is DecodeFlags reversed; bit 6 (0x40) is always set.
func EncodeFlags(c Cond, l F4Layout) [5]byte {
	var f [5]byte
	for i := range f {
		f[i] = 0x40
		for _, bc := range layoutBits(i, l) {
			if c&bc.cond != 0 {
				f[i] |= bc.bit
			}
		}
	}
	return f
}

// StatusLen is the length of a status frame.
const StatusLen = 29

// Status is a decoded status frame *S|<addr>|<firmware 9>|f1|f2|f3|f4|f5|P<t>|*.
type Status struct {
	Addr     byte
	Firmware string // 9 characters, e.g. "PAY-6.22B"
	Flags    [5]byte
	Template byte // last template printed
	Cond     Cond
}

// FrameError explains why bytes are not a valid frame.
type FrameError struct {
	Offset int
	Reason string
}

func (e *FrameError) Error() string {
	return fmt.Sprintf("tcl: bad status frame at byte %d: %s", e.Offset, e.Reason)
}

// ParseStatus decodes exactly one 29-byte status frame.
func ParseStatus(b []byte, l F4Layout) (Status, error) {
	if len(b) != StatusLen {
		return Status{}, &FrameError{0, fmt.Sprintf("length %d, want %d", len(b), StatusLen)}
	}
	for _, c := range []struct {
		off  int
		want byte
	}{{0, '*'}, {1, 'S'}, {2, '|'}, {4, '|'}, {14, '|'}, {16, '|'}, {18, '|'}, {20, '|'}, {22, '|'}, {24, '|'}, {25, 'P'}, {27, '|'}, {28, '*'}} {
		if b[c.off] != c.want {
			return Status{}, &FrameError{c.off, fmt.Sprintf("%#02x where %q belongs", b[c.off], c.want)}
		}
	}
	for i := 5; i < 14; i++ {
		if b[i] < 0x20 || b[i] > 0x7e {
			return Status{}, &FrameError{i, "firmware id is not printable"}
		}
	}
	if b[3] < 0x20 || b[3] > 0x7e {
		return Status{}, &FrameError{3, "address is not printable"}
	}
	var s Status
	s.Addr = b[3]
	s.Firmware = string(b[5:14])
	for i := 0; i < 5; i++ {
		f := b[15+2*i]
		if f&0x40 == 0 {
			return Status{}, &FrameError{15 + 2*i, fmt.Sprintf("flag byte %#02x lacks bit 6", f)}
		}
		s.Flags[i] = f
	}
	s.Template = b[26]
	s.Cond = DecodeFlags(s.Flags, l)
	return s, nil
}

// EncodeStatus writes a status frame (for golden tests; the emulator has its own).
func EncodeStatus(s Status) []byte {
	b := make([]byte, 0, StatusLen)
	b = append(b, '*', 'S', '|', s.Addr, '|')
	fw := (s.Firmware + "         ")[:9]
	b = append(b, fw...)
	for _, f := range s.Flags {
		b = append(b, '|', f)
	}
	return append(b, '|', 'P', s.Template, '|', '*')
}

// Splitter finds status frames in a byte stream that may also carry
// garbage, split frames and unsolicited frames. It never reports a frame
// that does not parse.
type Splitter struct {
	Layout  F4Layout
	buf     []byte
	Dropped int // garbage bytes discarded so far
}

// Feed adds bytes and returns the complete valid frames now available.
func (sp *Splitter) Feed(p []byte) []Status {
	sp.buf = append(sp.buf, p...)
	var out []Status
	for {
		i := indexStart(sp.buf)
		if i < 0 {
			// keep a possible partial "*S" prefix
			keep := 0
			if n := len(sp.buf); n > 0 && sp.buf[n-1] == '*' {
				keep = 1
			} else if n > 1 && sp.buf[n-2] == '*' && sp.buf[n-1] == 'S' {
				keep = 2
			}
			sp.Dropped += len(sp.buf) - keep
			sp.buf = append(sp.buf[:0], sp.buf[len(sp.buf)-keep:]...)
			return out
		}
		sp.Dropped += i
		sp.buf = sp.buf[i:]
		if len(sp.buf) < StatusLen {
			return out
		}
		s, err := ParseStatus(sp.buf[:StatusLen], sp.Layout)
		if err != nil {
			sp.Dropped++
			sp.buf = sp.buf[1:] // resynchronise on the next "*S|"
			continue
		}
		out = append(out, s)
		sp.buf = sp.buf[StatusLen:]
	}
}

func indexStart(b []byte) int {
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '*' && b[i+1] == 'S' && b[i+2] == '|' {
			return i
		}
	}
	return -1
}

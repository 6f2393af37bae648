package tcl

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Single-byte and fixed commands.
const ENQ = 0x05 // status request

var (
	// TemplateMode switches from line mode back to template mode.
	TemplateMode = []byte{0x1b, '[', '^', ']', 0x1b}
	// StatusAlt is the ASCII status request some printers (and Paycheck4) accept.
	StatusAlt         = []byte("^S|^")
	ClearErrors       = []byte("^C|^")
	ClearErrorsAndJam = []byte("^C|j|^")
	FlushAll          = []byte("^F|A|^")
	AbortBarcode      = []byte("^F|C|^")
	FormFeed          = []byte("^f|I|^")
	LineMode          = []byte("^j|^")
	Reset             = []byte("^r|^")
	DeleteAllRegions  = []byte("^R|$|DR|^")
)

// ErrCommand is wrapped by every refusal to encode a command.
var ErrCommand = errors.New("tcl: bad command")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrCommand, fmt.Sprintf(format, a...))
}

// ValidID reports whether c can name a region or template: one printable
// character '0'..'}', not '^' or '|'.
func ValidID(c byte) bool { return c >= '0' && c <= '}' && c != '^' && c != '|' }

// Escape writes field data as TCL needs it: '~', '^' and '|' become "~126",
// "~094" and "~124". Control characters cannot be sent at all (an ENQ or ESC
// inside a field would be read as a command).
func Escape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '~' || c == '^' || c == '|':
			fmt.Fprintf(&b, "~%03d", c)
		case c < 0x20 || c == 0x7f:
			return "", bad("field has control byte %#02x at %d", c, i)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// Unescape reverses Escape (for emulators and tests).
func Unescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+4 > len(s) {
			return "", bad("truncated escape at %d", i)
		}
		n, err := strconv.Atoi(s[i+1 : i+4])
		if err != nil || n > 255 {
			return "", bad("bad escape %q", s[i:i+4])
		}
		b.WriteByte(byte(n))
		i += 3
	}
	return b.String(), nil
}

// Print encodes ^P|<template>|<copies>|<field1>|…|^.
func Print(template byte, copies int, fields []string) ([]byte, error) {
	if !ValidID(template) {
		return nil, bad("template id %q", template)
	}
	if copies < 1 || copies > 9999 {
		return nil, bad("copies %d not in 1..9999", copies)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "^P|%c|%d|", template, copies)
	for i, f := range fields {
		e, err := Escape(f)
		if err != nil {
			return nil, fmt.Errorf("field %d: %w", i+1, err)
		}
		b.WriteString(e)
		b.WriteByte('|')
	}
	b.WriteByte('^')
	return b.Bytes(), nil
}

// Region justification, rotation and object values.
const (
	JustLeft, JustCenter, JustRight   = 0, 1, 2
	RotRight, RotDown, RotLeft, RotUp = 0, 1, 2, 3
	ObjITF                            = "l" // lower-case L: Interleaved 2 of 5
	PrintDynamic                      = '0' // region data comes from the ^P fields
)

// Region is a print region definition (^R).
type Region struct {
	ID     byte
	Mem    byte // 'R' = RAM
	X, Y   int  // dots
	DX, DY int
	Rot    int    // 0..3
	Just   int    // 0..2
	Obj    string // font number, or "l" for an ITF barcode
	M1, M2 int    // magnification (font) or module width / ratio (barcode)
	// Attr is the object attribute (obj_att), a number: 0 for plain text
	// and for a barcode. Monaco sends GDS's attribute less one for fonts.
	Attr      int
	PrintAttr byte // '0' = dynamic text; anything else prints Data as is
	Data      string
}

// Encode writes ^R|<id>|<mem>|<x>|<y>|<dx>|<dy>||<rot>|<just>|<obj>|<m1>|<m2>|<attr>|<print attr>|<data>|^.
func (r Region) Encode() ([]byte, error) {
	if !ValidID(r.ID) {
		return nil, bad("region id %q", r.ID)
	}
	if r.Mem == 0 {
		r.Mem = 'R'
	}
	if r.X < 0 || r.Y < 0 || r.DX <= 0 || r.DY <= 0 || r.X > 9999 || r.Y > 9999 || r.DX > 9999 || r.DY > 9999 {
		return nil, bad("region %c geometry %d,%d %dx%d", r.ID, r.X, r.Y, r.DX, r.DY)
	}
	if r.Rot < 0 || r.Rot > 3 || r.Just < 0 || r.Just > 2 {
		return nil, bad("region %c rotation %d / justification %d", r.ID, r.Rot, r.Just)
	}
	if r.Obj == "" || strings.ContainsAny(r.Obj, "|^~") {
		return nil, bad("region %c object %q", r.ID, r.Obj)
	}
	if r.PrintAttr == 0 {
		r.PrintAttr = PrintDynamic
	}
	if r.Attr < 0 || r.Attr > 9999 {
		return nil, bad("region %c object attribute %d", r.ID, r.Attr)
	}
	data, err := Escape(r.Data)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, "^R|%c|%c|%d|%d|%d|%d||%d|%d|%s|%d|%d|%d|%c|%s|^",
		r.ID, r.Mem, r.X, r.Y, r.DX, r.DY, r.Rot, r.Just, r.Obj, r.M1, r.M2, r.Attr, r.PrintAttr, data), nil
}

// Template is a template definition (^T): a page and its regions in order.
type Template struct {
	ID            byte
	Mem           byte
	Width, Length int // dots
	Regions       []byte
}

// Encode writes ^T|<id>|<mem>|<width>|<length>|<region id>|…|^.
func (t Template) Encode() ([]byte, error) {
	if !ValidID(t.ID) {
		return nil, bad("template id %q", t.ID)
	}
	if t.Mem == 0 {
		t.Mem = 'R'
	}
	if t.Width <= 0 || t.Length <= 0 || t.Width > 9999 || t.Length > 9999 || len(t.Regions) == 0 {
		return nil, bad("template %c: %dx%d with %d regions", t.ID, t.Width, t.Length, len(t.Regions))
	}
	b := fmt.Appendf(nil, "^T|%c|%c|%d|%d|", t.ID, t.Mem, t.Width, t.Length)
	for _, r := range t.Regions {
		if !ValidID(r) {
			return nil, bad("template %c: region id %q", t.ID, r)
		}
		b = append(b, r, '|')
	}
	return append(b, '^'), nil
}

// DeleteRegion and DeleteTemplate encode ^R|<id>|DR|^ and ^T|<id>|DR|^.
func DeleteRegion(id byte) ([]byte, error) {
	if !ValidID(id) {
		return nil, bad("region id %q", id)
	}
	return fmt.Appendf(nil, "^R|%c|DR|^", id), nil
}

func DeleteTemplate(id byte) ([]byte, error) {
	if !ValidID(id) {
		return nil, bad("template id %q", id)
	}
	return fmt.Appendf(nil, "^T|%c|DR|^", id), nil
}

// ReadCRC encodes ^G|<6 bytes>|^ (the printer may take up to 40 s to answer).
func ReadCRC(arg [6]byte) []byte {
	b := append([]byte("^G|"), arg[:]...)
	return append(b, '|', '^')
}

// ByteOrder of the firmware CRC in its 7-byte reply.
type ByteOrder int

const (
	LowFirst  ByteOrder = iota // JCM
	HighFirst                  // Nanoptix
)

// ParseCRCReply reads the CRC at offset 3 of the 7-byte reply.
func ParseCRCReply(b []byte, order ByteOrder) (uint16, error) {
	if len(b) != 7 {
		return 0, &FrameError{Reason: fmt.Sprintf("CRC reply has %d bytes, want 7", len(b))}
	}
	if order == HighFirst {
		return uint16(b[3])<<8 | uint16(b[4]), nil
	}
	return uint16(b[4])<<8 | uint16(b[3]), nil
}

package tcl

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

func hx(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// Golden bytes for every command in protocols.md §3.2.
func TestGoldenCommands(t *testing.T) {
	must := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	p := must(Print('2', 1, []string{"001234567890123456", "a|b^c~d", "0"}))
	delR := must(DeleteRegion('a'))
	delT := must(DeleteTemplate('V'))
	reg := must(Region{ID: 'n', Mem: 'R', X: 8, Y: 190, DX: 496, DY: 80, Rot: 0, Just: 1, Obj: "l", M1: 2, M2: 6, PrintAttr: '0'}.Encode())
	tpl := must(Template{ID: 'V', Mem: 'R', Width: 512, Length: 1100, Regions: []byte("abn")}.Encode())
	for _, c := range []struct {
		name string
		got  []byte
		want []byte
	}{
		{"ENQ status request", []byte{ENQ}, hx("05")},
		{"^S|^ status request", StatusAlt, hx("5e 53 7c 5e")},
		{"template mode ESC [ ^ ] ESC", TemplateMode, hx("1b 5b 5e 5d 1b")},
		{"^P print", p, []byte("^P|2|1|001234567890123456|a~124b~094c~126d|0|^")},
		{"^R define region (numeric obj_att)", reg, []byte("^R|n|R|8|190|496|80||0|1|l|2|6|0|0||^")},
		{"^T define template", tpl, []byte("^T|V|R|512|1100|a|b|n|^")},
		{"^R delete region", delR, hx("5e 52 7c 61 7c 44 52 7c 5e")},
		{"^T delete template", delT, []byte("^T|V|DR|^")},
		{"^R|$ delete all regions", DeleteAllRegions, []byte("^R|$|DR|^")},
		{"^C clear errors", ClearErrors, hx("5e 43 7c 5e")},
		{"^C|j clear with jam", ClearErrorsAndJam, []byte("^C|j|^")},
		{"^F|A flush", FlushAll, []byte("^F|A|^")},
		{"^F|C abort barcode", AbortBarcode, []byte("^F|C|^")},
		{"^f|I form feed", FormFeed, hx("5e 66 7c 49 7c 5e")},
		{"^j line mode", LineMode, []byte("^j|^")},
		{"^r reset", Reset, []byte("^r|^")},
		{"^G read CRC", ReadCRC([6]byte{0, 0, 0xff, 0xff, 0x12, 0x34}), hx("5e 47 7c 00 00 ff ff 12 34 7c 5e")},
	} {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("%s:\n got % x\nwant % x", c.name, c.got, c.want)
		}
	}
}

func TestCommandRefusals(t *testing.T) {
	for name, err := range map[string]error{
		"template ^":     errOf(Print('^', 1, nil)),
		"template |":     errOf(Print('|', 1, nil)),
		"template ~":     errOf(Print('~', 1, nil)),
		"copies 0":       errOf(Print('2', 0, nil)),
		"copies 10000":   errOf(Print('2', 10000, nil)),
		"ENQ in field":   errOf(Print('2', 1, []string{"a\x05b"})),
		"ESC in field":   errOf(Print('2', 1, []string{"\x1b"})),
		"region rot 4":   errOf(Region{ID: 'a', X: 1, Y: 1, DX: 1, DY: 1, Rot: 4, Obj: "1"}.Encode()),
		"region no size": errOf(Region{ID: 'a', Obj: "1"}.Encode()),
		"template empty": errOf(Template{ID: 'a', Width: 1, Length: 1}.Encode()),
		"delete id |":    errOf(DeleteRegion('|')),
	} {
		if !errors.Is(err, ErrCommand) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func errOf(_ []byte, err error) error { return err }

func TestEscapeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "~^|", "Částka 1 234 Kč", "a~126b"} {
		e, err := Escape(s)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(e, "^|") {
			t.Errorf("%q escaped to %q", s, e)
		}
		u, err := Unescape(e)
		if err != nil || u != s {
			t.Errorf("%q → %q → %q %v", s, e, u, err)
		}
	}
}

// A status frame from protocols.md: 29 bytes, flags at 15, 17, 19, 21, 23.
func TestGoldenStatus(t *testing.T) {
	// idle: top of form only
	idle := []byte("*S|0|GURSNGAA0|@|@|@|@|P|P2|*")
	if len(idle) != 29 {
		t.Fatalf("len %d", len(idle))
	}
	s, err := ParseStatus(idle, F4Monaco)
	if err != nil {
		t.Fatal(err)
	}
	if s.Addr != '0' || s.Firmware != "GURSNGAA0" || s.Template != '2' || s.Cond != TopOfForm {
		t.Fatalf("%+v %v", s, s.Cond)
	}
	if !bytes.Equal(EncodeStatus(s), idle) {
		t.Errorf("encode: %q", EncodeStatus(s))
	}
	// every flag of the table, one at a time, both f4 layouts
	table := []struct {
		byteIdx int
		bit     byte
		monaco  Cond
		pc4     Cond
	}{
		{0, 0x01, VoltageError, VoltageError}, {0, 0x02, HeadError, HeadError}, {0, 0x04, PaperOut, PaperOut},
		{0, 0x08, HeadUp, HeadUp}, {0, 0x10, SystemError, SystemError}, {0, 0x20, Busy, Busy},
		{1, 0x01, JobMemoryOverflow, JobMemoryOverflow}, {1, 0x02, BufferOverflow, BufferOverflow},
		{1, 0x04, LibraryLoadError, LibraryLoadError}, {1, 0x08, RegionDataError, RegionDataError},
		{1, 0x10, LibraryRefError, LibraryRefError}, {1, 0x20, TemperatureError, TemperatureError},
		{2, 0x01, MissingSupplyIndex, MissingSupplyIndex}, {2, 0x02, PrinterOffline, PrinterOffline},
		{2, 0x04, FlashProgramError, FlashProgramError}, {2, 0x08, PaperInChute, PaperInChute},
		{2, 0x10, LibrariesCorrupt, LibrariesCorrupt}, {2, 0x20, CommandError, CommandError},
		{3, 0x01, PaperLow, PaperLow}, {3, 0x02, PaperJam, 0}, {3, 0x04, CutterError, CutterError},
		{3, 0x08, LineModeOn, 0}, {3, 0x20, 0, PaperJam}, {3, 0x80, 0, LineModeOn},
		{4, 0x01, ResetPowerUp, ResetPowerUp}, {4, 0x02, BarcodeDataAccessed, BarcodeDataAccessed},
		{4, 0x04, ChassisOpen, ChassisOpen}, {4, 0x08, XOff, XOff}, {4, 0x10, TopOfForm, TopOfForm},
		{4, 0x20, ValidationDone, ValidationDone},
	}
	for _, row := range table {
		fr := []byte("*S|0|PAY-6.22B|@|@|@|@|@|P2|*")
		fr[15+2*row.byteIdx] |= row.bit
		for _, c := range []struct {
			l    F4Layout
			want Cond
		}{{F4Monaco, row.monaco}, {F4Paycheck4, row.pc4}} {
			s, err := ParseStatus(fr, c.l)
			if err != nil {
				t.Fatalf("f%d %#02x: %v", row.byteIdx+1, row.bit, err)
			}
			if s.Cond != c.want {
				t.Errorf("f%d %#02x layout %d: got %v want %v", row.byteIdx+1, row.bit, c.l, s.Cond, c.want)
			}
			if c.want != 0 {
				if f := EncodeFlags(c.want, c.l); f[row.byteIdx] != 0x40|row.bit {
					t.Errorf("encode %v: % x", c.want, f)
				}
			}
		}
	}
}

func TestStatusRefusals(t *testing.T) {
	good := "*S|0|GURSNGAA0|@|@|@|@|P|P2|*"
	for name, fr := range map[string]string{
		"short":         good[:28],
		"long":          good + "*",
		"no star":       "#" + good[1:],
		"flag bit 6":    good[:15] + "\x20" + good[16:],
		"separator":     good[:16] + "#" + good[17:],
		"firmware ctrl": good[:6] + "\x05" + good[7:],
		"no P":          good[:25] + "Q" + good[26:],
	} {
		var fe *FrameError
		if _, err := ParseStatus([]byte(fr), F4Monaco); !errors.As(err, &fe) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestSplitterResyncs(t *testing.T) {
	fr := []byte("*S|0|GURSNGAA0|`|@|@|@|P|P2|*")
	var sp Splitter
	var got []Status
	// garbage, a false start, a frame split in three, two frames back to back
	stream := append([]byte("\x00\xff*S|junk*"), fr[:5]...)
	got = append(got, sp.Feed(stream)...)
	got = append(got, sp.Feed(fr[5:20])...)
	got = append(got, sp.Feed(append(append(fr[20:], fr...), fr...))...)
	if len(got) != 3 {
		t.Fatalf("got %d frames, want 3 (dropped %d)", len(got), sp.Dropped)
	}
	for _, s := range got {
		if s.Cond != Busy|TopOfForm {
			t.Errorf("cond %v", s.Cond)
		}
	}
	if sp.Dropped == 0 {
		t.Error("garbage not counted")
	}
}

func TestCRCReply(t *testing.T) {
	r := []byte{'*', 'G', '|', 0x34, 0x12, '|', '*'}
	if v, _ := ParseCRCReply(r, LowFirst); v != 0x1234 {
		t.Errorf("JCM %#x", v)
	}
	if v, _ := ParseCRCReply(r, HighFirst); v != 0x3412 {
		t.Errorf("Nanoptix %#x", v)
	}
	if _, err := ParseCRCReply(r[:6], LowFirst); err == nil {
		t.Error("short reply accepted")
	}
}

func TestTransliterate(t *testing.T) {
	if g := Transliterate("Částka dvě stě Kč; Größe für 5 €"); g != "Castka dve ste Kc; Groesse fuer 5 ?" {
		t.Errorf("%q", g)
	}
}

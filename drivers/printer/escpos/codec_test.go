package escpos

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

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// Golden bytes for every command in protocols.md §3.6.
func TestGoldenCommands(t *testing.T) {
	for _, c := range []struct {
		name string
		got  []byte
		want string
	}{
		{"initialise", Initialize(), "1b 40"},
		{"line feed", []byte{LF}, "0a"},
		{"justify left", must(Justify(0)), "1b 61 00"},
		{"justify centre", must(Justify(1)), "1b 61 01"},
		{"justify right", must(Justify(2)), "1b 61 02"},
		{"bold on", Bold(true), "1b 45 01"},
		{"bold off", Bold(false), "1b 45 00"},
		{"size 2x2", must(Size(2, 2)), "1d 21 11"},
		{"size 1x1", must(Size(1, 1)), "1d 21 00"},
		{"size 3w 1h", must(Size(3, 1)), "1d 21 20"},
		{"barcode height", must(BarcodeHeight(80)), "1d 68 50"},
		{"module width", must(ModuleWidth(2)), "1d 77 02"},
		{"HRI none", must(HRIPosition(HRINone)), "1d 48 00"},
		{"HRI above", must(HRIPosition(HRIAbove)), "1d 48 01"},
		{"HRI below", must(HRIPosition(HRIBelow)), "1d 48 02"},
		{"HRI both", must(HRIPosition(HRIBoth)), "1d 48 03"},
		{"ITF function A", must(ITFA("0012")), "1d 6b 05 30 30 31 32 00"},
		{"ITF function B", must(ITFB("001234567890123456")), "1d 6b 46 12 303031323334353637383930313233343536"},
		{"cut full A", CutFull(), "1d 56 00"},
		{"cut partial A", CutPartial(), "1d 56 01"},
		{"feed and cut full B", FeedCutFull(3), "1d 56 41 03"},
		{"feed and cut partial B", FeedCutPartial(0), "1d 56 42 00"},
		{"feed lines", FeedLines(4), "1b 64 04"},
		{"cut full A (48)", CutFullASCII(), "1d 56 30"},
		{"cut partial A (49)", CutPartialASCII(), "1d 56 31"},
		{"ticket partial cut ESC i", TicketCutPartial(), "1b 69"},
		{"ticket full cut ESC m", TicketCutFull(), "1b 6d"},
		{"DLE EOT 1", must(StatusRequest(1)), "10 04 01"},
		{"DLE EOT 2", must(StatusRequest(2)), "10 04 02"},
		{"DLE EOT 3", must(StatusRequest(3)), "10 04 03"},
		{"DLE EOT 4", must(StatusRequest(4)), "10 04 04"},
		{"automatic status back off", AutoStatusBack(0), "1d 61 00"},
		{"paper sensor status", PaperSensorRequest(), "1d 72 01"},
	} {
		if !bytes.Equal(c.got, hx(c.want)) {
			t.Errorf("%s: got % x want %s", c.name, c.got, c.want)
		}
	}
}

// The computed voucher tail of protocols.md §3.6, byte for byte.
func TestGoldenVoucherTail(t *testing.T) {
	var b []byte
	b = append(b, Initialize()...)
	b = append(b, must(Justify(1))...)
	b = append(b, must(BarcodeHeight(80))...)
	b = append(b, must(ModuleWidth(2))...)
	b = append(b, must(HRIPosition(HRIBelow))...)
	b = append(b, must(ITFB("001234567890123456"))...)
	b = append(b, LF)
	b = append(b, FeedCutPartial(0)...)
	want := hx("1B 40 1B 61 01 1D 68 50 1D 77 02 1D 48 02 1D 6B 46 12 30 30 31 32 33 34 35 36 37 38 39 30 31 32 33 34 35 36 0A 1D 56 42 00")
	if !bytes.Equal(b, want) {
		t.Fatalf("got % X", b)
	}
}

func TestCommandRefusals(t *testing.T) {
	for name, err := range map[string]error{
		"odd ITF":    errOf(ITFB("123")),
		"empty ITF":  errOf(ITFA("")),
		"letter ITF": errOf(ITFB("12a4")),
		"long ITF":   errOf(ITFB(strings.Repeat("1", 256))),
		"module 1":   errOf(ModuleWidth(1)),
		"module 7":   errOf(ModuleWidth(7)),
		"justify 3":  errOf(Justify(3)),
		"size 0":     errOf(Size(0, 1)),
		"size 9":     errOf(Size(1, 9)),
		"HRI 4":      errOf(HRIPosition(4)),
		"height 0":   errOf(BarcodeHeight(0)),
		"DLE EOT 5":  errOf(StatusRequest(5)),
		"DLE EOT 0":  errOf(StatusRequest(0)),
	} {
		if !errors.Is(err, ErrCommand) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func errOf(_ []byte, err error) error { return err }

// DLE EOT replies from the table, and python-escpos's typical bytes.
func TestGoldenStatus(t *testing.T) {
	type row struct {
		n    byte
		b    byte
		want Status
	}
	for _, r := range []row{
		{1, 0x12, Status{}},
		{1, 0x1a, Status{Offline: true}},
		{1, 0x16, Status{DrawerPin3: true}},
		{1, 0x32, Status{WaitingOnlineRecovery: true}},
		{1, 0x52, Status{FeedButton: true}},
		{2, 0x16, Status{CoverOpen: true}},
		{2, 0x1a, Status{FeedingByButton: true}},
		{2, 0x32, Status{PaperEndStop: true}},
		{2, 0x52, Status{ErrorOccurred: true}},
		{3, 0x16, Status{RecoverableError: true}},
		{3, 0x1a, Status{CutterError: true}},
		{3, 0x32, Status{UnrecoverableError: true}},
		{3, 0x52, Status{AutoRecoverableError: true}},
		{4, 0x12, Status{}},
		{4, 0x1e, Status{PaperNearEnd: true}},
		{4, 0x72, Status{PaperEnd: true}},
		{4, 0x7e, Status{PaperNearEnd: true, PaperEnd: true}},
	} {
		var s Status
		if err := ParseStatus(r.n, r.b, &s); err != nil {
			t.Fatalf("%d %#02x: %v", r.n, r.b, err)
		}
		if s != r.want {
			t.Errorf("DLE EOT %d %#02x: got %+v want %+v", r.n, r.b, s, r.want)
		}
		if e := EncodeStatus(r.n, s); e != r.b {
			t.Errorf("encode %d %+v: %#02x want %#02x", r.n, s, e, r.b)
		}
	}
	for _, b := range []byte{0x00, 0x13, 0x92, 0x10, 0x02, 0xff} {
		var s Status
		var se *StatusError
		if err := ParseStatus(1, b, &s); !errors.As(err, &se) {
			t.Errorf("%#02x accepted", b)
		}
	}
	if ps, err := ParsePaperSensor(0x0f); err != nil || !ps.NearEnd || !ps.End {
		t.Errorf("%+v %v", ps, err)
	}
	if _, err := ParsePaperSensor(0x12); err == nil {
		t.Error("a DLE EOT reply taken for a GS r reply")
	}
}

func FuzzParseStatus(f *testing.F) {
	f.Add(byte(1), byte(0x12))
	f.Add(byte(4), byte(0x72))
	f.Fuzz(func(t *testing.T, n, b byte) {
		var s Status
		err := ParseStatus(n, b, &s)
		if err != nil {
			return
		}
		// what is accepted re-encodes to the same byte (near end and paper end read as pairs)
		e := EncodeStatus(n, s)
		if n == StatusPaper {
			var s2 Status
			ParseStatus(n, e, &s2)
			if s2 != s {
				t.Fatalf("%#02x → %+v → %#02x → %+v", b, s, e, s2)
			}
			return
		}
		if e != b {
			t.Fatalf("DLE EOT %d: %#02x re-encodes to %#02x", n, b, e)
		}
	})
}

func FuzzParsePaperSensor(f *testing.F) {
	f.Add(byte(0))
	f.Fuzz(func(t *testing.T, b byte) {
		ps, err := ParsePaperSensor(b)
		if err == nil && IsRealtimeReply(b) {
			t.Fatalf("%#02x is both a GS r reply and a DLE EOT reply (%+v)", b, ps)
		}
	})
}

package id003

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Worked examples copied verbatim from protocols.md §1.2, built with the
// package's constructors.
var documented = []struct {
	name  string
	frame Frame
	want  string
}{
	{"STATUS REQUEST", Command(CmdStatusRequest), "FC 05 11 27 56"},
	{"RESET", Command(CmdReset), "FC 05 40 2B 15"},
	{"STACK-1", Command(CmdStack1), "FC 05 41 A2 04"},
	{"STACK-2", Command(CmdStack2), "FC 05 42 39 36"},
	{"RETURN", Command(CmdReturn), "FC 05 43 B0 27"},
	{"HOLD", Command(CmdHold), "FC 05 44 0F 53"},
	{"WAIT", Command(CmdWait), "FC 05 45 86 42"},
	{"ACK", Command(CmdAck), "FC 05 50 AA 05"},
	{"ENABLE/DISABLE all enabled", EnableDenominations(AllDenoms), "FC 07 C0 00 00 2D B5"},
	{"SECURITY all high", Security(AllDenoms), "FC 07 C1 FF FF 49 1F"},
	{"COMMUNICATION MODE polling", CommunicationMode(0), "FC 06 C2 00 DC CF"},
	{"INHIBIT off", Inhibit(false), "FC 06 C3 00 04 D6"},
	{"INHIBIT on", Inhibit(true), "FC 06 C3 01 8D C7"},
	{"DIRECTION all", Direction(0), "FC 06 C4 00 0C 9B"},
	{"OPTIONAL FUNCTION none", OptionalFunction(0, 0), "FC 07 C5 00 00 90 8C"},
	{"BARCODE FUNCTION I2of5 18", BarcodeFunction(BarcodeInterleaved2of5, BarcodeLength18), "FC 07 C6 01 12 BF 49"},
	{"BAR INHIBIT both enabled", BarInhibit(false, false), "FC 06 C7 FC 87 8C"},
	{"VERSION", Command(CmdVersionRequest), "FC 05 88 6F 5F"},
	{"BOOT VERSION", Command(CmdBootVersionRequest), "FC 05 89 E6 4E"},
	{"CURRENCY ASSIGN", Command(CmdCurrencyAssignRequest), "FC 05 8A 7D 7C"},
	{"st IDLING", Frame{Code: StIdling}, "FC 05 11 27 56"},
	{"st ACCEPTING", Frame{Code: StAccepting}, "FC 05 12 BC 64"},
	{"st ESCROW 63", Frame{Code: StEscrow, Data: []byte{0x63}}, "FC 06 13 63 A2 D8"},
	{"st STACKING", Frame{Code: StStacking}, "FC 05 14 8A 01"},
	{"st VEND VALID", Frame{Code: StVendValid}, "FC 05 15 03 10"},
	{"st STACKED", Frame{Code: StStacked}, "FC 05 16 98 22"},
	{"st REJECTING 71", Frame{Code: StRejecting, Data: []byte{0x71}}, "FC 06 17 71 51 8C"},
	{"st DISABLE", Frame{Code: StDisable}, "FC 05 1A F4 E8"},
	{"st INITIALIZE", Frame{Code: StInitialize}, "FC 05 1B 7D F9"},
	{"st POWER UP", Frame{Code: StPowerUp}, "FC 05 40 2B 15"},
	{"st FAILURE A2", Frame{Code: StFailure, Data: []byte{0xA2}}, "FC 06 49 A2 A0 21"},
	{"st INVALID COMMAND", Frame{Code: StInvalidCommand}, "FC 05 4B F8 AB"},
	{"st ACK", Frame{Code: StAck}, "FC 05 50 AA 05"},
	{"st ESCROW ticket", Frame{Code: StEscrow, Data: EscrowData(Document{Kind: DocTicket, Ticket: "001234567890123456"})},
		"FC 18 13 6F 30 30 31 32 33 34 35 36 37 38 39 30 31 32 33 34 35 36 51 7E"},
}

// Every other command and status of the tables, with bytes computed by an
// independent bitwise CRC-16/KERMIT (a Python script, not this package).
var computed = []struct {
	command bool
	name    string
	code    byte
	data    []byte
	want    string
}{
	{true, "STATUS REQUEST", 0x11, []byte{}, "FC 05 11 27 56"},
	{true, "ACK", 0x50, []byte{}, "FC 05 50 AA 05"},
	{true, "RESET", 0x40, []byte{}, "FC 05 40 2B 15"},
	{true, "STACK-1", 0x41, []byte{}, "FC 05 41 A2 04"},
	{true, "STACK-2", 0x42, []byte{}, "FC 05 42 39 36"},
	{true, "RETURN", 0x43, []byte{}, "FC 05 43 B0 27"},
	{true, "HOLD", 0x44, []byte{}, "FC 05 44 0F 53"},
	{true, "WAIT", 0x45, []byte{}, "FC 05 45 86 42"},
	{true, "PROGRAM SIGNATURE seed 1234", 0xDC, []byte{0x12, 0x34}, "FC 07 DC 12 34 9D 44"},
	{true, "ENABLE DENOM only 62-67 enabled", 0xC0, []byte{0xC1, 0xFF}, "FC 07 C0 C1 FF 27 69"},
	{true, "SECURITY none high", 0xC1, []byte{0x00, 0x00}, "FC 07 C1 00 00 F1 EF"},
	{true, "INHIBIT on", 0xC3, []byte{0x01}, "FC 06 C3 01 8D C7"},
	{true, "DIRECTION face-down inhibited", 0xC4, []byte{0x0C}, "FC 06 C4 0C 60 51"},
	{true, "BARCODE multi-length", 0xC6, []byte{0x01, 0xFF}, "FC 07 C6 01 FF 54 75"},
	{true, "BAR INHIBIT tickets inhibited", 0xC7, []byte{0xFE}, "FC 06 C7 FE 95 AF"},
	{true, "BAR INHIBIT notes inhibited", 0xC7, []byte{0xFD}, "FC 06 C7 FD 0E 9D"},
	{true, "READ SETTING C0", 0x80, []byte{}, "FC 05 80 27 D3"},
	{true, "READ SETTING C1", 0x81, []byte{}, "FC 05 81 AE C2"},
	{true, "READ SETTING C2", 0x82, []byte{}, "FC 05 82 35 F0"},
	{true, "READ SETTING C3", 0x83, []byte{}, "FC 05 83 BC E1"},
	{true, "READ SETTING C4", 0x84, []byte{}, "FC 05 84 03 95"},
	{true, "READ SETTING C5", 0x85, []byte{}, "FC 05 85 8A 84"},
	{true, "READ SETTING C6", 0x86, []byte{}, "FC 05 86 11 B6"},
	{true, "READ SETTING C7", 0x87, []byte{}, "FC 05 87 98 A7"},
	{false, "IDLING", 0x11, []byte{}, "FC 05 11 27 56"},
	{false, "ACCEPTING", 0x12, []byte{}, "FC 05 12 BC 64"},
	{false, "STACKING", 0x14, []byte{}, "FC 05 14 8A 01"},
	{false, "VEND VALID", 0x15, []byte{}, "FC 05 15 03 10"},
	{false, "STACKED", 0x16, []byte{}, "FC 05 16 98 22"},
	{false, "RETURNING", 0x18, []byte{}, "FC 05 18 E6 CB"},
	{false, "HOLDING", 0x19, []byte{}, "FC 05 19 6F DA"},
	{false, "DISABLE", 0x1A, []byte{}, "FC 05 1A F4 E8"},
	{false, "INITIALIZE", 0x1B, []byte{}, "FC 05 1B 7D F9"},
	{false, "POWER UP", 0x40, []byte{}, "FC 05 40 2B 15"},
	{false, "POWER UP WITH BILL IN ACCEPTOR", 0x41, []byte{}, "FC 05 41 A2 04"},
	{false, "POWER UP WITH BILL IN STACKER", 0x42, []byte{}, "FC 05 42 39 36"},
	{false, "STACKER FULL", 0x43, []byte{}, "FC 05 43 B0 27"},
	{false, "STACKER OPEN", 0x44, []byte{}, "FC 05 44 0F 53"},
	{false, "JAM IN ACCEPTOR", 0x45, []byte{}, "FC 05 45 86 42"},
	{false, "JAM IN STACKER", 0x46, []byte{}, "FC 05 46 1D 70"},
	{false, "PAUSE", 0x47, []byte{}, "FC 05 47 94 61"},
	{false, "CHEATED", 0x48, []byte{}, "FC 05 48 63 99"},
	{false, "COMMUNICATION ERROR", 0x4A, []byte{}, "FC 05 4A 71 BA"},
	{false, "INVALID COMMAND", 0x4B, []byte{}, "FC 05 4B F8 AB"},
	{false, "ACK", 0x50, []byte{}, "FC 05 50 AA 05"},
	{false, "VEND VALID with data byte", 0x15, []byte{0x63}, "FC 06 15 63 72 8C"},
	{false, "ESCROW note 61", 0x13, []byte{0x61}, "FC 06 13 61 B0 FB"},
	{false, "ESCROW note 62", 0x13, []byte{0x62}, "FC 06 13 62 2B C9"},
	{false, "ESCROW note 63", 0x13, []byte{0x63}, "FC 06 13 63 A2 D8"},
	{false, "ESCROW note 64", 0x13, []byte{0x64}, "FC 06 13 64 1D AC"},
	{false, "ESCROW note 65", 0x13, []byte{0x65}, "FC 06 13 65 94 BD"},
	{false, "ESCROW note 66", 0x13, []byte{0x66}, "FC 06 13 66 0F 8F"},
	{false, "ESCROW note 67", 0x13, []byte{0x67}, "FC 06 13 67 86 9E"},
	{false, "ESCROW note 68", 0x13, []byte{0x68}, "FC 06 13 68 71 66"},
	{false, "ESCROW ticket 18 digits", 0x13, []byte{0x6F, 0x39, 0x38, 0x37, 0x36, 0x35, 0x34, 0x33, 0x32, 0x31, 0x30, 0x39, 0x38, 0x37, 0x36, 0x35, 0x34, 0x33, 0x32}, "FC 18 13 6F 39 38 37 36 35 34 33 32 31 30 39 38 37 36 35 34 33 32 EE 9F"},
	{false, "ESCROW ticket 6 digits", 0x13, []byte{0x6F, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36}, "FC 0C 13 6F 31 32 33 34 35 36 D4 69"},
	{false, "REJECTING 71", 0x17, []byte{0x71}, "FC 06 17 71 51 8C"},
	{false, "REJECTING 72", 0x17, []byte{0x72}, "FC 06 17 72 CA BE"},
	{false, "REJECTING 73", 0x17, []byte{0x73}, "FC 06 17 73 43 AF"},
	{false, "REJECTING 74", 0x17, []byte{0x74}, "FC 06 17 74 FC DB"},
	{false, "REJECTING 75", 0x17, []byte{0x75}, "FC 06 17 75 75 CA"},
	{false, "REJECTING 76", 0x17, []byte{0x76}, "FC 06 17 76 EE F8"},
	{false, "REJECTING 77", 0x17, []byte{0x77}, "FC 06 17 77 67 E9"},
	{false, "REJECTING 78", 0x17, []byte{0x78}, "FC 06 17 78 90 11"},
	{false, "REJECTING 79", 0x17, []byte{0x79}, "FC 06 17 79 19 00"},
	{false, "REJECTING 7A", 0x17, []byte{0x7A}, "FC 06 17 7A 82 32"},
	{false, "REJECTING 7B", 0x17, []byte{0x7B}, "FC 06 17 7B 0B 23"},
	{false, "REJECTING 7C", 0x17, []byte{0x7C}, "FC 06 17 7C B4 57"},
	{false, "REJECTING 7D", 0x17, []byte{0x7D}, "FC 06 17 7D 3D 46"},
	{false, "REJECTING 7E", 0x17, []byte{0x7E}, "FC 06 17 7E A6 74"},
	{false, "REJECTING 91", 0x17, []byte{0x91}, "FC 06 17 91 5F 6B"},
	{false, "REJECTING 92", 0x17, []byte{0x92}, "FC 06 17 92 C4 59"},
	{false, "REJECTING 93", 0x17, []byte{0x93}, "FC 06 17 93 4D 48"},
	{false, "REJECTING 94", 0x17, []byte{0x94}, "FC 06 17 94 F2 3C"},
	{false, "REJECTING 95", 0x17, []byte{0x95}, "FC 06 17 95 7B 2D"},
	{false, "REJECTING 96", 0x17, []byte{0x96}, "FC 06 17 96 E0 1F"},
	{false, "REJECTING 98", 0x17, []byte{0x98}, "FC 06 17 98 9E F6"},
	{false, "REJECTING 9B", 0x17, []byte{0x9B}, "FC 06 17 9B 05 C4"},
	{false, "REJECTING 9D", 0x17, []byte{0x9D}, "FC 06 17 9D 33 A1"},
	{false, "FAILURE A2", 0x49, []byte{0xA2}, "FC 06 49 A2 A0 21"},
	{false, "FAILURE A5", 0x49, []byte{0xA5}, "FC 06 49 A5 1F 55"},
	{false, "FAILURE A6", 0x49, []byte{0xA6}, "FC 06 49 A6 84 67"},
	{false, "FAILURE A7", 0x49, []byte{0xA7}, "FC 06 49 A7 0D 76"},
	{false, "FAILURE AB", 0x49, []byte{0xAB}, "FC 06 49 AB 61 BC"},
	{false, "FAILURE AC", 0x49, []byte{0xAC}, "FC 06 49 AC DE C8"},
	{false, "FAILURE AD", 0x49, []byte{0xAD}, "FC 06 49 AD 57 D9"},
	{false, "FAILURE AF", 0x49, []byte{0xAF}, "FC 06 49 AF 45 FA"},
	{false, "FAILURE B0", 0x49, []byte{0xB0}, "FC 06 49 B0 33 12"},
	{false, "FAILURE B1", 0x49, []byte{0xB1}, "FC 06 49 B1 BA 03"},
	{false, "FAILURE B2", 0x49, []byte{0xB2}, "FC 06 49 B2 21 31"},
	{false, "FAILURE B3", 0x49, []byte{0xB3}, "FC 06 49 B3 A8 20"},
	{false, "reply READ C0", 0x80, []byte{0x00, 0x00}, "FC 07 80 00 00 5B B3"},
	{false, "reply VERSION", 0x88, []byte{0x69, 0x28, 0x45, 0x55, 0x52, 0x29, 0x31, 0x30, 0x30, 0x2D, 0x53, 0x53, 0x20, 0x49, 0x44, 0x30, 0x30, 0x33, 0x2D, 0x30, 0x35, 0x56, 0x32, 0x38, 0x30, 0x2D, 0x34, 0x32, 0x20, 0x30, 0x31, 0x41, 0x55, 0x47, 0x31, 0x37, 0x20, 0x39, 0x36, 0x34, 0x44}, "FC 2E 88 69 28 45 55 52 29 31 30 30 2D 53 53 20 49 44 30 30 33 2D 30 35 56 32 38 30 2D 34 32 20 30 31 41 55 47 31 37 20 39 36 34 44 32 F1"},
	{false, "reply BOOT VERSION", 0x89, []byte{0x42, 0x30, 0x35, 0x20}, "FC 09 89 42 30 35 20 FE 98"},
	{false, "reply CURRENCY EUR", 0x8A, []byte{0x62, 0xE0, 0x05, 0x00, 0x63, 0xE0, 0x0A, 0x00, 0x64, 0xE0, 0x14, 0x00, 0x65, 0xE0, 0x32, 0x00, 0x66, 0xE0, 0x64, 0x00, 0x67, 0xE0, 0xC8, 0x00}, "FC 1D 8A 62 E0 05 00 63 E0 0A 00 64 E0 14 00 65 E0 32 00 66 E0 64 00 67 E0 C8 00 31 5C"},
}

func TestCRCCheckValue(t *testing.T) {
	if got := CRC16([]byte("123456789")); got != 0x2189 {
		t.Fatalf("CRC-16/KERMIT(123456789) = %04X, want 2189", got)
	}
}

func TestDocumentedFrames(t *testing.T) {
	for _, v := range documented {
		want := unhex(t, v.want)
		got, err := v.frame.Encode()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: encode = % X (%v), want % X", v.name, got, err, want)
		}
		f, n, err := Decode(want)
		if err != nil || n != len(want) || f.Code != v.frame.Code || !bytes.Equal(f.Data, v.frame.Data) {
			t.Errorf("%s: decode = %v %d %v", v.name, f, n, err)
		}
	}
}

func TestComputedFrames(t *testing.T) {
	for _, v := range computed {
		want := unhex(t, v.want)
		got, err := Frame{Code: v.code, Data: v.data}.Encode()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: encode = % X (%v), want % X", v.name, got, err, want)
		}
		f, n, err := Decode(want)
		if err != nil || n != len(want) || f.Code != v.code || !bytes.Equal(f.Data, v.data) {
			t.Errorf("%s: decode = %v %d %v", v.name, f, n, err)
		}
		if v.command {
			if strings.HasPrefix(CommandName(v.code), "unknown") {
				t.Errorf("%s: command %02X has no name", v.name, v.code)
			}
			continue
		}
		if strings.HasPrefix(StatusName(v.code), "unknown") {
			t.Errorf("%s: status %02X has no name", v.name, v.code)
		}
	}
}

// Each status of §1.4 parses to its typed form; replies that are not
// statuses (ACK, INVALID COMMAND, echoes) are refused by ParseStatus.
func TestParseEveryStatus(t *testing.T) {
	for _, v := range computed {
		if v.command {
			continue
		}
		st, err := ParseStatus(Frame{Code: v.code, Data: v.data})
		switch {
		case v.code == StAck || v.code == StInvalidCommand || v.code >= 0x80:
			if !errors.Is(err, ErrUnknownStatus) {
				t.Errorf("%s: ParseStatus = %v, want ErrUnknownStatus", v.name, err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", v.name, err)
			continue
		}
		switch v.code {
		case StEscrow:
			if v.data[0] == TicketEscrowCode {
				if st.Doc.Kind != DocTicket || st.Doc.Ticket != string(v.data[1:]) {
					t.Errorf("%s: %v", v.name, st)
				}
			} else if st.Doc.Kind != DocNote || st.Doc.Code != v.data[0] {
				t.Errorf("%s: %v", v.name, st)
			}
		case StRejecting:
			if _, named := rejectNames[st.Reject]; st.Reject != RejectCode(v.data[0]) || !named {
				t.Errorf("%s: %v", v.name, st)
			}
		case StFailure:
			if _, named := failureNames[st.Failure]; st.Failure != FailureCode(v.data[0]) || !named {
				t.Errorf("%s: %v", v.name, st)
			}
		case StVendValid:
			if !bytes.Equal(st.VendData, v.data) {
				t.Errorf("%s: vend data %X", v.name, st.VendData)
			}
		}
	}
}

func TestParseStatusRefusesBadData(t *testing.T) {
	bad := []Frame{
		{Code: StEscrow},
		{Code: StEscrow, Data: []byte{0x62, 0x63}},
		{Code: StEscrow, Data: []byte{0x50}},
		{Code: StEscrow, Data: append([]byte{0x6F}, "12345"...)},
		{Code: StEscrow, Data: append([]byte{0x6F}, "1234567890123456789012345"...)},
		{Code: StEscrow, Data: append([]byte{0x6F}, "12345678901234567X"...)},
		{Code: StRejecting},
		{Code: StRejecting, Data: []byte{0x71, 0x72}},
		{Code: StFailure},
		{Code: StVendValid, Data: []byte{1, 2}},
		{Code: StIdling, Data: []byte{0}},
		{Code: 0x33},
		{Code: StAck},
	}
	for _, f := range bad {
		if st, err := ParseStatus(f); err == nil {
			t.Errorf("%v parsed as %v", f, st)
		}
	}
}

func TestCurrencyTable(t *testing.T) {
	tab, err := ParseCurrencyTable([]byte{0x62, 0xE0, 5, 0, 0x63, 0xE0, 10, 0, 0x67, 0xE0, 50, 1, 0x68, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab) != 3 || tab[0x62].Minor(2) != 500 || tab[0x67].Minor(2) != 50000 || tab[0x63].Minor(0) != 10 {
		t.Fatalf("table %v", tab)
	}
	for _, b := range [][]byte{{1, 2, 3}, {0x62, 0xE0, 5, 15}, {0x62, 0xE0, 5, 0, 0x62, 0xE0, 10, 0}} {
		if _, err := ParseCurrencyTable(b); !errors.Is(err, ErrCurrencyTable) {
			t.Errorf("% X: err %v", b, err)
		}
	}
}

func TestEncodeRefusesLongData(t *testing.T) {
	if _, err := (Frame{Code: 1, Data: make([]byte, MaxDataLen+1)}).Encode(); !errors.Is(err, ErrDataTooLong) {
		t.Fatalf("err %v", err)
	}
	b, err := Frame{Code: 1, Data: make([]byte, MaxDataLen)}.Encode()
	if err != nil || len(b) != MaxFrameLen {
		t.Fatalf("%d %v", len(b), err)
	}
}

func TestDecodeErrors(t *testing.T) {
	good := Command(CmdStatusRequest).MustEncode()
	cases := []struct {
		in   []byte
		want error
	}{
		{nil, ErrIncomplete},
		{[]byte{Sync}, ErrIncomplete},
		{good[:4], ErrIncomplete},
		{[]byte{0x00, 0x05}, ErrNoSync},
		{[]byte{Sync, 0x04, 0x11, 0, 0}, ErrLength},
		{[]byte{Sync, 0x05, 0x11, 0x27, 0x57}, ErrCRC},
	}
	for _, c := range cases {
		if _, n, err := Decode(c.in); !errors.Is(err, c.want) || n != 0 {
			t.Errorf("% X: n=%d err=%v, want %v", c.in, n, err, c.want)
		}
	}
}

func TestDenomSetWireSense(t *testing.T) {
	// Only 0x62 and 0x68 enabled: every other bit set (1 = disabled).
	f := EnableDenominations(Denoms(0x62, 0x68))
	if want := []byte{0x7D, 0xFF}; !bytes.Equal(f.Data, want) {
		t.Fatalf("C0 data % X, want % X", f.Data, want)
	}
	s := Denoms(0x62, 0x70, 0x50)
	if !s.Has(0x62) || !s.Has(0x70) || s.Has(0x61) || s.Has(0x50) {
		t.Fatalf("set %016b", s)
	}
	if ReadSetting(CmdBarInhibit).Code != 0x87 {
		t.Fatal("read-back of C7 is not 87")
	}
}

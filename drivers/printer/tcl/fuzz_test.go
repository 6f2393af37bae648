package tcl

import (
	"bytes"
	"testing"
)

// The status decoder never panics, and whatever it accepts re-encodes to
// the same bytes.
func FuzzParseStatus(f *testing.F) {
	f.Add([]byte("*S|0|GURSNGAA0|@|@|@|@|P|P2|*"), false)
	f.Add([]byte("*S|0|PAY-6.22B|`|@|H|A|p|PV|*"), true)
	f.Fuzz(func(t *testing.T, b []byte, pc4 bool) {
		l := F4Monaco
		if pc4 {
			l = F4Paycheck4
		}
		s, err := ParseStatus(b, l)
		if err != nil {
			return
		}
		if !bytes.Equal(EncodeStatus(s), b) {
			t.Fatalf("%q re-encodes to %q", b, EncodeStatus(s))
		}
	})
}

// The splitter never panics, never reports an invalid frame, and finds the
// same frames however the stream is cut.
func FuzzSplitter(f *testing.F) {
	fr := []byte("*S|0|GURSNGAA0|@|@|@|@|P|P2|*")
	f.Add(append([]byte("xx*S|"), fr...), uint8(7))
	f.Add(append(append([]byte{}, fr...), fr...), uint8(29))
	f.Fuzz(func(t *testing.T, stream []byte, cut uint8) {
		var whole Splitter
		a := whole.Feed(stream)
		var parts Splitter
		var b []Status
		step := int(cut)%31 + 1
		for i := 0; i < len(stream); i += step {
			b = append(b, parts.Feed(stream[i:min(i+step, len(stream))])...)
		}
		if len(a) != len(b) {
			t.Fatalf("whole %d frames, cut every %d: %d", len(a), step, len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("frame %d differs", i)
			}
			if _, err := ParseStatus(EncodeStatus(a[i]), F4Monaco); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// Unescape never panics and inverts Escape.
func FuzzEscape(f *testing.F) {
	f.Add("a~b^c|d")
	f.Add("~12")
	f.Fuzz(func(t *testing.T, s string) {
		Unescape(s)
		e, err := Escape(s)
		if err != nil {
			return
		}
		if u, err := Unescape(e); err != nil || u != s {
			t.Fatalf("%q → %q → %q (%v)", s, e, u, err)
		}
	})
}

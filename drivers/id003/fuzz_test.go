package id003

import (
	"bytes"
	"testing"
)

func seeds(f *testing.F) {
	for _, v := range documented {
		f.Add(v.frame.MustEncode())
	}
	f.Add([]byte{0xFC, 0xFF, 0xFC, 0x05, 0x11, 0x27, 0x56})
	f.Add([]byte{})
}

// Decode never panics, and what it accepts re-encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, n, err := Decode(b)
		if err != nil {
			if n != 0 {
				t.Fatalf("error %v consumed %d bytes", err, n)
			}
			return
		}
		if n < MinFrameLen || n > len(b) {
			t.Fatalf("n=%d len=%d", n, len(b))
		}
		again, err := fr.Encode()
		if err != nil || !bytes.Equal(again, b[:n]) {
			t.Fatalf("re-encode % X != % X (%v)", again, b[:n], err)
		}
	})
}

// The stream decoder only ever gives valid frames that are in its input,
// and on a clean line (no bad frame, no dropped byte) the same frames
// however the bytes are chunked. With garbage, the frames found may depend
// on the chunking: a corrupted LNG is abandoned as soon as a later whole
// frame proves it wrong.
func FuzzDecoder(f *testing.F) {
	for _, v := range documented {
		f.Add(append([]byte{0x00, 0xFC}, v.frame.MustEncode()...), uint8(3))
	}
	f.Fuzz(func(t *testing.T, b []byte, chunk uint8) {
		var whole, split Decoder
		whole.Write(b)
		a := framesOf(&whole)
		step := int(chunk%16) + 1
		var c []Frame
		for i := 0; i < len(b); i += step {
			split.Write(b[i:min(i+step, len(b))])
			c = append(c, framesOf(&split)...)
		}
		clean := whole.Dropped == 0 && split.Dropped == 0
		if clean && !sameFrames(a, c) {
			t.Fatalf("whole %v != chunked(%d) %v", a, step, c)
		}
		for _, fr := range append(a, c...) {
			if !bytes.Contains(b, fr.MustEncode()) {
				t.Fatalf("frame %v not in input", fr)
			}
		}
	})
}

// ParseStatus never panics; an accepted escrow re-encodes to its data.
func FuzzParseStatus(f *testing.F) {
	for _, v := range documented {
		f.Add(v.frame.Code, v.frame.Data)
	}
	f.Fuzz(func(t *testing.T, code byte, data []byte) {
		st, err := ParseStatus(Frame{Code: code, Data: data})
		if err != nil {
			return
		}
		_ = st.String()
		if code == StEscrow && !bytes.Equal(EscrowData(st.Doc), data) {
			t.Fatalf("escrow %v re-encodes to % X, not % X", st.Doc, EscrowData(st.Doc), data)
		}
	})
}

// ParseCurrencyTable never panics and keeps only assigned, sane rows.
func FuzzParseCurrencyTable(f *testing.F) {
	f.Add([]byte{0x62, 0xE0, 5, 0, 0x63, 0xE0, 10, 0})
	f.Add([]byte{0x62, 0xE0, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := ParseCurrencyTable(data)
		if err != nil {
			return
		}
		if len(tab) > len(data)/4 {
			t.Fatalf("%d rows from %d bytes", len(tab), len(data))
		}
		for c, d := range tab {
			if d.Code != c || d.Base == 0 || d.Exponent > maxExponent || d.Minor(2) <= 0 {
				t.Fatalf("row %v", d)
			}
		}
	})
}

// ParseExtension never panics; what it accepts is the recycler unit, a
// sub-code and the rest of the data, unchanged.
func FuzzParseExtension(f *testing.F) {
	f.Add([]byte{0x20, 0x23, 0x01})
	f.Add([]byte{0x20})
	f.Add([]byte{0x21, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseExtension(data)
		if err != nil {
			return
		}
		again := append([]byte{e.Unit, e.Code}, e.Data...)
		if !bytes.Equal(again, data) || e.Unit != RecyclerUnit {
			t.Fatalf("% X parsed as %v", data, e)
		}
		st, err := ParseStatus(Frame{Code: StExtension, Data: data})
		if err != nil || st.Ext == nil || st.Ext.Code != e.Code {
			t.Fatalf("ParseStatus of F0 % X: %+v %v", data, st, err)
		}
	})
}

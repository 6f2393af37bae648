package id003

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func framesOf(d *Decoder) []Frame {
	var out []Frame
	for {
		f, ok := d.Next()
		if !ok {
			return out
		}
		out = append(out, f)
	}
}

func sameFrames(a, b []Frame) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Code != b[i].Code || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

// Garbage before, between and inside frames (including stray SYNC bytes, an
// impossible length, a corrupted LNG announcing 255 bytes and a bad CRC) is
// skipped, and every valid frame comes out once, whole or byte by byte.
func TestDecoderResynchronises(t *testing.T) {
	ticket := Frame{Code: StEscrow, Data: EscrowData(Document{Kind: DocTicket, Ticket: "001234567890123456"})}
	want := []Frame{{Code: StIdling}, ticket, {Code: StVendValid}, {Code: StFailure, Data: []byte{0xA2}}, {Code: StStacked}}
	var line []byte
	line = append(line, 0x00, 0x13, 0xFC)        // noise ending in a stray SYNC
	line = append(line, want[0].MustEncode()...) //
	line = append(line, 0xFC, 0x02, 0x11)        // impossible LNG
	line = append(line, want[1].MustEncode()...) //
	bad := want[2].MustEncode()                  //
	bad[3] ^= 0x01                               // bad CRC copy first
	line = append(line, bad...)                  //
	line = append(line, want[2].MustEncode()...) //
	line = append(line, 0xFC, 0xFF, 0x11, 0x22)  // corrupted LNG = 255
	line = append(line, want[3].MustEncode()...) //
	line = append(line, want[4].MustEncode()...) //

	var whole Decoder
	whole.Write(line)
	if got := framesOf(&whole); !sameFrames(got, want) {
		t.Fatalf("whole: got %v, want %v", got, want)
	}
	if whole.BadFrames == 0 || whole.Dropped == 0 {
		t.Fatalf("counters not kept: %+v", whole)
	}
	var split Decoder
	var got []Frame
	for i := range line {
		split.Write(line[i : i+1])
		got = append(got, framesOf(&split)...)
	}
	// Byte by byte the corrupted LNG=255 swallows what follows until a later
	// whole frame proves it wrong; the frames must still all arrive.
	if !sameFrames(got, want) {
		t.Fatalf("split: got %v, want %v", got, want)
	}
}

// Random frames in random chunks with SYNC-free noise between them decode
// exactly.
func TestDecoderRandomChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var want []Frame
		var line []byte
		for range 1 + rng.IntN(8) {
			for range rng.IntN(4) {
				b := byte(rng.IntN(256))
				if b == Sync {
					b = 0
				}
				line = append(line, b)
			}
			f := Frame{Code: byte(rng.IntN(256)), Data: make([]byte, rng.IntN(30))}
			for i := range f.Data {
				f.Data[i] = byte(rng.IntN(256))
			}
			want = append(want, f)
			line = append(line, f.MustEncode()...)
		}
		var d Decoder
		var got []Frame
		for len(line) > 0 {
			n := 1 + rng.IntN(len(line))
			d.Write(line[:n])
			line = line[n:]
			got = append(got, framesOf(&d)...)
		}
		if !sameFrames(got, want) {
			t.Fatalf("round %d: got %v, want %v", round, got, want)
		}
	}
}

package escpos

import (
	"bytes"
	"reflect"
	"testing"
)

func TestScannerInContext(t *testing.T) {
	id := [4]byte{'A', 'B', 'C', 'D'}
	var s Scanner
	// nothing outstanding: a status-looking byte and a sensor-looking byte are noise
	got := s.Feed([]byte{0x12, 0x00}, nil)
	if len(got) != 2 || got[0].Kind != ReplyUnexpected || got[1].Kind != ReplyUnexpected {
		t.Fatalf("%v", got)
	}
	s.ExpectStatus, s.ExpectSensor = true, 1
	in := append([]byte{0x1a}, EncodeProcessIDReply(id)...)
	in = append(in, 0x1a, 0x0c, 0x0c) // a second status byte for one request, a second sensor byte
	got = s.Feed(in, nil)
	want := []Reply{{Kind: ReplyStatus, Byte: 0x1a}, {Kind: ReplyProcessID, ID: id},
		{Kind: ReplyUnexpected, Byte: 0x1a}, {Kind: ReplySensor, Byte: 0x0c}, {Kind: ReplyUnexpected, Byte: 0x0c}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	// a frame cut short gives its bytes back as unexpected
	got = s.Feed([]byte{0x37, 0x22, 'A', 0x01}, nil)
	if len(got) != 4 || got[3].Byte != 0x01 {
		t.Fatalf("%v", got)
	}
	if r, _ := ProcessIDRequest(id); !bytes.Equal(r, []byte{0x1d, 0x28, 0x48, 6, 0, 48, 48, 'A', 'B', 'C', 'D'}) {
		t.Fatalf("% x", r)
	}
	if _, err := ProcessIDRequest([4]byte{'A', 'B', 'C', 0x7f}); err == nil {
		t.Fatal("0x7f accepted")
	}
}

func TestJobProcessIDs(t *testing.T) {
	seen := map[[4]byte]bool{}
	for seq := uint32(0); seq < 1000; seq++ {
		id := jobProcessID(12345, seq)
		if _, err := ProcessIDRequest(id); err != nil {
			t.Fatal(err)
		}
		for _, c := range id {
			if IsRealtimeReply(c) || validSensor(c) || c == processIDHeader {
				t.Fatalf("%q can be read as another reply", id[:])
			}
		}
		if seq > 0 && id == jobProcessID(12345, seq-1) {
			t.Fatalf("jobs %d and %d share %q", seq-1, seq, id[:])
		}
		seen[id] = true
	}
	if len(seen) < 990 {
		t.Fatalf("only %d distinct IDs in 1000 jobs", len(seen))
	}
}

// The scanner accounts for every byte, and its replies are the same however
// the stream is cut.
func FuzzReplyScanner(f *testing.F) {
	f.Add([]byte{0x12, 0x37, 0x22, 'A', 'B', 'C', 'D', 0, 0x0f}, uint8(3), true, uint8(1))
	f.Add([]byte{0x37, 0x37, 0x22, 0x22, 0x00}, uint8(1), false, uint8(0))
	f.Fuzz(func(t *testing.T, in []byte, cut uint8, status bool, sensor uint8) {
		whole := Scanner{ExpectStatus: status, ExpectSensor: int(sensor % 4)}
		a := whole.Feed(in, nil)
		parts := Scanner{ExpectStatus: status, ExpectSensor: int(sensor % 4)}
		var b []Reply
		k := int(cut) % (len(in) + 1)
		b = parts.Feed(in[:k], b)
		b = parts.Feed(in[k:], b)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("whole %v, cut at %d %v", a, k, b)
		}
		n := whole.Pending()
		for _, r := range a {
			if r.Kind == ReplyProcessID {
				n += processIDLen
			} else {
				n++
			}
			if r.Kind == ReplyStatus && !IsRealtimeReply(r.Byte) || r.Kind == ReplySensor && !validSensor(r.Byte) {
				t.Fatalf("%v taken against its pattern", r)
			}
		}
		if n != len(in) {
			t.Fatalf("%d bytes in, %d accounted for: %v", len(in), n, a)
		}
	})
}

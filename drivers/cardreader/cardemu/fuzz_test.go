package cardemu

import (
	"bytes"
	"testing"
)

// Whatever APDU comes, the applet answers with a status word (or, under
// RemoveOnAuthenticate, leaves) and never panics.
func FuzzApplet(f *testing.F) {
	f.Add([]byte{0x00, 0xA4, 0x04, 0x00, 0x09, 0xF0, 'P', 'O', 'L', 'A', 'R', 'I', 'S', 0x01, 0x00}, false)
	f.Add([]byte{0x00, 0x88, 0x00, 0x00, 0xFF, 0x01}, true)
	f.Add([]byte{0x80, 0xCA, 0x00, 0x01, 0x10}, true)
	f.Fuzz(func(t *testing.T, apdu []byte, selected bool) {
		a := &applet{card: PlayerCard(bytes.Repeat([]byte{1}, 32), "4000123456789010"), selected: selected}
		if resp := a.handle(apdu, NoFault); len(resp) < 2 {
			t.Fatalf("answer % X to % X", resp, apdu)
		}
	})
}

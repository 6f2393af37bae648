package cardreader

import (
	"testing"

	"github.com/polaris-vlt/polaris/cardauth"
)

// Whatever a card answers, the checks return a well-formed result or a
// BadResponseError, and never panic.
func FuzzCheckAnswers(f *testing.F) {
	f.Add([]byte("4000123456789010\x90\x00"))
	f.Add([]byte{0x6A, 0x82})
	f.Add(append(make([]byte, 32), 0x90, 0x00))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		CheckSelect(b)
		if id, err := CheckGetID(b); err == nil && cardauth.CheckID(id) != nil {
			t.Fatalf("accepted card number %q", id)
		}
		if mac, err := CheckAuthenticate(b); err == nil && len(mac) != cardauth.MACLen {
			t.Fatalf("accepted a %d-byte answer", len(mac))
		}
	})
}

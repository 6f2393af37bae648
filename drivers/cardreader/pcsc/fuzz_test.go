package pcsc

import "testing"

// Whatever reader table pcscd sends, parsing gives readers with sane ATRs
// or ErrProtocol, and never panics.
func FuzzParseStates(f *testing.F) {
	t := make([]byte, maxReaders*readerStateLen)
	copy(t, "Virtual PCD 00 00")
	ne.PutUint32(t[176:], 5)
	f.Add(t[:readerStateLen], uint8(0))
	f.Fuzz(func(tt *testing.T, entry []byte, slot uint8) {
		table := make([]byte, maxReaders*readerStateLen)
		copy(table[int(slot%maxReaders)*readerStateLen:], entry[:min(len(entry), readerStateLen)])
		rs, err := parseStates(table)
		for _, r := range rs {
			if err == nil && (len(r.ATR) > maxATR || r.Name == "") {
				tt.Fatalf("reader %+v", r)
			}
		}
	})
}

package id003

// CRC-16/KERMIT: polynomial 0x1021 processed reflected (0x8408), initial
// value 0, no final XOR. ID-003 sends it low byte first.
var crcTable = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0x8408
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC16 returns the CRC-16/KERMIT of b.
func CRC16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c = c>>8 ^ crcTable[byte(c)^x]
	}
	return c
}

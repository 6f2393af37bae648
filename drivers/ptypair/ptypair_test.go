package ptypair

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/serialport"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// Bytes cross the pair unchanged in both directions (raw mode: no echo, no
// CR/LF translation, all 256 values) through the real serial code path.
func TestPairCarriesAllBytesBothWays(t *testing.T) {
	for _, mode := range []serialport.Mode{serialport.ModeID003, serialport.ModeTCL, serialport.ModeESCPOSDefault} {
		p, err := New()
		if err != nil {
			t.Fatal(err)
		}
		port, err := serialport.Open(p.HostPath, mode)
		if err != nil {
			t.Fatal(err)
		}
		all := make([]byte, 256)
		for i := range all {
			all[i] = byte(i)
		}
		if _, err := port.Write(all); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, len(all))
		if _, err := io.ReadFull(p.Device, buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf, all) {
			t.Fatalf("%v: host→device bytes changed", mode)
		}
		if _, err := p.Device.Write(all); err != nil {
			t.Fatal(err)
		}
		if err := port.SetReadTimeout(poll.Scaled(2 * time.Second)); err != nil {
			t.Fatal(err)
		}
		back := make([]byte, 0, len(all))
		for len(back) < len(all) {
			n, err := port.Read(buf)
			if err != nil || n == 0 {
				t.Fatalf("read: n=%d err=%v", n, err)
			}
			back = append(back, buf[:n]...)
		}
		if !bytes.Equal(back, all) {
			t.Fatalf("%v: device→host bytes changed", mode)
		}
		port.Close()
		p.Close()
	}
}

// The host side can close and reopen (a driver restart) without the
// emulator's end failing.
func TestHostReopen(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := 0; i < 3; i++ {
		port, err := serialport.Open(p.HostPath, serialport.ModeTCL)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := port.Write([]byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 1)
		if _, err := io.ReadFull(p.Device, b); err != nil || b[0] != byte(i) {
			t.Fatalf("reopen %d: %v %v", i, b, err)
		}
		port.Close()
	}
}

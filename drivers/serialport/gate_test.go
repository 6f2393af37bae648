package serialport_test

import (
	"errors"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"

	"github.com/polaris-vlt/polaris/drivers/ptypair"
	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// A held gate blocks Reads on a real pty even with bytes waiting; Release
// lets them through, and closing the port frees a Read still held.
func TestGateHoldsReads(t *testing.T) {
	pair, err := ptypair.New()
	if err != nil {
		t.Fatal(err)
	}
	defer pair.Close()
	var g serialport.Gate
	p, err := g.Opener(nil)(pair.HostPath, serialport.ModeTCL)
	if err != nil {
		t.Fatal(err)
	}
	p.SetReadTimeout(50 * time.Millisecond)
	g.Hold()
	if _, err := pair.Device.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	read := func() {
		b := make([]byte, 4)
		n, err := p.Read(b)
		if err == nil && string(b[:n]) != "x" {
			err = errors.New("read " + string(b[:n]))
		}
		got <- err
	}
	go read()
	waitHeld(t, &g)
	select {
	case err := <-got:
		t.Fatalf("Read returned while held: %v", err)
	case <-time.After(200 * time.Millisecond): // four read time-outs
	}
	g.Release()
	if err := <-got; err != nil {
		t.Fatal(err)
	}

	g.Hold()
	go read()
	waitHeld(t, &g)
	p.Close()
	if err := <-got; !errors.Is(err, serialport.ErrClosedWhileHeld) {
		t.Fatalf("Read after Close = %v", err)
	}
	if g.Waiting() != 0 {
		t.Fatalf("still waiting: %d", g.Waiting())
	}
}

func waitHeld(t *testing.T, g *serialport.Gate) {
	t.Helper()
	poll.Until(t, 5*time.Second, "Read to reach the gate", func() bool { return g.Waiting() > 0 })
}

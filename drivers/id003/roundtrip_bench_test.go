package id003_test

import (
	"context"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/serialport"
)

// One STATUS REQUEST → status exchange with the emulator across a
// pseudo-terminal through go.bug.st/serial: the poll cost without the
// 9600-baud wire time (about 10 ms for the two frames on a real line).
func BenchmarkStatusRoundTripPty(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, pair, err := emulator.StartOnPty(ctx, emulator.Config{})
	if err != nil {
		b.Fatal(err)
	}
	port, err := serialport.Open(pair.HostPath, serialport.ModeID003)
	if err != nil {
		b.Fatal(err)
	}
	defer port.Close()
	s := id003.NewSession(port, nil, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Transact(id003.Command(id003.CmdStatusRequest), time.Second, id003.IsStatus); err != nil {
			b.Fatal(err)
		}
	}
}

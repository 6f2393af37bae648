package id003_test

import (
	"context"
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/drivers/id003"
	"github.com/polaris-vlt/polaris/drivers/id003/emulator"
	"github.com/polaris-vlt/polaris/drivers/ptypair"
)

// The driver and an emulated acceptor on the two ends of a pseudo-terminal,
// the driver opening its end as a serial port: start-up, enable, a 10 €
// note in escrow, stack it. The cabinet journals the credit at Stacked
// (VEND VALID), never at Escrow.
func Example() {
	pair, err := ptypair.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pair.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	acceptor := emulator.New(pair.Device, emulator.Config{InitTime: 20 * time.Millisecond,
		AcceptTime: 20 * time.Millisecond, StackTime: 20 * time.Millisecond})
	go acceptor.Run(ctx)

	cfg := id003.DefaultConfig(pair.HostPath)
	cfg.PollInterval, cfg.BusyPollInterval = 10*time.Millisecond, 5*time.Millisecond
	drv := id003.New(cfg)
	go drv.Run(ctx)

	deadline := time.After(10 * time.Second)
	for {
		select {
		case e := <-drv.Events():
			switch e := e.(type) {
			case id003.Ready:
				fmt.Println("ready, currency table of", len(e.Currency), "notes")
				drv.Enable(ctx, id003.Accept{Notes: id003.AllDenoms})
			case id003.Enabled:
				acceptor.InsertNote(0x63) // 10 € in the emulator's euro table
			case id003.Escrow:
				fmt.Println("escrow:", e.Doc)
				drv.Stack(ctx)
			case id003.Stacked:
				fmt.Println("stacked:", e.Doc)
				return
			}
		case <-deadline:
			fmt.Println("no note stacked in 10 s")
			return
		}
	}
	// Output:
	// ready, currency table of 6 notes
	// escrow: note 63 (10×10^0 country E0)
	// stacked: note 63 (10×10^0 country E0)
}

package gpio_test

import (
	"fmt"
	"time"

	"github.com/polaris-vlt/polaris/clock/clocktest"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/gpiotest"
)

// A Start button on a fake board and a fake clock: a bouncy press becomes
// one event, one window after the bouncing stopped.
func Example() {
	clk := clocktest.New(time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC))
	cfg := gpio.Config{
		Inputs: []gpio.InputWiring{{Input: gpio.BtnStart, Line: "BTN_START", Pull: gpio.PullUp, ActiveLow: true}},
		Lamps:  map[gpio.Input]gpio.OutputWiring{gpio.BtnStart: {Line: "LAMP_START"}},
		Clock:  clk,
		Sink:   func(e gpio.Event) { fmt.Println(e) },
	}
	board, _ := gpiotest.New(clk, cfg.InputLines(), cfg.OutputLines())
	ctl, _ := gpio.New(cfg, board.Inputs(), board.Outputs())
	defer ctl.Close()

	for _, level := range []bool{false, true, false, true, false} { // press, bouncing
		board.Set("BTN_START", level)
		ctl.Step()
		clk.Advance(2 * time.Millisecond)
	}
	for i := 0; i < 20; i++ {
		ctl.Step()
		clk.Advance(time.Millisecond)
	}
	// Output: start pressed at 18:00:00.008
}

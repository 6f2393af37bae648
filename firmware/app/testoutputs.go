package app

import (
	"strings"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// gpioOutputs are the board's tower tiers and hard meters as test mode's
// output tests drive them (cabinet.TestOutputs).
type gpioOutputs struct{ c *gpio.Controller }

func (g gpioOutputs) TowerColours() []string {
	var out []string
	for _, o := range g.c.Outputs() {
		if o.ID.Colour != "" {
			out = append(out, string(o.ID.Colour))
		}
	}
	return out
}

func (g gpioOutputs) Meters() []string {
	var out []string
	for _, m := range g.c.Meters() {
		out = append(out, string(m))
	}
	return out
}

func (g gpioOutputs) TestPulse(m string) error { return g.c.TestPulse(gpio.Meter(m)) }

// testTier is the tier a test-mode tower state ("test:red") lights, or "".
func testTier(state string) gpio.Colour {
	c, ok := strings.CutPrefix(state, "test:")
	if !ok {
		return ""
	}
	return gpio.Colour(c)
}

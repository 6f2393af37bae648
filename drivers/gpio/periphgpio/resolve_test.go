package periphgpio

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// Kernel line names as gpioinfo shows them on a Pi 4 (bcm2711) and a Pi 5
// (rp1), header lines 0..27, plus an MCP23017 named by our overlay.
var (
	pi4Lines = []string{"ID_SDA", "ID_SCL", "SDA1", "SCL1", "GPIO_GCLK", "GPIO5", "GPIO6", "SPI_CE1_N",
		"SPI_CE0_N", "SPI_MISO", "SPI_MOSI", "SPI_SCLK", "GPIO12", "GPIO13", "TXD1", "RXD1", "GPIO16",
		"GPIO17", "GPIO18", "GPIO19", "GPIO20", "GPIO21", "GPIO22", "GPIO23", "GPIO24", "GPIO25",
		"GPIO26", "GPIO27", "RGMII_MDIO"}
	pi5Lines = func() []string {
		l := []string{"ID_SD", "ID_SC"}
		for i := 2; i <= 27; i++ {
			l = append(l, fmt.Sprintf("GPIO%d", i))
		}
		return append(l, "PCIE_RP1_WAKE", "FAN_TACH")
	}()
	expander = chipView{name: "gpiochip2", label: "mcp23017", lines: []string{"LAMP_START", "LAMP_AUTO", "", ""}}
)

func TestResolveSameProfileOnPi4AndPi5(t *testing.T) {
	for _, board := range []struct {
		name  string
		views []chipView
	}{
		{"pi4", []chipView{{name: "gpiochip0", label: "pinctrl-bcm2711", lines: pi4Lines}, {name: "gpiochip1", label: "raspberrypi-exp-gpio"}, expander}},
		{"pi5", []chipView{{name: "gpiochip0", label: "pinctrl-rp1", lines: pi5Lines}, expander}},
	} {
		t.Run(board.name, func(t *testing.T) {
			got := map[string]string{}
			for _, n := range []string{"GPIO7", "GPIO17", "GPIO4", "LAMP_AUTO"} {
				r, ok := resolve(board.views, n)
				if !ok {
					t.Fatalf("%s did not resolve", n)
				}
				got[n] = board.views[r.chip].label + ":" + r.kernel
			}
			if board.name == "pi4" && got["GPIO7"] != "pinctrl-bcm2711:SPI_CE1_N" {
				t.Errorf("GPIO7 on a Pi 4 = %s", got["GPIO7"])
			}
			if board.name == "pi5" && got["GPIO7"] != "pinctrl-rp1:GPIO7" {
				t.Errorf("GPIO7 on a Pi 5 = %s", got["GPIO7"])
			}
			if got["LAMP_AUTO"] != "mcp23017:LAMP_AUTO" {
				t.Errorf("LAMP_AUTO = %s", got["LAMP_AUTO"])
			}
			for _, n := range []string{"GPIO28", "GPIO99", "LAMP_STOP", "gpio17"} {
				if r, ok := resolve(board.views, n); ok {
					t.Errorf("%s resolved to %+v", n, r)
				}
			}
		})
	}
}

func TestResolveAllRefuses(t *testing.T) {
	pi4 := []chipView{{name: "gpiochip0", label: "pinctrl-bcm2711", lines: pi4Lines}}
	_, err := resolveAll(pi4,
		[]gpio.LineSpec{{Name: "GPIO5", Use: "button start"}, {Name: "GPIO40", Use: "door_main"}},
		[]gpio.LineSpec{{Name: "LAMP_START", Use: "lamp start"}})
	var miss *MissingLinesError
	if !errors.As(err, &miss) || len(miss.Missing) != 2 {
		t.Fatalf("err %v", err)
	}
	want := `periphgpio: refusing to start: pin "GPIO40" (door_main), pin "LAMP_START" (lamp start) do not resolve on GPIO chips gpiochip0 [pinctrl-bcm2711]`
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	_, err = resolveAll(pi4, []gpio.LineSpec{{Name: "GPIO7", Use: "door_main"}}, []gpio.LineSpec{{Name: "SPI_CE1_N", Use: "tower red"}})
	if err == nil || !strings.Contains(err.Error(), "same line SPI_CE1_N") {
		t.Errorf("one line under two names: %v", err)
	}
}

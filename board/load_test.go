package board

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/gpio/gpiotest"
)

func TestBuiltInProfilesLoad(t *testing.T) {
	if got := Names(); !reflect.DeepEqual(got, []string{"devkit", "rpi-cabinet"}) {
		t.Fatalf("Names() = %v", got)
	}
	for _, name := range Names() {
		p, err := Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Name != name {
			t.Errorf("%s.toml says name %q", name, p.Name)
		}
		// Its wiring must satisfy the controller too: build it on a fake
		// board with the same line names.
		cfg := p.GPIOConfig()
		b, err := gpiotest.New(nil, cfg.InputLines(), cfg.OutputLines())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg.Store = gpiotest.NewMeterStore()
		c, err := gpio.New(cfg, b.Inputs(), b.Outputs())
		if err != nil {
			t.Fatalf("%s: controller refuses the wiring: %v", name, err)
		}
		c.Close()
		if len(cfg.Inputs) != 14 || len(cfg.Lamps) != 7 || len(cfg.Tower) < 1 || len(cfg.Meters) < 2 || cfg.MeterSense == nil {
			t.Errorf("%s: incomplete wiring %+v", name, cfg)
		}
	}
	if _, err := Load("nope"); err == nil || !strings.Contains(err.Error(), "devkit, rpi-cabinet") {
		t.Errorf("Load(nope): %v", err)
	}
}

func TestRPiCabinetAvoidsReservedPins(t *testing.T) {
	p, err := Load("rpi-cabinet")
	if err != nil {
		t.Fatal(err)
	}
	cfg := p.GPIOConfig()
	reserved := map[string]string{"GPIO0": "ID EEPROM", "GPIO1": "ID EEPROM", "GPIO2": "I2C1", "GPIO3": "I2C1", "GPIO14": "UART", "GPIO15": "UART"}
	for _, l := range append(cfg.InputLines(), cfg.OutputLines()...) {
		if why, bad := reserved[l.Name]; bad {
			t.Errorf("%s on %s, reserved for %s", l.Use, l.Name, why)
		}
	}
	if p.Acceptor.Port != "/dev/polaris-acceptor" || p.Printer.Port != "/dev/polaris-printer" {
		t.Errorf("ports %q %q", p.Acceptor.Port, p.Printer.Port)
	}
}

// lineOf returns the 1-based line of the first occurrence of s in text.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	i := strings.Index(text, s)
	if i < 0 {
		t.Fatalf("%q not in profile", s)
	}
	return strings.Count(text[:i], "\n") + 1
}

func devkitText(t *testing.T) string {
	t.Helper()
	b, err := embedded.ReadFile("profiles/devkit.toml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func edit(t *testing.T, text, old, new string) string {
	t.Helper()
	if !strings.Contains(text, old) {
		t.Fatalf("%q not in profile", old)
	}
	return strings.Replace(text, old, new, 1)
}

// Each broken profile is refused with the line and key of the problem.
func TestBrokenProfilesRefused(t *testing.T) {
	base := devkitText(t)
	cases := []struct {
		name string
		text func() string
		// want is the exact message; %d is replaced by the line of lineAt
		want   string
		lineAt string
	}{
		{"unknown key", func() string {
			return edit(t, base, "risk           =", "strat = { pin = \"X\" }\nrisk           =")
		}, `board profile devkit.toml:%d: gpio.inputs.strat: unknown key`, "strat ="},
		{"unknown key inside an inline table", func() string {
			return edit(t, base, `{ pin = "BTN_STOP",      pull = "up", active_low = true }`, `{ pin = "BTN_STOP", pul = "up" }`)
		}, `board profile devkit.toml:%d: gpio.inputs.stop.pul: unknown key`, "stop           ="},
		{"unknown top-level table", func() string { return base + "\n[hopper]\nport = \"/dev/x\"\n" },
			`board profile devkit.toml:%d: hopper: unknown key`, "[hopper]"},
		{"duplicate pin", func() string {
			return edit(t, base, `pin = "LAMP_RISK"`, `pin = "BTN_START"`)
		}, fmt.Sprintf(`board profile devkit.toml:%%d: gpio.lamps.risk.pin: duplicate pin "BTN_START", already used by gpio.inputs.start (line %d)`, lineOf(t, base, "start          =")), "risk      ="},
		{"duplicate pin in the tower", func() string {
			return edit(t, base, `pin = "TOWER_WHITE"`, `pin = "METER_SENSE"`)
		}, "", ""},
		{"missing pin", func() string {
			return edit(t, base, "door_acceptor  = { pin = \"DOOR_ACCEPTOR\", pull = \"up\" }\n", "")
		}, `board profile devkit.toml:%d: gpio.inputs.door_acceptor: missing input door_acceptor`, "[gpio.inputs]"},
		{"empty pin", func() string {
			return edit(t, base, `pin = "METER_OUT"`, `pin = ""`)
		}, `board profile devkit.toml:%d: gpio.meters.out.pin: pin is empty`, "out     ="},
		{"missing lamp", func() string {
			return edit(t, base, "collect   = { pin = \"LAMP_COLLECT\" }\n", "")
		}, `board profile devkit.toml:%d: gpio.lamps.collect: missing lamp for button collect`, "[gpio.lamps]"},
		{"missing meter sense", func() string {
			return edit(t, base, "sense   = { pin = \"METER_SENSE\", pull = \"up\", active_low = true }\n", "")
		}, `board profile devkit.toml:%d: gpio.meters.sense: missing meter sense line`, "[gpio.meters]"},
		{"missing device", func() string {
			return edit(t, base, "[printer]\nprotocol = \"tcl\"\nemulated = true\n", "")
		}, `board profile devkit.toml: printer: missing device [printer]`, ""},
		{"unknown protocol", func() string {
			return edit(t, base, `protocol = "tcl"`, `protocol = "zpl"`)
		}, `board profile devkit.toml:%d: printer.protocol: unknown protocol "zpl" (want tcl or escpos)`, `protocol = "zpl"`},
		{"card reader protocol", func() string {
			return edit(t, base, `protocol = "pcsc"`, `protocol = "ccid"`)
		}, `board profile devkit.toml:%d: card_reader.protocol: unknown protocol "ccid" (want pcsc)`, `protocol = "ccid"`},
		{"card reader without a name", func() string {
			return edit(t, base, `reader = "Virtual PCD 00 00"`, `reader = ""`)
		}, `board profile devkit.toml:%d: card_reader.reader: reader name is empty`, `reader = ""`},
		{"card reader relative socket", func() string {
			return edit(t, base, `reader = "Virtual PCD 00 00"`, "reader = \"Virtual PCD 00 00\"\nsocket = \"pcscd.comm\"")
		}, `board profile devkit.toml:%d: card_reader.socket: socket "pcscd.comm" is not an absolute path`, `socket = "pcscd.comm"`},
		{"acceptor protocol", func() string {
			return edit(t, base, `protocol = "id003"`, `protocol = "ssp"`)
		}, `board profile devkit.toml:%d: acceptor.protocol: unknown protocol "ssp" (want id003)`, `protocol = "ssp"`},
		{"unknown colour", func() string {
			return edit(t, base, `colour = "yellow"`, `colour = "purple"`)
		}, `board profile devkit.toml:%d: gpio.tower[1].colour: unknown colour "purple" (want red, amber, yellow, green, blue or white)`, `colour = "purple"`},
		{"port and emulated", func() string {
			return edit(t, base, "protocol = \"id003\"\nemulated = true", "protocol = \"id003\"\nemulated = true\nport = \"/dev/ttyUSB0\"")
		}, `board profile devkit.toml:%d: acceptor.port: an emulated device has no port`, `port = "/dev/ttyUSB0"`},
		{"relative port", func() string {
			return edit(t, base, "protocol = \"id003\"\nemulated = true", "protocol = \"id003\"\nport = \"ttyUSB0\"")
		}, `board profile devkit.toml:%d: acceptor.port: port "ttyUSB0" is not an absolute path`, `port = "ttyUSB0"`},
		{"real CZK acceptor without its country code", func() string {
			return edit(t, base, "protocol = \"id003\"\nemulated = true", "protocol = \"id003\"\nport = \"/dev/polaris-acceptor\"\ncurrency = \"CZK\"")
		}, `board profile devkit.toml:%d: acceptor.country_code: no public country code for CZK: set it to the byte the unit's currency table (8A) carries`, `[acceptor]`},
		{"unknown tcl model", func() string {
			return edit(t, base, "protocol = \"tcl\"", "protocol = \"tcl\"\nmodel = \"tm-t88\"")
		}, `board profile devkit.toml:%d: printer.model: unknown TCL printer model "tm-t88" (want one of gen2u, gen5, nanoptix, paycheck4)`, `model = "tm-t88"`},
		{"tcl timeout on escpos", func() string {
			return edit(t, base, "protocol = \"tcl\"", "protocol = \"escpos\"\nprint_timeout_ms = 60000")
		}, `board profile devkit.toml:%d: printer.print_timeout_ms: a TCL setting; protocol is "escpos"`, "print_timeout_ms = 60000"},
		{"tcl baud", func() string {
			return edit(t, base, "protocol = \"tcl\"", "protocol = \"tcl\"\nbaud = 38400")
		}, `board profile devkit.toml:%d: printer.baud: TCL printers run at 9600 baud, not 38400`, "baud = 38400"},
		{"unknown backend", func() string {
			return edit(t, base, `backend = "fake"`, `backend = "sysfs"`)
		}, `board profile devkit.toml:%d: gpio.backend: unknown GPIO backend "sysfs" (want periph or fake)`, `backend = "sysfs"`},
		{"wrong type", func() string {
			return edit(t, base, "pulse_ms = 50", `pulse_ms = "fast"`)
		}, "", ""},
		{"malformed TOML", func() string {
			return edit(t, base, "[gpio.lamps]", "[gpio.lamps")
		}, "", ""},
		{"key written twice", func() string {
			return edit(t, base, "gap_ms = 50", "gap_ms = 50\ngap_ms = 60")
		}, `board profile devkit.toml:%d: gpio.meters.gap_ms: key gap_ms is already defined`, "gap_ms = 60"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text()
			_, err := Parse("devkit.toml", []byte(text))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse: %v, want *board.Error", err)
			}
			if len(pe.Problems) != 1 {
				t.Errorf("%d problems:\n%v", len(pe.Problems), err)
			}
			if pe.Problems[0].Line == 0 && tc.name != "missing device" {
				t.Errorf("no line: %v", err)
			}
			if tc.want == "" {
				t.Logf("%v", err)
				return
			}
			want := tc.want
			if tc.lineAt != "" {
				want = fmt.Sprintf(tc.want, lineOf(t, text, tc.lineAt))
			}
			if err.Error() != want {
				t.Errorf("got  %s\nwant %s", err, want)
			}
		})
	}
}

// Every problem is reported at once, so a technician fixes a profile in one
// pass.
func TestAllProblemsReported(t *testing.T) {
	text := edit(t, devkitText(t), `pin = "LAMP_RISK"`, `pin = "BTN_START"`)
	text = edit(t, text, `protocol = "tcl"`, `protocol = "zpl"`)
	_, err := Parse("x.toml", []byte(text))
	var pe *Error
	if !errors.As(err, &pe) || len(pe.Problems) != 2 {
		t.Fatalf("%v", err)
	}
}

func TestDevkitKeysCoverEveryInputOnce(t *testing.T) {
	seen := map[gpio.Input]bool{}
	keys := map[string]bool{}
	for _, k := range DevkitKeys {
		if seen[k.Input] || keys[k.Key] {
			t.Errorf("%v bound twice", k)
		}
		seen[k.Input], keys[k.Key] = true, true
		if k.Toggle == (k.Input.Kind() == gpio.KindButton) {
			t.Errorf("%s: toggle %v for a %v", k.Key, k.Toggle, k.Input.Kind())
		}
	}
	if len(seen) != len(gpio.Inputs()) {
		t.Errorf("%d of %d inputs bound", len(seen), len(gpio.Inputs()))
	}
}

// FuzzParse: the loader never panics, and whatever it accepts the GPIO
// controller accepts too (the loader's checks cover the controller's).
func FuzzParse(f *testing.F) {
	for _, n := range Names() {
		b, _ := embedded.ReadFile("profiles/" + n + ".toml")
		f.Add(b)
	}
	f.Add([]byte("name = \"x\"\n[gpio]\nbackend = \"fake\"\n[[gpio.tower]]\ncolour = \"red\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz.toml", data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || len(pe.Problems) == 0 || pe.Error() == "" {
				t.Fatalf("untyped or empty error: %v", err)
			}
			return
		}
		cfg := p.GPIOConfig()
		b, err := gpiotest.New(nil, cfg.InputLines(), cfg.OutputLines())
		if err != nil {
			t.Fatalf("accepted profile breaks the fake board: %v", err)
		}
		cfg.Store = gpiotest.NewMeterStore()
		c, err := gpio.New(cfg, b.Inputs(), b.Outputs())
		if err != nil {
			t.Fatalf("accepted profile refused by the controller: %v", err)
		}
		c.Close()
	})
}

// [display] touch: the devkit's window takes clicks as touches; the
// cabinet profile has no touch panel, and no section means none.
func TestDisplayTouchSetting(t *testing.T) {
	for name, want := range map[string]bool{"devkit": true, "rpi-cabinet": false} {
		p, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Display.Touch != want {
			t.Fatalf("%s: touch %v, want %v", name, p.Display.Touch, want)
		}
	}
}

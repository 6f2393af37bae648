//go:build linux

package periphgpio

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// The optional integration tier (platform.md §1.5): the real periph line
// sets against a gpio-sim chip whose lines carry production names. It needs
// root and a kernel with CONFIG_GPIO_SIM, which CI's kernel lacks, so it
// runs only when asked, alone (periph enumerates chips once per process):
//
//	sudo POLARIS_GPIOSIM=1 go test -run TestGPIOSim ./drivers/gpio/periphgpio/
func TestGPIOSim(t *testing.T) {
	if os.Getenv("POLARIS_GPIOSIM") == "" {
		t.Skip("set POLARIS_GPIOSIM=1 (root, kernel with CONFIG_GPIO_SIM) to run against a simulated chip")
	}
	sim := newSim(t, "BTN_START", "DOOR_MAIN", "LAMP_START", "METER_IN")
	in, out, err := Open(
		[]gpio.LineSpec{{Name: "BTN_START", Pull: gpio.PullUp, Use: "button start"}, {Name: "DOOR_MAIN", Pull: gpio.PullUp, Use: "door_main"}},
		[]gpio.LineSpec{{Name: "LAMP_START", Use: "lamp start"}, {Name: "METER_IN", Use: "meter in"}})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	defer out.Close()
	if v, err := in.Read(); err != nil || v != 0b11 {
		t.Fatalf("inputs with pull-ups read %02b, %v", v, err)
	}
	// No edge: a bounded wait returns "no edge", not an error (periph/host#78).
	if edge, err := in.WaitEdge(20 * time.Millisecond); edge || err != nil {
		t.Fatalf("idle WaitEdge: %v, %v", edge, err)
	}
	sim.pull("BTN_START", "pull-down") // the button closes to ground
	if edge, err := in.WaitEdge(poll.Scaled(time.Second)); !edge || err != nil {
		t.Fatalf("WaitEdge after a press: %v, %v", edge, err)
	}
	if v, _ := in.Read(); v != 0b10 {
		t.Fatalf("inputs read %02b after the press", v)
	}
	if err := out.Write(0b01, 0b01); err != nil {
		t.Fatal(err)
	}
	if sim.value("LAMP_START") != "1" || sim.value("METER_IN") != "0" {
		t.Fatalf("outputs: lamp %s meter %s", sim.value("LAMP_START"), sim.value("METER_IN"))
	}
	if err := out.Write(0b10, 0b10); err != nil || sim.value("LAMP_START") != "1" || sim.value("METER_IN") != "1" {
		t.Fatalf("masked write disturbed the lamp or missed the meter: %v", err)
	}
}

type simChip struct {
	t     *testing.T
	dir   string // configfs device
	sysfs string // /sys/devices/platform/<dev>/<chip>
	lines map[string]int
}

func newSim(t *testing.T, names ...string) *simChip {
	t.Helper()
	exec.Command("modprobe", "gpio-sim").Run()
	root := "/sys/kernel/config/gpio-sim"
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("no gpio-sim in configfs (%v): needs root and CONFIG_GPIO_SIM", err)
	}
	s := &simChip{t: t, dir: filepath.Join(root, "polaris-test"), lines: map[string]int{}}
	bank := filepath.Join(s.dir, "gpio-bank0")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(s.dir, 0o755))
	must(os.Mkdir(bank, 0o755))
	must(os.WriteFile(filepath.Join(bank, "num_lines"), []byte(fmtInt(len(names))), 0o644))
	for i, n := range names {
		l := filepath.Join(bank, "line"+fmtInt(i))
		must(os.Mkdir(l, 0o755))
		must(os.WriteFile(filepath.Join(l, "name"), []byte(n), 0o644))
		s.lines[n] = i
	}
	must(os.WriteFile(filepath.Join(s.dir, "live"), []byte("1"), 0o644))
	t.Cleanup(func() {
		os.WriteFile(filepath.Join(s.dir, "live"), []byte("0"), 0o644)
		for i := range names {
			os.Remove(filepath.Join(bank, "line"+fmtInt(i)))
		}
		os.Remove(bank)
		os.Remove(s.dir)
	})
	dev, err := os.ReadFile(filepath.Join(s.dir, "dev_name"))
	must(err)
	chip, err := os.ReadFile(filepath.Join(bank, "chip_name"))
	must(err)
	s.sysfs = filepath.Join("/sys/devices/platform", strings.TrimSpace(string(dev)), strings.TrimSpace(string(chip)))
	return s
}

func (s *simChip) attr(line, name string) string {
	return filepath.Join(s.sysfs, "sim_gpio"+fmtInt(s.lines[line]), name)
}

func (s *simChip) pull(line, p string) {
	s.t.Helper()
	if err := os.WriteFile(s.attr(line, "pull"), []byte(p), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *simChip) value(line string) string {
	s.t.Helper()
	b, err := os.ReadFile(s.attr(line, "value"))
	if err != nil {
		s.t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func fmtInt(i int) string { return strconv.Itoa(i) }

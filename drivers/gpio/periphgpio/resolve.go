package periphgpio

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// chipView is what resolution needs of a chip: its name, label and the
// kernel names of its lines by offset.
type chipView struct {
	name, label string
	lines       []string
}

type resolved struct {
	chip   int    // index into the views
	kernel string // the line's kernel name
}

var bcmName = regexp.MustCompile(`^GPIO([0-9]{1,2})$`)

// headerChip reports whether a chip's offsets are BCM GPIO numbers: the Pi
// 4's pinctrl-bcm2711 (and older bcm2835) and the Pi 5's pinctrl-rp1.
func headerChip(label string) bool {
	for _, p := range []string{"pinctrl-bcm2711", "pinctrl-bcm2835", "pinctrl-rp1"} {
		if strings.HasPrefix(label, p) {
			return true
		}
	}
	return false
}

// resolve finds a configured name: first as a kernel line name on any chip
// (in periph's order, pinctrl chips first), then, for "GPIOn", as offset n
// of the header chip. The second rule lets one profile say GPIO7 on a Pi 4,
// whose kernel calls that line SPI_CE1_N, and on a Pi 5, which calls it
// GPIO7.
func resolve(views []chipView, name string) (resolved, bool) {
	for ci, v := range views {
		for _, l := range v.lines {
			if l == name {
				return resolved{ci, l}, true
			}
		}
	}
	m := bcmName.FindStringSubmatch(name)
	if m == nil {
		return resolved{}, false
	}
	n, _ := strconv.Atoi(m[1])
	if n > 27 { // only the 40-pin header's GPIO0..27
		return resolved{}, false
	}
	for ci, v := range views {
		if headerChip(v.label) && n < len(v.lines) && v.lines[n] != "" {
			return resolved{ci, v.lines[n]}, true
		}
	}
	return resolved{}, false
}

// resolveAll resolves inputs then outputs, refusing missing lines (all of
// them named at once) and two names for one physical line.
func resolveAll(views []chipView, inputs, outputs []gpio.LineSpec) ([]resolved, error) {
	all := append(append([]gpio.LineSpec(nil), inputs...), outputs...)
	miss := &MissingLinesError{}
	for _, v := range views {
		miss.Chips = append(miss.Chips, v.name+" ["+v.label+"]")
	}
	var out []resolved
	seen := map[resolved]gpio.LineSpec{}
	for _, l := range all {
		r, ok := resolve(views, l.Name)
		if !ok {
			miss.Missing = append(miss.Missing, l)
			continue
		}
		if prev, dup := seen[r]; dup {
			return nil, fmt.Errorf("periphgpio: pin %q (%s) and pin %q (%s) are the same line %s on %s",
				prev.Name, prev.Use, l.Name, l.Use, r.kernel, views[r.chip].name)
		}
		seen[r] = l
		out = append(out, r)
	}
	if len(miss.Missing) > 0 {
		return nil, miss
	}
	return out, nil
}

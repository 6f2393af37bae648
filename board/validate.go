package board

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/polaris-vlt/polaris/drivers/gpio"
	"github.com/polaris-vlt/polaris/drivers/printer/tcl"
)

type validator struct {
	idx      keyIndex
	problems []Problem
	pins     map[string]string // pin → key path of its first use
}

func (v *validator) add(path, format string, args ...any) {
	v.problems = append(v.problems, Problem{Line: v.idx.lineOf(path), Key: path, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) missing(path, what string) {
	if _, ok := v.idx[path]; ok {
		v.add(path, "%s is empty", what)
		return
	}
	v.add(path, "missing %s", what)
}

func (v *validator) pin(path, pin string) {
	if pin == "" {
		v.missing(path, "pin")
		return
	}
	if prev, dup := v.pins[pin]; dup {
		v.add(path, "duplicate pin %q, already used by %s (line %d)", pin, strings.TrimSuffix(prev, ".pin"), v.idx.lineOf(prev))
		return
	}
	v.pins[pin] = path
}

func (v *validator) ms(path string, n, lo, hi int) {
	if n != 0 && (n < lo || n > hi) {
		v.add(path, "%d ms is outside %d..%d", n, lo, hi)
	}
}

func (v *validator) inPin(path string, p *InPin, what string) {
	if p == nil {
		v.missing(path, what)
		return
	}
	v.pin(path+".pin", p.Pin)
	switch p.Pull {
	case "", "up", "down", "none":
	default:
		v.add(path+".pull", "unknown pull %q (want up, down or none)", p.Pull)
	}
	v.ms(path+".debounce_ms", p.DebounceMS, 1, 1000)
}

func (v *validator) outPin(path string, p *OutPin, what string) {
	if p == nil {
		v.missing(path, what)
		return
	}
	v.pin(path+".pin", p.Pin)
}

func (v *validator) check(p *Profile) {
	v.pins = map[string]string{}
	if p.Name == "" {
		v.missing("name", "profile name")
	}
	g := &p.GPIO
	switch g.Backend {
	case BackendPeriph, BackendFake:
	case "":
		v.missing("gpio.backend", `GPIO backend ("periph" or "fake")`)
	default:
		v.add("gpio.backend", "unknown GPIO backend %q (want periph or fake)", g.Backend)
	}
	v.ms("gpio.button_debounce_ms", g.ButtonDebounceMS, 1, 1000)
	v.ms("gpio.switch_debounce_ms", g.SwitchDebounceMS, 1, 1000)

	ins := g.Inputs.byInput()
	for _, in := range gpio.Inputs() {
		if in == gpio.BtnInfo && ins[in] == nil {
			continue // optional
		}
		v.inPin("gpio.inputs."+in.String(), ins[in], "input "+in.String())
	}
	lamps := g.Lamps.byButton()
	for _, b := range gpio.Buttons() {
		v.outPin("gpio.lamps."+b.String(), lamps[b], "lamp for button "+b.String())
	}
	if len(g.Tower) == 0 {
		v.missing("gpio.tower", "tower light ([[gpio.tower]] tiers)")
	}
	colours := map[string]bool{}
	for i, t := range g.Tower {
		path := fmt.Sprintf("gpio.tower[%d]", i)
		switch {
		case t.Colour == "":
			v.missing(path+".colour", "colour")
		case !gpio.Colour(t.Colour).Valid():
			v.add(path+".colour", "unknown colour %q (want red, amber, yellow, green, blue or white)", t.Colour)
		case colours[t.Colour]:
			v.add(path+".colour", "colour %q appears twice in the tower", t.Colour)
		}
		colours[t.Colour] = true
		v.pin(path+".pin", t.Pin)
	}
	m := &g.Meters
	v.ms("gpio.meters.pulse_ms", m.PulseMS, 10, 1000)
	v.ms("gpio.meters.gap_ms", m.GapMS, 10, 1000)
	v.inPin("gpio.meters.sense", m.Sense, "meter sense line")
	for _, mm := range m.byMeter() {
		path := "gpio.meters." + string(mm.id)
		if mm.pin == nil {
			if mm.id == gpio.MeterIn || mm.id == gpio.MeterOut {
				v.missing(path, "hard meter "+string(mm.id))
			}
			continue
		}
		v.outPin(path, mm.pin, "hard meter "+string(mm.id))
	}

	ports := map[string]string{}
	port := func(path, port string, emulated bool) {
		switch {
		case emulated && port != "":
			v.add(path+".port", "an emulated device has no port")
		case !emulated && port == "":
			v.missing(path+".port", "serial port (or emulated = true)")
		case !emulated && !filepath.IsAbs(port):
			v.add(path+".port", "port %q is not an absolute path", port)
		case !emulated:
			if prev, dup := ports[port]; dup {
				v.add(path+".port", "port %q already used by %s", port, prev)
			}
			ports[port] = path
		}
	}
	protocol := func(path, proto string, known []string) {
		switch {
		case proto == "":
			v.missing(path+".protocol", "protocol")
		case !slices.Contains(known, proto):
			v.add(path+".protocol", "unknown protocol %q (want %s)", proto, strings.Join(known, " or "))
		}
	}
	if a := p.Acceptor; a == nil {
		v.missing("acceptor", "device [acceptor]")
	} else {
		protocol("acceptor", a.Protocol, AcceptorProtocols)
		port("acceptor", a.Port, a.Emulated)
		// An emulated acceptor's table is the emulator's to check (devkit);
		// a real unit needs its country byte from a source or the profile.
		if _, sourced := acceptorCountries[a.Currency]; a.Currency != "" && !sourced && !a.Emulated && a.CountryCode == 0 {
			v.add("acceptor.country_code", "no public country code for %s: set it to the byte the unit's currency table (8A) carries", a.Currency)
		}
		if a.CountryCode < 0 || a.CountryCode > 255 {
			v.add("acceptor.country_code", "%d out of range 0..255", a.CountryCode)
		}
	}
	if pr := p.Printer; pr == nil {
		v.missing("printer", "device [printer]")
	} else {
		protocol("printer", pr.Protocol, PrinterProtocols)
		port("printer", pr.Port, pr.Emulated)
		if pr.Baud != 0 {
			switch {
			case pr.Protocol == "tcl" && pr.Baud != 9600:
				v.add("printer.baud", "TCL printers run at 9600 baud, not %d", pr.Baud)
			case !slices.Contains([]int{9600, 19200, 38400, 57600, 115200}, pr.Baud):
				v.add("printer.baud", "unsupported baud rate %d", pr.Baud)
			}
		}
		if pr.Protocol == "tcl" && pr.Model != "" {
			if _, ok := tcl.Models[pr.Model]; !ok {
				v.add("printer.model", "unknown TCL printer model %q (want one of %s)", pr.Model, strings.Join(tcl.ModelNames(), ", "))
			}
		}
		for _, d := range []struct {
			key string
			ms  int
			max int
		}{{"start_timeout_ms", pr.StartTimeoutMS, 300000}, {"print_timeout_ms", pr.PrintTimeoutMS, 600000},
			{"broadcast_ms", pr.BroadcastMS, 60000}, {"pacing_ms", pr.PacingMS, 5000}} {
			switch {
			case d.ms < 0 || d.ms > d.max:
				v.add("printer."+d.key, "%d out of range 0..%d", d.ms, d.max)
			case d.ms != 0 && pr.Protocol != "tcl":
				v.add("printer."+d.key, "a TCL setting; protocol is %q", pr.Protocol)
			}
		}
		if pr.Protocol != "tcl" {
			if pr.Model != "" {
				v.add("printer.model", "a TCL setting; protocol is %q", pr.Protocol)
			}
			if pr.DownloadTemplates {
				v.add("printer.download_templates", "a TCL setting; protocol is %q", pr.Protocol)
			}
			if pr.Transliterate {
				v.add("printer.transliterate", "a TCL setting; protocol is %q", pr.Protocol)
			}
		}
	}
	if cr := p.CardReader; cr != nil {
		protocol("card_reader", cr.Protocol, CardReaderProtocols)
		if cr.Reader == "" {
			v.missing("card_reader.reader", "reader name")
		}
		if cr.Socket != "" && !filepath.IsAbs(cr.Socket) {
			v.add("card_reader.socket", "socket %q is not an absolute path", cr.Socket)
		}
	}
}

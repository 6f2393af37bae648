package board

import (
	"time"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// Profile is one cabinet model's hardware: which line is which button, key,
// door, lamp, tower tier and meter, and which port and protocol each serial
// device uses. Field names are the TOML keys; unknown keys are refused.
type Profile struct {
	Name        string          `toml:"name"`
	Description string          `toml:"description"`
	GPIO        GPIO            `toml:"gpio"`
	Acceptor    *AcceptorSpec   `toml:"acceptor"`
	Printer     *PrinterSpec    `toml:"printer"`
	CardReader  *CardReaderSpec `toml:"card_reader"`
	Display     Display         `toml:"display"`

	source string // file name, for messages
}

// GPIO backends.
const (
	BackendPeriph = "periph" // real lines through periph gpioioctl
	BackendFake   = "fake"   // in memory, driven by the keyboard
)

// GPIO is the [gpio] table.
type GPIO struct {
	Backend          string `toml:"backend"`
	ButtonDebounceMS int    `toml:"button_debounce_ms"`
	SwitchDebounceMS int    `toml:"switch_debounce_ms"`
	Inputs           Inputs `toml:"inputs"`
	Lamps            Lamps  `toml:"lamps"`
	Tower            []Tier `toml:"tower"`
	Meters           Meters `toml:"meters"`
}

// InPin is an input line.
type InPin struct {
	Pin        string `toml:"pin"`
	ActiveLow  bool   `toml:"active_low"`
	Pull       string `toml:"pull"` // "up", "down" or "none"
	DebounceMS int    `toml:"debounce_ms"`
}

// OutPin is an output line.
type OutPin struct {
	Pin       string `toml:"pin"`
	ActiveLow bool   `toml:"active_low"`
}

// Inputs is [gpio.inputs]: every button, key and door.
type Inputs struct {
	Start         *InPin `toml:"start"`
	Auto          *InPin `toml:"auto"`
	Risk          *InPin `toml:"risk"`
	Stop          *InPin `toml:"stop"`
	BetPlus       *InPin `toml:"bet_plus"`
	BetMinus      *InPin `toml:"bet_minus"`
	Collect       *InPin `toml:"collect"`
	AttendantKey  *InPin `toml:"attendant_key"`
	TechnicianKey *InPin `toml:"technician_key"`
	DoorMain      *InPin `toml:"door_main"`
	DoorLogic     *InPin `toml:"door_logic"`
	DoorCashbox   *InPin `toml:"door_cashbox"`
	DoorAcceptor  *InPin `toml:"door_acceptor"`
	// Info is the player's information button: optional (a deck without
	// one offers no information pages).
	Info *InPin `toml:"info"`
}

func (in *Inputs) byInput() map[gpio.Input]*InPin {
	return map[gpio.Input]*InPin{
		gpio.BtnStart: in.Start, gpio.BtnAuto: in.Auto, gpio.BtnRisk: in.Risk, gpio.BtnStop: in.Stop,
		gpio.BtnBetPlus: in.BetPlus, gpio.BtnBetMinus: in.BetMinus, gpio.BtnCollect: in.Collect,
		gpio.KeyAttendant: in.AttendantKey, gpio.KeyTechnician: in.TechnicianKey,
		gpio.DoorMain: in.DoorMain, gpio.DoorLogic: in.DoorLogic, gpio.DoorCashbox: in.DoorCashbox,
		gpio.DoorAcceptor: in.DoorAcceptor, gpio.BtnInfo: in.Info,
	}
}

// Lamps is [gpio.lamps]: one lamp per button.
type Lamps struct {
	Start    *OutPin `toml:"start"`
	Auto     *OutPin `toml:"auto"`
	Risk     *OutPin `toml:"risk"`
	Stop     *OutPin `toml:"stop"`
	BetPlus  *OutPin `toml:"bet_plus"`
	BetMinus *OutPin `toml:"bet_minus"`
	Collect  *OutPin `toml:"collect"`
}

func (l *Lamps) byButton() map[gpio.Input]*OutPin {
	return map[gpio.Input]*OutPin{
		gpio.BtnStart: l.Start, gpio.BtnAuto: l.Auto, gpio.BtnRisk: l.Risk, gpio.BtnStop: l.Stop,
		gpio.BtnBetPlus: l.BetPlus, gpio.BtnBetMinus: l.BetMinus, gpio.BtnCollect: l.Collect,
	}
}

// Tier is one [[gpio.tower]] entry, bottom tier first.
type Tier struct {
	Colour    string `toml:"colour"`
	Pin       string `toml:"pin"`
	ActiveLow bool   `toml:"active_low"`
}

// Display is [display]: the screen. Touch: it has a touch panel, so a
// touch on a drawn deck button or the info target presses that button
// (display.Options.Touch); without the section, no touch.
type Display struct {
	Touch bool `toml:"touch"`
}

// Meters is [gpio.meters]: the coils, the shared sense line and the pulse
// timing.
type Meters struct {
	PulseMS int     `toml:"pulse_ms"`
	GapMS   int     `toml:"gap_ms"`
	Sense   *InPin  `toml:"sense"`
	In      *OutPin `toml:"in"`
	Out     *OutPin `toml:"out"`
	Drop    *OutPin `toml:"drop"`
	Jackpot *OutPin `toml:"jackpot"`
	Games   *OutPin `toml:"games"`
}

func (m *Meters) byMeter() []struct {
	id  gpio.Meter
	pin *OutPin
} {
	return []struct {
		id  gpio.Meter
		pin *OutPin
	}{{gpio.MeterIn, m.In}, {gpio.MeterOut, m.Out}, {gpio.MeterDrop, m.Drop}, {gpio.MeterJackpot, m.Jackpot}, {gpio.MeterGames, m.Games}}
}

// AcceptorSpec is [acceptor]: the bill/ticket acceptor's port and protocol.
type AcceptorSpec struct {
	Protocol string `toml:"protocol"`
	Port     string `toml:"port"`     // e.g. /dev/polaris-acceptor
	Emulated bool   `toml:"emulated"` // devkit: an emulator on a pseudo-terminal
	// Currency (ISO 4217) is the acceptor's currency variant: the emulated
	// unit's table (EUR, CZK: id003/emulator.Tables), and the country code
	// its 8A table must carry unless CountryCode says otherwise. Empty:
	// Options.AcceptorCurrency (the market's), else EUR.
	Currency string `toml:"currency"`
	// CountryCode is the country byte the unit's 8A table must carry (0:
	// the currency's, where known); notes of another country are not
	// credited. Read it from the unit on the bench for currencies without
	// a public code (CZK).
	CountryCode int `toml:"country_code"`
	// Recycler declares a unit with JCM's bill recycler: its extension
	// frames are expected (reported either way).
	Recycler bool `toml:"recycler"`
}

// PrinterSpec is [printer]: the ticket printer's port, protocol and options.
type PrinterSpec struct {
	Protocol string `toml:"protocol"`
	Port     string `toml:"port"`
	Emulated bool   `toml:"emulated"`
	Baud     int    `toml:"baud"` // escpos only; tcl is fixed at 9600
	// DownloadTemplates (tcl only) replaces the printer's regions and
	// templates with Polaris's own at start-up.
	DownloadTemplates bool `toml:"download_templates"`
	// Transliterate (tcl only) folds č, ř, ü, ß … to ASCII for printers
	// without those glyphs.
	Transliterate bool `toml:"transliterate"`
	// Model (tcl only) names the printer model (tcl.Models: gen2u, gen5,
	// nanoptix, paycheck4), whose status mode, time-outs and pacing the
	// driver takes; the *_ms keys below override them.
	Model string `toml:"model"`
	// StartTimeoutMS and PrintTimeoutMS (tcl only): from sending a job to
	// its start, and from the start to the end of the ticket.
	StartTimeoutMS int `toml:"start_timeout_ms"`
	PrintTimeoutMS int `toml:"print_timeout_ms"`
	// BroadcastMS (tcl only): the status broadcast period of a printer that
	// answers no ENQ; the driver's time-outs follow it.
	BroadcastMS int `toml:"broadcast_ms"`
	// PacingMS (tcl only): quiet time between two messages on the line.
	PacingMS int `toml:"pacing_ms"`
}

// CardReaderSpec is the [card_reader] table: the player card reader,
// through PC/SC (pcscd; drivers/cardreader). Optional: a cabinet without
// one plays only where the market needs no card.
type CardReaderSpec struct {
	Protocol string `toml:"protocol"`
	// Reader is pcscd's name of the reader, or a prefix of it (USB
	// readers' names end in serial numbers and slot indexes).
	Reader string `toml:"reader"`
	// Socket is pcscd's socket; "" is Debian's /run/pcscd/pcscd.comm.
	Socket string `toml:"socket"`
}

// Protocols each device may speak.
var (
	AcceptorProtocols   = []string{"id003"}
	PrinterProtocols    = []string{"tcl", "escpos"}
	CardReaderProtocols = []string{"pcsc"}
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func pull(s string) gpio.Pull {
	switch s {
	case "up":
		return gpio.PullUp
	case "down":
		return gpio.PullDown
	}
	return gpio.PullNone
}

// GPIOConfig turns the profile into the Controller's wiring. Clock, Store
// and Sink are the caller's.
func (p *Profile) GPIOConfig() gpio.Config {
	g := &p.GPIO
	cfg := gpio.Config{
		Lamps:          map[gpio.Input]gpio.OutputWiring{},
		ButtonDebounce: ms(g.ButtonDebounceMS),
		SwitchDebounce: ms(g.SwitchDebounceMS),
		MeterPulse:     ms(g.Meters.PulseMS),
		MeterGap:       ms(g.Meters.GapMS),
	}
	ins := g.Inputs.byInput()
	for _, in := range gpio.Inputs() {
		if pin := ins[in]; pin != nil {
			cfg.Inputs = append(cfg.Inputs, gpio.InputWiring{Input: in, Line: pin.Pin, Pull: pull(pin.Pull),
				ActiveLow: pin.ActiveLow, Debounce: ms(pin.DebounceMS)})
		}
	}
	lamps := g.Lamps.byButton()
	for _, b := range gpio.Buttons() {
		if pin := lamps[b]; pin != nil {
			cfg.Lamps[b] = gpio.OutputWiring{Line: pin.Pin, ActiveLow: pin.ActiveLow}
		}
	}
	for _, t := range g.Tower {
		cfg.Tower = append(cfg.Tower, gpio.TowerTier{Colour: gpio.Colour(t.Colour),
			OutputWiring: gpio.OutputWiring{Line: t.Pin, ActiveLow: t.ActiveLow}})
	}
	for _, m := range g.Meters.byMeter() {
		if m.pin != nil {
			cfg.Meters = append(cfg.Meters, gpio.MeterWiring{Meter: m.id,
				OutputWiring: gpio.OutputWiring{Line: m.pin.Pin, ActiveLow: m.pin.ActiveLow}})
		}
	}
	if s := g.Meters.Sense; s != nil {
		cfg.MeterSense = &gpio.SenseWiring{Line: s.Pin, Pull: pull(s.Pull), ActiveLow: s.ActiveLow}
	}
	return cfg
}

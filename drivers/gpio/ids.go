package gpio

import "fmt"

// Input names a cabinet input: a button, a key switch or a door switch.
type Input uint8

// The cabinet's inputs. Keys and doors are "active" when turned or open.
const (
	BtnStart Input = iota + 1
	BtnAuto
	BtnRisk
	BtnStop
	BtnBetPlus
	BtnBetMinus
	BtnCollect
	KeyAttendant  // attendant / jackpot reset key
	KeyTechnician // technician / audit key
	DoorMain
	DoorLogic
	DoorCashbox
	DoorAcceptor
	BtnInfo // the player's information pages; optional, no lamp
	inputEnd
)

// InputKind groups inputs by what they are; debounce windows differ by kind.
type InputKind uint8

const (
	KindButton InputKind = iota + 1
	KindKey
	KindDoor
)

var inputNames = [...]string{
	BtnStart:      "start",
	BtnAuto:       "auto",
	BtnRisk:       "risk",
	BtnStop:       "stop",
	BtnBetPlus:    "bet_plus",
	BtnBetMinus:   "bet_minus",
	BtnCollect:    "collect",
	KeyAttendant:  "attendant_key",
	KeyTechnician: "technician_key",
	DoorMain:      "door_main",
	DoorLogic:     "door_logic",
	DoorCashbox:   "door_cashbox",
	DoorAcceptor:  "door_acceptor",
	BtnInfo:       "info",
}

// Inputs lists every input in a fixed order.
func Inputs() []Input {
	out := make([]Input, 0, int(inputEnd)-1)
	for i := BtnStart; i < inputEnd; i++ {
		out = append(out, i)
	}
	return out
}

// Buttons lists the button-deck buttons; each has a lamp.
func Buttons() []Input {
	return []Input{BtnStart, BtnAuto, BtnRisk, BtnStop, BtnBetPlus, BtnBetMinus, BtnCollect}
}

func (i Input) String() string {
	if i > 0 && i < inputEnd {
		return inputNames[i]
	}
	return fmt.Sprintf("input(%d)", uint8(i))
}

// Valid reports whether i is one of the defined inputs.
func (i Input) Valid() bool { return i > 0 && i < inputEnd }

// Kind says whether i is a button, a key or a door.
func (i Input) Kind() InputKind {
	switch {
	case i >= BtnStart && i <= BtnCollect, i == BtnInfo:
		return KindButton
	case i == KeyAttendant || i == KeyTechnician:
		return KindKey
	default:
		return KindDoor
	}
}

// ParseInput maps a profile name ("start", "door_main", …) to an Input.
func ParseInput(s string) (Input, bool) {
	for i := BtnStart; i < inputEnd; i++ {
		if inputNames[i] == s {
			return i, true
		}
	}
	return 0, false
}

// Colour names a tier of the tower light (candle).
type Colour string

// Tower-light colours a profile may use.
const (
	Red    Colour = "red"
	Amber  Colour = "amber"
	Yellow Colour = "yellow"
	Green  Colour = "green"
	Blue   Colour = "blue"
	White  Colour = "white"
)

// Valid reports whether c is a known colour.
func (c Colour) Valid() bool {
	switch c {
	case Red, Amber, Yellow, Green, Blue, White:
		return true
	}
	return false
}

// Meter names an electromechanical hard meter.
type Meter string

// Hard meters a profile may wire. The value of one unit is the ledger's
// business; the driver only pulses units.
const (
	MeterIn      Meter = "in"      // total in (bills, tickets)
	MeterOut     Meter = "out"     // total out (vouchers, handpays)
	MeterDrop    Meter = "drop"    // cash box drop
	MeterJackpot Meter = "jackpot" // jackpots and handpays
	MeterGames   Meter = "games"   // games played
)

// Valid reports whether m is a known meter.
func (m Meter) Valid() bool {
	switch m {
	case MeterIn, MeterOut, MeterDrop, MeterJackpot, MeterGames:
		return true
	}
	return false
}

package deck

// Button is a button of the deck; its lamp has the same name.
type Button string

// The deck's buttons.
const (
	Start    Button = "start"
	Auto     Button = "auto"
	Risk     Button = "risk"
	Stop     Button = "stop"
	BetPlus  Button = "bet_plus"
	BetMinus Button = "bet_minus"
	Collect  Button = "collect"
	// Info opens the player's information pages (pay table, rules, RTP)
	// from idle. It has no lamp, so it is not in Buttons.
	Info Button = "info"
)

// Buttons lists the deck's buttons in the deck's order, left to right.
var Buttons = []Button{Start, Auto, Risk, Stop, BetMinus, BetPlus, Collect}

// Key is a key switch.
type Key string

// The key switches.
const (
	Attendant  Key = "attendant"  // jackpot reset: handpays, the attendant's menu
	Technician Key = "technician" // audit: tilts, the technician's menu
)

// Keys lists the key switches.
var Keys = []Key{Attendant, Technician}

// Door is a door of the cabinet, watched by a switch.
type Door string

// The doors.
const (
	Main     Door = "main"
	Logic    Door = "logic"
	Cashbox  Door = "cashbox"
	Acceptor Door = "acceptor"
)

// Doors lists the doors.
var Doors = []Door{Main, Logic, Cashbox, Acceptor}

package board

import "github.com/polaris-vlt/polaris/drivers/gpio"

// KeyBinding maps a desktop key (named as ebiten names keys) to a devkit
// input. A Toggle key flips a key switch or a door on each press; the
// others follow the key: pressed while held.
type KeyBinding struct {
	Key    string
	Input  gpio.Input
	Toggle bool
}

// DevkitKeys is the devkit's keyboard layout; the display sends key changes
// to Cabinet.SetInput through it.
var DevkitKeys = []KeyBinding{
	{Key: "Space", Input: gpio.BtnStart},
	{Key: "A", Input: gpio.BtnAuto},
	{Key: "R", Input: gpio.BtnRisk},
	{Key: "S", Input: gpio.BtnStop},
	{Key: "Equal", Input: gpio.BtnBetPlus},
	{Key: "Minus", Input: gpio.BtnBetMinus},
	{Key: "C", Input: gpio.BtnCollect},
	{Key: "I", Input: gpio.BtnInfo},
	{Key: "J", Input: gpio.KeyAttendant, Toggle: true},
	{Key: "T", Input: gpio.KeyTechnician, Toggle: true},
	{Key: "F5", Input: gpio.DoorMain, Toggle: true},
	{Key: "F6", Input: gpio.DoorLogic, Toggle: true},
	{Key: "F7", Input: gpio.DoorCashbox, Toggle: true},
	{Key: "F8", Input: gpio.DoorAcceptor, Toggle: true},
}

// Toggle flips a devkit input (a key switch or a door) and returns its new
// state.
func (c *Cabinet) Toggle(in gpio.Input) (bool, error) {
	w, ok := c.inputs[in]
	if !ok || c.FakeGPIO == nil {
		return false, c.SetInput(in, false) // the same refusal as SetInput
	}
	high, err := c.FakeGPIO.Input(w.Line)
	if err != nil {
		return false, err
	}
	active := high != w.ActiveLow
	return !active, c.SetInput(in, !active)
}

// DevkitNoteKeys maps digit keys to the ID-003 escrow codes of the devkit
// acceptor emulator's euro table (5, 10, 20, 50, 100, 200 €): the display
// calls Cabinet.AcceptorEmulator.InsertNote(code).
var DevkitNoteKeys = map[string]byte{
	"Digit1": 0x62, "Digit2": 0x63, "Digit3": 0x64, "Digit4": 0x65, "Digit5": 0x66, "Digit6": 0x67,
}

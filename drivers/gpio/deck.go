package gpio

import "github.com/polaris-vlt/polaris/deck"

// What each input is on the deck (package deck owns the names).
var deckOf = [...]struct {
	b deck.Button
	k deck.Key
	d deck.Door
}{
	BtnStart: {b: deck.Start}, BtnAuto: {b: deck.Auto}, BtnRisk: {b: deck.Risk}, BtnStop: {b: deck.Stop},
	BtnBetPlus: {b: deck.BetPlus}, BtnBetMinus: {b: deck.BetMinus}, BtnCollect: {b: deck.Collect},
	KeyAttendant: {k: deck.Attendant}, KeyTechnician: {k: deck.Technician},
	DoorMain: {d: deck.Main}, DoorLogic: {d: deck.Logic}, DoorCashbox: {d: deck.Cashbox}, DoorAcceptor: {d: deck.Acceptor},
	BtnInfo: {b: deck.Info},
}

// Button is the deck button i is wired to, if it is a button.
func (i Input) Button() (deck.Button, bool) {
	if !i.Valid() {
		return "", false
	}
	return deckOf[i].b, deckOf[i].b != ""
}

// Key is the key switch i is wired to, if it is a key switch.
func (i Input) Key() (deck.Key, bool) {
	if !i.Valid() {
		return "", false
	}
	return deckOf[i].k, deckOf[i].k != ""
}

// Door is the door whose switch i is, if it is a door switch.
func (i Input) Door() (deck.Door, bool) {
	if !i.Valid() {
		return "", false
	}
	return deckOf[i].d, deckOf[i].d != ""
}

// InputOf is the input wired to a deck button, key switch or door (its
// name: "start", "attendant", "main").
func InputOf(name string) (Input, bool) {
	for i := BtnStart; i < inputEnd; i++ {
		if n := deckOf[i]; string(n.b) == name || string(n.k) == name || string(n.d) == name {
			return i, true
		}
	}
	return 0, false
}

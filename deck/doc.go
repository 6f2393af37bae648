// Package deck is the cabinet's vocabulary of what a player, an attendant
// or a technician handles: the buttons of the deck, the key switches and
// the doors. It is a leaf (the standard library only) that every room
// names them through: the GPIO wiring (drivers/gpio), the board profiles,
// the cabinet's events and its key and door state, the view snapshots the
// display draws, the scenario scripts.
package deck

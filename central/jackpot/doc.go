// Package jackpot is the central system's Magic Stars progressive mystery
// jackpot (MS-16..MS-19) and the published Wish Upon a Star fixed jackpot
// values (WS-10).
//
// Pools serve the whole system, one hall, or a group of halls, as a
// configuration file says. Every paid Magic Stars game adds a contribution
// (basis points of its stake) and draws, through an engine.Source, whether
// the pool is hit. The pool is kept in units of 1/10 000 CZK, so
//
//	seeded + contributed − paid = value
//
// holds exactly, in integers, at every commit. Each game's contribution and
// draw are written through the caller's SQLite transaction (the one that
// stores the round), so a round and its jackpot effect commit or vanish
// together, and asking for the same (cabinet, round) again replays the stored
// effect without drawing.
package jackpot

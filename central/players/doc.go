// Package players keeps the registered players of one operator at the
// central system (standards §1.16, checks 36 and 37): accounts opened by the
// operator after an identity check (18+), player cards bound to accounts,
// the register of excluded persons imported from a signed file, self-limits
// on bets and net losses per day and month, one session per card login that
// spans cabinets, and the break after continuous play. The central server
// asks Wager before it draws a round for a cabinet and refuses the round
// when the player may not play (server/players.go); operator commands and
// the back office use the exported Registry methods.
//
// Everything lives in the central store's database, SQLite or PostgreSQL
// (tables player_*, the store's migration 2 in
// central/server/store_schema_rooms.go), written
// inside the store writer's transactions: a bet is booked in the same
// transaction that draws its round, so it counts against a limit exactly
// once, also across retries and restarts.
package players

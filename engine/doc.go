// Package engine is the game mathematics shared by the central system and the
// cabinet: money in minor units, symbols, reel strips, ways and line
// evaluation, both games' rules (Wish Upon a Star, Magic Stars), the outcome
// record with its draw tape, and the mirror that replays a tape and refuses
// any outcome it cannot reproduce. Exact RTP, simulation and PAR sheets live
// beside it. It imports the standard library only.
package engine

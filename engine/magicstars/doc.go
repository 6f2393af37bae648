// Package magicstars is Magic Stars (game id "magicstars"), the Czech 3x3,
// five-line fruit game of GAME_RULES.md (MS-1..MS-19): its rules, its math
// model (embedded data under model/), the production Play used by the central
// system and by the cabinet's mirror, forced-screen evaluation for labs, and
// the exact RTP calculation that proves the model's return independently of
// Play.
//
// What is not here, and why:
//   - Risk (MS-9, MS-10) is one card per step and lives in the engine core
//     (engine.PlayRisk, engine.MirrorRisk); RoundCap is the limit to pass it.
//     Whether Risk may be offered at all (not for free-spin wins, not after a
//     jackpot, not during free spins — MS-9) is decided by the cabinet, which
//     knows whether a jackpot was just hit; RiskOffered encodes the rest: only
//     a paid game's own win (a round whose only step is the base spin), only
//     while engine.RiskAllowed(win, RoundCap) holds.
//   - The progressive mystery jackpot (MS-16..MS-19) is drawn by the central
//     system at every Start, independently of the reels, with a seed,
//     contribution rate and hit model that are central-system parameters
//     (slotmath §5.2). It is paid by the attendant outside the credit meter
//     (MS-18) and is therefore outside this package's RTP.
//   - Buttons, Auto start and the Credit/Win/Bet fields (MS-2..MS-5) belong
//     to the cabinet.
package magicstars

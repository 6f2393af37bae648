package magicstars

import "github.com/polaris-vlt/polaris/engine"

// Evaluation is what one screen pays and triggers under the pay table
// (MS-8, MS-14, MS-15) and MS-11, with no draws.
type Evaluation struct {
	Wins       []engine.Win // one per winning line, amounts after doubling
	Pay        engine.Money // their sum
	FullScreen bool         // MS-15 doubled the wins
	FreeSpins  bool         // every reel shows a star-carrying cell (MS-11)
}

// Evaluate evaluates a forced screen, [reel][row] with rows top to bottom,
// at stake (a *engine.StakeError if off the ladder). It is the labs'
// forced-screen interface and the evaluator of the exact RTP calculation;
// it shares the rules but not the code of Play's hot path.
func Evaluate(screen [3][3]Cell, stake engine.Money) (Evaluation, error) {
	if !onLadder(stake) {
		return Evaluation{}, &engine.StakeError{Game: engine.MagicStars, Stake: stake, Ladder: Stakes()}
	}
	return evaluate(&screen, stake/LineCount, nil), nil
}

func evaluate(screen *[3][3]Cell, lineBet engine.Money, wins []engine.Win) Evaluation {
	var sc engine.Screen
	lit := 0
	for i, col := range screen {
		star := false
		for row, c := range col {
			sc[i][row] = c.Sym
			star = star || c.Star
		}
		if star {
			lit++
		}
	}
	var ev Evaluation
	ev.Wins, ev.Pay = engine.EvalLines(&sc, Lines, linePay, lineBet, wins)
	full := true
	for i := range 3 {
		for row := range 3 {
			full = full && sc[i][row] == sc[0][0]
		}
	}
	if full && Doubles[sc[0][0]] {
		ev.FullScreen = true
		for i := range ev.Wins {
			ev.Wins[i].Amount *= 2
		}
		ev.Pay *= 2
	}
	ev.FreeSpins = lit == 3
	return ev
}

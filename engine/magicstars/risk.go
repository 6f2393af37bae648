package magicstars

import "github.com/polaris-vlt/polaris/engine"

// RiskOffered says whether the cabinet may offer Risk on a finished round
// (MS-9 with the MS-7 decision): the round is a Magic Stars paid game that
// won, had no free spins (Risk is not offered during free spins nor for
// their wins), and doubling its win stays within RoundCap. After a
// progressive jackpot hit (MS-16..MS-18, known only to the cabinet) Risk is
// not offered either; the cabinet checks that itself. Each further step is
// gated by engine.PlayRisk with RoundCap.
func RiskOffered(r *engine.Round) bool {
	return r != nil && r.Game == engine.MagicStars && len(r.Steps) == 1 && r.Steps[0].Kind == engine.StepBase &&
		r.Steps[0].FreeSpinsWon == 0 && engine.RiskAllowed(r.Total, RoundCap)
}

package backoffice

import (
	"crypto/ed25519"
	"fmt"
	"strings"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/engine"
)

// outcomeView is a round's outcome as the cabinet's recall shows it: each
// step with its reel stops and wins, read from the signed body the cabinet
// got, after checking its signature with the central system's key.
type outcomeView struct {
	Verified bool
	Error    string
	Steps    []string
}

var stepNames = map[engine.StepKind]string{engine.StepBase: "base", engine.StepFree: "free spin", engine.StepLockSpin: "lock & spin", engine.StepBonusWin: "bonus"}
var winNames = map[engine.WinKind]string{engine.WinWays: "ways", engine.WinLine: "line", engine.WinScatter: "scatter", engine.WinInstant: "instant",
	engine.WinJackpot: "jackpot", engine.WinStar: "star"}

func describeOutcome(pub ed25519.PublicKey, cabinet string, r reports.RoundRow) outcomeView {
	o, err := link.VerifyOutcome(pub, cabinet, link.OutcomeRequest{Round: r.Round, Game: engine.GameID(r.Game), ModelID: r.Model, Stake: engine.Money(r.Stake)}, r.Body, r.Sig)
	if err != nil {
		return outcomeView{Error: err.Error()}
	}
	v := outcomeView{Verified: true}
	for _, st := range o.Result.Steps {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: stops %v", stepNames[st.Kind], st.Stops)
		for _, w := range st.Wins {
			fmt.Fprintf(&b, "; %s", winNames[w.Kind])
			if w.Line > 0 {
				fmt.Fprintf(&b, " %d", w.Line)
			}
			if w.Count > 0 {
				fmt.Fprintf(&b, " %d× symbol %d", w.Count, w.Symbol)
			}
			fmt.Fprintf(&b, " = %s", money(int64(w.Amount)))
		}
		if st.Pay > 0 {
			fmt.Fprintf(&b, " → %s", money(int64(st.Pay)))
		}
		v.Steps = append(v.Steps, b.String())
	}
	return v
}

package render

import (
	"image"
	"strconv"

	"github.com/polaris-vlt/polaris/display/art"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The recall page (check 11) draws a past game with small symbol cells:
// its final screen and the step being paged through, beside its amounts.
const (
	recallCellW, recallCellH, recallGap = 96, 72, 6
	recallTop                           = 300
)

// RecallGrid names the two symbol grids of the recall page.
type RecallGrid int

const (
	RecallFinal RecallGrid = iota // the game's final screen
	RecallStep                    // the step on the page
)

// RecallCell is the rectangle of a small cell of a recall grid.
func RecallCell(grid RecallGrid, reel, row int) image.Rectangle {
	x0 := 700
	if grid == RecallStep {
		x0 = 1300
	}
	x := x0 + reel*(recallCellW+recallGap)
	y := recallTop + row*(recallCellH+recallGap)
	return image.Rect(x, y, x+recallCellW, y+recallCellH)
}

func (r *Renderer) buildRecallArt() {
	r.small = map[engine.GameID]*[nSym]*image.RGBA{}
	for _, eg := range engine.Games() {
		g := eg.ID()
		var sp [nSym]*image.RGBA
		for _, s := range art.Symbols(g) {
			sp[s] = art.Symbol(g, s, recallCellW, recallCellH)
		}
		r.small[g] = &sp
	}
}

var stepKindKeys = map[engine.StepKind]string{
	engine.StepBase: "recall.kind.base", engine.StepFree: "recall.kind.free",
	engine.StepLockSpin: "recall.kind.lock", engine.StepBonusWin: "recall.kind.bonus",
}

// recall draws a game recall page; the menu's frame (title, hint) is
// already drawn.
func (r *Renderer) recall(s *view.Snapshot, v *view.Recall) {
	lang := s.Language
	// clearly labelled: not a game in play
	label := i18n.T(lang, "recall.mode")
	badge := image.Rect(W-80-r.fLabel.Width(label)-60, 40, W-80, 130)
	r.fill(badge, cRedDark)
	r.border(badge, 4, cRed)
	r.fLabel.Draw(r.frame, label, (badge.Min.X+badge.Max.X)/2, badge.Min.Y+28, Center, cWhite)

	b := append(r.buf2[:0], i18n.T(lang, "recall.game")...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(v.Index+1), 10)
	b = append(b, " / "...)
	b = strconv.AppendInt(b, int64(v.Count), 10)
	b = append(b, "   #"...)
	b = strconv.AppendUint(b, v.Number, 10)
	b = append(b, "   "...)
	b = append(b, i18n.T(lang, gameKeys[v.Game])...)
	if !v.Ended.IsZero() {
		b = append(b, "   "...)
		b = v.Ended.UTC().AppendFormat(b, "2006-01-02 15:04:05")
	}
	r.buf2 = b
	r.fBody.DrawB(r.frame, b, 80, 190, Left, cText)

	// the amounts
	rows := [...]struct {
		key string
		m   engine.Money
	}{
		{"recall.bet", v.Bet}, {"recall.win", v.Win}, {"recall.paid", v.Paid},
		{"recall.credit_before", v.CreditBefore}, {"recall.credit_after", v.CreditAfter},
		{"recall.cashout", v.CashOut}, {"recall.handpay", v.Handpay}, {"recall.jackpot", v.Jackpot},
	}
	y := recallTop
	for _, row := range rows {
		r.fSmall.Draw(r.frame, i18n.T(lang, row.key), 80, y, Left, cDim)
		r.fValue.DrawB(r.frame, r.money(s, row.m), 640, y-4, Right, cWhite)
		y += 52
	}
	if v.Status == "refunded" {
		r.fSmall.Draw(r.frame, i18n.T(lang, "recall.refunded"), 80, y, Left, cGold)
	}
	if v.Problem != "" {
		r.fSmall.DrawFit(r.frame, i18n.T(lang, "recall.problem")+": "+v.Problem, 80, 800, W-160, Left, cRed)
	}

	// the final screen
	r.fLabel.Draw(r.frame, i18n.T(lang, "recall.final"), RecallCell(RecallFinal, 0, 0).Min.X, recallTop-50, Left, cGold)
	if v.Final != nil {
		r.recallGrid(s, v.Game, v.Final, RecallFinal)
	}

	// the step on the page
	at := RecallCell(RecallStep, 0, 0).Min
	b = append(r.buf2[:0], i18n.T(lang, "recall.step")...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(v.Step+1), 10)
	b = append(b, " / "...)
	b = strconv.AppendInt(b, int64(v.Steps), 10)
	b = append(b, "  "...)
	switch {
	case v.StepGame != nil:
		b = append(b, i18n.T(lang, stepKindKeys[v.StepGame.Kind])...)
	case v.StepRisk != nil:
		b = append(b, i18n.T(lang, "recall.kind.risk")...)
	}
	r.buf2 = b
	r.fLabel.DrawB(r.frame, b, at.X, recallTop-50, Left, cGold)
	under := RecallCell(RecallStep, 0, 2).Max.Y + 20
	switch {
	case v.StepGame != nil:
		st := v.StepGame
		r.recallGrid(s, v.Game, st, RecallStep)
		r.fSmall.Draw(r.frame, i18n.T(lang, "recall.step_win"), at.X, under, Left, cDim)
		r.fValue.DrawB(r.frame, r.money(s, st.Pay), at.X+500, under-4, Right, cWhite)
		if n := st.FreeSpinsLeft; st.Kind == engine.StepFree || n > 0 {
			r.fSmall.Draw(r.frame, i18n.T(lang, "free.title")+" "+i18n.T(lang, "free.left")+" "+strconv.Itoa(n), at.X, under+44, Left, cDim)
		}
		if st.Kind == engine.StepLockSpin {
			r.fSmall.Draw(r.frame, i18n.T(lang, "lock.respins")+" "+strconv.Itoa(st.RespinsLeft), at.X, under+44, Left, cDim)
		}
	case v.StepRisk != nil:
		rs := v.StepRisk
		card := image.Rect(at.X, recallTop, at.X+150, recallTop+260)
		r.fill(card, cWhite)
		col := cBlack
		if rs.Card.Colour() == engine.Red {
			col = cRed
		}
		r.fBig.Draw(r.frame, rankNames[rs.Card.Rank()], card.Min.X+16, card.Min.Y, Left, col)
		r.blit(r.suits[rs.Card.Suit()], image.Pt(card.Min.X, card.Min.Y+106))
		choice := "hint.red"
		if rs.Choice == engine.Black {
			choice = "hint.black"
		}
		r.fSmall.Draw(r.frame, i18n.T(lang, "recall.choice")+": "+i18n.T(lang, choice), card.Max.X+30, card.Min.Y, Left, cText)
		res, c := "risk.lost", cRed
		if rs.Won {
			res, c = "risk.won", cGreen
		}
		r.fLabel.Draw(r.frame, i18n.T(lang, res), card.Max.X+30, card.Min.Y+50, Left, c)
		x := card.Max.X + 30
		x += r.fValue.DrawB(r.frame, r.money(s, rs.Before), x, card.Min.Y+100, Left, cText)
		x += r.fValue.Draw(r.frame, " → ", x, card.Min.Y+100, Left, cText)
		r.fValue.DrawB(r.frame, r.money(s, rs.After), x, card.Min.Y+100, Left, cWhite)
	}
	r.fSmall.Draw(r.frame, i18n.T(lang, "recall.hint"), W/2, H-90, Center, cText)
}

// recallGrid draws a step's screen in small cells, with Magic Stars' star
// marks and Lock & Spin's locked stars outlined.
func (r *Renderer) recallGrid(s *view.Snapshot, g engine.GameID, st *engine.Step, grid RecallGrid) {
	l := LayoutOf(g)
	sp := r.small[g]
	for reel := range l.Reels {
		for row := range l.Rows {
			cell := RecallCell(grid, reel, row)
			sym := st.Screen[reel][row]
			if sp == nil || int(sym) >= nSym || sp[sym] == nil {
				r.fill(cell, cRedDark)
				continue
			}
			r.blit(sp[sym], cell.Min)
			bit := uint16(1) << (reel*3 + row)
			if l.Game.Marks && st.Marked&bit != 0 || st.Kind == engine.StepLockSpin && st.Locked&bit != 0 {
				r.border(cell, 3, cGold)
			}
		}
	}
}

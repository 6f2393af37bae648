package render

import (
	"image"
	"time"

	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// playerPanel is the logged-in player's limits with what is left of each
// (standards check 36: the terminal shows the player's limits), and the
// break coming, beside the reels.
func (r *Renderer) playerPanel(s *view.Snapshot, now time.Time) {
	p := s.Player
	lang := s.Language
	h := 70
	for _, l := range p.Limits {
		h += rowHeight(l)
	}
	if p.BreakWarning {
		h += 60
	}
	// Right of the reels and their line numbers.
	box := image.Rect(W-400, 238, W-16, 238+h)
	r.shade(box, cShade)
	r.border(box, 3, cGold)
	y := box.Min.Y + 14
	r.fSmall.DrawFit(r.frame, p.Name, box.Min.X+20, y, box.Dx()-40, Left, cWhite)
	y += 50
	for _, l := range p.Limits {
		r.fSmall.Draw(r.frame, i18n.T(lang, "player."+l.Kind), box.Min.X+20, y, Left, cText)
		if l.Set {
			r.fSmall.DrawB(r.frame, r.money(s, l.Amount), box.Max.X-20, y, Right, cText)
			left := r.money(s, l.Left)
			w := r.fBody.WidthB(left)
			r.fBody.DrawB(r.frame, left, box.Max.X-20, y+30, Right, cWhite)
			r.fTiny.Draw(r.frame, i18n.T(lang, "player.left"), box.Max.X-30-w, y+40, Right, cText)
		} else {
			r.fSmall.Draw(r.frame, i18n.T(lang, "player.refused"), box.Max.X-20, y, Right, cText)
		}
		y += rowHeight(l)
	}
	if p.BreakWarning {
		c := cGold
		if !r.blink(now, time.Second) {
			c = cWhite
		}
		r.fLabel.DrawFit(r.frame, i18n.T(lang, "player.break_warning")+" "+clock(p.BreakAt), box.Min.X+20, y+4, box.Dx()-40, Left, c)
	}
}

// rowHeight is a limit's height in the panel: a refused one has no
// "left" line.
func rowHeight(l view.PlayerLimit) int {
	if l.Set {
		return 78
	}
	return 46
}

// breakScreen is the player's break: information only, when play resumes
// and what became of the credit (the market's rule).
func (r *Renderer) breakScreen(s *view.Snapshot, now time.Time) {
	r.status(s, [2]string{"mode.break", "mode.break.body"}, nil, now)
	p := s.Player
	if p == nil {
		return
	}
	top := 220 // status's panel
	r.fField.Draw(r.frame, clock(p.BreakUntil), W/2, top+290, Center, cWhite)
	if p.BreakCredit == "keep" || p.BreakCredit == "payout" {
		r.fBody.Draw(r.frame, i18n.T(s.Language, "mode.break."+p.BreakCredit), W/2, top+420, Center, cGold)
	}
}

// clock is a time of day as the hall's clock shows it.
func clock(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("15:04")
}

package render

import (
	"image"
	"time"

	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The win's presentation: the count-up with its big-win tiers, the
// feature intro and total screens, the jackpot hit's celebration. What
// shows when comes from the snapshot (view.CountUp, view.StepTime's
// Celebrate and Banner): the renderer only draws it at now.

// tierHold keeps a big win's caption on screen after its count-up ended
// (or was skipped), so that the final amount is read.
const tierHold = 2 * time.Second

var tierKeys = map[view.WinTier]string{view.TierBig: "win.big", view.TierMega: "win.mega", view.TierSuper: "win.super"}

// shownFields are the Credit and Win fields' amounts at now: a win that
// counts up runs in Win from what it showed, and Credit takes it in from
// the credit before it (the ledger credited it all already).
func shownFields(s *view.Snapshot, now time.Time) (credit, win engine.Money) {
	credit, win = s.Credit, s.Win
	if cu := s.CountUp; cu.Running(now) {
		win = cu.Shown(now)
		credit = max(s.Credit-(cu.Amount-cu.Credited(now)), 0)
	}
	return credit, win
}

// countingUp notes a running count-up: the fields change every frame.
func (r *Renderer) countingUp(s *view.Snapshot, now time.Time) {
	if cu := s.CountUp; cu.Running(now) {
		r.moving = true
	} else if cu != nil && cu.Tier != view.TierNone && now.Before(cu.End.Add(tierHold)) {
		r.until(cu.End.Add(tierHold))
	}
}

// bigWin is a tier's caption over the reels with the amount counting up.
func (r *Renderer) bigWin(s *view.Snapshot, now time.Time) bool {
	cu := s.CountUp
	if cu == nil || cu.Tier == view.TierNone || !now.Before(cu.End.Add(tierHold)) || now.Before(cu.Start) {
		return false
	}
	if s.Round != nil && s.Round.Number != cu.Round {
		return false
	}
	box := image.Rect(W/2-620, 360, W/2+620, 740)
	r.shade(box, cShade)
	c := cGold
	if cu.Running(now) && !r.blink(now, 400*time.Millisecond) {
		c = cGoldDim
	}
	r.border(box, 10, c)
	// A star each side of the caption where it leaves room (looked at: a
	// long caption, "MEGA VÝHRA", ran over them).
	title := i18n.T(s.Language, tierKeys[cu.Tier])
	f := r.fHuge
	sw := r.starOn.Bounds().Dx()
	if f.Width(title) > box.Dx()-2*(sw+80) {
		f = r.fBig
	}
	if f.Width(title) <= box.Dx()-2*(sw+80) {
		r.blit(r.starOn, image.Pt(box.Min.X+40, box.Min.Y+60))
		r.blit(r.starOn, image.Pt(box.Max.X-40-sw, box.Min.Y+60))
	}
	f.Draw(r.frame, title, W/2, box.Min.Y+30, Center, cGold)
	r.fHuge.DrawB(r.frame, r.money(s, cu.Shown(now)), W/2, box.Min.Y+200, Center, cWhite)
	return true
}

// inBanner says whether the step's celebration or feature screen shows at now.
func inBanner(tl *view.StepTime, now time.Time) bool {
	if tl == nil {
		return false
	}
	from := tl.Celebrate
	if from.IsZero() {
		from = tl.Banner
	}
	return !from.IsZero() && !now.Before(from) && now.Before(tl.End)
}

// stepBanner draws step idx's celebration or feature screen if it shows at now.
func (r *Renderer) stepBanner(s *view.Snapshot, g engine.GameID, rd *view.Round, idx int, tl *view.StepTime, now time.Time) {
	if !inBanner(tl, now) {
		return
	}
	if !tl.Celebrate.IsZero() && (tl.Banner.IsZero() || now.Before(tl.Banner)) {
		if c, ok := view.CelebrationOf(rd.Steps, idx, rd.Jackpot); ok {
			r.celebrate(s, c, now)
		}
		return
	}
	b := view.BannerOf(rd.Steps, idx)
	lang := s.Language
	switch b.Kind {
	case view.BannerFreeIntro:
		// the scatters that won them framed, as the stars of a Lock &
		// Spin are (looked at: the panel alone left them unremarked)
		l := LayoutOf(g)
		st := &rd.Steps[idx]
		for i := range st.Wins {
			if st.Wins[i].Kind != engine.WinScatter {
				continue
			}
			cells := WinCells(g, st, &st.Wins[i])
			for reel := range l.Reels {
				for row := range l.Rows {
					if cells&(1<<(reel*3+row)) != 0 {
						r.border(l.Cell(reel, row), 8, cGold)
					}
				}
			}
		}
		r.buf2 = appendInt(r.buf2[:0], b.Count)
		r.buf2 = append(r.buf2, ' ')
		r.buf2 = append(r.buf2, i18n.T(lang, i18n.FreeSpinsKey(lang, b.Count))...)
		r.panel(string(r.buf2), nil, i18n.T(lang, "free.intro.body"))
	case view.BannerFreeTotal:
		r.panel(i18n.T(lang, "free.total"), r.money(s, b.Amount), "")
	case view.BannerLockTotal:
		r.panel(i18n.T(lang, "lock.total"), r.money(s, b.Amount), "")
	case view.BannerLockIntro:
		r.lockIntro(s, g, b)
	}
}

// panel is a feature screen over the reels: a title, then an amount in
// the big font or a line of text.
func (r *Renderer) panel(title string, amount []byte, line string) {
	box := image.Rect(W/2-640, 380, W/2+640, 720)
	r.shade(box, cShade)
	r.border(box, 6, cGold)
	f := r.fBig
	if f.Width(title) > box.Dx()-60 {
		f = r.fField
	}
	f.Draw(r.frame, title, W/2, box.Min.Y+40, Center, cGold)
	if amount != nil {
		r.fHuge.DrawB(r.frame, amount, W/2, box.Min.Y+160, Center, cWhite)
	}
	if line != "" {
		r.fBody.Draw(r.frame, line, W/2, box.Min.Y+200, Center, cText)
	}
}

// lockIntro is Lock & Spin's intro: the stars that triggered it framed and
// tagged LOCKED where they stand, the count and the respins on the
// caption line (no panel hides them).
func (r *Renderer) lockIntro(s *view.Snapshot, g engine.GameID, b view.Banner) {
	l := LayoutOf(g)
	lang := s.Language
	n := 0
	for reel := range l.Reels {
		for row := range l.Rows {
			if b.Locked&(1<<(reel*3+row)) == 0 {
				continue
			}
			n++
			cell := l.Cell(reel, row)
			r.border(cell, 8, cGold)
			tag := image.Rect(cell.Min.X+16, cell.Max.Y-56, cell.Max.X-16, cell.Max.Y-10)
			r.fill(tag, cGold)
			r.fValue.Draw(r.frame, i18n.T(lang, "lock.locked"), (tag.Min.X+tag.Max.X)/2, tag.Min.Y+4, Center, cBlack)
		}
	}
	r.fLabel.Draw(r.frame, i18n.T(lang, "lock.title"), 120, 172, Left, cGold)
	r.buf2 = append(r.buf2[:0], i18n.T(lang, "lock.title")...)
	r.buf2 = append(r.buf2, " · "...)
	r.buf2 = append(r.buf2, i18n.T(lang, "lock.intro.stars")...)
	r.buf2 = append(r.buf2, ": "...)
	r.buf2 = appendInt(r.buf2, n)
	r.buf2 = append(r.buf2, " · "...)
	r.buf2 = append(r.buf2, i18n.T(lang, "lock.intro.respins")...)
	r.buf2 = append(r.buf2, ": "...)
	r.buf2 = appendInt(r.buf2, b.Count)
	box := image.Rect(l.Window().Min.X, 838, l.Window().Max.X, 894)
	r.shade(box, cShade)
	r.fValue.DrawB(r.frame, r.buf2, W/2, box.Min.Y+8, Center, cGold)
}

// celebrate is a jackpot hit: the tier ("GRAND JACKPOT") or the
// progressive's name, the amount, and for the progressive that the
// attendant pays it (its lockup follows).
func (r *Renderer) celebrate(s *view.Snapshot, c view.Celebration, now time.Time) {
	lang := s.Language
	r.shade(image.Rect(0, 150, W, 900), cShade)
	box := image.Rect(160, 200, W-160, 860)
	r.fill(box, cRedDark)
	col := cGold
	if !r.blink(now, 300*time.Millisecond) {
		col = cWhite
	}
	r.border(box, 14, col)
	for i := range 4 {
		x := box.Min.X + 60 + i*(box.Dx()-120-r.starOn.Bounds().Dx())/3
		r.blit(r.starOn, image.Pt(x, box.Min.Y+40))
	}
	title := i18n.T(lang, "jackpot.progressive")
	if c.Tier != engine.NoJackpot {
		r.buf2 = append(r.buf2[:0], i18n.T(lang, jackpotKeys[c.Tier])...)
		r.buf2 = append(r.buf2, ' ')
		r.buf2 = append(r.buf2, i18n.T(lang, "jackpot.hit")...)
		title = string(r.buf2)
	}
	f := r.fHuge
	if f.Width(title) > box.Dx()-80 {
		f = r.fBig
	}
	f.Draw(r.frame, title, W/2, box.Min.Y+130, Center, cGold)
	r.fHuge.DrawB(r.frame, r.money(s, c.Amount), W/2, box.Min.Y+290, Center, cWhite)
	r.fBig.Draw(r.frame, i18n.T(lang, "jackpot.congrats"), W/2, box.Min.Y+460, Center, cText)
	if c.Tier == engine.NoJackpot {
		// its lockup follows: say who pays it (looked at: under the
		// congratulations, not over them)
		r.fBody.Draw(r.frame, i18n.T(lang, "jackpot.attendant"), W/2, box.Max.Y-80, Center, cGold)
	}
}

// messageShows: the status line is the message's, not a win caption's.
// While a round is presented its captions have the line, unless the
// message answers a press (view.Refusal); after it the message has it.
func messageShows(s *view.Snapshot) bool {
	if s.Message == "" || handpayOnPanel(s) {
		return false
	}
	presenting := s.Mode == view.ModePresenting || s.RiskOffer
	return !presenting || view.Refusal(s.Message)
}

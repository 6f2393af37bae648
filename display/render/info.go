package render

import (
	"image"
	"math"
	"strconv"
	"strings"

	"github.com/polaris-vlt/polaris/display/art"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/engine/wishstar"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// The player's information pages (ModeInfo): one page of
// view.InfoPages(game) at a time, drawn from the snapshot alone. They
// are still pictures, drawn once when they change, so they may allocate.

const (
	infoSymW, infoSymH = 156, 114
	infoTop            = 200 // the body's first line
)

// WSPay is one row of Wish Upon a Star's pay table at a stake: what 3, 4
// and 5 of a symbol pay on one way (0: no such win), from the engine's
// own evaluation of a screen that shows exactly that win.
type WSPay struct {
	Symbol engine.Symbol
	Pays   [3]engine.Money // 3, 4, 5 of a kind
}

// WSPayTable evaluates the pay table at stake with the engine: for each
// paying symbol and count, a screen with that many on adjacent reels from
// the left on one way, and nothing else that pays. Bonus's row is its
// scatter pay for three.
func WSPayTable(stake engine.Money) []WSPay {
	var out []WSPay
	for s := wishstar.Ten; s <= wishstar.Elf; s++ {
		row := WSPay{Symbol: s}
		for k := 3; k <= 5; k++ {
			ev, err := wishstar.Evaluate(waysScreen(s, k), stake, false)
			if err != nil {
				continue
			}
			for _, w := range ev.Wins {
				if w.Kind == engine.WinWays && w.Symbol == s && w.Count == k && w.Ways == 1 {
					row.Pays[k-3] = w.Amount
				}
			}
		}
		out = append(out, row)
	}
	sc := waysScreen(wishstar.Ten, 0)
	sc[0][0], sc[2][0], sc[4][0] = wishstar.Bonus, wishstar.Bonus, wishstar.Bonus
	row := WSPay{Symbol: wishstar.Bonus}
	if ev, err := wishstar.Evaluate(sc, stake, false); err == nil {
		for _, w := range ev.Wins {
			if w.Kind == engine.WinScatter {
				row.Pays[0] += w.Amount
			}
		}
	}
	return append(out, row)
}

// waysScreen shows s on row 0 of reels 1..k and, everywhere else, paying
// symbols other than s that never stand on two adjacent reels.
func waysScreen(s engine.Symbol, k int) engine.Screen {
	var fill []engine.Symbol
	for f := wishstar.Ten; f <= wishstar.Elf; f++ {
		if f != s {
			fill = append(fill, f)
		}
	}
	var sc engine.Screen
	for reel := range 5 {
		a, b := fill[(2*reel)%len(fill)], fill[(2*reel+1)%len(fill)]
		sc[reel] = [3]engine.Symbol{a, a, b}
		if reel < k {
			sc[reel][0] = s
		}
	}
	return sc
}

func (r *Renderer) infoSprite(g engine.GameID, s engine.Symbol) *image.RGBA {
	if r.infoSyms == nil {
		r.infoSyms = map[engine.GameID]*[nSym]*image.RGBA{}
	}
	sp, ok := r.infoSyms[g]
	if !ok {
		sp = &[nSym]*image.RGBA{}
		r.infoSyms[g] = sp
	}
	if sp[s] == nil {
		sp[s] = art.Symbol(g, s, infoSymW, infoSymH)
	}
	return sp[s]
}

func (r *Renderer) str(s *view.Snapshot, m engine.Money) string { return string(r.money(s, m)) }

// InfoPageOf is the page a snapshot shows (the first for a page out of range).
func InfoPageOf(inf *view.Info) view.InfoPage {
	pages := view.InfoPages(inf.Game)
	if inf.Page < 0 || inf.Page >= len(pages) {
		return pages[0]
	}
	return pages[inf.Page]
}

// RTPText is the RTP as the page states it: two decimals, the locale's
// decimal sign, "%".
func RTPText(lang string, rtp float64) string {
	b := i18n.AppendNumber(nil, lang, 2, int64(math.Round(rtp*10000)))
	return string(b) + "\u00a0%"
}

// infoText fills a page's placeholders from the snapshot.
func (r *Renderer) infoText(s *view.Snapshot, key string) string {
	inf := s.Info
	rtp := "—"
	if inf.RTPKnown {
		rtp = RTPText(s.Language, inf.RTP)
	}
	jp := map[engine.Jackpot]engine.Money{}
	if eg, err := engine.Lookup(inf.Game); err == nil {
		if f, ok := eg.(engine.FixedJackpotter); ok {
			jp = f.FixedJackpots(inf.Stake)
		}
	}
	progressive := "—"
	for _, j := range s.Jackpots {
		if j.Stake == 0 && (j.Game == "" || j.Game == inf.Game) {
			progressive = r.str(s, j.Amount)
			break
		}
	}
	rep := strings.NewReplacer("{bet}", r.str(s, inf.Stake), "{linebet}", r.str(s, inf.Stake/magicstars.LineCount),
		"{rtp}", rtp, "{max}", r.str(s, inf.MaxWin),
		"{mini}", r.str(s, jp[engine.Mini]), "{minor}", r.str(s, jp[engine.Minor]),
		"{major}", r.str(s, jp[engine.Major]), "{grand}", r.str(s, jp[engine.Grand]),
		"{jackpot}", progressive, "{age}", strconv.Itoa(inf.MinAge), "{helpline}", inf.Helpline)
	return rep.Replace(i18n.T(s.Language, key))
}

// para draws text wrapped into width w from (x, y), paragraphs split by
// "\n" with a half line between them; it returns the y below it.
func (r *Renderer) para(f *Font, text string, x, y, w, lineH int, c *image.Uniform) int {
	for _, p := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Fields(p) {
			try := word
			if line != "" {
				try = line + " " + word
			}
			if f.Width(try) > w && line != "" {
				f.Draw(r.frame, line, x, y, Left, c)
				y += lineH
				try = word
			}
			line = try
		}
		if line != "" {
			f.Draw(r.frame, line, x, y, Left, c)
			y += lineH
		}
		y += lineH / 2
	}
	return y
}

func (r *Renderer) infoScene(s *view.Snapshot) {
	lang, inf := s.Language, s.Info
	g := inf.Game
	page := InfoPageOf(inf)
	r.fill(r.frame.Bounds(), cPanel)
	r.fLabel.Draw(r.frame, i18n.T(lang, gameKeys[g])+"  ·  "+i18n.T(lang, "info.title"), 80, 40, Left, cDim)
	r.fField.Draw(r.frame, i18n.T(lang, "info.page."+string(page)), 80, 84, Left, cGold)
	r.fill(image.Rect(80, 168, W-80, 172), cGoldDim)
	body := r.infoText(s, i18n.InfoBody(g, page))
	switch page {
	case view.InfoPayTable:
		y := r.para(r.fBody, r.infoText(s, "info.paytable.note")+" "+body, 80, infoTop, W-160, 46, cText)
		if draw, ok := payTables[g]; ok {
			draw(r, s, y+10)
		}
	case view.InfoLines:
		y := r.para(r.fBody, body, 80, infoTop, W-160, 46, cText)
		r.msLineDiagrams(y + 20)
	case view.InfoRTP:
		y := r.para(r.fBody, body, 80, infoTop+20, W-160, 52, cText)
		if inf.RTPNote {
			r.para(r.fBody, i18n.T(lang, "info.rtp_note"), 80, y+20, W-160, 46, cDim)
		}
	case view.InfoResponsible:
		r.fHuge.Draw(r.frame, strconv.Itoa(inf.MinAge)+"+", 80, infoTop, Left, cRed)
		y := r.para(r.fBody, body, 80, infoTop+190, W-160, 50, cText)
		r.para(r.fField, i18n.T(lang, "info.legal"), 80, y+30, W-160, 64, cGold)
	default:
		r.para(r.fBody, body, 80, infoTop, W-160, 50, cText)
	}
	// On every page: the legal warning, the keys, where the page is.
	if page != view.InfoResponsible {
		r.fSmall.DrawFit(r.frame, i18n.T(lang, "info.legal"), 80, H-104, W-160, Left, cGold)
	}
	r.fSmall.DrawFit(r.frame, i18n.T(lang, "info.hint"), 80, H-56, W-400, Left, cDim)
	r.fSmall.Draw(r.frame, strconv.Itoa(inf.Page+1)+" / "+strconv.Itoa(len(view.InfoPages(g))), W-80, H-56, Right, cDim)
}

// payTables draw each game's pay table below y: its own art.
var payTables = map[engine.GameID]func(r *Renderer, s *view.Snapshot, y int){
	engine.WishStar:   (*Renderer).wsPayTable,
	engine.MagicStars: (*Renderer).msPayTable,
}

// wsPayTable: a card per symbol (the royals share one row each), with
// what 5, 4 and 3 pay at the bet.
func (r *Renderer) wsPayTable(s *view.Snapshot, y int) {
	rows := WSPayTable(s.Info.Stake)
	const cols, cw, ch = 4, 440, 178
	x0 := (W - cols*cw) / 2
	for i, row := range rows {
		x, yy := x0+(i%cols)*cw, y+(i/cols)*ch
		r.blit(r.infoSprite(engine.WishStar, row.Symbol), image.Pt(x, yy))
		ty := yy + 6
		for k := 2; k >= 0; k-- {
			if row.Pays[k] == 0 {
				continue
			}
			n := k + 3
			if row.Symbol == wishstar.Bonus {
				n = 3
			}
			r.fSmall.Draw(r.frame, strconv.Itoa(n)+"×", x+infoSymW+16, ty, Left, cDim)
			r.fValue.Draw(r.frame, r.str(s, row.Pays[k]), x+infoSymW+64, ty-4, Left, cWhite)
			ty += 36
		}
	}
}

// msPayTable: each symbol with what three on a line pay at the bet.
func (r *Renderer) msPayTable(s *view.Snapshot, y int) {
	lb := s.Info.Stake / magicstars.LineCount
	syms := []engine.Symbol{magicstars.Star, magicstars.Melon, magicstars.Grape, magicstars.Plum,
		magicstars.Orange, magicstars.Raspberry, magicstars.Cherry, magicstars.Lemon}
	const cols, cw, ch = 4, 440, 150
	x0 := (W - cols*cw) / 2
	for i, sym := range syms {
		x, yy := x0+(i%cols)*cw, y+(i/cols)*ch
		r.blit(r.infoSprite(engine.MagicStars, sym), image.Pt(x, yy))
		r.fSmall.Draw(r.frame, "3×", x+infoSymW+16, yy+20, Left, cDim)
		r.fValue.Draw(r.frame, r.str(s, magicstars.Pays[sym]*lb), x+infoSymW+64, yy+16, Left, cWhite)
		if magicstars.Doubles[sym] {
			r.fTiny.Draw(r.frame, i18n.T(s.Language, "info.full_screen"), x+infoSymW+16, yy+66, Left, cGold)
		}
	}
}

// msLineDiagrams draws the five lines on small 3×3 grids, numbered as the
// game numbers them (engine/magicstars Lines).
func (r *Renderer) msLineDiagrams(y int) {
	const cell, gap = 70, 6
	gw := 3*cell + 2*gap
	pitch := gw + 90
	x0 := (W - 5*pitch + 90) / 2
	for i, ln := range magicstars.Lines {
		x := x0 + i*pitch
		r.fLabel.Draw(r.frame, strconv.Itoa(i+1), x+gw/2, y, Center, cGold)
		top := y + 50
		for reel := range 3 {
			for row := range 3 {
				c := image.Rect(x+reel*(cell+gap), top+row*(cell+gap), x+reel*(cell+gap)+cell, top+row*(cell+gap)+cell)
				if int(ln[reel]) == row {
					r.fill(c, cGold)
				} else {
					r.fill(c, cGoldDim)
				}
			}
		}
	}
}

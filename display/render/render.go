package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/display/art"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/wishstar"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/money"
)

func uni(r, g, b, a uint8) *image.Uniform { return image.NewUniform(color.RGBA{r, g, b, a}) }

var (
	cWhite   = uni(255, 255, 255, 255)
	cText    = uni(235, 235, 245, 255)
	cDim     = uni(150, 150, 170, 255)
	cGold    = uni(255, 205, 40, 255)
	cGoldDim = uni(120, 95, 20, 255)
	cBlack   = uni(0, 0, 0, 255)
	cShade   = uni(0, 0, 0, 170)
	cPanel   = uni(16, 18, 40, 255)
	cField   = uni(10, 10, 24, 255)
	cFrame   = uni(70, 80, 140, 255)
	cRed     = uni(220, 40, 50, 255)
	cRedDark = uni(90, 10, 20, 255)
	cGreen   = uni(60, 200, 90, 255)
	cLampOff = uni(45, 45, 60, 255)
	cLampOn  = uni(255, 190, 40, 255)
	cHint    = uni(20, 15, 5, 255)
)

const nSym = 16

// Renderer draws snapshots into a 1920×1080 RGBA frame. It keeps its
// sprites, fonts and frame between calls; one Renderer serves one goroutine.
type Renderer struct {
	// Touch: the screen has touch (the board profile's [display] touch):
	// the info target is drawn, so no touch point is unmarked.
	Touch bool

	frame   *image.RGBA
	bg      map[engine.GameID]*image.RGBA
	attract *image.RGBA
	// sprites[game][symbol][blurred]
	sprites map[engine.GameID]*[nSym][2]*image.RGBA
	small   map[engine.GameID]*[nSym]*image.RGBA // recall cells
	// infoSyms are the information pages' symbols, drawn when first shown.
	infoSyms map[engine.GameID]*[nSym]*image.RGBA
	strips   map[engine.GameID][]engine.Symbol
	lines    [5]*image.RGBA // Magic Stars line overlays, window-sized
	// lineTags are where Magic Stars' line numbers stand, left and right
	// of the reels (buildMSArt).
	lineTags [5][2]image.Rectangle
	starOn   *image.RGBA
	starOff  *image.RGBA
	badge    *image.RGBA
	suits    [4]*image.RGBA
	card     *image.RGBA
	back     *image.RGBA
	lamp     [2]*image.RGBA
	// moving and next say how long the last frame stays right (Still).
	moving bool
	next   time.Time
	tower  [4][2]*image.Uniform

	fTiny, fSmall, fBody, fLabel, fField, fBig, fHuge, fMono, fValue *Font
	msgKeys                                                          map[string]string
	buf                                                              []byte
	buf2                                                             []byte
}

// New builds a renderer: it draws every sprite once, here.
func New() *Renderer {
	r := &Renderer{
		frame:   image.NewRGBA(image.Rect(0, 0, W, H)),
		bg:      map[engine.GameID]*image.RGBA{},
		sprites: map[engine.GameID]*[nSym][2]*image.RGBA{},
		strips:  map[engine.GameID][]engine.Symbol{},
		msgKeys: map[string]string{},
		buf:     make([]byte, 0, 256),
		buf2:    make([]byte, 0, 256),
	}
	r.fTiny = NewFont(art.Regular, 20)
	r.fSmall = NewFont(art.Regular, 26)
	r.fBody = NewFont(art.Regular, 36)
	r.fLabel = NewFont(art.Bold, 28)
	r.fField = NewFont(art.Bold, 54)
	r.fValue = NewFont(art.Bold, 34)
	r.fBig = NewFont(art.Bold, 92)
	r.fHuge = NewFont(art.Bold, 140)
	r.fMono = NewFont(art.Mono, 22)
	for _, eg := range engine.Games() {
		g := eg.ID()
		l := LayoutOf(g)
		var sp [nSym][2]*image.RGBA
		for _, s := range art.Symbols(g) {
			sp[s][0] = art.Symbol(g, s, l.CellW, l.CellH)
			sp[s][1] = blur(sp[s][0])
		}
		r.sprites[g] = &sp
		r.bg[g] = background(g)
		strip := []engine.Symbol{}
		syms := art.Symbols(g)
		for i := range 3 * len(syms) {
			s := syms[(i*7+i/len(syms))%len(syms)]
			if l.Game.LockSpin && s == l.Game.Blank {
				continue // an empty Lock & Spin cell stands on no reel
			}
			strip = append(strip, s)
		}
		r.strips[g] = strip
	}
	r.attract = background("")
	r.buildMSArt()
	r.buildCards()
	r.buildRecallArt()
	r.lamp[0] = disc(44, color.RGBA{60, 60, 70, 255})
	r.lamp[1] = disc(44, color.RGBA{255, 200, 50, 255})
	for i, tc := range towerColours {
		c := tc.c
		r.tower[i][1] = image.NewUniform(c)
		r.tower[i][0] = image.NewUniform(color.RGBA{c.R / 5, c.G / 5, c.B / 5, 255})
	}
	r.warm()
	return r
}

// warm rasterises every glyph the catalogues and amounts use, so a frame
// never loads one.
func (r *Renderer) warm() {
	var sb strings.Builder
	for _, l := range i18n.Languages {
		for _, k := range i18n.Keys(l) {
			sb.WriteString(i18n.T(l, k))
		}
	}
	sb.WriteString("0123456789.,-+×:#/()€Kč $£%…→")
	s := sb.String()
	for _, f := range []*Font{r.fTiny, r.fSmall, r.fBody, r.fLabel, r.fField, r.fBig, r.fHuge, r.fMono, r.fValue} {
		f.Width(s)
	}
}

// Frame is the last frame drawn.
func (r *Renderer) Frame() *image.RGBA { return r.frame }

// Scene names what a snapshot shows at now; screenshots and tests use it.
func Scene(s *view.Snapshot, now time.Time) string {
	switch s.Mode {
	case view.ModeStarting, view.ModeRAMError, view.ModeSoftware, view.ModeDoorOpen, view.ModeTilt,
		view.ModeLockup, view.ModeMenu, view.ModeOutOfService, view.ModeDisabled, view.ModeRisk, view.ModeCashout, view.ModeAttract, view.ModeInfo, view.ModeBreak:
		return string(s.Mode)
	case view.ModeWagering:
		return "spinning"
	}
	if s.Mode == view.ModeIdle && s.Risk != nil && now.Before(s.Risk.ShowUntil) {
		return string(view.ModeRisk) // the lost card, for its time
	}
	if s.Mode == view.ModeIdle && s.Credit == 0 && s.Round == nil {
		return "attract"
	}
	if cu := s.CountUp; cu != nil && cu.Tier != view.TierNone && !now.Before(cu.Start) && now.Before(cu.End.Add(tierHold)) {
		return "big_win"
	}
	if s.Round != nil {
		i, st, tl := stepAt(s.Round, now)
		if st != nil {
			switch {
			case tl != nil && now.Before(tl.Stops[4]) && !now.Before(tl.Start):
				return "spinning"
			case inBanner(tl, now) && !tl.Celebrate.IsZero() && (tl.Banner.IsZero() || now.Before(tl.Banner)):
				return "jackpot_hit"
			case inBanner(tl, now):
				return string(view.BannerOf(s.Round.Steps, i).Kind)
			case st.Kind == engine.StepLockSpin:
				return "lock_spin"
			case st.Kind == engine.StepBonusWin:
				return "bonus_win"
			case st.Kind == engine.StepFree:
				return "free_spins"
			case len(st.Wins) > 0:
				return "wins"
			}
		}
	}
	return "game"
}

// stepAt is the step on screen at now and its timeline entry (nil when the
// round carries none, then its last step shows, stopped).
func stepAt(rd *view.Round, now time.Time) (int, *engine.Step, *view.StepTime) {
	if len(rd.Steps) == 0 {
		return -1, nil, nil
	}
	if len(rd.Timeline) != len(rd.Steps) {
		i := len(rd.Steps) - 1
		return i, &rd.Steps[i], nil
	}
	i := 0
	for j := range rd.Timeline {
		if !now.Before(rd.Timeline[j].Start) {
			i = j
		}
	}
	return i, &rd.Steps[i], &rd.Timeline[i]
}

// blink is a lamp or text blinking with period; it notes when it toggles
// next, so a frame that would look the same is not drawn again.
func (r *Renderer) blink(now time.Time, period time.Duration) bool {
	half := int64(period / 2)
	n := now.UnixNano() / half
	r.until(time.Unix(0, (n+1)*half))
	return n%2 == 0
}

// until notes an instant at which the picture changes.
func (r *Renderer) until(t time.Time) {
	if t.Before(r.next) {
		r.next = t
	}
}

// Still reports whether the last frame stays right until t: nothing
// moves continuously and nothing blinks or changes before t.
func (r *Renderer) Still(t time.Time) bool { return !r.moving && t.Before(r.next) }

// Next says until when the last frame stays right: never while something
// moves continuously (moving), else until next; ok is false when nothing is
// due at all. A display that draws on demand wakes at next.
func (r *Renderer) Next() (next time.Time, moving, ok bool) {
	return r.next, r.moving, r.next != farFuture
}

func (r *Renderer) begin() {
	r.moving = false
	r.next = farFuture
}

var farFuture = time.Unix(1<<40, 0)

func (r *Renderer) fill(rect image.Rectangle, c *image.Uniform) {
	draw.Draw(r.frame, rect, c, image.Point{}, draw.Src)
}

func (r *Renderer) shade(rect image.Rectangle, c *image.Uniform) {
	draw.Draw(r.frame, rect, c, image.Point{}, draw.Over)
}

func (r *Renderer) border(rect image.Rectangle, t int, c *image.Uniform) {
	r.fill(image.Rect(rect.Min.X, rect.Min.Y, rect.Max.X, rect.Min.Y+t), c)
	r.fill(image.Rect(rect.Min.X, rect.Max.Y-t, rect.Max.X, rect.Max.Y), c)
	r.fill(image.Rect(rect.Min.X, rect.Min.Y, rect.Min.X+t, rect.Max.Y), c)
	r.fill(image.Rect(rect.Max.X-t, rect.Min.Y, rect.Max.X, rect.Max.Y), c)
}

func (r *Renderer) blit(src *image.RGBA, at image.Point) {
	draw.Draw(r.frame, src.Bounds().Add(at), src, image.Point{}, draw.Over)
}

func (r *Renderer) money(s *view.Snapshot, m engine.Money) []byte {
	r.buf = i18n.AppendMoney(r.buf[:0], s.Language, s.Currency, m)
	return r.buf
}

// Render draws s as it looks at now and returns the frame (owned by r).
func (r *Renderer) Render(s *view.Snapshot, now time.Time) *image.RGBA {
	r.begin()
	if s == nil {
		r.fill(r.frame.Bounds(), cBlack)
		return r.frame
	}
	lang := s.Language
	switch s.Mode {
	case view.ModeMenu:
		if s.Menu != nil && s.Menu.Title == "menu.games" {
			r.gameMenu(s)
			return r.frame
		}
		r.menu(s)
		return r.frame
	case view.ModeInfo:
		if s.Info != nil {
			r.infoScene(s)
			return r.frame
		}
	case view.ModeStarting, view.ModeRAMError, view.ModeSoftware:
		copy(r.frame.Pix, r.attract.Pix)
		r.status(s, modeKeys[s.Mode], nil, now)
		return r.frame
	}
	if sc := Scene(s, now); sc == "attract" {
		r.attractScene(s, now)
	} else if sc == string(view.ModeRisk) && s.Risk != nil {
		r.riskScene(s, now)
	} else {
		r.gameScene(s, now)
	}
	if s.Player != nil && s.Mode != view.ModeBreak {
		r.playerPanel(s, now)
	}
	switch s.Mode {
	case view.ModeBreak:
		r.breakScreen(s, now)
	case view.ModeDoorOpen:
		r.status(s, modeKeys[s.Mode], s.Doors, now)
	case view.ModeTilt:
		r.status(s, modeKeys[s.Mode], s.Tilts, now)
	case view.ModeOutOfService, view.ModeDisabled, view.ModeCashout:
		r.status(s, modeKeys[s.Mode], nil, now)
	case view.ModeLockup:
		r.lockup(s, now)
	}
	_ = lang
	return r.frame
}

var modeKeys = map[view.Mode][2]string{
	view.ModeStarting:     {"mode.starting", "mode.starting.body"},
	view.ModeRAMError:     {"mode.ram_error", "mode.ram_error.body"},
	view.ModeSoftware:     {"mode.software_error", "mode.software_error.body"},
	view.ModeDoorOpen:     {"mode.door_open", "mode.door_open.body"},
	view.ModeTilt:         {"mode.tilt", "mode.tilt.body"},
	view.ModeOutOfService: {"mode.out_of_service", "mode.out_of_service.body"},
	// disabled on purpose by the central system: not the link being down
	view.ModeDisabled: {"mode.disabled", "mode.disabled.body"},
	view.ModeCashout:  {"mode.cashout", "mode.cashout.body"},
}

// gameKeys are the catalogue keys of the games' names ("game.<id>"),
// built once so a frame does not build them.
var gameKeys = func() map[engine.GameID]string {
	m := map[engine.GameID]string{}
	for _, g := range engine.Games() {
		m[g.ID()] = "game." + string(g.ID())
	}
	return m
}()

// msgKey is the catalogue key of a status message, built once per message.
func (r *Renderer) msgKey(m string) string {
	k, ok := r.msgKeys[m]
	if !ok {
		k = "msg." + m
		r.msgKeys[m] = k
	}
	return k
}

var doorKeys = map[string]string{"main": "door.main", "logic": "door.logic", "cashbox": "door.cashbox", "acceptor": "door.acceptor"}

func gameOf(s *view.Snapshot) engine.GameID {
	if s.Round != nil && s.Mode == view.ModePresenting || s.Round != nil && s.Round.Game != "" && s.Game == "" {
		return s.Round.Game
	}
	if s.Game != "" {
		return s.Game
	}
	return engine.WishStar
}

// ---- the game screen -------------------------------------------------

func (r *Renderer) gameScene(s *view.Snapshot, now time.Time) {
	g := gameOf(s)
	copy(r.frame.Pix, r.bg[g].Pix)
	lang := s.Language
	r.fLabel.Draw(r.frame, i18n.T(lang, gameKeys[g]), 60, 40, Left, cGold)
	l := LayoutOf(g)
	if l.Game.LineGame() {
		r.fSmall.Draw(r.frame, i18n.T(lang, "field.lines"), 60, 82, Left, cDim)
	} else {
		r.fSmall.Draw(r.frame, i18n.T(lang, "field.ways"), 60, 82, Left, cDim)
	}
	r.jackpots(s, g)
	rd := s.Round
	if rd != nil && rd.Game != g {
		rd = nil
	}
	var st *engine.Step
	var tl *view.StepTime
	idx := -1
	if rd != nil {
		idx, st, tl = stepAt(rd, now)
		for i := range rd.Timeline {
			t := &rd.Timeline[i]
			for _, at := range [...]time.Time{t.Start, t.Stops[0], t.Stops[1], t.Stops[2], t.Stops[3], t.Stops[4], t.Wins, t.Celebrate, t.Banner, t.End} {
				if at.After(now) {
					r.until(at)
				}
			}
		}
	}
	spinningAll := s.Mode == view.ModeWagering
	if spinningAll {
		r.moving = true
	}
	var prevLocked uint16
	if st != nil && st.Kind == engine.StepLockSpin && idx > 0 {
		prevLocked = rd.Steps[idx-1].Locked
	}
	// reels
	for reel := range l.Reels {
		spinning, top := false, 0.0
		if spinningAll {
			spinning, top = true, -float64(now.UnixMilli()%100000)/1000*spinSpeed
		} else if tl != nil && !now.Before(tl.Start) && now.Before(tl.Stops[reel]) {
			spinning, top = true, -tl.Stops[reel].Sub(now).Seconds()*spinSpeed
			r.moving = true
		}
		for row := range l.Rows {
			cell := l.Cell(reel, row)
			bit := uint16(1) << (reel*3 + row)
			if spinning && (st == nil || st.Kind != engine.StepLockSpin || prevLocked&bit == 0) {
				r.spinCell(g, st, reel, row, top, cell)
				continue
			}
			sym := restSym(g, reel, row)
			if st != nil {
				sym = st.Screen[reel][row]
			}
			r.drawSym(g, sym, false, cell.Min, cell)
			if st != nil && l.Game.Marks && st.Marked&bit != 0 {
				r.blit(r.badge, image.Pt(cell.Max.X-r.badge.Bounds().Dx()-6, cell.Min.Y+6))
			}
			if st != nil && st.Kind == engine.StepLockSpin && st.Locked&bit != 0 {
				r.starValue(s, st, reel*3+row, cell)
			}
		}
	}
	if l.Game.LineGame() {
		r.lineNumbers(0)
	}
	r.featureStrip(s, g, rd, idx, st, tl, now)
	msg := messageShows(s)
	banner := rd != nil && inBanner(tl, now)
	if st != nil && tl != nil && !now.Before(tl.Wins) || st != nil && tl == nil {
		if !spinningAll && !banner {
			// the message has the caption's line: the frames only
			r.wins(s, g, st, tl, now, !msg)
		}
	}
	if banner {
		r.stepBanner(s, g, rd, idx, tl, now)
	} else if rd != nil {
		r.bigWin(s, now)
	}
	r.fields(s, now)
	r.hints(s, now)
	if msg {
		box := image.Rect(l.Window().Min.X, 838, l.Window().Max.X, 894)
		r.shade(box, cShade)
		msg := i18n.T(lang, r.msgKey(s.Message))
		if s.MessageAmount > 0 {
			// "Voucher printed – please take it: € 20.00" (check 33)
			r.buf = append(append(r.buf[:0], msg...), ": "...)
			r.buf = i18n.AppendMoney(r.buf, s.Language, s.Currency, s.MessageAmount)
			r.fBody.DrawB(r.frame, r.buf, W/2, box.Min.Y+8, Center, cWhite)
		} else {
			r.fBody.Draw(r.frame, msg, W/2, box.Min.Y+8, Center, cWhite)
		}
	} else if s.RiskOffer && r.blink(now, time.Second) {
		r.fLabel.Draw(r.frame, i18n.T(lang, "risk.offer"), 60, 120, Left, cGold)
	} else if s.Mode == view.ModeWagering {
		r.fBody.Draw(r.frame, i18n.T(lang, "wagering"), W/2, 848, Center, cText)
	}
	if s.Auto {
		r.fLabel.Draw(r.frame, i18n.T(lang, "auto.on"), W-60, 196, Right, cGold)
	}
	r.clock(now)
}

// clock draws the time of day (24 h, the cabinet's zone) at the top
// right, under the jackpot meters; the frame stays right until the next
// minute.
func (r *Renderer) clock(now time.Time) {
	h, m, _ := now.Clock()
	var b [5]byte
	b[0], b[1], b[2], b[3], b[4] = byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10)
	r.fSmall.DrawB(r.frame, b[:], W-60, 146, Right, cDim)
	r.until(now.Truncate(time.Minute).Add(time.Minute))
}

const spinSpeed = 22.0 // cells per second

// restSym is what a reel shows before the first round: a fixed mix of
// paying symbols.
func restSym(g engine.GameID, reel, row int) engine.Symbol {
	m, ok := restMixes[g]
	if !ok {
		m = restMixes[engine.WishStar]
	}
	return engine.Symbol(m.first + (reel*3+row*m.step)%m.n)
}

// restMixes are each game's resting screen: cell (reel, row) shows symbol
// first + (3·reel + step·row) mod n, n paying symbols from first.
var restMixes = map[engine.GameID]struct{ first, step, n int }{
	engine.WishStar:   {0, 4, 10},
	engine.MagicStars: {1, 5, 8},
}

func (r *Renderer) drawSym(g engine.GameID, sym engine.Symbol, blurred bool, at image.Point, clip image.Rectangle) {
	sp := r.sprites[g]
	if int(sym) >= nSym || sp[sym][0] == nil {
		r.fill(clip, cRedDark)
		return
	}
	b := 0
	if blurred {
		b = 1
	}
	src := sp[sym][b]
	dst := src.Bounds().Add(at).Intersect(clip)
	draw.Draw(r.frame, dst, src, dst.Min.Sub(at), draw.Src)
}

// spinCell draws the part of a reel's moving strip that shows in cell:
// strip index 0..2 are the final rows, negative ones come from the
// game's pseudo-strip. top is the strip position of the window's top.
func (r *Renderer) spinCell(g engine.GameID, st *engine.Step, reel, row int, top float64, cell image.Rectangle) {
	l := LayoutOf(g)
	pitch := float64(l.CellH + l.Gap)
	strip := r.strips[g]
	pos := top + float64(row)
	first := int(math.Floor(pos))
	for k := first; k <= first+1; k++ {
		y := cell.Min.Y + int(math.Round((float64(k)-pos)*pitch))
		var sym engine.Symbol
		blurred := true
		if k >= 0 && k < 3 && st != nil {
			sym, blurred = st.Screen[reel][k], pos < -0.6
		} else {
			n := len(strip)
			sym = strip[((-k+reel*5)%n+n)%n]
		}
		if l.Game.LockSpin && st != nil && st.Kind == engine.StepLockSpin && (k < 0 || k > 2) {
			sym = l.Game.Blank
		}
		r.drawSym(g, sym, blurred, image.Pt(cell.Min.X, y), cell)
	}
}

func (r *Renderer) starValue(s *view.Snapshot, st *engine.Step, cell int, rect image.Rectangle) {
	box := image.Rect(rect.Min.X+16, rect.Max.Y-56, rect.Max.X-16, rect.Max.Y-10)
	r.shade(box, cShade)
	if j := st.StarJackpot[cell]; j != engine.NoJackpot {
		r.fValue.Draw(r.frame, i18n.T(s.Language, jackpotKeys[j]), (box.Min.X+box.Max.X)/2, box.Min.Y+4, Center, cGold)
		return
	}
	r.fValue.DrawB(r.frame, r.money(s, st.StarValues[cell]), (box.Min.X+box.Max.X)/2, box.Min.Y+4, Center, cWhite)
}

var jackpotKeys = map[engine.Jackpot]string{engine.Mini: "jackpot.mini", engine.Minor: "jackpot.minor", engine.Major: "jackpot.major", engine.Grand: "jackpot.grand"}

// WSJackpotMultiples are WS-10's fixed multiples of the total stake.
var WSJackpotMultiples = [...]engine.Money{engine.Mini: 20, engine.Minor: 30, engine.Major: 50, engine.Grand: 200}

func (r *Renderer) jackpots(s *view.Snapshot, g engine.GameID) {
	lang := s.Language
	if LayoutOf(g).Game.Jackpot == engine.TierJackpots {
		for i, j := range []engine.Jackpot{engine.Grand, engine.Major, engine.Minor, engine.Mini} {
			amount := WSJackpotMultiples[j] * s.Bet
			for _, v := range s.Jackpots {
				// The central system's amount for this bet; WS-10's multiple otherwise.
				if strings.EqualFold(v.Name, wishstar.JackpotName(j)) && v.Stake == s.Bet {
					amount = v.Amount
				}
			}
			box := image.Rect(560+i*330, 24, 560+i*330+310, 136)
			col := cGold
			if j == engine.Grand {
				r.fill(box, cRedDark)
			} else {
				r.fill(box, cPanel)
			}
			r.border(box, 3, cGoldDim)
			r.fLabel.Draw(r.frame, i18n.T(lang, jackpotKeys[j]), (box.Min.X+box.Max.X)/2, box.Min.Y+10, Center, col)
			r.fValue.DrawB(r.frame, r.money(s, amount), (box.Min.X+box.Max.X)/2, box.Min.Y+56, Center, cWhite)
		}
		return
	}
	// The progressive is Magic Stars' headline prize: centred over the
	// reels, its amount in the field font (it was small and off-centre).
	box := image.Rect(W/2-420, 14, W/2+420, 142)
	r.fill(box, cPanel)
	r.border(box, 3, cGoldDim)
	r.fLabel.Draw(r.frame, i18n.T(lang, "jackpot.progressive"), W/2, box.Min.Y+8, Center, cGold)
	var amount engine.Money
	for _, v := range s.Jackpots {
		if jackpotTier(v.Name) == engine.NoJackpot {
			amount = v.Amount
			break
		}
	}
	r.fField.DrawB(r.frame, r.money(s, amount), W/2, box.Min.Y+46, Center, cWhite)
}

func jackpotTier(name string) engine.Jackpot {
	for j := engine.Mini; j <= engine.Grand; j++ {
		if strings.EqualFold(name, wishstar.JackpotName(j)) {
			return j
		}
	}
	return engine.NoJackpot
}

// featureStrip: free-spin counter, Lock & Spin respins, Magic Stars' three
// stars (MS-11) lit per reel once it has stopped on a star-carrying cell.
func (r *Renderer) featureStrip(s *view.Snapshot, g engine.GameID, rd *view.Round, idx int, st *engine.Step, tl *view.StepTime, now time.Time) {
	lang := s.Language
	marks := LayoutOf(g).Game.Marks
	if marks {
		for reel := range 3 {
			lit := false
			if st != nil {
				stopped := tl == nil || !now.Before(tl.Stops[reel]) || now.Before(tl.Start)
				lit = stopped && st.Marked&(7<<(reel*3)) != 0
			}
			img := r.starOff
			if lit {
				img = r.starOn
			}
			r.blit(img, MSStar(reel).Min)
		}
	}
	if st == nil {
		return
	}
	y := 172
	switch {
	case st.Kind == engine.StepLockSpin:
		x := 120
		r.fLabel.Draw(r.frame, i18n.T(lang, "lock.title"), x, y, Left, cGold)
		r.buf2 = append(r.buf2[:0], i18n.T(lang, "lock.respins")...)
		r.buf2 = append(r.buf2, ": "...)
		r.buf2 = appendInt(r.buf2, st.RespinsLeft)
		r.fLabel.DrawB(r.frame, r.buf2, W-120, y, Right, cWhite)
	case st.Kind == engine.StepFree || st.FreeSpinsLeft > 0:
		r.buf2 = append(r.buf2[:0], i18n.T(lang, "free.title")...)
		r.buf2 = append(r.buf2, ": "...)
		r.buf2 = appendInt(r.buf2, st.FreeSpinsLeft)
		r.buf2 = append(r.buf2, ' ')
		r.buf2 = append(r.buf2, i18n.T(lang, "free.left")...)
		if marks { // the stars stand in the middle
			r.fLabel.DrawB(r.frame, r.buf2, 120, y, Left, cGold)
		} else {
			r.fLabel.DrawB(r.frame, r.buf2, W/2, y, Center, cGold)
			if st.Multiplier > 1 {
				r.buf2 = append(r.buf2[:0], "× "...)
				r.buf2 = appendInt(r.buf2, st.Multiplier)
				r.fLabel.DrawB(r.frame, r.buf2, W-120, y, Right, cGold)
			}
		}
	}
}

// caption is a win's caption: "3 × ELF · 1 WAY  €1.00", "LINE 2 · 3 ×
// CHERRIES  40 Kč", "SCATTER  €0.50", "LOCK & SPIN · MAJOR  €12.50".
func (r *Renderer) caption(b []byte, lang string, cur money.Currency, g engine.GameID, w *engine.Win) []byte {
	switch w.Kind {
	case engine.WinLine:
		b = append(b, i18n.T(lang, "win.line")...)
		b = append(b, ' ')
		b = appendInt(b, w.Line)
		b = append(b, " · "...)
		b = r.appendSymbol(b, lang, g, w.Count, w.Symbol)
	case engine.WinWays:
		// the plural the language has: 1 WAY, 2 WAYS; 1 CESTA, 2 CESTY, 5 CEST
		b = r.appendSymbol(b, lang, g, w.Count, w.Symbol)
		b = append(b, " · "...)
		b = appendInt(b, w.Ways)
		b = append(b, ' ')
		b = append(b, i18n.T(lang, i18n.WaysKey(lang, w.Ways))...)
	case engine.WinScatter:
		b = append(b, i18n.T(lang, "win.scatter")...)
	case engine.WinStar, engine.WinJackpot:
		b = append(b, i18n.T(lang, "lock.title")...)
		if w.Jackpot != engine.NoJackpot {
			b = append(b, " · "...)
			b = append(b, i18n.T(lang, jackpotKeys[w.Jackpot])...)
		}
	}
	b = append(b, "  "...)
	return i18n.AppendMoney(b, lang, cur, w.Amount)
}

// appendSymbol appends "3 × ELF": the count and the symbol's name in lang
// (10, J, Q, K, A as they are).
func (r *Renderer) appendSymbol(b []byte, lang string, g engine.GameID, count int, sym engine.Symbol) []byte {
	if l := LayoutOf(g); count == 0 && l.Game.LineGame() {
		count = l.Reels // a line win spans the reels (MS-8)
	}
	b = appendInt(b, count)
	b = append(b, " × "...)
	name := art.Name(g, sym)
	if k := i18n.SymbolKey(g, name); k != "" {
		return append(b, i18n.T(lang, k)...)
	}
	return append(b, name...)
}

func appendInt(b []byte, v int) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	var d [20]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, d[i:]...)
}

// WinCells is the cells (bit reel*3+row) a win is made of.
func WinCells(g engine.GameID, st *engine.Step, w *engine.Win) uint16 {
	var m uint16
	l := LayoutOf(g)
	switch w.Kind {
	case engine.WinLine:
		if lines := l.Game.Lines; w.Line >= 1 && w.Line <= len(lines) {
			ln := lines[w.Line-1]
			for reel := 0; reel < w.Count && reel < len(ln); reel++ {
				m |= 1 << (reel*3 + int(ln[reel]))
			}
		}
	case engine.WinWays:
		for reel := 0; reel < w.Count && reel < l.Reels; reel++ {
			for row := range l.Rows {
				s := st.Screen[reel][row]
				if s == w.Symbol || reel > 0 && slices.Contains(l.Game.Wilds, s) {
					m |= 1 << (reel*3 + row)
				}
			}
		}
	case engine.WinScatter:
		for reel := range l.Reels {
			for row := range l.Rows {
				if slices.Contains(l.Game.Scatters, st.Screen[reel][row]) {
					m |= 1 << (reel*3 + row)
				}
			}
		}
	case engine.WinStar:
		m = 1 << w.Cell
	case engine.WinJackpot:
		if st.Kind == engine.StepLockSpin {
			if w.Jackpot == engine.Grand {
				m = st.Locked
			} else {
				m = 1 << w.Cell
			}
		} else {
			m = 7 << (st.BonusReel * 3)
		}
	case engine.WinInstant:
		m = 7 << (st.BonusReel * 3)
	}
	return m
}

func (r *Renderer) wins(s *view.Snapshot, g engine.GameID, st *engine.Step, tl *view.StepTime, now time.Time, caption bool) {
	l := LayoutOf(g)
	lang := s.Language
	if st.Kind == engine.StepBonusWin {
		r.bonusReveal(s, g, st, now)
		return
	}
	if len(st.Wins) == 0 {
		if st.FreeSpinsWon > 0 {
			r.banner(s, i18n.T(lang, "free.won"), nil, st.FreeSpinsWon)
		}
		return
	}
	var all uint16
	for i := range st.Wins {
		all |= WinCells(g, st, &st.Wins[i])
	}
	cur := 0
	if tl != nil {
		k := now.Sub(tl.Wins) / (700 * time.Millisecond)
		cur = int(k) % len(st.Wins)
		r.until(tl.Wins.Add((k + 1) * 700 * time.Millisecond))
	}
	w := &st.Wins[cur]
	curCells := WinCells(g, st, w)
	pulse := r.blink(now, 500*time.Millisecond)
	for reel := range l.Reels {
		for row := range l.Rows {
			bit := uint16(1) << (reel*3 + row)
			if all&bit == 0 {
				continue
			}
			c := cGoldDim
			// a line win's line is drawn: its cells need no pulse
			if curCells&bit != 0 && (pulse || l.Game.LineGame()) {
				c = cGold
			}
			r.border(l.Cell(reel, row), 6, c)
		}
	}
	if w.Kind == engine.WinLine && w.Line >= 1 && w.Line <= 5 {
		r.blit(r.lines[w.Line-1], l.Window().Min)
		r.lineNumbers(w.Line)
	}
	if !caption {
		return
	}
	// the current win's caption
	r.buf2 = r.caption(r.buf2[:0], lang, s.Currency, g, w)
	box := image.Rect(l.Window().Min.X, 838, l.Window().Max.X, 894)
	r.shade(box, cShade)
	r.fValue.DrawB(r.frame, r.buf2, W/2, box.Min.Y+8, Center, cGold)
	if st.FullScreen {
		r.fLabel.Draw(r.frame, i18n.T(lang, "win.fullscreen"), W/2, 200, Center, cGold)
	}
}

// banner is a centred announcement over the reels: a title, then an amount
// or a count.
func (r *Renderer) banner(s *view.Snapshot, title string, amount []byte, count int) {
	box := image.Rect(W/2-560, 400, W/2+560, 720)
	r.shade(box, cShade)
	r.border(box, 6, cGold)
	r.fBig.Draw(r.frame, title, W/2, box.Min.Y+30, Center, cGold)
	if amount != nil {
		r.fBig.DrawB(r.frame, amount, W/2, box.Min.Y+160, Center, cWhite)
	} else if count > 0 {
		r.buf2 = appendInt(r.buf2[:0], count)
		r.fBig.DrawB(r.frame, r.buf2, W/2, box.Min.Y+160, Center, cWhite)
	}
}

// bonusReveal is WS-4's bonus win: the wild reel framed and what it gave.
func (r *Renderer) bonusReveal(s *view.Snapshot, g engine.GameID, st *engine.Step, now time.Time) {
	l := LayoutOf(g)
	lang := s.Language
	c := cGold
	if !r.blink(now, 600*time.Millisecond) {
		c = cGoldDim
	}
	r.border(l.Column(st.BonusReel), 8, c)
	box := image.Rect(W/2-600, 380, W/2+600, 740)
	r.shade(box, cShade)
	r.border(box, 6, cGold)
	r.fBig.Draw(r.frame, i18n.T(lang, "bonus.title"), W/2, box.Min.Y+24, Center, cGold)
	var what string
	var amount engine.Money
	for i := range st.Wins {
		w := &st.Wins[i]
		switch w.Kind {
		case engine.WinInstant:
			what, amount = i18n.T(lang, "bonus.instant"), w.Amount
		case engine.WinJackpot:
			what, amount = i18n.T(lang, jackpotKeys[w.Jackpot]), w.Amount
		}
	}
	if what == "" && st.FreeSpinsWon > 0 {
		r.fBig.Draw(r.frame, i18n.T(lang, "bonus.free"), W/2, box.Min.Y+170, Center, cWhite)
		return
	}
	r.fLabel.Draw(r.frame, what, W/2, box.Min.Y+140, Center, cText)
	r.fBig.DrawB(r.frame, r.money(s, amount), W/2, box.Min.Y+200, Center, cWhite)
}

// FieldLabels are the catalogue keys of the fields' labels.
var FieldLabels = [3]string{"field.credit", "field.bet", "field.win"}

func (r *Renderer) fields(s *view.Snapshot, now time.Time) {
	r.countingUp(s, now)
	credit, win := shownFields(s, now)
	for f := FieldCredit; f <= FieldWin; f++ {
		box := FieldRect(f)
		r.fill(box, cField)
		r.border(box, 3, cFrame)
		r.fSmall.Draw(r.frame, i18n.T(s.Language, FieldLabels[f]), (box.Min.X+box.Max.X)/2, box.Min.Y+4, Center, cDim)
		amount := credit
		switch f {
		case FieldBet:
			amount = s.Bet
		case FieldWin:
			amount = win
		}
		r.FieldText(r.frame, s, f, amount)
	}
}

// FieldText draws a field's amount into its FieldValue box; tests draw the
// expected amount with it into a blank box to compare.
func (r *Renderer) FieldText(dst *image.RGBA, s *view.Snapshot, f Field, amount engine.Money) {
	v := FieldValue(f)
	r.buf = i18n.AppendMoney(r.buf[:0], s.Language, s.Currency, amount)
	r.fField.DrawB(dst, r.buf, (v.Min.X+v.Max.X)/2, v.Min.Y, Center, cWhite)
}

var hintKeys = map[view.Button]string{
	view.Start: "hint.start", view.Auto: "hint.auto", view.Risk: "hint.risk", view.Stop: "hint.stop",
	view.BetMinus: "hint.bet_minus", view.BetPlus: "hint.bet_plus", view.Collect: "hint.collect",
}

// hints are the deck buttons as the lamps say: lit, blinking or dark.
func (r *Renderer) hints(s *view.Snapshot, now time.Time) {
	for i, b := range view.Buttons {
		box := HintRect(i, len(view.Buttons))
		on := false
		switch s.Lamps[b] {
		case view.LampOn:
			on = true
		case view.LampBlink:
			on = r.blink(now, 600*time.Millisecond)
		}
		key := hintKeys[b]
		if s.Mode == view.ModeRisk {
			if b == view.BetMinus {
				key = "hint.red"
			} else if b == view.BetPlus {
				key = "hint.black"
			}
		}
		if on {
			r.fill(box, cLampOn)
			r.fLabel.Draw(r.frame, i18n.T(s.Language, key), (box.Min.X+box.Max.X)/2, box.Min.Y+10, Center, cHint)
		} else {
			r.fill(box, cLampOff)
			r.fLabel.Draw(r.frame, i18n.T(s.Language, key), (box.Min.X+box.Max.X)/2, box.Min.Y+10, Center, cDim)
		}
	}
	if r.Touch {
		box := InfoTarget()
		r.fill(box, cLampOff)
		r.border(box, 3, cGoldDim)
		r.fField.Draw(r.frame, "i", (box.Min.X+box.Max.X)/2, box.Min.Y-4, Center, cGold)
	}
}

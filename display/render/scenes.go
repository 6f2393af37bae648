package render

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"strconv"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/display/art"
	"github.com/polaris-vlt/polaris/display/i18n"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/magicstars"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// blur smears a sprite vertically: what a spinning reel shows.
func blur(src *image.RGBA) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(b)
	const k = 9
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			var s [4]int
			n := 0
			for d := -k; d <= k; d++ {
				yy := y + d*3
				if yy < b.Min.Y || yy >= b.Max.Y {
					continue
				}
				o := src.PixOffset(x, yy)
				for i := range 4 {
					s[i] += int(src.Pix[o+i])
				}
				n++
			}
			o := dst.PixOffset(x, y)
			for i := range 4 {
				dst.Pix[o+i] = uint8(s[i] / n)
			}
		}
	}
	return dst
}

func background(g engine.GameID) *image.RGBA { return art.Background(string(g), W, H) }

func disc(size int, c color.RGBA) *image.RGBA { return art.Disc(size, c) }

func (r *Renderer) buildMSArt() {
	l := LayoutOf(engine.MagicStars)
	win := l.Window()
	for i, ln := range magicstars.Lines {
		var pts []image.Point
		for reel, row := range ln {
			c := l.Cell(reel, int(row))
			pts = append(pts, image.Pt((c.Min.X+c.Max.X)/2-win.Min.X, (c.Min.Y+c.Max.Y)/2-win.Min.Y))
		}
		first, last := pts[0], pts[len(pts)-1]
		pts = append([]image.Point{{0, first.Y}}, pts...)
		pts = append(pts, image.Pt(win.Dx(), last.Y))
		r.lines[i] = art.Polyline(win.Dx(), win.Dy(), pts, 10, color.RGBA{230, 180, 30, 230})
	}
	// A line's number stands where it enters (left) and leaves (right)
	// the reels; numbers sharing a row's edge stack apart.
	var used [2][3]int
	for i, ln := range magicstars.Lines {
		for side, reel := range [2]int{0, 2} {
			row := int(ln[reel])
			n := 0
			for _, o := range magicstars.Lines {
				if int(o[reel]) == row {
					n++
				}
			}
			k := used[side][row]
			used[side][row]++
			c := l.Cell(reel, row)
			y := (c.Min.Y+c.Max.Y)/2 + (2*k-(n-1))*(lineTag/2+4)
			x := win.Min.X - 18 - lineTag
			if side == 1 {
				x = win.Max.X + 18
			}
			r.lineTags[i][side] = image.Rect(x, y-lineTag/2, x+lineTag, y+lineTag/2)
		}
	}
	r.starOn = art.StarLamp(80, true)
	r.starOff = art.StarLamp(80, false)
	r.badge = art.Badge(44)
}

// lineTag is the side of a Magic Stars line number's square.
const lineTag = 44

var lineLabels = [5]string{"1", "2", "3", "4", "5"}

// lineNumbers draws Magic Stars' line numbers at both edges of the reels;
// lit (1..5, 0 none) is the line being shown, in gold.
func (r *Renderer) lineNumbers(lit int) {
	for i, tags := range r.lineTags {
		bg, fg := cGoldDim, cText
		if i+1 == lit {
			bg, fg = cGold, cBlack
		}
		for _, t := range tags {
			r.fill(t, bg)
			r.fLabel.Draw(r.frame, lineLabels[i], (t.Min.X+t.Max.X)/2, t.Min.Y+4, Center, fg)
		}
	}
}

const cardW, cardH = 300, 420

func (r *Renderer) buildCards() {
	for s := range 4 {
		r.suits[s] = art.Suit(s, 150)
	}
	r.card = art.Card(cardW, cardH, false)
	r.back = art.Card(cardW, cardH, true)
}

var rankNames = [13]string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}

// drawCard draws card c (or its back when back) scaled to full size at at.
func (r *Renderer) drawCard(c engine.Card, back bool, at image.Point) {
	if back {
		r.blit(r.back, at)
		return
	}
	r.blit(r.card, at)
	col := cBlack
	if c.Colour() == engine.Red {
		col = cRed
	}
	r.fBig.Draw(r.frame, rankNames[c.Rank()], at.X+24, at.Y+12, Left, col)
	r.blit(r.suits[c.Suit()], at.Add(image.Pt((cardW-150)/2, 200)))
}

// ---- attract ------------------------------------------------------------

// attractGames is what attract mode parades, two rows of symbols, and its
// title: one row per game the market offers, or both rows of its only game
// with its name (a Czech cabinet once paraded Wish Upon a Star, which it
// does not offer, under "Two games").
func attractGames(s *view.Snapshot) ([]engine.GameID, string) {
	games := s.Games
	if len(games) == 0 {
		games = []engine.GameID{s.Game}
	}
	if len(games) == 1 {
		return []engine.GameID{games[0], games[0]}, i18n.T(s.Language, "game."+string(games[0]))
	}
	return games[:2], i18n.T(s.Language, "attract.choose")
}

// attractSays: the attract screen shows msg, a player's refusal or a
// blocked Start (the others belong to a game's screen).
func attractSays(msg string) bool {
	return strings.HasPrefix(msg, view.MsgPlayer) || strings.HasPrefix(msg, view.MsgBlocked)
}

func (r *Renderer) attractScene(s *view.Snapshot, now time.Time) {
	copy(r.frame.Pix, r.attract.Pix)
	// the parade steps every 50 ms: smooth enough for a backdrop, and an
	// attracting cabinet draws 20 frames a second instead of 60
	const step = 50 * time.Millisecond
	tick := now.UnixNano() / int64(step)
	r.until(time.Unix(0, (tick+1)*int64(step)))
	lang := s.Language
	rows, title := attractGames(s)
	for i, g := range rows {
		l := LayoutOf(g)
		syms := art.Symbols(g)
		pitch := l.CellW + 30
		span := pitch * len(syms)
		off := int(tick*int64(step/time.Millisecond)/12) % span
		y := 300 + i*(l.CellH+40)
		row := image.Rect(0, y, W, y+l.CellH)
		for k, sym := range syms {
			if l.Game.LockSpin && sym == l.Game.Blank {
				continue // an empty Lock & Spin cell is no symbol to show
			}
			x := (k*pitch-off+span)%span - pitch
			if i == 1 {
				x = W - x - l.CellW
			}
			r.drawSym(g, sym, false, image.Pt(x, y), row)
		}
	}
	r.fHuge.Draw(r.frame, "POLARIS", W/2, 60, Center, cGold)
	r.fBody.Draw(r.frame, title, W/2, 230, Center, cText)
	if attractSays(s.Message) {
		// A card refused or play blocked, said at no credit (a cz player
		// inserts the card before any money): in place of the invitation,
		// which it contradicts.
		f, t := r.fField, i18n.T(lang, r.msgKey(s.Message))
		if f.Width(t) > W-80 {
			f = r.fBody
		}
		f.Draw(r.frame, t, W/2, 790, Center, cGold)
	} else if r.blink(now, 1600*time.Millisecond) {
		f, t := r.fBig, i18n.T(lang, "attract.insert")
		if f.Width(t) > W-80 {
			f = r.fField
		}
		f.Draw(r.frame, t, W/2, 780, Center, cWhite)
	}
	if s.Credit > 0 {
		r.fBody.Draw(r.frame, i18n.T(lang, "attract.play"), W/2, 880, Center, cGold)
	}
	r.fields(s, now)
	r.hints(s, now)
}

// ---- Risk (MS-9, MS-10) --------------------------------------------------

func (r *Renderer) riskScene(s *view.Snapshot, now time.Time) {
	copy(r.frame.Pix, r.bg[engine.MagicStars].Pix)
	lang := s.Language
	rv := s.Risk
	r.fBig.Draw(r.frame, i18n.T(lang, "risk.title"), W/2, 30, Center, cGold)
	if s.Mode == view.ModeRisk {
		r.fBody.Draw(r.frame, i18n.T(lang, "risk.choose"), W/2, 150, Center, cText)
	}
	// the card: the last drawn face up, else its back
	at := image.Pt(W/2-cardW/2, 230)
	if rv.Last != nil {
		r.drawCard(rv.Last.Card, false, at)
		res, col := "risk.lost", cRed
		if rv.Last.Won {
			res, col = "risk.won", cGreen
		}
		r.fBig.Draw(r.frame, i18n.T(lang, res), W/2, 670, Center, col)
	} else {
		r.drawCard(0, true, at)
	}
	// at stake and if right
	left := image.Rect(160, 300, 700, 520)
	right := image.Rect(W-700, 300, W-160, 520)
	boxes := []image.Rectangle{left, right}
	stake := rv.Win
	if s.Mode != view.ModeRisk && rv.Last != nil && !rv.Last.Won {
		// Risk is over: the card shows what it took, and nothing is at stake.
		boxes, stake = boxes[:1], rv.Last.Before
	}
	for i, box := range boxes {
		r.fill(box, cPanel)
		r.border(box, 4, cGoldDim)
		key, amount := "risk.stake", stake
		if i == 1 {
			key, amount = "risk.double", 2*rv.Win
		}
		r.fLabel.Draw(r.frame, i18n.T(lang, key), (box.Min.X+box.Max.X)/2, box.Min.Y+20, Center, cGold)
		r.fField.DrawB(r.frame, r.money(s, amount), (box.Min.X+box.Max.X)/2, box.Min.Y+100, Center, cWhite)
	}
	// the last cards, newest on the right
	if n := len(rv.History); n > 0 {
		r.fSmall.Draw(r.frame, i18n.T(lang, "risk.history"), 160, 560, Left, cDim)
		for i := range min(n, 8) {
			h := rv.History[n-min(n, 8)+i]
			box := image.Rect(160+i*70, 600, 160+i*70+60, 680)
			col := cBlack
			if h.Card.Colour() == engine.Red {
				col = cRed
			}
			r.fill(box, cWhite)
			r.fLabel.Draw(r.frame, rankNames[h.Card.Rank()], (box.Min.X+box.Max.X)/2, box.Min.Y+22, Center, col)
		}
	}
	r.fields(s, now)
	r.hints(s, now)
}

// ---- status screens -------------------------------------------------------

// status dims what is behind and shows a panel: a title, a body line and
// the reasons (tilt reasons as the firmware words them, doors by name).
func (r *Renderer) status(s *view.Snapshot, keys [2]string, reasons []string, now time.Time) {
	lang := s.Language
	r.shade(r.frame.Bounds(), cShade)
	box := image.Rect(260, 220, W-260, 860)
	r.fill(box, cPanel)
	edge := cRed
	switch s.Mode {
	case view.ModeDoorOpen, view.ModeCashout, view.ModeStarting, view.ModeBreak:
		edge = cGold
	}
	if s.Mode == view.ModeTilt || s.Mode == view.ModeRAMError {
		if !r.blink(now, time.Second) {
			edge = cRedDark
		}
	}
	r.border(box, 10, edge)
	r.fBig.Draw(r.frame, i18n.T(lang, keys[0]), W/2, box.Min.Y+50, Center, cWhite)
	r.fBody.Draw(r.frame, i18n.T(lang, keys[1]), W/2, box.Min.Y+190, Center, cText)
	y := box.Min.Y + 280
	for i, reason := range reasons {
		if i == 7 {
			break
		}
		text := reason
		if k, ok := doorKeys[reason]; ok && s.Mode == view.ModeDoorOpen {
			text = i18n.T(lang, k)
		}
		if s.Mode != view.ModeDoorOpen && i < len(s.TiltKinds) && len(s.TiltKinds) == len(reasons) {
			// The kind in the screen's language, then the firmware's
			// detail, without the kind it may repeat ("printer: …").
			label := i18n.T(lang, "tilt."+s.TiltKinds[i])
			w := r.fBody.Draw(r.frame, label, box.Min.X+60, y, Left, cGold)
			text = strings.TrimPrefix(reason, s.TiltKinds[i]+": ")
			if i < len(s.TiltLines) && s.TiltLines[i].Key != "" {
				text = i18n.Line(lang, s.Currency, s.TiltLines[i])
			}
			r.fBody.DrawFit(r.frame, text, box.Min.X+60+w+24, y, box.Dx()-144-w, Left, cText)
			y += 46
			continue
		}
		r.fBody.DrawFit(r.frame, text, box.Min.X+60, y, box.Dx()-120, Left, cGold)
		y += 46
	}
	if s.Mode == view.ModeCashout {
		r.fField.DrawB(r.frame, r.money(s, s.Credit), W/2, box.Min.Y+300, Center, cWhite)
	}
	if s.Lockup != nil && s.Mode == view.ModeTilt {
		// A handpay waits behind the fault (the printer's, most often):
		// say so, or the attendant sees only the fault.
		r.handpayLine(s, box, box.Max.Y-80)
	}
}

// handpayMessage: the status message is about the handpay's paper.
func handpayMessage(s *view.Snapshot) bool {
	return strings.HasPrefix(s.Message, "handpay_") || s.Message == view.MsgPINRefused
}

// handpayOnPanel: the lockup's or the fault's panel shows the handpay's
// message, so the status line under it does not repeat it.
func handpayOnPanel(s *view.Snapshot) bool {
	return s.Lockup != nil && handpayMessage(s) && (s.Mode == view.ModeLockup || s.Mode == view.ModeTilt)
}

// handpayLine is the handpay's status under a lockup or a fault: why it
// waits, or the message of its paper; without one, the lockup's amount.
func (r *Renderer) handpayLine(s *view.Snapshot, box image.Rectangle, y int) {
	lang := s.Language
	msg := i18n.T(lang, "lockup."+s.Lockup.Kind)
	amount := s.Lockup.Amount
	if handpayMessage(s) {
		msg, amount = i18n.T(lang, r.msgKey(s.Message)), s.MessageAmount
	}
	r.buf = append(r.buf[:0], msg...)
	if amount > 0 {
		r.buf = append(r.buf, ": "...)
		r.buf = i18n.AppendMoney(r.buf, s.Language, s.Currency, amount)
	}
	r.fBody.DrawFit(r.frame, string(r.buf), (box.Min.X+box.Max.X)/2, y, box.Dx()-120, Center, cGold)
}

var lockupKeys = map[string]string{
	"handpay_win": "lockup.handpay_win", "handpay_jackpot": "lockup.handpay_jackpot",
	"handpay_cancelled_credit": "lockup.handpay_cancelled_credit",
}

// lockup is a handpay or jackpot: the amount and "call the attendant".
func (r *Renderer) lockup(s *view.Snapshot, now time.Time) {
	lang := s.Language
	r.shade(r.frame.Bounds(), cShade)
	box := image.Rect(200, 180, W-200, 900)
	r.fill(box, cPanel)
	c := cGold
	if !r.blink(now, 700*time.Millisecond) {
		c = cGoldDim
	}
	r.border(box, 12, c)
	kind, amount := "handpay_win", engine.Money(0)
	if s.Lockup != nil {
		kind, amount = s.Lockup.Kind, s.Lockup.Amount
	}
	key, ok := lockupKeys[kind]
	if !ok {
		key = "lockup.handpay_win"
	}
	r.fBig.Draw(r.frame, i18n.T(lang, key), W/2, box.Min.Y+50, Center, cGold)
	r.fHuge.DrawB(r.frame, r.money(s, amount), W/2, box.Min.Y+230, Center, cWhite)
	r.fBig.Draw(r.frame, i18n.T(lang, "lockup.call"), W/2, box.Min.Y+440, Center, cText)
	if handpayMessage(s) {
		// why the handpay waits (the printer), or what its paper did
		r.fBody.Draw(r.frame, i18n.T(lang, r.msgKey(s.Message)), W/2, box.Min.Y+600, Center, cGold)
		return
	}
	r.fBody.Draw(r.frame, i18n.T(lang, "lockup.form"), W/2, box.Min.Y+600, Center, cDim)
}

// menu is a technician or attendant page as the firmware publishes it.
func (r *Renderer) menu(s *view.Snapshot) {
	lang := s.Language
	r.fill(r.frame.Bounds(), cPanel)
	title := "menu"
	var lines []view.MenuLine
	if s.Menu != nil {
		title, lines = s.Menu.Title, s.Menu.Lines
	}
	r.fBig.Draw(r.frame, i18n.T(lang, title), 80, 40, Left, cGold)
	r.fill(image.Rect(80, 160, W-80, 164), cGoldDim)
	if s.Menu != nil && s.Menu.Recall != nil {
		r.recall(s, s.Menu.Recall)
		r.fSmall.Draw(r.frame, i18n.T(lang, MenuHint(s.Menu)), W/2, H-50, Center, cDim)
		r.pageOf(s)
		return
	}
	y := 190
	for i, ln := range lines {
		if i == view.MenuLines {
			break
		}
		r.menuLine(s, ln, y)
		y += 26
	}
	if len(lines) == 0 {
		r.fBody.Draw(r.frame, i18n.T(lang, "menu.empty"), 80, y, Left, cDim)
	}
	r.fSmall.Draw(r.frame, i18n.T(lang, MenuHint(s.Menu)), W/2, H-50, Center, cDim)
	r.pageOf(s)
}

// MenuHint is the catalogue key of a menu page's footer: what the deck's
// buttons do on it. The firmware names it where they do something else than
// page (a digit or a setting being entered); the player's game menu has no
// key to turn back; a page with no other page to go to (test mode, a
// handpay's printer, a RAM clear) is not paged.
func MenuHint(m *view.MenuPage) string {
	switch {
	case m == nil:
		return "menu.hint"
	case m.Hint != "":
		return m.Hint
	case m.Title == "menu.games":
		return "menu.games.help"
	case m.Pages <= 1:
		return "menu.hint.leave"
	}
	return "menu.hint"
}

// menuColumns are where a menu line's columns start: a tab in its
// translated text moves on to the next.
var menuColumns = [...]int{80, 720, 1180, 1560}

// menuLine draws one line in the screen's language, column by column.
func (r *Renderer) menuLine(s *view.Snapshot, ln view.MenuLine, y int) {
	r.buf2 = i18n.AppendLine(r.buf2[:0], s.Language, s.Currency, ln)
	b := r.buf2
	for col := 0; col < len(menuColumns); col++ {
		seg := b
		end := bytes.IndexByte(b, '\t')
		if end >= 0 && col < len(menuColumns)-1 {
			seg, b = b[:end], b[end+1:]
		} else {
			b = nil
		}
		right := W - 80
		if col+1 < len(menuColumns) && b != nil {
			right = menuColumns[col+1] - 20
		}
		r.fMono.DrawFit(r.frame, string(seg), menuColumns[col], y, right-menuColumns[col], Left, cText)
		if b == nil {
			return
		}
	}
}

// pageOf shows where the page is in the menu ("3 / 11").
func (r *Renderer) pageOf(s *view.Snapshot) {
	if s.Menu == nil || s.Menu.Pages == 0 {
		return
	}
	b := strconv.AppendInt(r.buf2[:0], int64(s.Menu.Page), 10)
	b = append(b, " / "...)
	b = strconv.AppendInt(b, int64(s.Menu.Pages), 10)
	r.buf2 = b
	r.fSmall.DrawB(r.frame, b, W-80, H-50, Right, cDim)
}

// ---- the devkit --------------------------------------------------------

// PanelH is the height of the devkit panel under the cabinet screen.
const PanelH = 120

// DevkitInfo is what the devkit panel shows besides the snapshot.
type DevkitInfo struct {
	Keys  []string // key switches turned on
	Notes string   // acceptor or printer state line
}

var towerColours = []struct {
	name string
	c    color.RGBA
}{{"red", color.RGBA{230, 30, 30, 255}}, {"yellow", color.RGBA{240, 210, 30, 255}}, {"white", color.RGBA{240, 240, 240, 255}}, {"green", color.RGBA{40, 200, 70, 255}}}

// Devkit draws the devkit panel (W×PanelH): the deck's lamps and the tower
// light as the snapshot sets them, the doors and keys, a hint for help.
func (r *Renderer) Devkit(dst *image.RGBA, s *view.Snapshot, info DevkitInfo, now time.Time) {
	draw.Draw(dst, dst.Bounds(), cBlack, image.Point{}, draw.Src)
	if s == nil {
		return
	}
	lang := s.Language
	for i, b := range view.Buttons {
		x := 40 + i*170
		on := s.Lamps[b] == view.LampOn || s.Lamps[b] == view.LampBlink && r.blink(now, 600*time.Millisecond)
		img := r.lamp[0]
		if on {
			img = r.lamp[1]
		}
		draw.Draw(dst, img.Bounds().Add(image.Pt(x+53, 12)), img, image.Point{}, draw.Over)
		r.fTiny.Draw(dst, i18n.T(lang, hintKeys[b]), x+75, 66, Center, cText)
	}
	// the tower: which lamp is lit follows app.setTower
	tx := 1250
	r.fTiny.Draw(dst, i18n.T(lang, "devkit.tower"), tx, 90, Left, cDim)
	for i, tc := range towerColours {
		lit := false
		switch s.Tower {
		case "tilt":
			lit = tc.name == "red" && r.blink(now, 250*time.Millisecond)
		case "door":
			lit = tc.name == "yellow" && r.blink(now, time.Second)
		case "call":
			lit = tc.name == "white" && r.blink(now, 400*time.Millisecond)
		default: // test mode's tower test: "test:<colour>", steady
			lit = s.Tower == "test:"+tc.name
		}
		c := r.tower[i][0]
		if lit {
			c = r.tower[i][1]
		}
		draw.Draw(dst, image.Rect(tx, 10+i*19, tx+90, 26+i*19), c, image.Point{}, draw.Src)
	}
	x := 1380
	for _, d := range s.Doors {
		r.fTiny.Draw(dst, i18n.T(lang, doorKeys[d]), x, 10, Left, cGold)
		x += r.fTiny.Width(i18n.T(lang, doorKeys[d])) + 16
	}
	x = 1380
	for _, k := range info.Keys {
		x += r.fTiny.Draw(dst, k, x, 40, Left, cGold) + 16
	}
	r.fTiny.Draw(dst, info.Notes, 1380, 66, Left, cText)
	r.fTiny.Draw(dst, i18n.T(lang, "devkit.help"), W-30, 92, Right, cDim)
}

var helpKeys = []string{"help.buttons", "help.keys", "help.doors", "help.notes", "help.faults", "help.toggle"}

// Help draws the devkit's key overlay on dst.
func (r *Renderer) Help(dst *image.RGBA, lang string) {
	box := image.Rect(120, 200, W-120, 720)
	draw.Draw(dst, box, uni(0, 0, 0, 230), image.Point{}, draw.Over)
	r.fBig.Draw(dst, i18n.T(lang, "help.title"), W/2, box.Min.Y+20, Center, cGold)
	y := box.Min.Y + 150
	for _, k := range helpKeys {
		r.fBody.DrawFit(dst, i18n.T(lang, k), box.Min.X+50, y, box.Dx()-100, Left, cWhite)
		y += 56
	}
}

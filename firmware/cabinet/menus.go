package cabinet

import (
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/market"
)

// menuState is the keys' pages and test mode.
type menuState struct {
	menu       *view.MenuPage
	menuPage   int
	recall     []recallGame // read when a menu opens
	recallStep int          // the step on a recall page
	// handpayChoice: the attendant's key is on a large-win lockup the
	// market lets go to the credit meter; Start or the key back decides.
	handpayChoice bool
}

// show opens page p (or shows it again).
func (m *menuState) show(p *view.MenuPage) { m.menu = p }

// close closes the page open.
func (m *menuState) close() { m.menu = nil }

// closeIf closes the page open if it is one of titles.
func (m *menuState) closeIf(titles ...string) {
	if m.menu != nil && slices.Contains(titles, m.menu.Title) {
		m.menu = nil
	}
}

// closeAll: the keys are off; nothing of their pages stays.
func (m *menuState) closeAll() { m.menu, m.recall = nil, nil }

// offerTransfer asks the attendant, key turned, about a large-win lockup
// of amount: Start puts the win on the credit meter; turning the key back
// pays it by hand.
func (m *menuState) offerTransfer(amount int64) {
	m.handpayChoice = true
	m.menu = &view.MenuPage{Title: "menu.handpay", Lines: []view.MenuLine{
		view.Line("menu.handpay.amount", view.Money(amount)),
		view.Line("menu.handpay.start"), view.Line("menu.handpay.key")}, Hint: hintHandpayChoice}
}

// transferDecided: the attendant chose (Start, or the key back).
func (m *menuState) transferDecided() {
	m.handpayChoice = false
	m.menu = nil
}

// open starts the keys' pages at their first page.
func (m *menuState) open(recall []recallGame) {
	m.menuPage, m.recallStep = 0, 0
	m.recall = recall
}

// page moves through the pages (Bet±) and a recall's steps (Start, Stop);
// false: b is not one of those.
func (m *menuState) page(b view.Button) bool {
	switch b {
	case view.BetPlus:
		m.menuPage++
		m.recallStep = 0
	case view.BetMinus:
		if m.menuPage > 0 {
			m.menuPage--
		}
		m.recallStep = 0
	case view.Start:
		m.recallStep++
	case view.Stop:
		m.recallStep--
	default:
		return false
	}
	return true
}

// showPages shows the page the menu is on of ps, read from src.
func (m *menuState) showPages(ps []page, src pageSource) {
	m.menuPage = min(max(m.menuPage, 0), len(ps)-1)
	p := ps[m.menuPage](src)
	p.Page, p.Pages = m.menuPage+1, len(ps)
	m.menu = p
}

// key handles the key switches. The attendant key resets a lockup, or
// opens the attendant pages (recall, money history); the technician key
// clears tilts that need a technician and opens the audit pages. Neither
// opens a menu during play or a cash-out unless a fault stopped it
// (check 29).
func (c *Cabinet) key(name string, on bool) {
	c.cond.setKey(name, on)
	if c.test != nil {
		// Test mode ends only with the technician key; other keys do
		// nothing meanwhile.
		if name == "technician" && !on {
			c.leaveTest()
			c.menus.closeAll()
		}
		return
	}
	if !on && name == "attendant" && c.menus.handpayChoice {
		// The key turned back without Start: paid by hand.
		c.menus.transferDecided()
		c.resetHandpay()
	}
	if !on && name == "attendant" {
		c.handpay.keyOff()
		c.menus.closeIf(menuAttendantPIN, menuHandpayWaits)
	}
	if !on {
		if !c.cond.keys["attendant"] && !c.cond.keys["technician"] {
			c.menus.closeAll()
		} else if c.menus.menu != nil {
			c.showMenu()
		}
		return
	}
	c.logEvent("key", name, "on", 0)
	switch name {
	case "attendant":
		if len(c.cond.lockups) > 0 {
			c.handpayKey()
			return
		}
		if co := c.cashOut.voucher; co != nil && co.unanswered(c.holds(condLinkDown)) {
			c.menus.show(voucherUnansweredPage(co.amount))
			return
		}
	case "technician":
		if c.cond.ramError {
			c.menus.show(&view.MenuPage{Title: "menu.ram_clear", Lines: []view.MenuLine{view.Line("menu.ram_clear.start")}})
			return
		}
		// A ledger copy that could not be written is rebuilt from the good
		// one first: until then no tilt's end could be journaled. Still
		// unfit, its tilt stays with the new cause; no good copy left is a
		// RAM error.
		if err := c.led.Repair("technician"); c.refused("the ledger copy's repair", err, moneyWrite) {
			break
		}
		if c.cond.powerUpOwed {
			c.cond.owePowerUp(c.refused("the power-up", c.led.PowerUp(), moneyWrite))
		}
		for k, t := range c.cond.clearManualTilts(tiltSoftwareChanged) {
			c.refused("the tilt cleared "+k, c.led.ClearTilt(k, "technician", t.reason), recordWrite)
		}
		if _, ok := c.cond.tilts[tiltSoftwareChanged]; ok {
			// A changed program is accepted only with Start (check 9).
			c.menus.show(&view.MenuPage{Title: "menu.software_changed", Lines: []view.MenuLine{
				view.Line("menu.text", view.Text(c.cond.tilts[tiltSoftwareChanged].reason)),
				view.Line("menu.software_changed.start")}})
			return
		}
	default:
		return
	}
	// Menus open in idle and in error states, never in a round or a
	// cash-out that no fault has stopped (check 29).
	if allowed := c.play.round == nil && c.cashOut.voucher == nil || c.conditions().faulted(); c.menus.menu == nil && !allowed {
		c.say(view.MsgMenuRefused, 0)
		c.logEvent("menu_refused", name, "during play or cash-out", 0)
		return
	}
	c.tech.opened()
	c.openMenu()
}

// openMenu opens the keys' pages at the first, the recall read again.
func (c *Cabinet) openMenu() {
	c.menus.open(loadRecall(c.led, c.outcomes))
	c.showMenu()
}

// menuPress pages through the menu with Bet− and Bet+; on a recall page
// Start and Stop page through the game's steps. In a RAM error the
// technician confirms the RAM clear with Start; a software change is
// accepted the same way.
func (c *Cabinet) menuPress(b view.Button) {
	if c.menus.menu != nil && c.menus.menu.Title == menuGames {
		c.gameMenuPress(b)
		return
	}
	if c.cond.ramError {
		if b == view.Start && c.cond.keys["technician"] {
			c.ramClear()
		}
		return
	}
	if c.handpayPress(b) {
		return
	}
	if b == view.Start && c.menus.menu != nil && c.menus.menu.Title == menuTest {
		c.enterTest()
		return
	}
	if c.menus.menu != nil && c.menus.menu.Title == menuConfig && c.cond.keys["technician"] && c.configPress(b) {
		return
	}
	if c.menus.menu != nil && c.menus.menu.Title == menuSoftware && c.cond.keys["technician"] && c.seedPress(b) {
		return
	}
	if b == view.Auto && c.menus.menu != nil {
		c.printAudit()
		return
	}
	if c.menus.handpayChoice {
		if b == view.Start {
			c.menus.transferDecided()
			c.transferHandpay()
		}
		return
	}
	if _, ok := c.cond.tilts[tiltSoftwareChanged]; ok && c.cond.keys["technician"] {
		if b == view.Start {
			c.acceptSoftware()
		}
		return
	}
	if c.menus.page(b) {
		c.showMenu()
	}
}

// menuPages lists the open menu's pages: the technician's audit pages and
// the recall, or the attendant's recall (one page per game) and money
// history.
// The list pages are split into pages the screen draws whole (paged,
// check 12), which needs what they read: s.
func menuPages(s pageSource, tech bool, recalled int) []page {
	var ps []page
	if tech {
		for _, p := range []page{auditPage, metersPage, linkPage, softwarePage, configPage, eventsPage, historyPage} {
			ps = append(ps, paged(p, s)...)
		}
		ps = append(ps, testPage)
	}
	for i := range max(recalled, 1) {
		ps = append(ps, func(s pageSource) *view.MenuPage { return recallPage(s, i) })
	}
	if !tech {
		ps = append(ps, paged(historyPage, s)...)
	}
	return append(ps, auditTicketPage)
}

// page is one menu page: a pure function of what it reads.
type page func(pageSource) *view.MenuPage

// ledgerView is the ledger as a menu page reads it: reads only, so a page
// cannot change what it shows.
type ledgerView interface {
	Status() ledger.Status
	Meters(s ledger.Scope) (map[ledger.Meter]int64, bool)
	Events(n int) []ledger.Event
	Pending(limit int) ([]ledger.OutboxMessage, error)
	Config(key string) (string, bool)
	DocsIn() []ledger.DocRecord
	DocsOut() []ledger.DocRecord
}

// pageSource is everything a menu page reads.
type pageSource struct {
	led            ledgerView
	market         *market.Profile
	id             string
	site           Site
	software       Software
	softwareFailed bool         // the priority table's condSoftware
	recall         []recallGame // read when the menu opened (loadRecall)
	recallStep     int
	linkUp         bool
	link           *link.Stats // nil: the Central does not measure its link
	tech           techState   // the technician's actions' results
	now            time.Time
	clockSettable  bool
	volume         int // what the speaker plays at now (the market's or the technician's)
}

func (c *Cabinet) pageSource() pageSource {
	var ls *link.Stats
	if m, ok := c.cfg.Central.(linkStats); ok {
		st := m.Stats()
		ls = &st
	}
	_, settable := c.cfg.Clock.(settableClock)
	return pageSource{link: ls, tech: c.tech, now: c.wall(),
		clockSettable: settable, led: c.led, market: c.cfg.Market, id: c.cfg.ID, site: c.cfg.Site, software: c.cfg.Software,
		softwareFailed: c.holds(condSoftware), recall: c.menus.recall, recallStep: c.menus.recallStep,
		linkUp: c.cond.linkUp, volume: c.sound.view(c.test != nil).Volume}
}

func (c *Cabinet) showMenu() {
	src := c.pageSource()
	c.menus.showPages(menuPages(src, c.cond.keys["technician"], len(c.menus.recall)), src)
}

// countMeters are the meters that count events; the others count money
// in minor units and are shown in the market's currency.
var countMeters = map[ledger.Meter]bool{ledger.GamesPlayed: true, ledger.GamesWon: true, ledger.BillsInCount: true,
	ledger.TicketsInCount: true, ledger.TicketsOutCount: true, ledger.DoorOpens: true, ledger.PowerUps: true, ledger.RAMClears: true}

// meterLine is a meter by its translated name, as money or as a count.
func meterLine(k ledger.Meter, v int64) view.MenuLine {
	if countMeters[k] {
		return view.Line("menu.meter", view.Key(meterKey(k)), view.Count(v))
	}
	return view.Line("menu.meter", view.Key(meterKey(k)), view.Money(v))
}

// meterKey is the catalogue key of a meter's name.
func meterKey(k ledger.Meter) string { return "meter." + string(k) }

// metersPage shows the cabinet meters in the ledger's display order, then
// any the ledger keeps that the order does not name.
func metersPage(s pageSource) *view.MenuPage {
	m, suspect := s.led.Meters(ledger.ScopeCabinet)
	p := &view.MenuPage{Title: "menu.meters"}
	seen := map[ledger.Meter]bool{}
	for _, k := range ledger.CabinetMeters {
		if v, ok := m[k]; ok {
			p.Lines = append(p.Lines, meterLine(k, v))
			seen[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, string(k))
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		p.Lines = append(p.Lines, view.Line("menu.meter", view.Text(k), view.Count(m[ledger.Meter(k)])))
	}
	if suspect {
		p.Lines = append(p.Lines, view.Line("menu.meters.suspect"))
	}
	return p
}

func eventsPage(s pageSource) *view.MenuPage {
	p := &view.MenuPage{Title: "menu.events"}
	for _, e := range s.led.Events(20) {
		p.Lines = append(p.Lines, view.Line("menu.event", view.Time(e.Wall), view.Text(e.Kind), view.Text(e.Source), view.Text(e.Text)))
	}
	return p
}

func historyPage(s pageSource) *view.MenuPage {
	p := &view.MenuPage{Title: "menu.money"}
	for _, d := range s.led.DocsIn() {
		p.Lines = append(p.Lines, view.Line("menu.doc_in", view.Time(d.Done), view.Key("doc."+string(d.Kind)), view.Money(d.Amount), view.Key("docres."+string(d.Result))))
	}
	for _, d := range s.led.DocsOut() {
		p.Lines = append(p.Lines, view.Line("menu.doc_out", view.Time(d.Done), view.Key("doc."+string(d.Kind)), view.Money(d.Amount),
			view.Text(d.MaskedNumber()), view.Key("docres."+string(d.Result))))
	}
	return p
}

// linkPage is the central link: the node in use of those configured, its
// state, the last round the cabinet played, the last call's round trip and
// Hello's clock offset as the link measured them, and the messages still
// waiting in the outbox.
func linkPage(s pageSource) *view.MenuPage {
	p := &view.MenuPage{Title: "menu.link"}
	if l := s.link; l != nil {
		p.Lines = append(p.Lines, view.Line("menu.link.endpoint", view.Text(l.Endpoint),
			view.Count(int64(slices.Index(l.Endpoints, l.Endpoint)+1)), view.Count(int64(len(l.Endpoints)))))
	}
	state := "link.down"
	if s.linkUp {
		state = "link.up"
	}
	p.Lines = append(p.Lines, view.Line("menu.link.state", view.Key(state)))
	if len(s.recall) > 0 {
		r := s.recall[0].round
		p.Lines = append(p.Lines, view.Line("menu.link.last_round", view.Text(strconv.FormatUint(r.Number, 10)), view.Time(journalEnd(r))))
	} else {
		p.Lines = append(p.Lines, view.Line("menu.link.last_round_none"))
	}
	switch l := s.link; {
	case l == nil:
		p.Lines = append(p.Lines, view.Line("menu.link.not_reported"))
	default:
		if l.RTTAt.IsZero() {
			p.Lines = append(p.Lines, view.Line("menu.link.rtt_none"))
		} else {
			p.Lines = append(p.Lines, view.Line("menu.link.rtt", view.Duration(l.RTT), view.LinkCall(l.RTTCall), view.Time(l.RTTAt)))
		}
		if l.OffsetAt.IsZero() {
			p.Lines = append(p.Lines, view.Line("menu.link.offset_none"))
		} else {
			p.Lines = append(p.Lines, view.Line("menu.link.offset", view.Duration(l.Offset), view.Time(l.OffsetAt)))
		}
		p.Lines = append(p.Lines, view.Line("menu.link.calls", view.Count(l.Calls), view.Count(l.Failures)))
	}
	if out, err := s.led.Pending(outboxCounted); err != nil {
		p.Lines = append(p.Lines, view.Line("menu.link.outbox_unreadable", view.Text(err.Error())))
	} else {
		p.Lines = append(p.Lines, view.Line("menu.link.outbox", view.Count(int64(len(out)))))
	}
	return p
}

// linkStats is what a Central that measures its link (*link.Client) says
// of it; a Central without it leaves the link page's numbers out.
type linkStats interface{ Stats() link.Stats }

// outboxCounted is as far as the link page counts the outbox.
const outboxCounted = 100_000

// softwarePage is what runs and whether it passed verification at start
// (checks 8 and 9).
func softwarePage(s pageSource) *view.MenuPage {
	p := &view.MenuPage{Title: menuSoftware}
	p.Lines = append(p.Lines, view.Line("menu.software.version", view.Text(orDash(s.software.Version))),
		view.Line("menu.software.id", view.Text(orDash(s.software.ID))))
	switch {
	case s.softwareFailed:
		p.Lines = append(p.Lines, view.Line("menu.software.failed", view.Text(s.software.Error)))
	case s.software.ID == "":
		p.Lines = append(p.Lines, view.Line("menu.software.unchecked"))
	default:
		p.Lines = append(p.Lines, view.Line("menu.software.verified"))
	}
	st := s.led.Status()
	p.Lines = append(p.Lines, view.Line("menu.software.ledger", view.Text(st.LedgerID), view.Text(strconv.FormatUint(st.Seq, 10)), view.Text(short(st.Head))),
		view.Line("menu.software.digest", view.Text(orDash(short(st.Digest)))))
	seeded, hint := seededLines(s)
	p.Lines, p.Hint = append(p.Lines, seeded...), hint
	return p
}

// configPage is how the cabinet is configured: market, ids, limits and the
// speaker's volume (set by the technician, logged: Cabinet.SetVolume).
func configPage(s pageSource) *view.MenuPage {
	m := s.market
	p := &view.MenuPage{Title: menuConfig}
	p.Lines = append(p.Lines,
		view.Line("menu.config.market", view.Text(m.ID), view.Text(m.Name)),
		view.Line("menu.config.language", view.Text(m.Language), view.Text(m.Currency.Code)),
		view.Line("menu.config.terminal", view.Text(s.id)),
		view.Line("menu.config.site", view.Text(s.site.ID), view.Text(s.site.Name)),
		view.Line("menu.config.ticket_out", view.Money(int64(m.Limits.TicketOut))),
		view.Line("menu.config.large_win", view.Money(int64(m.Limits.LargeWin))),
		view.Line("menu.config.credit", view.Money(int64(m.Limits.Credit))),
		view.Line("menu.config.min_round", view.Millis(int64(m.Timers.MinRoundMs))),
		view.Line("menu.config.volume", view.Count(int64(s.volume))))
	if _, set := s.led.Config(volumeKey); set {
		p.Lines = append(p.Lines, view.Line("menu.config.volume_set"))
	} else {
		p.Lines = append(p.Lines, view.Line("menu.config.volume_market"))
	}
	settings, hint := configLines(s)
	p.Lines, p.Hint = append(p.Lines, settings...), hint
	return p
}

// ramClear is the technician's explicit, logged RAM clear: the only way out
// of a RAM error (check 4). Credit and meters start again from zero.
func (c *Cabinet) ramClear() {
	if c.refused("the RAM clear", c.led.RAMClear("technician", "RAM clear at the cabinet"), retriedWrite) {
		return // the technician may press Start again
	}
	c.cond.ramCleared()
	c.menus.close()
	c.play.clear()
	c.cashOut.end()
	c.moneyIn.clear()
	c.menus.transferDecided()
	c.say(view.MsgRAMCleared, 0)
}

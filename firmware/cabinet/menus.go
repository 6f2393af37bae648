package cabinet

import (
	"fmt"
	"sort"

	"github.com/polaris-vlt/polaris/firmware/ledger"
	"github.com/polaris-vlt/polaris/firmware/market"
	"github.com/polaris-vlt/polaris/firmware/view"
)

// key handles the key switches. The attendant key resets a lockup, or
// opens the attendant pages (recall, money history); the technician key
// clears tilts that need a technician and opens the audit pages. Neither
// opens a menu during play or a cash-out unless a fault stopped it
// (check 29).
func (c *Cabinet) key(name string, on bool) {
	c.cond.keys[name] = on
	if c.menus.test != nil {
		// Test mode ends only with the technician key; other keys do
		// nothing meanwhile.
		if name == "technician" && !on {
			c.leaveTest()
			c.menus.menu, c.menus.recall = nil, nil
		}
		return
	}
	if !on && name == "attendant" && c.menus.handpayChoice {
		// The key turned back without Start: paid by hand.
		c.menus.handpayChoice = false
		c.menus.test = nil
		c.menus.menu = nil
		c.resetHandpay()
	}
	if !on && name == "attendant" {
		c.handpayKeyOff()
	}
	if !on {
		if !c.cond.keys["attendant"] && !c.cond.keys["technician"] {
			c.menus.menu, c.menus.recall = nil, nil
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
	case "technician":
		if c.cond.ramError {
			c.menus.menu = &view.MenuPage{Title: "menu.ram_clear", Lines: []string{
				"START: clear the critical memory (logged); credit and meters start again from zero"}}
			return
		}
		cleared := false
		for k, t := range c.cond.tilts {
			if t.manual && k != tiltSoftwareChanged {
				delete(c.cond.tilts, k)
				cleared = true
				c.logEvent("tilt_cleared", "technician", t.reason, 0)
			}
		}
		if cleared {
			c.saveTilts()
		}
		if _, ok := c.cond.tilts[tiltSoftwareChanged]; ok {
			// A changed program is accepted only with Start (check 9).
			c.menus.menu = &view.MenuPage{Title: "menu.software_changed", Lines: []string{c.cond.tilts[tiltSoftwareChanged].reason,
				"START: accept the software now running (logged); turn the key back to leave it locked"}}
			return
		}
	default:
		return
	}
	if c.menus.menu == nil && !c.menuAllowed() {
		c.say(view.MsgMenuRefused, 0)
		c.logEvent("menu_refused", name, "during play or cash-out", 0)
		return
	}
	c.menus.menuPage = 0
	c.menus.recallStep = 0
	c.loadRecall()
	c.showMenu()
}

// menuAllowed: menus open in idle and in error states, never in a round
// or a cash-out that no fault has stopped (check 29).
func (c *Cabinet) menuAllowed() bool {
	return c.play.round == nil && c.cashOut.voucher == nil || c.faulted()
}

// menuPress pages through the menu with Bet− and Bet+; on a recall page
// Start and Stop page through the game's steps. In a RAM error the
// technician confirms the RAM clear with Start; a software change is
// accepted the same way.
func (c *Cabinet) menuPress(b view.Button) {
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
	if c.menus.handpayChoice {
		if b == view.Start {
			c.menus.handpayChoice = false
			c.menus.menu = nil
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
	switch b {
	case view.BetPlus:
		c.menus.menuPage++
		c.menus.recallStep = 0
	case view.BetMinus:
		if c.menus.menuPage > 0 {
			c.menus.menuPage--
		}
		c.menus.recallStep = 0
	case view.Start:
		c.menus.recallStep++
	case view.Stop:
		c.menus.recallStep--
	default:
		return
	}
	c.showMenu()
}

// menuPages lists the open menu's pages: the technician's audit pages and
// the recall, or the attendant's recall (one page per game) and money
// history.
// The list pages are split into pages the screen draws whole (paged,
// check 12), which needs what they read: s.
func menuPages(s pageSource, tech bool, recalled int) []page {
	var ps []page
	if tech {
		for _, p := range []page{auditPage, metersPage, eventsPage, historyPage} {
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
	return ps
}

// page is one menu page: a pure function of what it reads.
type page func(pageSource) *view.MenuPage

// ledgerView is the ledger as a menu page reads it: reads only, so a page
// cannot change what it shows.
type ledgerView interface {
	Status() ledger.Status
	Meters(s ledger.Scope) (map[ledger.Meter]int64, bool)
	Events(n int) []ledger.Event
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
}

func (c *Cabinet) pageSource() pageSource {
	return pageSource{led: c.led, market: c.cfg.Market, id: c.cfg.ID, site: c.cfg.Site, software: c.cfg.Software,
		softwareFailed: c.holds(condSoftware), recall: c.menus.recall, recallStep: c.menus.recallStep}
}

func (c *Cabinet) showMenu() {
	src := c.pageSource()
	ps := menuPages(src, c.cond.keys["technician"], len(c.menus.recall))
	c.menus.menuPage = min(max(c.menus.menuPage, 0), len(ps)-1)
	p := ps[c.menus.menuPage](src)
	p.Page, p.Pages = c.menus.menuPage+1, len(ps)
	c.menus.menu = p
}

func (s pageSource) money(v int64) string { return formatMoney(s.market.Currency, v) }

func (c *Cabinet) money(v int64) string { return formatMoney(c.cfg.Market.Currency, v) }

// formatMoney writes v minor units of cur as the menus and logs show it.
func formatMoney(cur market.Currency, v int64) string {
	if cur.MinorUnits == 0 {
		return fmt.Sprintf("%d %s", v, cur.Code)
	}
	div := int64(1)
	for i := 0; i < cur.MinorUnits; i++ {
		div *= 10
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%0*d %s", sign, v/div, cur.MinorUnits, v%div, cur.Code)
}

func metersPage(s pageSource) *view.MenuPage {
	m, suspect := s.led.Meters(ledger.ScopeCabinet)
	p := &view.MenuPage{Title: "menu.meters"}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, string(k))
	}
	sort.Strings(names)
	for _, k := range names {
		p.Lines = append(p.Lines, fmt.Sprintf("%-28s %14d", k, m[ledger.Meter(k)]))
	}
	if suspect {
		p.Lines = append(p.Lines, "SUSPECT VALUES (RAM error)")
	}
	return p
}

func eventsPage(s pageSource) *view.MenuPage {
	p := &view.MenuPage{Title: "menu.events"}
	for _, e := range s.led.Events(20) {
		p.Lines = append(p.Lines, fmt.Sprintf("%s %-16s %-10s %s", e.Wall.Format("2006-01-02 15:04:05"), e.Kind, e.Source, e.Text))
	}
	return p
}

func historyPage(s pageSource) *view.MenuPage {
	p := &view.MenuPage{Title: "menu.money"}
	for _, d := range s.led.DocsIn() {
		p.Lines = append(p.Lines, fmt.Sprintf("IN  %s %-10s %s %s", d.Done.Format("2006-01-02 15:04"), d.Kind, s.money(d.Amount), d.Result))
	}
	for _, d := range s.led.DocsOut() {
		p.Lines = append(p.Lines, fmt.Sprintf("OUT %s %-10s %s %s %s", d.Done.Format("2006-01-02 15:04"), d.Kind, s.money(d.Amount), d.MaskedNumber(), d.Result))
	}
	return p
}

// ramClear is the technician's explicit, logged RAM clear: the only way out
// of a RAM error (check 4). Credit and meters start again from zero.
func (c *Cabinet) ramClear() {
	if c.refused("the RAM clear", c.led.RAMClear("technician", "RAM clear at the cabinet"), retriedWrite) {
		return // the technician may press Start again
	}
	c.cond.ramError = false
	c.menus.menu = nil
	c.play.round, c.cashOut.voucher, c.moneyIn.escrow = nil, nil, nil
	c.menus.handpayChoice = false
	c.cond.tilts = map[string]tilt{}
	c.cond.lockups = nil
	c.play.win = 0
	c.play.shown, c.play.riskShown = nil, nil
	c.say(view.MsgRAMCleared, 0)
}
